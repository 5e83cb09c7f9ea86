import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { apiKeys, auditLog, campaigns, sessions, surveys, users } from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import { portalRoutes } from '../../src/server/routes/portal.ts';
import { adminRoutes } from '../../src/server/routes/admin.ts';
import { appServerRoutes } from '../../src/server/routes/app-server.ts';
import { portalAuthRoutes } from '../../src/server/routes/portal-auth.ts';
import { SIGNUP_QUESTIONS } from '../../src/server/services/surveys.ts';
import { setIdentityDisabled } from '../../src/server/auth/identity.ts';
import { findUserByFirebaseUid, findUserById, setBlocked, setRole } from '../../src/server/services/users.ts';
import { REFRESH_REUSE_GRACE_MS } from '../../src/server/auth/sessions.ts';
import { REFRESH_COOKIE_MAX_AGE_SECONDS } from '../../src/server/auth/tokens.ts';
import { accountsAppOn, post, refreshCookieOf } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';
import { logClientError } from '../../src/server/services/client-errors.ts';

const saved = { ...process.env };
const PASSWORD = 'correct-horse-battery';
const BLOCKED = { error: 'Your account has been blocked. Please contact support.', blockedAccount: true };
const INVALID_LOGIN = { error: 'Invalid email/username or password.' };
const EXPIRED = { error: 'Your session has expired. Please sign in again.' };

type Json = Record<string, unknown>;

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

interface FirebaseAccount {
  uid: string;
  email: string;
  idToken: string;
}

function freshEmail(name = 'user'): string {
  return `${name}.${randomUUID().slice(0, 8)}@example.com`;
}

/** Creates the identity-provider account, as the browser SDK does before register-user. */
async function firebaseSignUp(email = freshEmail()): Promise<FirebaseAccount> {
  const json = await toolkit('signUp', { email, password: PASSWORD, returnSecureToken: true });
  return { uid: String(json.localId), email, idToken: String(json.idToken) };
}

/** A Google sign-in through the emulator, which takes a fake Google ID token given as JSON. */
async function googleSignIn(email = freshEmail('google')): Promise<FirebaseAccount> {
  const claims = JSON.stringify({ sub: randomUUID(), email, email_verified: true });
  const json = await toolkit('signInWithIdp', {
    postBody: `id_token=${encodeURIComponent(claims)}&providerId=google.com`,
    requestUri: 'http://localhost',
    returnSecureToken: true,
  });
  return { uid: String(json.localId), email, idToken: String(json.idToken) };
}

function answers(): Record<string, string> {
  return Object.fromEntries(SIGNUP_QUESTIONS.map(({ question, options }) => [question, options[0]]));
}

function bearer(token: string, extra: Record<string, string> = {}): RequestInit {
  return { headers: { Authorization: `Bearer ${token}`, ...extra } };
}

function cookie(refreshToken: string): RequestInit {
  return { headers: { Cookie: `refreshToken=${refreshToken}` } };
}

