import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { closeDatabase, getDatabase, type Database, type Db } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import { appServerRoutes } from '../../src/server/routes/app-server.ts';
import { emailVerificationRoutes } from '../../src/server/routes/email-verification.ts';
import { portalAuthRoutes } from '../../src/server/routes/portal-auth.ts';
import { accountsAppOn, post, refreshCookieOf } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

const saved = { ...process.env };
const PASSWORD = 'correct-horse-battery';
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

function emulator(path: string): string {
  return `http://${inject('authEmulatorHost')}${path}`;
}

/** Creates the identity-provider account, as the browser SDK does before register-user. */
async function firebaseSignUp(email: string): Promise<string> {
  const res = await fetch(emulator('/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`signUp answered ${res.status}: ${JSON.stringify(json)}`);
  return String(json.localId);
}

/** Marks the address verified at the provider, as following the emailed link would. */
async function verifyAtProvider(uid: string): Promise<void> {
  const res = await fetch(
    emulator(`/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:update`),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: 'Bearer owner' },
      body: JSON.stringify({ localId: uid, emailVerified: true }),
    },
  );
  if (!res.ok) throw new Error(`accounts:update answered ${res.status}: ${await res.text()}`);
}

interface OobCode {
  email: string;
  requestType: string;
  oobLink: string;
}

async function oobCodesFor(email: string): Promise<OobCode[]> {
  const res = await fetch(emulator(`/emulator/v1/projects/${PROJECT_ID}/oobCodes`));
  const { oobCodes } = (await res.json()) as { oobCodes: OobCode[] };
  return oobCodes.filter((code) => code.email === email);
}

