import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { sha256Hex } from '../../src/server/auth/crypto.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import { auditLog, deviceCodes } from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import { appServerRoutes } from '../../src/server/routes/app-server.ts';
import { createDevauthRoutes } from '../../src/server/routes/devauth.ts';
import { portalAuthRoutes } from '../../src/server/routes/portal-auth.ts';
import { revealApiKey, revokeApiKey } from '../../src/server/services/api-keys.ts';
import { setBlocked } from '../../src/server/services/users.ts';
import { accountsAppOn, bearer } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

const saved = { ...process.env };
const PASSWORD = 'correct-horse-battery';
const INVALID_CODE = { error: 'This code is not valid or has expired.', field: 'user_code' };
const CODE_PATTERN = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

type Json = Record<string, unknown>;

interface IssuedCodes {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

beforeEach(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
  delete process.env.REDIS_URL;
  // Every test starts with fresh rate-limit budgets: all test requests share one client address.
  await closeSharedRateLimitStore();
});

afterEach(() => {
  process.env = { ...saved };
});

function freshEmail(name = 'dev'): string {
  return `${name}.${randomUUID().slice(0, 8)}@example.com`;
}

/** Creates the identity-provider account, as the browser SDK does before register-user. */
async function firebaseSignUp(email: string): Promise<{ uid: string; idToken: string }> {
  const url = `http://${inject('authEmulatorHost')}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`signUp answered ${String(res.status)}: ${JSON.stringify(json)}`);
  return { uid: String(json.localId), idToken: String(json.idToken) };
}

function post(body: unknown, token?: string): RequestInit {
  return {
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'Content-Type': 'application/json',
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    },
  };
}

async function body(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

describe.each(databaseTargets())('connecting tools on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;
  /** How far the device-code clock runs ahead of the real one. */
  let skewMs = 0;
  const advance = (seconds: number): void => {
    skewMs += seconds * 1000;
  };

  const app = accountsAppOn(db, [
    ['/portal', portalAuthRoutes],
    ['/app', appServerRoutes],
    ['/devauth', createDevauthRoutes({ now: () => new Date(Date.now() + skewMs) })],
  ]);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  beforeEach(() => {
    skewMs = 0;
  });

  /** A registered, signed-in account: identity, register-user (which issues the API key), sign-in. */
  async function signedInUser(): Promise<{ userid: string; email: string; accessToken: string }> {
    const email = freshEmail();
    const { idToken } = await firebaseSignUp(email);
    const registered = await app.request(
      '/portal/user/register-user',
      post({ email, password: PASSWORD, idToken }),
    );
    expect(registered.status).toBe(200);
    const { userid } = await body(registered);
    const signIn = await app.request('/app/auth/signin', post({ login: email, password: PASSWORD }));
    expect(signIn.status).toBe(200);
    return { userid: String(userid), email, accessToken: String((await body(signIn)).accessToken) };
  }

  async function requestCodes(clientName = 'Tickerlake CLI'): Promise<IssuedCodes> {
    const res = await app.request('/devauth/code', post({ client_name: clientName }));
    expect(res.status).toBe(200);
    return (await res.json()) as IssuedCodes;
  }

  function poll(deviceCode: string): Promise<Response> {
    return Promise.resolve(app.request('/devauth/token', post({ device_code: deviceCode })));
  }

  async function expectTokenError(res: Response, error: string): Promise<void> {
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({ error });
  }

  function lookUp(userCode: string, token: string): Promise<Response> {
    return Promise.resolve(
      app.request(`/devauth/device?user_code=${encodeURIComponent(userCode)}`, bearer(token)),
    );
  }

  function answer(decision: 'approve' | 'deny', userCode: string, token: string): Promise<Response> {
    return Promise.resolve(app.request(`/devauth/${decision}`, post({ user_code: userCode }, token)));
  }

  describe('asking for a code', () => {
    it('hands the tool a device code, a readable user code and where to enter it', async () => {
      const res = await app.request('/devauth/code', post({ client_name: '  Sheets add-on  ' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const issued = (await res.json()) as IssuedCodes;
      expect(issued.user_code).toMatch(CODE_PATTERN);
      expect(issued.device_code).toMatch(/^[\w-]{43}$/);
      expect(issued).toMatchObject({
        verification_uri: 'http://localhost/devauth',
        verification_uri_complete: `http://localhost/devauth?code=${issued.user_code}`,
        expires_in: 600,
        interval: 5,
      });
    });

    it('stores only digests of both codes, with the tool, the status and the times', async () => {
      const issued = await requestCodes('Stored Tool');
      const [row] = await db()
        .select()
        .from(deviceCodes)
        .where(eq(deviceCodes.deviceCodeHash, sha256Hex(issued.device_code)));
      expect(row).toMatchObject({ clientName: 'Stored Tool', status: 'pending', userId: null });
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(issued.device_code);
      expect(stored).not.toContain(issued.user_code.replace('-', ''));
      expect(row?.userCodeHash).toMatch(/^[0-9a-f]{64}$/);
      expect((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBe(600_000);
    });

    it.each([
      [{}, 'client_name: Required'],
      [{ client_name: '   ' }, 'client_name: must be the name of the tool asking for access'],
      [{ client_name: 'x'.repeat(65) }, 'client_name: must be at most 64 characters'],
      [{ client_name: 'Evil\u202Egnp.exe' }, 'client_name: must not contain control or invisible characters'],
      [{ client_name: 'CLI', scope: 'all' }, 'Unknown field: scope'],
    ])('refuses %j with a message naming the problem', async (request, message) => {
      const res = await app.request('/devauth/code', post(request));
      expect(res.status).toBe(400);
      expect(await body(res)).toMatchObject({ error: message });
    });

    it('limits how many codes one address may ask for', async () => {
      for (let i = 0; i < 10; i += 1) await requestCodes();
      const refused = await app.request('/devauth/code', post({ client_name: 'Tickerlake CLI' }));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });

  describe('the whole flow', () => {
    it('delivers the API key once the owner approves, exactly once', async () => {
      const user = await signedInUser();
      const issued = await requestCodes('Tickerlake CLI');
      await expectTokenError(await poll(issued.device_code), 'authorization_pending');

      const typed = ` ${issued.user_code.replace('-', '').toLowerCase()} `;
      const shown = await lookUp(typed, user.accessToken);
      expect(shown.status).toBe(200);
      const device = await body(shown);
      expect(device).toEqual({
        client_name: 'Tickerlake CLI',
        created_at: expect.any(String) as unknown,
        expires_at: expect.any(String) as unknown,
      });
      expect(Date.parse(String(device.expires_at)) - Date.parse(String(device.created_at))).toBe(600_000);

      const approved = await answer('approve', issued.user_code.toLowerCase(), user.accessToken);
      expect(approved.status).toBe(200);
      expect(await body(approved)).toEqual({ status: 'approved', client_name: 'Tickerlake CLI' });

      advance(5);
      const delivered = await poll(issued.device_code);
      expect(delivered.status).toBe(200);
      expect(delivered.headers.get('cache-control')).toBe('no-store');
      const key = await revealApiKey(db(), user.userid);
      expect(await body(delivered)).toEqual({ api_key: key?.key, email: user.email, plan: 'free' });

      advance(5);
      await expectTokenError(await poll(issued.device_code), 'expired_token');
      expect(
        await db()
          .select()
          .from(deviceCodes)
          .where(eq(deviceCodes.deviceCodeHash, sha256Hex(issued.device_code))),
      ).toEqual([]);
    });

    it('records each approval in the audit log', async () => {
      const user = await signedInUser();
      const issued = await requestCodes('Audited Tool');
      expect((await answer('approve', issued.user_code, user.accessToken)).status).toBe(200);
      const entries = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorUserId, user.userid), eq(auditLog.action, 'device_authorize')));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        targetUserId: user.userid,
        details: { clientName: 'Audited Tool' },
      });
    });

    it('delivers the key to only one of two simultaneous polls', async () => {
      const user = await signedInUser();
      const issued = await requestCodes();
      expect((await answer('approve', issued.user_code, user.accessToken)).status).toBe(200);
      const statuses = (await Promise.all([poll(issued.device_code), poll(issued.device_code)])).map(
        (res) => res.status,
      );
      expect(statuses.sort()).toEqual([200, 400]);
    });

    it('tells a tool that polls faster than the interval to slow down', async () => {
      const issued = await requestCodes();
      await expectTokenError(await poll(issued.device_code), 'authorization_pending');
      const early = await poll(issued.device_code);
      await expectTokenError(early, 'slow_down');
      advance(2);
      await expectTokenError(await poll(issued.device_code), 'slow_down');
      advance(5);
      await expectTokenError(await poll(issued.device_code), 'authorization_pending');
    });

    it('reports a denial once, and the code is then spent', async () => {
      const user = await signedInUser();
      const issued = await requestCodes();
      const denied = await answer('deny', issued.user_code, user.accessToken);
      expect(denied.status).toBe(200);
      expect(await body(denied)).toEqual({ status: 'denied', client_name: 'Tickerlake CLI' });
      expect(await body(await lookUp(issued.user_code, user.accessToken))).toEqual(INVALID_CODE);
      expect((await answer('approve', issued.user_code, user.accessToken)).status).toBe(404);
      const res = await poll(issued.device_code);
      expect(await body(res)).toEqual({
        error: 'access_denied',
        error_description: 'The account owner denied access.',
      });
      await expectTokenError(await poll(issued.device_code), 'expired_token');
    });

    it('lets codes expire after ten minutes, for the owner and the tool alike', async () => {
      const user = await signedInUser();
      const issued = await requestCodes();
      advance(599);
      expect((await lookUp(issued.user_code, user.accessToken)).status).toBe(200);
      advance(1);
      const late = await lookUp(issued.user_code, user.accessToken);
      expect(late.status).toBe(404);
      expect(await body(late)).toEqual(INVALID_CODE);
      expect((await answer('approve', issued.user_code, user.accessToken)).status).toBe(404);
      await expectTokenError(await poll(issued.device_code), 'expired_token');
    });

    it('lets an approval expire when the tool never comes back for the key', async () => {
      const user = await signedInUser();
      const issued = await requestCodes();
      expect((await answer('approve', issued.user_code, user.accessToken)).status).toBe(200);
      advance(601);
      await expectTokenError(await poll(issued.device_code), 'expired_token');
    });

    it('keeps the key from a tool when the account was blocked after approving', async () => {
      const user = await signedInUser();
      const issued = await requestCodes();
      expect((await answer('approve', issued.user_code, user.accessToken)).status).toBe(200);
      await setBlocked(db(), user.userid, true, null);
      const res = await poll(issued.device_code);
      expect(res.status).toBe(400);
      expect(await body(res)).toEqual({
        error: 'access_denied',
        error_description: 'Your account has been blocked. Please contact support.',
      });
    });

    it('says so when the account has no API key to share', async () => {
      const user = await signedInUser();
      const issued = await requestCodes();
      expect((await answer('approve', issued.user_code, user.accessToken)).status).toBe(200);
      await revokeApiKey(db(), user.userid);
      const res = await poll(issued.device_code);
      expect(await body(res)).toMatchObject({ error: 'access_denied' });
      expect(String((await body(await poll(issued.device_code))).error)).toBe('expired_token');
    });

    it('does not let a second account take over an approved code', async () => {
      const owner = await signedInUser();
      const other = await signedInUser();
      const issued = await requestCodes();
      expect((await answer('approve', issued.user_code, owner.accessToken)).status).toBe(200);
      expect((await answer('approve', issued.user_code, other.accessToken)).status).toBe(404);
      expect((await answer('deny', issued.user_code, other.accessToken)).status).toBe(404);
      const res = await poll(issued.device_code);
      expect(await body(res)).toMatchObject({ email: owner.email });
    });
  });

  describe('the owner side', () => {
    it('needs a signed-in account', async () => {
      const issued = await requestCodes();
      const res = await app.request(`/devauth/device?user_code=${issued.user_code}`);
      expect(res.status).toBe(401);
      const approve = await app.request('/devauth/approve', post({ user_code: issued.user_code }));
      expect(approve.status).toBe(401);
      await expectTokenError(await poll(issued.device_code), 'authorization_pending');
    });

    it('explains what a code looks like when the input cannot be one', async () => {
      const user = await signedInUser();
      for (const typed of ['BCD', 'BCDF-GHJK-L', '']) {
        const res = await lookUp(typed, user.accessToken);
        expect(res.status).toBe(400);
        expect(await body(res)).toEqual({
          error: 'Enter the 8-letter code your tool shows, like BCDF-GHJK.',
          field: 'user_code',
        });
      }
      const missing = await app.request('/devauth/approve', post({}, user.accessToken));
      expect(await body(missing)).toMatchObject({ error: 'user_code: Required' });
    });

    it('answers an unknown code with the invalid-code message', async () => {
      const user = await signedInUser();
      for (const typed of ['BCDF-GHJK', 'AEIO-U123']) {
        const res = await lookUp(typed, user.accessToken);
        expect(res.status).toBe(typed === 'BCDF-GHJK' ? 404 : 400);
      }
      expect(await body(await lookUp('BCDF-GHJK', user.accessToken))).toEqual(INVALID_CODE);
    });

    it('limits how many codes one account may try, without holding back other accounts', async () => {
      const guesser = await signedInUser();
      const other = await signedInUser();
      for (let i = 0; i < 20; i += 1) {
        expect((await lookUp('BCDF-GHJK', guesser.accessToken)).status).toBe(404);
      }
      const issued = await requestCodes();
      const refused = await lookUp(issued.user_code, guesser.accessToken);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await answer('approve', issued.user_code, guesser.accessToken)).status).toBe(429);
      expect((await lookUp(issued.user_code, other.accessToken)).status).toBe(200);
    });
  });

  describe('polling', () => {
    it('treats an unknown device code as expired and names a missing one', async () => {
      await expectTokenError(await poll('not-a-code-we-issued'), 'expired_token');
      const missing = await app.request('/devauth/token', post({}));
      expect(missing.status).toBe(400);
      expect(await body(missing)).toMatchObject({ error: 'device_code: Required' });
    });
  });
});
