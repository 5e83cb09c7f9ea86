import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import { accountActionRoutes } from '../../src/server/routes/account-actions.ts';
import { appServerRoutes } from '../../src/server/routes/app-server.ts';
import { portalAuthRoutes } from '../../src/server/routes/portal-auth.ts';
import { setBlocked } from '../../src/server/services/users.ts';
import { accountsAppOn, post, refreshCookieOf } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

const saved = { ...process.env };
const PASSWORD = 'correct-horse-battery';
const NEW_PASSWORD = 'a brand new secret';
const PROJECT_ID = 'demo-marketdata';

type Json = Record<string, unknown>;

beforeEach(async () => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
  delete process.env.REDIS_URL;
  // Every test starts with fresh rate-limit budgets: all test requests share one client address.
  await closeSharedRateLimitStore();
});

afterEach(() => {
  process.env = { ...saved };
});

/** Calls an end-user endpoint of the emulator's Identity Toolkit REST API. */
async function toolkit(method: string, body: object): Promise<Json> {
  const url = `http://${inject('authEmulatorHost')}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=any`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${method} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** The newest code of a kind the emulator issued for an address, as its email would carry it. */
async function latestCode(email: string, requestType: string): Promise<string> {
  const res = await fetch(`http://${inject('authEmulatorHost')}/emulator/v1/projects/${PROJECT_ID}/oobCodes`);
  const { oobCodes } = (await res.json()) as {
    oobCodes: { email: string; requestType: string; oobCode: string }[];
  };
  const code = oobCodes.filter((c) => c.email === email && c.requestType === requestType).at(-1);
  if (code === undefined) throw new Error(`no ${requestType} code for ${email}`);
  return code.oobCode;
}

/**
 * A stand-in for the identity provider that refuses every call with one error, for refusals the
 * Auth emulator cannot produce (its codes never expire). Nothing else here is a stand-in.
 */
async function refusingProvider(message: string, status = 400): Promise<Server> {
  const server = createServer((_, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: status, message } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${port}`;
  return server;
}

describe.each(databaseTargets())('the links of the emails on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  const app = accountsAppOn(db, [
    ['/portal', portalAuthRoutes],
    ['/portal', accountActionRoutes],
    ['/app', appServerRoutes],
  ]);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  interface Registered {
    uid: string;
    email: string;
    userid: string;
    idToken: string;
  }

  /** An account as the sign-up leaves it: the identity, and the account here with its API key. */
  async function registered(): Promise<Registered> {
    const email = `action.${randomUUID().slice(0, 8)}@example.com`;
    const signedUp = await toolkit('signUp', { email, password: PASSWORD, returnSecureToken: true });
    const res = await app.request('/portal/user/register-user', post({ email, password: PASSWORD }));
    expect(res.status).toBe(200);
    const { userid } = (await res.json()) as { userid: string };
    return { uid: String(signedUp.localId), email, userid, idToken: String(signedUp.idToken) };
  }

  async function resetCodeFor(email: string): Promise<string> {
    await toolkit('sendOobCode', { requestType: 'PASSWORD_RESET', email });
    return latestCode(email, 'PASSWORD_RESET');
  }

  async function verificationCodeFor(account: Registered): Promise<string> {
    await toolkit('sendOobCode', { requestType: 'VERIFY_EMAIL', idToken: account.idToken });
    return latestCode(account.email, 'VERIFY_EMAIL');
  }

  function signIn(email: string, password: string): Promise<Response> {
    return Promise.resolve(app.request('/app/auth/signin', post({ login: email, password })));
  }

  async function storedVerified(userid: string): Promise<boolean | undefined> {
    const [row] = await db()
      .select({ emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, userid));
    return row?.emailVerified;
  }

  describe('POST /portal/auth/password-reset/check', () => {
    it('names the account a reset link is for, without using the link up', async () => {
      const account = await registered();
      const oobCode = await resetCodeFor(account.email);
      for (let i = 0; i < 2; i += 1) {
        const res = await app.request('/portal/auth/password-reset/check', post({ oobCode }));
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(await res.json()).toEqual({ email: account.email });
      }
    });

    it('refuses a code nobody issued, naming the code as the problem', async () => {
      const res = await app.request('/portal/auth/password-reset/check', post({ oobCode: 'made-up-code' }));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: 'This password reset link is not valid or has already been used.',
        field: 'oobCode',
      });
    });

    it('refuses the code of a verification email: it cannot set a password', async () => {
      const account = await registered();
      const oobCode = await verificationCodeFor(account);
      const res = await app.request('/portal/auth/password-reset/check', post({ oobCode }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ field: 'oobCode' });
    });

    it('says an expired link has expired', async () => {
      const provider = await refusingProvider('EXPIRED_OOB_CODE');
      try {
        const res = await app.request('/portal/auth/password-reset/check', post({ oobCode: 'old-code' }));
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({
          error: 'This password reset link has expired.',
          field: 'oobCode',
        });
      } finally {
        provider.close();
      }
    });

    it('refuses a blocked account as sign-in does', async () => {
      const account = await registered();
      await setBlocked(db(), account.userid, true, null);
      const oobCode = await resetCodeFor(account.email);
      const res = await app.request('/portal/auth/password-reset/check', post({ oobCode }));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        error: 'Your account has been blocked. Please contact support.',
        blockedAccount: true,
      });
    });

    it('answers 503 with Retry-After, not a hang, when the provider cannot be reached', async () => {
      process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
      const res = await app.request('/portal/auth/password-reset/check', post({ oobCode: 'any-code' }));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).not.toBeNull();
      expect(await res.json()).toEqual({
        error: 'We could not reset your password right now. Please try again in a moment.',
      });
    });

    it('refuses an empty code and fields it does not take', async () => {
      const empty = await app.request('/portal/auth/password-reset/check', post({ oobCode: ' ' }));
      expect(empty.status).toBe(400);
      expect(await empty.json()).toMatchObject({
        error:
          'oobCode: This link is incomplete: it has no code. Open the link from the email again, or ask for a new one.',
        field: 'oobCode',
      });
      const extra = await app.request(
        '/portal/auth/password-reset/check',
        post({ oobCode: 'x', email: 'a@b.co' }),
      );
      expect(extra.status).toBe(400);
      expect(await extra.json()).toMatchObject({ error: 'Unknown field: email' });
    });
  });

  describe('POST /portal/auth/password-reset', () => {
    it('sets the new password: it signs in, the old one no longer does', async () => {
      const account = await registered();
      const oobCode = await resetCodeFor(account.email);
      const res = await app.request('/portal/auth/password-reset', post({ oobCode, password: NEW_PASSWORD }));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ reset: true, email: account.email });
      expect((await signIn(account.email, PASSWORD)).status).toBe(401);
      const signedIn = await signIn(account.email, NEW_PASSWORD);
      expect(signedIn.status).toBe(200);
      expect(await signedIn.json()).toMatchObject({ userid: account.userid });
    });

    it('signs the account out everywhere it was signed in with the old password', async () => {
      const account = await registered();
      const before = await signIn(account.email, PASSWORD);
      const refreshToken = refreshCookieOf(before);
      const { accessToken } = (await before.json()) as { accessToken: string };
      const oobCode = await resetCodeFor(account.email);
      const res = await app.request('/portal/auth/password-reset', post({ oobCode, password: NEW_PASSWORD }));
      expect(res.status).toBe(200);
      const refreshed = await app.request('/app/auth/refresh', {
        headers: { Cookie: `refreshToken=${String(refreshToken)}` },
      });
      expect(refreshed.status).toBe(401);
      const checked = await app.request('/portal/auth/access-token', {
        headers: { Authorization: `Bearer ${accessToken}` },
      });
      expect(checked.status).toBe(401);
    });

    it('records the address as verified: following the emailed link proved it', async () => {
      const account = await registered();
      expect(await storedVerified(account.userid)).toBe(false);
      const oobCode = await resetCodeFor(account.email);
      await app.request('/portal/auth/password-reset', post({ oobCode, password: NEW_PASSWORD }));
      expect(await storedVerified(account.userid)).toBe(true);
    });

    it('works once: the same link cannot set a second password', async () => {
      const account = await registered();
      const oobCode = await resetCodeFor(account.email);
      expect(
        (await app.request('/portal/auth/password-reset', post({ oobCode, password: NEW_PASSWORD }))).status,
      ).toBe(200);
      const again = await app.request(
        '/portal/auth/password-reset',
        post({ oobCode, password: 'another one' }),
      );
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({
        error: 'This password reset link is not valid or has already been used.',
        field: 'oobCode',
      });
      expect((await signIn(account.email, NEW_PASSWORD)).status).toBe(200);
    });

    it('refuses a password shorter than six characters and keeps the link usable', async () => {
      const account = await registered();
      const oobCode = await resetCodeFor(account.email);
      const res = await app.request('/portal/auth/password-reset', post({ oobCode, password: '12345' }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'password: Password should be at least 6 characters.',
        field: 'password',
      });
      expect((await signIn(account.email, PASSWORD)).status).toBe(200);
      const check = await app.request('/portal/auth/password-reset/check', post({ oobCode }));
      expect(check.status).toBe(200);
    });

    it('resets the password of an identity whose registration here never finished', async () => {
      const email = `orphan.${randomUUID().slice(0, 8)}@example.com`;
      await toolkit('signUp', { email, password: PASSWORD, returnSecureToken: true });
      const oobCode = await resetCodeFor(email);
      const res = await app.request('/portal/auth/password-reset', post({ oobCode, password: NEW_PASSWORD }));
      expect(res.status).toBe(200);
      // The sign-in completes the account, as it does for any such identity.
      expect((await signIn(email, NEW_PASSWORD)).status).toBe(200);
    });
  });

  describe('POST /portal/auth/verify-email', () => {
    it('confirms the address and activates the account at once, without a session', async () => {
      const account = await registered();
      const oobCode = await verificationCodeFor(account);
      const res = await app.request('/portal/auth/verify-email', post({ oobCode }));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ verified: true, email: account.email });
      expect(await storedVerified(account.userid)).toBe(true);
    });

    it('works once: a used link is refused with its own words', async () => {
      const account = await registered();
      const oobCode = await verificationCodeFor(account);
      expect((await app.request('/portal/auth/verify-email', post({ oobCode }))).status).toBe(200);
      const again = await app.request('/portal/auth/verify-email', post({ oobCode }));
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({
        error: 'This verification link is not valid or has already been used.',
        field: 'oobCode',
      });
    });

    it('refuses a password-reset code and leaves it usable for the reset', async () => {
      const account = await registered();
      const oobCode = await resetCodeFor(account.email);
      const res = await app.request('/portal/auth/verify-email', post({ oobCode }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ field: 'oobCode' });
      expect(await storedVerified(account.userid)).toBe(false);
      expect((await app.request('/portal/auth/password-reset/check', post({ oobCode }))).status).toBe(200);
    });

    it('says an expired link has expired', async () => {
      const provider = await refusingProvider('EXPIRED_OOB_CODE');
      try {
        const res = await app.request('/portal/auth/verify-email', post({ oobCode: 'old-code' }));
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ error: 'This verification link has expired.', field: 'oobCode' });
      } finally {
        provider.close();
      }
    });

    it('answers 503 with Retry-After when the provider cannot be reached', async () => {
      process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
      const res = await app.request('/portal/auth/verify-email', post({ oobCode: 'any-code' }));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).not.toBeNull();
      expect(await res.json()).toEqual({
        error: 'We could not verify your address right now. Please try again in a moment.',
      });
    });
  });

  it('allows thirty link calls per address in ten minutes, then answers 429 with Retry-After', async () => {
    for (let i = 0; i < 30; i += 1) {
      const res = await app.request('/portal/auth/password-reset/check', post({ oobCode: `nothing-${i}` }));
      expect(res.status).toBe(400);
    }
    const refused = await app.request('/portal/auth/verify-email', post({ oobCode: 'nothing' }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
  });
});
