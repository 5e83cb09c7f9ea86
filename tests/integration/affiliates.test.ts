import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { AFFILIATE_TERMS_MESSAGE, REFERRAL_COOKIE } from '../../src/lib/affiliates.ts';
import { signSessionToken } from '../../src/server/auth/sign-in.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import { referrals, users } from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import { affiliateRoutes } from '../../src/server/routes/affiliates.ts';
import { appServerRoutes } from '../../src/server/routes/app-server.ts';
import { portalAuthRoutes } from '../../src/server/routes/portal-auth.ts';
import { createUser } from '../../src/server/services/users.ts';
import { accountsAppOn, bearer, post } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

type Json = Record<string, unknown>;

const saved = { ...process.env };
const PASSWORD = 'correct-horse-battery';

beforeEach(async () => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
  await closeSharedRateLimitStore();
});

afterEach(() => {
  process.env = { ...saved };
});

/** Creates the identity-provider account, as the browser SDK does before register-user. */
async function identity(email: string): Promise<void> {
  const url = `http://${inject('authEmulatorHost')}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`signUp answered ${String(res.status)}: ${await res.text()}`);
}

describe.each(databaseTargets())('the affiliate programme on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  const app = accountsAppOn(db, [
    ['/portal', portalAuthRoutes],
    ['/portal', affiliateRoutes],
    ['/app', appServerRoutes],
  ]);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  interface Member {
    userId: string;
    email: string;
    accessToken: string;
  }

  /** A signed-in account (not yet an affiliate). */
  async function member(email = `affiliate.${randomUUID().slice(0, 8)}@example.com`): Promise<Member> {
    const user = await createUser(db(), { firebaseUid: `uid-${randomUUID()}`, email });
    const session = await startSession(db(), user.id);
    return { userId: user.id, email, accessToken: await signSessionToken(user, session.sessionId) };
  }

  async function join(who: Member): Promise<string> {
    const res = await app.request('/portal/affiliates/join', {
      ...post({ acceptTerms: true }),
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${who.accessToken}` },
    });
    expect(res.status).toBe(201);
    return String(((await res.json()) as Json).referralCode);
  }

  async function status(who: Member): Promise<Json> {
    const res = await app.request('/portal/affiliates/me', bearer(who.accessToken));
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  }

  /** Signs a new account up as the sign-up form does, with the browser's cookies. */
  async function signUp(email: string, cookie?: string): Promise<Response> {
    await identity(email);
    const headers: Record<string, string> = cookie === undefined ? {} : { Cookie: cookie };
    return app.request('/portal/user/register-user', post({ email, password: PASSWORD }, headers));
  }

  async function referralsOf(userId: string): Promise<{ referredUserId: string; code: string }[]> {
    return db()
      .select({ referredUserId: referrals.referredUserId, code: referrals.code })
      .from(referrals)
      .where(eq(referrals.referrerUserId, userId));
  }

  describe('joining', () => {
    it('gives a signed-in account a referral code, kept as its user data and answered again on a second join', async () => {
      const who = await member();
      expect(await status(who)).toEqual({ referralCode: null, referredSignUps: 0 });
      const code = await join(who);
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
      const [row] = await db()
        .select({ referralCode: users.referralCode })
        .from(users)
        .where(eq(users.id, who.userId));
      expect(row?.referralCode).toBe(code);
      const again = await app.request('/portal/affiliates/join', {
        ...post({ acceptTerms: true }),
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${who.accessToken}` },
      });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ referralCode: code, referredSignUps: 0 });
      expect(await status(who)).toEqual({ referralCode: code, referredSignUps: 0 });
    });

    it('refuses to join without the terms accepted, naming the field', async () => {
      const who = await member();
      const res = await app.request('/portal/affiliates/join', {
        ...post({ acceptTerms: false }),
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${who.accessToken}` },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: `acceptTerms: ${AFFILIATE_TERMS_MESSAGE}`,
        field: 'acceptTerms',
      });
      expect((await status(who)).referralCode).toBeNull();
    });

    it('answers signed-out callers with 401', async () => {
      expect((await app.request('/portal/affiliates/me')).status).toBe(401);
      expect((await app.request('/portal/affiliates/join', post({ acceptTerms: true }))).status).toBe(401);
    });
  });

  describe('referred sign-ups', () => {
    it('counts an account created with the remembered code for its affiliate, and forgets the code', async () => {
      const affiliate = await member();
      const code = await join(affiliate);
      const email = `referred.${randomUUID().slice(0, 8)}@example.com`;
      const res = await signUp(email, `${REFERRAL_COOKIE}=${code.toLowerCase()}; other=1`);
      expect(res.status).toBe(200);
      const { userid } = (await res.json()) as { userid: string };
      expect(await referralsOf(affiliate.userId)).toEqual([{ referredUserId: userid, code }]);
      expect(res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${REFERRAL_COOKIE}=;`))).toBe(
        true,
      );
      expect(await status(affiliate)).toEqual({ referralCode: code, referredSignUps: 1 });
    });

    it('counts a sign-up once, however often the account registers or signs in with the code', async () => {
      const affiliate = await member();
      const code = await join(affiliate);
      const email = `twice.${randomUUID().slice(0, 8)}@example.com`;
      expect((await signUp(email, `${REFERRAL_COOKIE}=${code}`)).status).toBe(200);
      const again = await app.request(
        '/portal/user/register-user',
        post({ email, password: PASSWORD }, { Cookie: `${REFERRAL_COOKIE}=${code}` }),
      );
      expect(again.status).toBe(200);
      const signIn = await app.request(
        '/app/auth/signin',
        post({ login: email, password: PASSWORD }, { Cookie: `${REFERRAL_COOKIE}=${code}` }),
      );
      expect(signIn.status).toBe(200);
      expect((await status(affiliate)).referredSignUps).toBe(1);
    });

    it.each([
      ['a code nobody holds', 'ZZZZZZZZ'],
      ['a value without a code’s shape', '<script>'],
      ['an empty cookie', ''],
    ])('ignores %s silently: the sign-up succeeds and nobody is credited', async (_label, value) => {
      const affiliate = await member();
      await join(affiliate);
      const res = await signUp(
        `plain.${randomUUID().slice(0, 8)}@example.com`,
        `${REFERRAL_COOKIE}=${value}`,
      );
      expect(res.status).toBe(200);
      expect((await status(affiliate)).referredSignUps).toBe(0);
    });

    it('does not count an affiliate signing up another address of their own mailbox with their code', async () => {
      const local = `self${randomUUID().slice(0, 6)}`;
      const affiliate = await member(`${local}@example.com`);
      const code = await join(affiliate);
      const res = await signUp(`${local.toUpperCase()}+second@example.com`, `${REFERRAL_COOKIE}=${code}`);
      expect(res.status).toBe(200);
      expect(await referralsOf(affiliate.userId)).toEqual([]);
      expect((await status(affiliate)).referredSignUps).toBe(0);
    });

    it('counts sign-ups that complete at their first sign-in (a lost registration call) too', async () => {
      const affiliate = await member();
      const code = await join(affiliate);
      const email = `late.${randomUUID().slice(0, 8)}@example.com`;
      await identity(email);
      const res = await app.request(
        '/app/auth/signin',
        post({ login: email, password: PASSWORD }, { Cookie: `${REFERRAL_COOKIE}=${code}` }),
      );
      expect(res.status).toBe(200);
      expect((await status(affiliate)).referredSignUps).toBe(1);
    });
  });
});
