import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { AccountSettings } from '../../src/lib/dashboard-data.ts';
import { DELETE_CONFIRMATION_MESSAGE, USERNAME_RULE_MESSAGE } from '../../src/lib/form-rules.ts';
import { checkPassword } from '../../src/server/auth/identity.ts';
import { serverSecret } from '../../src/server/auth/crypto.ts';
import {
  auditLog,
  outboxEmails,
  sessions,
  subscriptions,
  surveys,
  users,
} from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import {
  accountSettingsRoutes,
  LAST_METHOD_MESSAGE,
  WRONG_PASSWORD_MESSAGE,
} from '../../src/server/routes/account-settings.ts';
import { appServerRoutes } from '../../src/server/routes/app-server.ts';
import {
  DELETE_WITH_SUBSCRIPTION_MESSAGE,
  USERNAME_TAKEN_MESSAGE,
} from '../../src/server/services/account-settings.ts';
import { accessTokenFor, accountsAppOn, post, refreshCookieOf } from './accounts-app.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * The settings page's calls (the accounts API's /portal/user/account, profile, email, password,
 * sign-in methods, sessions, export and deletion) against the Firebase Auth emulator and, for the
 * deletion, the real data API on the same database.
 */

const PASSWORD = 'correct-horse-battery';
const PROJECT_ID = 'demo-marketdata';
let h: DataApiHarness;
const app = () =>
  accountsAppOn(
    () => h.db,
    [
      ['/portal', accountSettingsRoutes],
      ['/app', appServerRoutes],
    ],
  );
type Json = Record<string, unknown>;

function emulator(path: string): string {
  return `http://${inject('authEmulatorHost')}${path}`;
}

async function toolkit(method: string, body: object): Promise<Json> {
  const res = await fetch(emulator(`/identitytoolkit.googleapis.com/v1/accounts:${method}?key=any`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${method} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
  h = await openDataApiHarness({ secret: serverSecret() });
  h.clock.now = Date.now();
});

afterAll(async () => {
  await h.close();
});

beforeEach(async () => {
  await closeSharedRateLimitStore();
});

/** A verified account with an identity at the emulator, a key, and a signed-in session. */
async function member(options: { google?: boolean } = {}) {
  const email = `settings.${randomUUID().slice(0, 8)}@example.com`;
  const identity = options.google
    ? await toolkit('signInWithIdp', {
        postBody: `id_token=${encodeURIComponent(JSON.stringify({ sub: randomUUID(), email, email_verified: true }))}&providerId=google.com`,
        requestUri: 'http://localhost',
        returnSecureToken: true,
      })
    : await toolkit('signUp', { email, password: PASSWORD, returnSecureToken: true });
  const key = await h.keyFor('free', { firebaseUid: String(identity.localId) });
  const userId = h.userOf(key);
  const username = `u${randomUUID().slice(0, 8)}`;
  await h.db.update(users).set({ email, username }).where(eq(users.id, userId));
  const signIn = async (): Promise<{ token: string; refresh: string }> => {
    const res = await app().request('/app/auth/signin', post({ login: email, password: PASSWORD }));
    expect(res.status).toBe(200);
    return {
      token: String(((await res.json()) as Json).accessToken),
      refresh: refreshCookieOf(res) ?? '',
    };
  };
  // A Google-only account has no password to sign in with: its session is made as sign-in makes one.
  const first = options.google
    ? { token: await accessTokenFor(h.db, userId, 'free'), refresh: '' }
    : await signIn();
  const send = (method: string, path: string, body?: unknown, token = first.token) =>
    app().request(`/portal${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const settings = async (token = first.token): Promise<AccountSettings> =>
    (await (await send('GET', '/user/account', undefined, token)).json()) as AccountSettings;
  return {
    email,
    key,
    userId,
    uid: String(identity.localId),
    username,
    idToken: String(identity.idToken),
    token: first.token,
    signIn,
    send,
    settings,
  };
}

async function errorOf(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

describe('the settings page’s profile', () => {
  it('renames the account: the new username is answered at once and the old name is free again', async () => {
    const me = await member();
    const renamed = `renamed-${randomUUID().slice(0, 6)}`;
    const res = await me.send('PATCH', '/user/profile', {
      username: renamed,
      firstName: ' Ada ',
      lastName: 'Lovelace',
    });
    expect(res.status).toBe(200);
    const data = (await res.json()) as Json;
    expect(data.username).toBe(renamed);
    expect(data.firstname).toBe('Ada');
    expect((await me.settings()).username).toBe(renamed);
    const [entry] = await h.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.targetUserId} = ${me.userId} and ${auditLog.action} = 'profile_update'`);
    expect(entry?.details).toMatchObject({ username: { from: me.username, to: renamed } });
  });

  it('refuses a username another account holds, whatever its case, and one that breaks the rule', async () => {
    const me = await member();
    const other = await member();
    const taken = await me.send('PATCH', '/user/profile', { username: other.username.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(await errorOf(taken)).toMatchObject({ error: USERNAME_TAKEN_MESSAGE, field: 'username' });
    const bad = await me.send('PATCH', '/user/profile', { username: 'has space' });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ error: USERNAME_RULE_MESSAGE, field: 'username' });
    expect((await me.settings()).username).toBe(me.username);
  });
});