describe.each(databaseTargets())('email verification on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  // The accounts API's session and verification routes, on this target's database.
  const app = accountsAppOn(db, [
    ['/portal', portalAuthRoutes],
    ['/portal', emailVerificationRoutes],
    ['/app', appServerRoutes],
  ]);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  interface SignedIn {
    uid: string;
    email: string;
    userid: string;
    accessToken: string;
    refreshToken: string;
  }

  /** A registered, signed-in account whose address is not verified yet. */
  async function signedIn(): Promise<SignedIn> {
    const email = `verify.${randomUUID().slice(0, 8)}@example.com`;
    const uid = await firebaseSignUp(email);
    const registered = await app.request('/portal/user/register-user', post({ email, password: PASSWORD }));
    expect(registered.status).toBe(200);
    const res = await app.request('/app/auth/signin', post({ login: email, password: PASSWORD }));
    expect(res.status).toBe(200);
    const json = (await res.json()) as Json;
    expect(json.emailVerified).toBe(false);
    const refreshToken = refreshCookieOf(res);
    if (refreshToken === undefined) throw new Error('the answer set no refresh cookie');
    return { uid, email, userid: String(json.userid), accessToken: String(json.accessToken), refreshToken };
  }

  async function storedVerified(userid: string): Promise<boolean | undefined> {
    const [row] = await db()
      .select({ emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, userid));
    return row?.emailVerified;
  }

  function sendVerification(accessToken: string, body: unknown = {}): Promise<Response> {
    return Promise.resolve(
      app.request(
        '/portal/user/send-verification-email',
        post(body, { Authorization: `Bearer ${accessToken}` }),
      ),
    );
  }

  describe('the session calls notice a verification made at the provider', () => {
    it('reports an unverified address as unverified', async () => {
      const user = await signedIn();
      const res = await app.request('/portal/auth/access-token', {
        headers: { Authorization: `Bearer ${user.accessToken}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ valid: true, emailVerified: false });
      expect(await storedVerified(user.userid)).toBe(false);
    });

    it('answers verified from the access-token check once the address was confirmed, and records it', async () => {
      const user = await signedIn();
      await verifyAtProvider(user.uid);
      const res = await app.request('/portal/auth/access-token', {
        headers: { Authorization: `Bearer ${user.accessToken}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ valid: true, email: user.email, emailVerified: true });
      expect(await storedVerified(user.userid)).toBe(true);
    });

    it('answers verified from the cookie refresh once the address was confirmed, and records it', async () => {
      const user = await signedIn();
      await verifyAtProvider(user.uid);
      const res = await app.request('/app/auth/refresh', {
        headers: { Cookie: `refreshToken=${user.refreshToken}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ userid: user.userid, emailVerified: true });
      expect(await storedVerified(user.userid)).toBe(true);
    });

    it('answers with the stored state when the provider cannot be asked', async () => {
      const user = await signedIn();
      process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
      const res = await app.request('/portal/auth/access-token', {
        headers: { Authorization: `Bearer ${user.accessToken}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ valid: true, emailVerified: false });
      const refreshed = await app.request('/app/auth/refresh', {
        headers: { Cookie: `refreshToken=${user.refreshToken}` },
      });
      expect(refreshed.status).toBe(200);
      expect(await refreshed.json()).toMatchObject({ emailVerified: false });
    });
  });

  describe('POST /portal/user/send-verification-email', () => {
    it('has the provider mail a verification link to the signed-in user', async () => {
      const user = await signedIn();
      const res = await sendVerification(user.accessToken);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ sent: true, email: user.email });
      const codes = await oobCodesFor(user.email);
      expect(codes).toContainEqual(expect.objectContaining({ requestType: 'VERIFY_EMAIL' }));
    });

    it('verifies the address when its link is followed, which the next session check reports', async () => {
      const user = await signedIn();
      expect((await sendVerification(user.accessToken)).status).toBe(200);
      const [code] = (await oobCodesFor(user.email)).filter((c) => c.requestType === 'VERIFY_EMAIL');
      if (code === undefined) throw new Error('no verification code was issued');
      const followed = await fetch(code.oobLink);
      expect(followed.status).toBe(200);
      const res = await app.request('/portal/auth/access-token', {
        headers: { Authorization: `Bearer ${user.accessToken}` },
      });
      expect(await res.json()).toMatchObject({ emailVerified: true });
    });

    it('refuses an address that is already verified with 409, recording a verification made meanwhile', async () => {
      const user = await signedIn();
      await verifyAtProvider(user.uid);
      const res = await sendVerification(user.accessToken);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: 'Your email address is already verified.' });
      expect(await storedVerified(user.userid)).toBe(true);
      expect(await oobCodesFor(user.email)).toEqual([]);
    });

    it('allows three emails per account in ten minutes, then answers 429 with Retry-After', async () => {
      const user = await signedIn();
      for (let i = 0; i < 3; i += 1) expect((await sendVerification(user.accessToken)).status).toBe(200);
      const refused = await sendVerification(user.accessToken);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
      const { error } = (await refused.json()) as { error: string };
      expect(error).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
      // The budget is the account's own: another account is not held back.
      const other = await signedIn();
      expect((await sendVerification(other.accessToken)).status).toBe(200);
    });

    it('asks signed-out callers to sign in', async () => {
      const res = await app.request('/portal/user/send-verification-email', post({}));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Please sign in to continue.' });
    });

    it('refuses fields it does not take', async () => {
      const user = await signedIn();
      const res = await sendVerification(user.accessToken, { email: 'someone@example.com' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'Unknown field: email' });
    });

    it('answers 503 with Retry-After, not a hang, when the provider cannot be reached', async () => {
      const user = await signedIn();
      process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
      const started = Date.now();
      const res = await sendVerification(user.accessToken);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).not.toBeNull();
      expect(await res.json()).toEqual({
        error: 'We could not send the verification email. Please try again later.',
      });
      expect(Date.now() - started).toBeLessThan(12_000);
    });
  });
});

describe('the accounts API', () => {
  beforeAll(async () => {
    process.env.DATA_DIR = 'memory://';
    delete process.env.DATABASE_URL;
    await getDatabase();
  });

  afterAll(async () => {
    await closeDatabase();
    process.env = { ...saved };
  });

  it('serves the resend call under /api/portal', async () => {
    const res = await accountsApp.request('http://localhost:4321/portal/user/send-verification-email', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Please sign in to continue.' });
  });
});