async function body(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

describe.each(databaseTargets())('sign-in flows on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  const app = accountsAppOn(db, [
    ['/portal', portalAuthRoutes],
    ['/portal', portalRoutes],
    ['/app', appServerRoutes],
    ['/admin', adminRoutes],
  ]);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  /** A registered account: identity-provider account plus register-user. */
  async function registered(
    email = freshEmail(),
  ): Promise<FirebaseAccount & { userid: string; username: string }> {
    const account = await firebaseSignUp(email);
    const res = await app.request(
      '/portal/user/register-user',
      post({ email, password: PASSWORD, idToken: account.idToken }),
    );
    expect(res.status).toBe(200);
    const json = await body(res);
    return { ...account, userid: String(json.userid), username: String(json.username) };
  }

  async function signIn(login: string, password = PASSWORD): Promise<Response> {
    return app.request('/app/auth/signin', post({ login, password }));
  }

  /** Signs in and answers the access token and the refresh cookie. */
  async function session(login: string): Promise<{ accessToken: string; refreshToken: string; json: Json }> {
    const res = await signIn(login);
    expect(res.status).toBe(200);
    const json = await body(res);
    const refreshToken = refreshCookieOf(res);
    if (refreshToken === undefined) throw new Error('sign-in set no refresh cookie');
    return { accessToken: String(json.accessToken), refreshToken, json };
  }

  async function admin(): Promise<{ userid: string; accessToken: string }> {
    const account = await registered(freshEmail('admin'));
    await setRole(db(), account.userid, 'admin', null);
    return { userid: account.userid, accessToken: (await session(account.email)).accessToken };
  }

  const count = async (
    table: typeof users | typeof campaigns | typeof surveys,
    email: string,
  ): Promise<number> => {
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(sql`lower(${table.email}) = lower(${email})`);
    return row?.n ?? 0;
  };

  const activeKeys = async (userId: string): Promise<number> =>
    (
      await db()
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    ).length;

  describe('register-user', () => {
    it('creates the account with its API key, survey and campaign', async () => {
      const email = freshEmail('New.Person');
      const account = await firebaseSignUp(email);
      const res = await app.request(
        '/portal/user/register-user',
        post({
          email,
          password: PASSWORD,
          idToken: account.idToken,
          survey: answers(),
          campaign: { utm_source: 'newsletter', utm_medium: 'email' },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const json = await body(res);
      const user = await findUserByFirebaseUid(db(), account.uid);
      expect(json).toEqual({ success: true, userid: user?.id, username: user?.username });
      expect(user).toMatchObject({ email: email.toLowerCase(), emailVerified: false });
      expect(user?.username).toMatch(/^new\.person/);
      expect(await activeKeys(String(user?.id))).toBe(1);
      const [survey] = await db().select().from(surveys).where(eq(surveys.email, email.toLowerCase()));
      expect(survey).toMatchObject({ type: 'signup', answers: answers() });
      const [campaign] = await db().select().from(campaigns).where(eq(campaigns.email, email.toLowerCase()));
      expect(campaign).toMatchObject({ utmSource: 'newsletter', utmMedium: 'email', utmCampaign: '' });
    });

    it('answers the same account when repeated, without duplicating anything', async () => {
      const email = freshEmail();
      const account = await firebaseSignUp(email);
      const request = post({
        email,
        idToken: account.idToken,
        survey: answers(),
        campaign: { utm_source: 'ads' },
      });
      const first = await body(await app.request('/portal/user/register-user', request));
      const again = await app.request('/portal/user/register-user', request);
      expect(again.status).toBe(200);
      expect(await body(again)).toEqual(first);
      expect(await count(users, email)).toBe(1);
      expect(await count(surveys, email)).toBe(1);
      expect(await count(campaigns, email)).toBe(1);
      expect(await activeKeys(String(first.userid))).toBe(1);
    });

    it('accepts the email and password as proof when no ID token is sent', async () => {
      const account = await firebaseSignUp();
      const res = await app.request(
        '/portal/user/register-user',
        post({ email: account.email, password: PASSWORD }),
      );
      expect(res.status).toBe(200);
      expect((await findUserByFirebaseUid(db(), account.uid))?.email).toBe(account.email);
      const wrong = await firebaseSignUp();
      const refused = await app.request(
        '/portal/user/register-user',
        post({ email: wrong.email, password: 'not-the-password' }),
      );
      expect(refused.status).toBe(401);
      expect(await findUserByFirebaseUid(db(), wrong.uid)).toBeNull();
    });

    it('counts password proofs against the same guessing budget as sign-in', async () => {
      const account = await firebaseSignUp();
      const guess = async (): Promise<Response> =>
        app.request('/portal/user/register-user', post({ email: account.email, password: 'wrong-guess' }));
      for (let i = 0; i < 10; i += 1) expect((await guess()).status).toBe(401);
      expect((await guess()).status).toBe(429);
      expect((await signIn(account.email, 'wrong-guess')).status).toBe(429);
    });

    it('refuses with 403 an ID token of another address and creates nothing', async () => {
      const account = await firebaseSignUp();
      const other = freshEmail('other');
      const res = await app.request(
        '/portal/user/register-user',
        post({ email: other, idToken: account.idToken }),
      );
      expect(res.status).toBe(403);
      expect(await body(res)).toMatchObject({ error: 'This sign-up does not match the signed-in account.' });
      expect(await findUserByFirebaseUid(db(), account.uid)).toBeNull();
      expect(await count(users, other)).toBe(0);
    });

    it('refuses unknown fields, bad answers and a missing agreement with 400', async () => {
      const account = await firebaseSignUp();
      const base = { email: account.email, idToken: account.idToken };
      const unknown = await app.request('/portal/user/register-user', post({ ...base, isAdmin: true }));
      expect(unknown.status).toBe(400);
      expect(await body(unknown)).toMatchObject({ error: 'Unknown field: isAdmin' });
      const badSurvey = { ...answers(), 'Role in organization': 'Astronaut' };
      expect(
        (await app.request('/portal/user/register-user', post({ ...base, survey: badSurvey }))).status,
      ).toBe(400);
      const disagreed = await app.request('/portal/user/register-user', post({ ...base, agreement: false }));
      expect(disagreed.status).toBe(400);
      expect(await body(disagreed)).toMatchObject({
        error: 'Please agree to the terms and conditions & privacy policy before proceeding.',
      });
      expect(await findUserByFirebaseUid(db(), account.uid)).toBeNull();
    });

    it('yields one account when twenty registrations of one address race', async () => {
      const account = await firebaseSignUp();
      const request = async (): Promise<Response> =>
        app.request(
          '/portal/user/register-user',
          post({ email: account.email, idToken: account.idToken, campaign: { utm_source: 'race' } }),
        );
      const answers20 = await Promise.all(Array.from({ length: 20 }, request));
      expect(answers20.map((res) => res.status)).toEqual(Array<number>(20).fill(200));
      const ids = new Set(await Promise.all(answers20.map(async (res) => (await body(res)).userid)));
      expect(ids.size).toBe(1);
      expect(await count(users, account.email)).toBe(1);
      expect(await count(campaigns, account.email)).toBe(1);
      expect(await activeKeys(String([...ids][0]))).toBe(1);
    });
  });

  describe('app-server sign-in', () => {
    it('signs in by email with tokens, user data and a long-lived HttpOnly refresh cookie', async () => {
      const account = await registered();
      const res = await signIn(account.email.toUpperCase());
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const json = await body(res);
      expect(json).toMatchObject({
        userid: account.userid,
        username: account.username,
        email: account.email,
      });
      expect(json.accessToken).toMatch(/^eyJ/);
      expect(json.apiKey).toMatch(/^tlk_[A-Za-z0-9]{38}$/);
      expect(json).not.toHaveProperty('refreshToken');
      const setCookie = res.headers.getSetCookie().join('\n');
      expect(setCookie).toContain(`Max-Age=${REFRESH_COOKIE_MAX_AGE_SECONDS}`);
      expect(setCookie).toContain('HttpOnly');
      // The identity SDK accepts the custom token for the same account.
      const firebase = await toolkit('signInWithCustomToken', {
        token: json.firebaseAccessToken,
        returnSecureToken: true,
      });
      expect(decodeJwt(String(firebase.idToken)).user_id).toBe(account.uid);
    });

    it('completes at sign-in a provider account whose registration call never arrived', async () => {
      const account = await firebaseSignUp();
      const res = await signIn(account.email);
      expect(res.status).toBe(200);
      const user = await findUserByFirebaseUid(db(), account.uid);
      expect((await body(res)).userid).toBe(user?.id);
      expect(await activeKeys(String(user?.id))).toBe(1);
    });

    it('signs in by username too', async () => {
      const account = await registered();
      const res = await signIn(account.username);
      expect(res.status).toBe(200);
      expect((await body(res)).userid).toBe(account.userid);
    });

    it('gives a wrong password, an unknown address and an unknown username the same 401', async () => {
      const account = await registered();
      const wrong = await signIn(account.email, 'wrong-password');
      const unknownEmail = await signIn(freshEmail('nobody'));
      const unknownName = await signIn(`nobody${randomUUID().slice(0, 6)}`);
      for (const res of [wrong, unknownEmail, unknownName]) {
        expect(res.status).toBe(401);
        expect(await body(res)).toEqual(INVALID_LOGIN);
        expect(refreshCookieOf(res)).toBeUndefined();
      }
    });

    it('limits password guesses at one account from one address', async () => {
      const account = await registered();
      for (let i = 0; i < 10; i += 1)
        expect((await signIn(account.email, 'wrong-password')).status).toBe(401);
      const limited = await signIn(account.email, 'wrong-password');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('refuses a blocked account with blockedAccount and ends its sessions at once', async () => {
      const account = await registered();
      const { accessToken, refreshToken } = await session(account.email);
      const { accessToken: adminToken } = await admin();
      const block = await app.request(
        `/admin/users/${account.userid}/block`,
        post({ reason: 'Card testing from this account' }, { Authorization: `Bearer ${adminToken}` }),
      );
      expect(block.status).toBe(200);
      const refused = await signIn(account.email);
      expect(refused.status).toBe(403);
      expect(await body(refused)).toEqual(BLOCKED);
      expect((await app.request('/app/auth/refresh', cookie(refreshToken))).status).toBe(401);
      expect((await app.request('/portal/auth/access-token', bearer(accessToken))).status).toBe(401);
      const [entry] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetUserId, account.userid), eq(auditLog.action, 'block')));
      expect(entry).toBeDefined();

      const unblock = await app.request(
        `/admin/users/${account.userid}/unblock`,
        post({ reason: 'Card testing from this account' }, { Authorization: `Bearer ${adminToken}` }),
      );
      expect(unblock.status).toBe(200);
      expect((await signIn(account.email)).status).toBe(200);
    });

    it('refuses an account blocked only here although the provider accepts the password', async () => {
      const account = await registered();
      await setBlocked(db(), account.userid, true, null);
      const res = await signIn(account.username);
      expect(res.status).toBe(403);
      expect(await body(res)).toEqual(BLOCKED);
    });

    it('answers 503 when the identity provider cannot be reached', async () => {
      const account = await registered();
      process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
      const res = await signIn(account.email);
      expect(res.status).toBe(503);
      expect(await body(res)).toEqual({ error: 'Sign in failed. Please try again later.' });
    });

    it('refuses a body with unknown fields', async () => {
      const res = await app.request(
        '/app/auth/signin',
        post({ login: 'someone', password: 'x', remember: true }),
      );
      expect(res.status).toBe(400);
    });
  });

  describe('refresh', () => {
    it('rotates the cookie and answers a new access token with user data', async () => {
      const account = await registered();
      const { refreshToken } = await session(account.email);
      const res = await app.request('/app/auth/refresh', cookie(refreshToken));
      expect(res.status).toBe(200);
      const json = await body(res);
      expect(json.userid).toBe(account.userid);
      expect(json.accessToken).toMatch(/^eyJ/);
      expect(json).not.toHaveProperty('refreshToken');
      const next = refreshCookieOf(res);
      expect(next).toBeDefined();
      expect(next).not.toBe(refreshToken);
      const again = await app.request('/app/auth/refresh', cookie(String(next)));
      expect(again.status).toBe(200);
    });

    it('answers the new refresh token in the body for the portal call, from the query or the header', async () => {
      const account = await registered();
      const { refreshToken } = await session(account.email);
      const res = await app.request(`/portal/auth/refresh-token?refreshToken=${refreshToken}`, {
        headers: { 'X-App': 'apps' },
      });
      expect(res.status).toBe(200);
      const json = await body(res);
      expect(json.userid).toBe(account.userid);
      expect(json.accessToken).toMatch(/^eyJ/);
      expect(json.refreshToken).toBe(refreshCookieOf(res));
      const viaHeader = await app.request('/portal/auth/refresh-token', {
        headers: { 'X-Refresh-Token': String(json.refreshToken) },
      });
      expect(viaHeader.status).toBe(200);
    });

    it('ends the family when a rotated token comes back after the grace, so the newer token dies too', async () => {
      const account = await registered();
      const { refreshToken: first } = await session(account.email);
      const rotated = await app.request('/app/auth/refresh', cookie(first));
      const second = String(refreshCookieOf(rotated));
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + REFRESH_REUSE_GRACE_MS + 1000);
        const replay = await app.request('/app/auth/refresh', cookie(first));
        expect(replay.status).toBe(401);
        expect(await body(replay)).toEqual(EXPIRED);
        expect(replay.headers.getSetCookie().join()).toContain('refreshToken=;');
        expect((await app.request('/app/auth/refresh', cookie(second))).status).toBe(401);
      } finally {
        vi.useRealTimers();
      }
    });

    it('ends the sign-in of an account disabled at the identity provider, as for a blocked account', async () => {
      const account = await registered();
      const { refreshToken } = await session(account.email);
      // An operator disables the identity in the provider's own console, not through this site.
      expect(await setIdentityDisabled(account.uid, true)).toEqual({ ok: true });
      const res = await app.request('/app/auth/refresh', cookie(refreshToken));
      expect(res.status).toBe(403);
      expect(await body(res)).toEqual({
        error: 'Your account has been blocked. Please contact support.',
        blockedAccount: true,
      });
      expect((await findUserById(db(), account.userid))?.blocked).toBe(true);
    });

    it('keeps a user signed in when two tabs refresh with the same cookie at once', async () => {
      const account = await registered();
      const { refreshToken } = await session(account.email);
      const [one, two] = await Promise.all([
        app.request('/app/auth/refresh', cookie(refreshToken)),
        app.request('/app/auth/refresh', cookie(refreshToken)),
      ]);
      expect([one.status, two.status]).toEqual([200, 200]);
      const next = String(refreshCookieOf(one));
      expect(refreshCookieOf(two)).toBe(next);
      expect((await app.request('/app/auth/refresh', cookie(next))).status).toBe(200);
    });

    it('answers 401 without a cookie', async () => {
      expect((await app.request('/app/auth/refresh')).status).toBe(401);
      expect((await app.request('/portal/auth/refresh-token')).status).toBe(401);
    });
  });

  describe('access-token check', () => {
    it('confirms a live session with user data and refuses anything else with 401', async () => {
      const account = await registered();
      const { accessToken } = await session(account.email);
      const ok = await app.request('/portal/auth/access-token', bearer(accessToken));
      expect(ok.status).toBe(200);
      expect(await body(ok)).toMatchObject({ valid: true, userid: account.userid });
      expect((await app.request('/portal/auth/access-token')).status).toBe(401);
      expect((await app.request('/portal/auth/access-token', bearer('garbage'))).status).toBe(401);
    });
  });

  describe('logout', () => {
    it('ends the session of the bearer and the cookie and clears the cookie', async () => {
      const account = await registered();
      const { accessToken, refreshToken } = await session(account.email);
      const res = await app.request('/app/auth/logout', {
        headers: { Authorization: `Bearer ${accessToken}`, Cookie: `refreshToken=${refreshToken}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().join()).toContain('Max-Age=0');
      expect((await app.request('/app/auth/refresh', cookie(refreshToken))).status).toBe(401);
      expect((await app.request('/portal/auth/access-token', bearer(accessToken))).status).toBe(401);
    });

    it('ends the session of the refresh cookie on the portal call, and always answers 200', async () => {
      const account = await registered();
      const { refreshToken } = await session(account.email);
      expect((await app.request('/portal/auth/log-out', cookie(refreshToken))).status).toBe(200);
      expect((await app.request('/app/auth/refresh', cookie(refreshToken))).status).toBe(401);
      expect((await app.request('/portal/auth/log-out')).status).toBe(200);
      expect((await app.request('/app/auth/logout', bearer('garbage'))).status).toBe(200);
    });

    it('refuses a logout that another site triggers with the cookie, and keeps the session', async () => {
      const account = await registered();
      const { refreshToken } = await session(account.email);
      const withCookie = (headers: Record<string, string>): RequestInit => ({
        headers: { Cookie: `refreshToken=${refreshToken}`, ...headers },
      });
      const foreignOrigin = await app.request(
        '/portal/auth/log-out',
        withCookie({ Origin: 'https://evil.example' }),
      );
      expect(foreignOrigin.status).toBe(403);
      expect(await body(foreignOrigin)).toEqual({ error: 'Cross-site request refused.' });
      const linkOnAnotherSite = await app.request(
        '/app/auth/logout',
        withCookie({ 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' }),
      );
      expect(linkOnAnotherSite.status).toBe(403);
      expect(
        (await app.request('/app/auth/logout', withCookie({ Referer: 'https://evil.example/page' }))).status,
      ).toBe(403);
      expect((await app.request('/app/auth/refresh', cookie(refreshToken))).status).toBe(200);
    });

    it('still logs out from the site itself with a GET', async () => {
      const account = await registered();
      const { refreshToken } = await session(account.email);
      const res = await app.request('/portal/auth/log-out', {
        headers: {
          Cookie: `refreshToken=${refreshToken}`,
          Origin: 'http://localhost:4321',
          'Sec-Fetch-Site': 'same-origin',
        },
      });
      expect(res.status).toBe(200);
      expect((await app.request('/app/auth/refresh', cookie(refreshToken))).status).toBe(401);
    });
  });

  describe('the questionnaire of a sign-up without a session yet', () => {
    it("accepts and reports answers proven by the address's own ID token, and no one else's", async () => {
      const google = await googleSignIn();
      const own = await app.request(
        '/portal/account/submit-survey',
        post(
          { email: google.email, type: 'signup', ...answers() },
          { Authorization: `Bearer ${google.idToken}` },
        ),
      );
      expect(own.status).toBe(201);
      const found = await app.request(
        `/portal/account/get-survey?email=${encodeURIComponent(google.email)}&type=signup`,
        bearer(google.idToken),
      );
      expect(await body(found)).toEqual({ email: google.email, type: 'signup' });
      const other = await app.request(
        '/portal/account/submit-survey',
        post(
          { email: freshEmail('other'), type: 'signup', ...answers() },
          { Authorization: `Bearer ${google.idToken}` },
        ),
      );
      expect(other.status).toBe(403);
    });
  });

  describe('validate-user', () => {
    it('provisions a social sign-in once and signs it in both times', async () => {
      const google = await googleSignIn();
      const first = await app.request(`/portal/auth/validate-user?accessToken=${google.idToken}`);
      expect(first.status).toBe(200);
      const json = await body(first);
      expect(json).toMatchObject({
        isNewUser: true,
        email: google.email,
        refreshToken: refreshCookieOf(first),
      });
      expect(json.accessToken).toMatch(/^eyJ/);
      expect(json.apiKey).toMatch(/^tlk_[A-Za-z0-9]{38}$/);
      const user = await findUserByFirebaseUid(db(), google.uid);
      expect(user?.emailVerified).toBe(true);

      const second = await app.request('/portal/auth/validate-user', bearer(google.idToken));
      expect(second.status).toBe(200);
      expect(await body(second)).toMatchObject({ isNewUser: false, userid: user?.id });
      expect(await count(users, google.email)).toBe(1);
      expect(await activeKeys(String(user?.id))).toBe(1);
    });

    it('provisions exactly once when sign-ins of one identity race', async () => {
      const google = await googleSignIn();
      const results = await Promise.all(
        Array.from({ length: 10 }, async () =>
          app.request(`/portal/auth/validate-user?accessToken=${google.idToken}`),
        ),
      );
      expect(results.map((res) => res.status)).toEqual(Array<number>(10).fill(200));
      const bodies = await Promise.all(results.map(body));
      expect(bodies.filter((b) => b.isNewUser === true)).toHaveLength(1);
      expect(new Set(bodies.map((b) => b.userid)).size).toBe(1);
      expect(await count(users, google.email)).toBe(1);
      expect(await activeKeys(String(bodies[0]?.userid))).toBe(1);
    });

    it('refuses a garbage token with 401 and a blocked account with blockedAccount', async () => {
      expect((await app.request('/portal/auth/validate-user?accessToken=garbage')).status).toBe(401);
      const google = await googleSignIn();
      const first = await body(await app.request(`/portal/auth/validate-user?accessToken=${google.idToken}`));
      await setBlocked(db(), String(first.userid), true, null);
      const res = await app.request(`/portal/auth/validate-user?accessToken=${google.idToken}`);
      expect(res.status).toBe(403);
      expect(await body(res)).toEqual(BLOCKED);
    });
  });

  describe('code-signin', () => {
    it('lets an admin act as a user for one short session, recorded in the audit log', async () => {
      const { userid: adminId, accessToken: adminToken } = await admin();
      const account = await registered();
      const res = await app.request(
        '/app/auth/code-signin',
        post({ switchingUserId: account.userid }, { Authorization: `Bearer ${adminToken}` }),
      );
      expect(res.status).toBe(200);
      const json = await body(res);
      expect(json.userid).toBe(account.userid);
      expect(json.firebaseAccessToken).toMatch(/^eyJ/);
      expect(refreshCookieOf(res)).toBeUndefined();
      const check = await app.request('/portal/auth/access-token', bearer(String(json.accessToken)));
      expect(await body(check)).toMatchObject({ valid: true, userid: account.userid });
      const [row] = await db()
        .select()
        .from(sessions)
        .where(eq(sessions.userAgent, `impersonation by ${adminId}`));
      expect(row?.userId).toBe(account.userid);
      expect((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBeLessThanOrEqual(
        15 * 60 * 1000,
      );
      const audit = await app.request('/admin/audit?limit=50', bearer(adminToken));
      const { entries } = (await audit.json()) as { entries: Json[] };
      expect(entries).toContainEqual(
        expect.objectContaining({
          action: 'impersonate',
          actorUserId: adminId,
          targetUserId: account.userid,
        }),
      );
    });

    it('keeps a switched account switched, short and audited when its token reaches validate-user', async () => {
      const { userid: adminId, accessToken: adminToken } = await admin();
      const account = await registered();
      const switched = await app.request(
        '/app/auth/code-signin',
        post({ switchingUserId: account.userid }, { Authorization: `Bearer ${adminToken}` }),
      );
      const { firebaseAccessToken } = await body(switched);
      const exchanged = await toolkit('signInWithCustomToken', {
        token: firebaseAccessToken,
        returnSecureToken: true,
      });
      const idToken = String(exchanged.idToken);

      const res = await app.request(`/portal/auth/validate-user?accessToken=${idToken}`);
      expect(res.status).toBe(200);
      const json = await body(res);
      expect(json).toMatchObject({ userid: account.userid, impersonated: true });
      expect(json.refreshToken).toBeUndefined();
      expect(refreshCookieOf(res)).toBeUndefined();
      const rows = await db()
        .select()
        .from(sessions)
        .where(eq(sessions.userAgent, `impersonation by ${adminId}`));
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(15 * 60 * 1000);
      }
      const audit = await app.request('/admin/audit?limit=50', bearer(adminToken));
      const { entries } = (await audit.json()) as { entries: Json[] };
      expect(
        entries.filter((entry) => entry.action === 'impersonate' && entry.targetUserId === account.userid),
      ).toHaveLength(2);

      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 16 * 60 * 1000);
        const late = await app.request(`/portal/auth/validate-user?accessToken=${idToken}`);
        expect(late.status).toBe(401);
        expect(refreshCookieOf(late)).toBeUndefined();
      } finally {
        vi.useRealTimers();
      }
    });

    it('refuses non-admins with 403 and signed-out callers with 401', async () => {
      const account = await registered();
      const other = await registered();
      const { accessToken } = await session(account.email);
      const res = await app.request(
        '/app/auth/code-signin',
        post({ switchingUserId: other.userid }, { Authorization: `Bearer ${accessToken}` }),
      );
      expect(res.status).toBe(403);
      expect(
        (await app.request('/app/auth/code-signin', post({ switchingUserId: other.userid }))).status,
      ).toBe(401);
    });

    it('refuses to act as another admin', async () => {
      const { accessToken } = await admin();
      const { userid: otherAdmin } = await admin();
      const res = await app.request(
        '/app/auth/code-signin',
        post({ switchingUserId: otherAdmin }, { Authorization: `Bearer ${accessToken}` }),
      );
      expect(res.status).toBe(403);
      expect(await body(res)).toEqual({ error: 'Administrators cannot be impersonated.' });
    });
  });

  describe('public token and admin views', () => {
    it('hands signed-out visitors a public token that opens no user route', async () => {
      const res = await app.request('/app/auth/public-token');
      expect(res.status).toBe(200);
      const { accessToken } = await body(res);
      const check = await app.request('/portal/auth/access-token', bearer(String(accessToken)));
      expect(check.status).toBe(401);
      expect((await app.request('/admin/audit', bearer(String(accessToken)))).status).toBe(401);
    });

    it("shows an admin a user's data without the API key, and no one else", async () => {
      const { accessToken: adminToken } = await admin();
      const account = await registered();
      const res = await app.request(`/admin/users/${account.userid}`, bearer(adminToken));
      expect(res.status).toBe(200);
      const json = await body(res);
      expect(json).toMatchObject({ user: { id: account.userid, email: account.email, blocked: false } });
      expect(json).not.toHaveProperty('apiKey');
      const [key] = await db().select().from(apiKeys).where(eq(apiKeys.userId, account.userid));
      // The console names keys by their last four characters; the key itself never leaves.
      expect(JSON.stringify(json)).toContain(`"last4":"${key?.last4 ?? 'none'}"`);
      expect(JSON.stringify(json)).not.toContain(key?.keyCiphertext ?? 'none');
      const { accessToken } = await session(account.email);
      expect((await app.request(`/admin/users/${account.userid}`, bearer(accessToken))).status).toBe(403);
      expect((await app.request(`/admin/users/${randomUUID()}`, bearer(adminToken))).status).toBe(404);
    });
  });

  describe('client error log for admins', () => {
    it('lists browser error reports newest first to admins only', async () => {
      const { accessToken: adminToken } = await admin();
      await logClientError(db(), { type: 'OlderError', stackTrace: 'at a (a.js:1:1)' });
      await logClientError(db(), { type: 'NewerError', stackTrace: 'at b (b.js:2:2)' });
      const res = await app.request('/admin/client-errors?limit=2', bearer(adminToken));
      expect(res.status).toBe(200);
      const json = (await res.json()) as { entries: { type: string }[]; nextBefore: string | null };
      expect(json.entries.map((e) => e.type)).toEqual(['NewerError', 'OlderError']);
      const account = await registered();
      const { accessToken } = await session(account.email);
      expect((await app.request('/admin/client-errors', bearer(accessToken))).status).toBe(403);
      expect((await app.request('/admin/client-errors?before=nope', bearer(adminToken))).status).toBe(400);
    });
  });

  describe('cloud-login', () => {
    it('answers user data for the right password and the sign-in error otherwise', async () => {
      const account = await registered();
      const ok = await app.request(
        '/portal/auth/cloud-login',
        post({ email: account.email, password: PASSWORD }),
      );
      expect(ok.status).toBe(200);
      const json = await body(ok);
      expect(json.userid).toBe(account.userid);
      expect(json.apiKey).toMatch(/^tlk_[A-Za-z0-9]{38}$/);
      const wrong = await app.request(
        '/portal/auth/cloud-login',
        post({ email: account.email, password: 'nope-nope' }),
      );
      expect(wrong.status).toBe(401);
      expect(await body(wrong)).toEqual(INVALID_LOGIN);
    });
  });
});
