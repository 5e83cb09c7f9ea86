import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { auditLog, sessions } from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import { accountSettingsRoutes } from '../../src/server/routes/account-settings.ts';
import { appServerRoutes } from '../../src/server/routes/app-server.ts';
import { portalAuthRoutes } from '../../src/server/routes/portal-auth.ts';
import { portalRoutes } from '../../src/server/routes/portal.ts';
import { setBlocked, setRole } from '../../src/server/services/users.ts';
import { accountsAppOn, bearer, post, refreshCookieOf } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

// Link User (SPEC §7 code-signin): an administrator switches into a user's account for at most 15
// minutes and returns to their own session (code-signout, then the refresh cookie), each step audited.

const saved = { ...process.env };
const PASSWORD = 'correct-horse-battery';
const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

type Json = Record<string, unknown>;

beforeEach(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
  delete process.env.REDIS_URL;
  // All test requests share one client address: every test starts with fresh rate-limit budgets.
  await closeSharedRateLimitStore();
});

afterEach(() => {
  vi.useRealTimers();
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

async function body(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

function withCookie(refreshToken: string): RequestInit {
  return { headers: { Cookie: `refreshToken=${refreshToken}` } };
}

describe.each(databaseTargets())('Link User on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  const app = accountsAppOn(db, [
    ['/portal', portalAuthRoutes],
    ['/portal', portalRoutes],
    ['/portal', accountSettingsRoutes],
    ['/app', appServerRoutes],
  ]);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  interface SignedIn {
    userid: string;
    email: string;
    accessToken: string;
    refreshToken: string;
  }

  /** A registered account (identity at the emulator, then register-user), signed in with its password. */
  async function signedInAccount(role: 'user' | 'analyst' | 'admin' = 'user'): Promise<SignedIn> {
    const email = `${role}.${randomUUID().slice(0, 8)}@example.com`;
    const identity = await toolkit('signUp', { email, password: PASSWORD, returnSecureToken: true });
    const registered = await app.request(
      '/portal/user/register-user',
      post({ email, password: PASSWORD, idToken: String(identity.idToken) }),
    );
    expect(registered.status).toBe(200);
    const { userid } = await body(registered);
    if (role !== 'user') await setRole(db(), String(userid), role, null);
    const res = await app.request('/app/auth/signin', post({ login: email, password: PASSWORD }));
    expect(res.status).toBe(200);
    const refreshToken = refreshCookieOf(res);
    if (refreshToken === undefined) throw new Error('sign-in set no refresh cookie');
    return {
      userid: String(userid),
      email,
      accessToken: String((await body(res)).accessToken),
      refreshToken,
    };
  }

  async function switchInto(userId: string, adminToken: string): Promise<Response> {
    return app.request(
      '/app/auth/code-signin',
      post({ switchingUserId: userId }, { Authorization: `Bearer ${adminToken}` }),
    );
  }

  async function returnFrom(switchedToken: string): Promise<Response> {
    return app.request('/app/auth/code-signout', { method: 'POST', ...bearer(switchedToken) });
  }

  /** Whether the accounts API honours the token as the signed-in user it names. */
  async function honoured(token: string): Promise<boolean> {
    const res = await app.request('/portal/auth/access-token', bearer(token));
    return res.status === 200 && (await body(res)).valid === true;
  }

  async function auditOf(userId: string, action: 'impersonate' | 'impersonate_end'): Promise<Json[]> {
    return db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetUserId, userId), eq(auditLog.action, action)));
  }

  it('lets an admin view a user and return to their own session without signing in, both audited', async () => {
    const admin = await signedInAccount('admin');
    const user = await signedInAccount();

    const switched = await switchInto(user.userid, admin.accessToken);
    expect(switched.status).toBe(200);
    const answer = await body(switched);
    expect(answer).toMatchObject({ userid: user.userid, userRole: 'user' });
    expect(answer.firebaseAccessToken).toMatch(/^eyJ/);
    expect(refreshCookieOf(switched)).toBeUndefined();
    const switchedToken = String(answer.accessToken);
    expect(await honoured(switchedToken)).toBe(true);

    const returned = await returnFrom(switchedToken);
    expect(returned.status).toBe(200);
    expect(await body(returned)).toEqual({ success: true });
    // At once, although the session check just before was cached.
    expect(await honoured(switchedToken)).toBe(false);
    const settings = await app.request('/portal/user/account', bearer(switchedToken));
    expect(settings.status).toBe(403);

    const back = await app.request('/app/auth/refresh', withCookie(admin.refreshToken));
    expect(back.status).toBe(200);
    expect(await body(back)).toMatchObject({ userid: admin.userid, userRole: 'admin' });
    expect(await honoured(admin.accessToken)).toBe(true);

    const [began] = await auditOf(user.userid, 'impersonate');
    expect(began).toMatchObject({ actorUserId: admin.userid, details: { via: 'code-signin' } });
    const ended = await auditOf(user.userid, 'impersonate_end');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({
      actorUserId: admin.userid,
      targetUserId: user.userid,
      details: {
        sessionId: (began?.details as Json).sessionId,
        ranOut: false,
        sessionsEnded: 1,
      },
    });
    const { durationSeconds } = (ended[0]?.details ?? {}) as Json;
    expect(durationSeconds).toBeGreaterThanOrEqual(0);
    expect(durationSeconds).toBeLessThan(60);
  });

  it('answers a second return from the same switch without recording it twice', async () => {
    const admin = await signedInAccount('admin');
    const user = await signedInAccount();
    const { accessToken } = await body(await switchInto(user.userid, admin.accessToken));
    expect((await returnFrom(String(accessToken))).status).toBe(200);
    const again = await returnFrom(String(accessToken));
    expect(again.status).toBe(200);
    expect(await body(again)).toEqual({ success: true });
    expect(await auditOf(user.userid, 'impersonate_end')).toHaveLength(1);
  });

  it('refuses to return from a session that is not a switch, and without a session at all', async () => {
    const admin = await signedInAccount('admin');
    const user = await signedInAccount();
    for (const token of [user.accessToken, admin.accessToken]) {
      const res = await returnFrom(token);
      expect(res.status).toBe(400);
      expect(await body(res)).toEqual({
        error:
          'This session is not an administrator viewing another account, so there is nothing to return from.',
      });
      expect(await honoured(token)).toBe(true);
    }
    const signedOut = await app.request('/app/auth/code-signout', { method: 'POST' });
    expect(signedOut.status).toBe(401);
    expect(await body(signedOut)).toEqual({ error: 'Please sign in to continue.' });
    const { accessToken: publicToken } = await body(await app.request('/app/auth/public-token'));
    expect((await returnFrom(String(publicToken))).status).toBe(401);
    expect((await returnFrom('not-a-token')).status).toBe(401);
    expect(await auditOf(user.userid, 'impersonate_end')).toHaveLength(0);
  });

  it('ends a switch 15 minutes after it began whatever is called meanwhile, and records that it ran out', async () => {
    const admin = await signedInAccount('admin');
    const user = await signedInAccount();
    const began = Date.now();
    const switched = await body(await switchInto(user.userid, admin.accessToken));
    const switchedToken = String(switched.accessToken);
    const { idToken } = await toolkit('signInWithCustomToken', {
      token: switched.firebaseAccessToken,
      returnSecureToken: true,
    });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(began + 10 * 60 * 1000);
    // The identity token exchanged later is still the same switch: a fresh access token, no cookie.
    const later = await app.request(`/portal/auth/validate-user?accessToken=${String(idToken)}`);
    expect(later.status).toBe(200);
    expect(refreshCookieOf(later)).toBeUndefined();
    const laterToken = String((await body(later)).accessToken);
    expect((await app.request('/app/auth/refresh')).status).toBe(401);

    vi.setSystemTime(began + FIFTEEN_MINUTES_MS - 10_000);
    expect(await honoured(switchedToken)).toBe(true);
    expect(await honoured(laterToken)).toBe(true);

    vi.setSystemTime(began + FIFTEEN_MINUTES_MS + 1000);
    expect(await honoured(switchedToken)).toBe(false);
    expect(await honoured(laterToken)).toBe(false);
    const relinked = await app.request(`/portal/auth/validate-user?accessToken=${String(idToken)}`);
    expect(relinked.status).toBe(401);
    // The administrator's own sign-in outlives the switch: their cookie still renews it.
    const back = await app.request('/app/auth/refresh', withCookie(admin.refreshToken));
    expect(await body(back)).toMatchObject({ userid: admin.userid });

    const returned = await returnFrom(laterToken);
    expect(returned.status).toBe(200);
    const [ended] = await auditOf(user.userid, 'impersonate_end');
    expect(ended).toMatchObject({
      actorUserId: admin.userid,
      details: { ranOut: true, sessionsEnded: 2 },
    });
    const rows = await db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.userid), like(sessions.userAgent, 'impersonation by %')));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.revokedAt).not.toBeNull();
      expect(row.expiresAt.getTime()).toBeLessThanOrEqual(began + FIFTEEN_MINUTES_MS + 1000);
    }
  });

  it('refuses to switch into another administrator, and into a blocked account', async () => {
    const admin = await signedInAccount('admin');
    const other = await signedInAccount('admin');
    const res = await switchInto(other.userid, admin.accessToken);
    expect(res.status).toBe(403);
    expect(await body(res)).toEqual({ error: 'Administrators cannot be impersonated.' });
    expect(await auditOf(other.userid, 'impersonate')).toHaveLength(0);

    const blocked = await signedInAccount();
    await setBlocked(db(), blocked.userid, true, null);
    const refused = await switchInto(blocked.userid, admin.accessToken);
    expect(refused.status).toBe(403);
    expect(await body(refused)).toEqual({ error: 'This account is blocked.' });
  });

  it('lets neither an analyst nor an ordinary user switch into an account', async () => {
    const user = await signedInAccount();
    for (const caller of [await signedInAccount('analyst'), await signedInAccount()]) {
      const res = await switchInto(user.userid, caller.accessToken);
      expect(res.status).toBe(403);
      expect(await body(res)).toEqual({ error: 'Only administrators can do this.' });
    }
    expect((await app.request('/app/auth/code-signin', post({ switchingUserId: user.userid }))).status).toBe(
      401,
    );
    expect(await auditOf(user.userid, 'impersonate')).toHaveLength(0);
  });
});