describe('the settings page’s sign-ins', () => {
  it('lists each sign-in once, marks the current one, and ends the others on request', async () => {
    const me = await member();
    const other = await me.signIn();
    const listed = (await me.settings()).sessions;
    expect(listed).toHaveLength(2);
    expect(listed.filter((entry) => entry.current)).toHaveLength(1);

    const ended = await me.send('POST', '/user/sessions/sign-out-others');
    expect(await ended.json()).toEqual({ ended: 1 });
    const refresh = await app().request('/portal/auth/refresh-token', {
      headers: { Cookie: `refreshToken=${other.refresh}` },
    });
    expect(refresh.status).not.toBe(200);
    const left = (await me.settings()).sessions;
    expect(left).toHaveLength(1);
    expect(left[0]?.current).toBe(true);
  });

  it('ends one chosen sign-in, and says so when it had already ended', async () => {
    const me = await member();
    const other = await me.signIn();
    const target = (await me.settings(other.token)).sessions.find((entry) => entry.current);
    expect((await me.send('DELETE', `/user/sessions/${target?.id}`)).status).toBe(204);
    const again = await me.send('DELETE', `/user/sessions/${target?.id}`);
    expect(again.status).toBe(404);
    expect((await me.settings()).sessions).toHaveLength(1);
  });
});

describe('the settings page’s password and address', () => {
  it('changes the password only with the current one, and ends the other sign-ins', async () => {
    const me = await member();
    const other = await me.signIn();
    const wrong = await me.send('POST', '/user/password', {
      currentPassword: 'not-it',
      newPassword: 'a-new-secret',
    });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ error: WRONG_PASSWORD_MESSAGE, field: 'currentPassword' });

    const changed = await me.send('POST', '/user/password', {
      currentPassword: PASSWORD,
      newPassword: 'a-new-secret',
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ changed: true, endedSessions: 1 });
    expect((await checkPassword(me.email, PASSWORD)).ok).toBe(false);
    expect((await checkPassword(me.email, 'a-new-secret')).ok).toBe(true);
    expect((await me.send('GET', '/user/account', undefined, other.token)).status).toBe(403);
    const mails = await h.db.select().from(outboxEmails).where(eq(outboxEmails.email, me.email));
    expect(mails.map((mail) => mail.subject)).toContain('Your password was changed');
  });

  it('moves the account to a new address only once the link sent there is followed', async () => {
    const me = await member();
    const next = `moved.${randomUUID().slice(0, 8)}@example.com`;
    const noPassword = await me.send('POST', '/user/email', { email: next });
    expect(noPassword.status).toBe(400);
    const asked = await me.send('POST', '/user/email', { email: next, currentPassword: PASSWORD });
    expect(asked.status).toBe(202);
    expect((await me.settings()).email).toBe(me.email);

    const codes = (await (await fetch(emulator(`/emulator/v1/projects/${PROJECT_ID}/oobCodes`))).json()) as {
      oobCodes: { email: string; newEmail?: string; requestType: string; oobCode: string }[];
    };
    const link = codes.oobCodes.find(
      (code) => code.requestType === 'VERIFY_AND_CHANGE_EMAIL' && code.newEmail === next,
    );
    expect(link).toBeDefined();
    const applied = await app().request('/portal/auth/change-email', post({ oobCode: link?.oobCode }));
    expect(applied.status).toBe(200);
    expect((await me.settings()).email).toBe(next);
    expect((await checkPassword(next, PASSWORD)).ok).toBe(true);
    const reused = await app().request('/portal/auth/change-email', post({ oobCode: link?.oobCode }));
    expect(reused.status).toBe(400);
  });
});

