import { afterEach, beforeEach, inject } from 'vitest';
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
