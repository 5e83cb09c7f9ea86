import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, inject } from 'vitest';
import { signSessionToken } from '../../src/server/auth/sign-in.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import type { Db } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/services/users.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';

/** The test-mode checkout's card form filled with Stripe's always-paying test card. */
export const TEST_CARD = {
  cardNumber: '4242 4242 4242 4242',
  expiry: '12 / 34',
  cvc: '123',
  name: 'Ada Lovelace',
  addressLine1: '1 Analytical Way',
  city: 'London',
  postalCode: 'N1 9GU',
  country: 'GB',
};

/**
 * Gives every test of the calling file the billing tests' environment: the embedded database in
 * memory, no Redis, the webhook secret derived from the server secret, the Auth emulator of the
 * run, and a fresh rate-limit store; the environment is put back after each test.
 */
export function useBillingEnvironment(): void {
  const saved = { ...process.env };
  beforeEach(async () => {
    process.env.DATA_DIR = 'memory://';
    delete process.env.DATABASE_URL;
    delete process.env.REDIS_URL;
    delete process.env.BILLING_WEBHOOK_SECRET;
    process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
    await closeSharedRateLimitStore();
  });
  afterEach(() => {
    process.env = { ...saved };
  });
}

/** A new account signed in with a session, as the billing stories start from it. */
export interface SignedInAccount {
  userId: string;
  email: string;
  token: string;
}

/**
 * Creates an account (on the free plan; an administrator when asked) with a unique address starting
 * with `label`, and signs it in: the bearer token is what the portal calls carry.
 */
export async function signedInAccount(
  db: Db,
  label: string,
  role: 'user' | 'admin' = 'user',
): Promise<SignedInAccount> {
  const user = await createUser(db, {
    firebaseUid: `uid-${randomUUID()}`,
    email: `${label}.${randomUUID().slice(0, 8)}@example.com`,
  });
  if (role === 'admin') await db.update(users).set({ role }).where(eq(users.id, user.id));
  const session = await startSession(db, user.id);
  return { userId: user.id, email: user.email, token: await signSessionToken(user, session.sessionId) };
}