describe('the settings page’s Google sign-in', () => {
  it('records Google once linked at the provider and unlinks it while a password remains', async () => {
    const me = await member();
    expect((await me.settings()).signInMethods).toEqual(['password']);
    expect((await me.send('POST', '/user/sign-in-methods/google')).status).toBe(409);
    const minted = (await (await me.send('POST', '/user/sign-in-methods/token')).json()) as Json;
    const signedIn = await toolkit('signInWithCustomToken', {
      token: minted.customToken,
      returnSecureToken: true,
    });
    await toolkit('signInWithIdp', {
      idToken: signedIn.idToken,
      postBody: `id_token=${encodeURIComponent(JSON.stringify({ sub: randomUUID(), email: me.email, email_verified: true }))}&providerId=google.com`,
      requestUri: 'http://localhost',
      returnSecureToken: true,
    });
    expect((await me.send('POST', '/user/sign-in-methods/google')).status).toBe(200);
    expect((await me.settings()).signInMethods).toEqual(['password', 'google.com']);
    expect((await me.send('DELETE', '/user/sign-in-methods/google')).status).toBe(200);
    expect((await me.settings()).signInMethods).toEqual(['password']);
  });

  it('keeps Google when it is the only way to sign in', async () => {
    const me = await member({ google: true });
    const res = await me.send('DELETE', '/user/sign-in-methods/google');
    expect(res.status).toBe(409);
    expect((await errorOf(res)).error).toBe(LAST_METHOD_MESSAGE);
  });
});

describe('the settings page’s export and deletion', () => {
  it('exports the account’s data as a JSON download without any secret', async () => {
    const me = await member();
    const res = await me.send('GET', '/user/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="account-.+\.json"$/);
    const text = await res.text();
    const data = JSON.parse(text) as Json;
    expect((data.account as Json).email).toBe(me.email);
    expect((data.apiKeys as Json[])[0]).toMatchObject({ last4: me.key.slice(-4) });
    expect(text).not.toContain(me.key);
    expect(text).not.toMatch(/keyHash|tokenHash|keyCiphertext/);
  });

  it('deletes the account: its key stops at once, personal data goes, the audit trail stays without it', async () => {
    const me = await member();
    await h.db.insert(surveys).values({ email: me.email, type: 'signup', answers: {} });
    expect((await h.request('/stable/quote', { symbol: 'AAPL', apikey: me.key })).status).toBe(200);

    const wrong = await me.send('DELETE', '/user/account', { confirmation: 'someone-else' });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).error).toBe(DELETE_CONFIRMATION_MESSAGE);

    const deleted = await me.send('DELETE', '/user/account', { confirmation: me.username });
    expect(deleted.status).toBe(200);
    expect((await h.request('/stable/quote', { symbol: 'AAPL', apikey: me.key })).status).toBe(401);
    expect(await h.db.select().from(users).where(eq(users.id, me.userId))).toEqual([]);
    expect(await h.db.select().from(sessions).where(eq(sessions.userId, me.userId))).toEqual([]);
    expect(await h.db.select().from(surveys).where(eq(surveys.email, me.email))).toEqual([]);
    expect((await checkPassword(me.email, PASSWORD)).ok).toBe(false);
    const trail = await h.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.details}->>'deletedUserId' = ${me.userId}`);
    expect(trail).toHaveLength(1);
    expect(JSON.stringify(trail)).not.toContain(me.email);
    const mails = await h.db.select().from(outboxEmails).where(eq(outboxEmails.email, me.email));
    expect(mails.map((mail) => mail.kind)).toEqual(['ACCOUNT_DELETED']);
    // The session that asked has ended too: its token is no longer honoured (403 asks for a refresh, which fails).
    expect((await me.send('GET', '/user/account')).status).toBe(403);
  });

  it('refuses to delete an account whose paid subscription still renews', async () => {
    const me = await member();
    const now = new Date();
    await h.db.insert(subscriptions).values({
      userId: me.userId,
      planCode: 'free',
      status: 'active',
      currentPeriodStart: now,
      currentPeriodEnd: new Date(now.getTime() + 86_400_000),
      provider: 'test',
      providerCustomerId: `cus_${randomUUID()}`,
      providerSubscriptionId: `sub_${randomUUID()}`,
      lastEventAt: now,
    });
    const res = await me.send('DELETE', '/user/account', { confirmation: me.username });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).error).toBe(DELETE_WITH_SUBSCRIPTION_MESSAGE);
    expect(await h.db.select().from(users).where(eq(users.id, me.userId))).toHaveLength(1);
  });
});
