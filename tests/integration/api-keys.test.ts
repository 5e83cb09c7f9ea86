import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacHex, encrypt, serverSecret } from '../../src/server/auth/crypto.ts';
import { MISTYPED_KEY_MESSAGE, REVOKED_KEY_MESSAGE } from '../../src/server/data-api/access.ts';
import { apiKeys, auditLog, outboxEmails, users } from '../../src/server/db/schema.ts';
import { apiKeyRoutes } from '../../src/server/routes/api-keys.ts';
import type { AccountKeys } from '../../src/lib/dashboard-data.ts';
import { API_KEY_PREFIX } from '../../src/server/services/key-format.ts';
import { accessTokenFor, accountsAppOn } from './accounts-app.ts';
import { freeLimits, openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * The dashboard's API keys (the accounts API's /portal/user/api-keys routes) against the real data
 * API on one database: what the owner does there is what the data API honours, at once.
 */

let h: DataApiHarness;
const accounts = () => accountsAppOn(() => h.db, [['/portal', apiKeyRoutes]]);
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  // Both sides store and read keys with the accounts API's own secret.
  h = await openDataApiHarness({ secret: serverSecret() });
  // The routes stamp changes with the real clock; the data API's clock starts there too.
  h.clock.now = Date.now();
});

afterAll(async () => {
  await h.close();
});

/** An owner signed in to the accounts API: their key, id and the calls they make there. */
async function owner(planCode = 'free') {
  const key = await h.keyFor(planCode);
  const userId = h.userOf(key);
  const token = await accessTokenFor(h.db, userId, planCode);
  const send = (method: string, path: string, body?: unknown) =>
    accounts().request(`/portal/user/api-keys${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const list = async (): Promise<AccountKeys> => (await (await send('GET', '')).json()) as AccountKeys;
  return { key, userId, send, list };
}

const quote = (key: string) => h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
const errorOf = async (res: Response) => ((await res.json()) as { 'Error Message': string })['Error Message'];

describe('the API keys page’s key changes', () => {
  it('replaces the key with a grace period: both keys answer until the grace ends', async () => {
    const me = await owner();
    expect((await quote(me.key)).status).toBe(200);
    const rolled = await me.send('POST', '/roll', { grace: '1h' });
    expect(rolled.status).toBe(201);
    const { keys } = await me.list();
    expect(keys.map((key) => [key.primary, key.expiresAt === null])).toEqual([
      [true, true],
      [true, false],
    ]);
    const [current, previous] = keys;
    expect(previous?.key).toBe(me.key);
    expect(current?.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(Date.parse(previous?.expiresAt ?? '') - Date.now()).toBeGreaterThan(HOUR - 60_000);

    expect((await quote(me.key)).status).toBe(200);
    expect((await quote(current?.key ?? '')).status).toBe(200);
    // A second past the grace's end as stored (stamped by the routes with the real clock, after this one started).
    h.clock.now = Date.parse(previous?.expiresAt ?? '') + 1000;
    const late = await quote(me.key);
    expect(late.status).toBe(401);
    expect(await errorOf(late)).toBe(REVOKED_KEY_MESSAGE);
    expect((await quote(current?.key ?? '')).status).toBe(200);
    h.clock.now = Date.now();
  });

  it('ends a replaced key at once when the owner chooses "expire now", although the data API had just accepted it', async () => {
    const me = await owner();
    await me.send('POST', '/roll', { grace: '7d' });
    const previous = (await me.list()).keys.find((key) => key.expiresAt !== null);
    expect((await quote(me.key)).status).toBe(200);
    expect((await me.send('DELETE', `/${previous?.id ?? ''}`)).status).toBe(204);
    expect((await quote(me.key)).status).toBe(401);
    expect((await me.list()).keys).toHaveLength(1);
  });

  it('refuses to revoke the current primary key, which can only be replaced', async () => {
    const me = await owner();
    const [primary] = (await me.list()).keys;
    const res = await me.send('DELETE', `/${primary?.id ?? ''}`);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toBe(
      'Your primary key cannot be revoked: replace it instead.',
    );
    expect((await quote(me.key)).status).toBe(200);
  });

  it('adds a named key that answers with the account’s plan and shares its limits; Free allows one', async () => {
    const me = await owner('free');
    const added = await me.send('POST', '', { name: '  CI   runner ' });
    expect(added.status).toBe(201);
    const listed = await me.list();
    expect(listed).toMatchObject({ additionalAllowed: 1, additionalUsed: 1 });
    const named = listed.keys.find((key) => !key.primary);
    expect(named?.name).toBe('CI runner');

    const second = await me.send('POST', '', { name: 'Laptop' });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: string }).error).toContain(
      'Your plan includes 1 additional key',
    );

    // The minute's budget is the account's: calls with either key count against the same one.
    const { perMinute } = await freeLimits(h.db);
    for (let call = 0; call < perMinute; call += 1) {
      const res = await quote(call % 2 === 0 ? me.key : (named?.key ?? ''));
      expect(res.status, `call ${String(call + 1)}`).toBe(200);
    }
    expect((await quote(named?.key ?? '')).status).toBe(429);
    expect((await quote(me.key)).status).toBe(429);
    h.clock.advance(61_000);

    expect((await me.send('PATCH', `/${named?.id ?? ''}`, { name: 'Build server' })).status).toBe(204);
    expect((await me.list()).keys.find((key) => !key.primary)?.name).toBe('Build server');
    expect((await me.send('POST', '', { name: '   ' })).status).toBe(400);
  });

  it('counts calls today and the last use of each key once the meter has written them', async () => {
    const me = await owner('commercialEnterprise');
    await quote(me.key);
    await quote(me.key);
    await h.api.meter.flush();
    const [key] = (await me.list()).keys;
    expect(key?.callsToday).toBe(2);
    expect(key?.lastUsedAt).not.toBeNull();
    expect((await me.list()).additionalAllowed).toBe(5);
  });

  it('records every change in the audit log and mails the owner, naming only the last four characters', async () => {
    const me = await owner();
    await me.send('POST', '/roll', { grace: 'now' });
    await me.send('POST', '', { name: 'Reporting' });
    const [account] = await h.db.select({ email: users.email }).from(users).where(eq(users.id, me.userId));
    const mails = await h.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.email, account?.email ?? ''));
    expect(mails.map((mail) => mail.subject).sort()).toEqual([
      'New API key "Reporting"',
      'Your API key was replaced',
    ]);
    const { keys } = await me.list();
    for (const mail of mails) {
      expect(mail.kind).toBe('API_KEY_CHANGED');
      for (const key of keys) expect(mail.body).not.toContain(key.key);
    }
    expect(mails.find((mail) => mail.subject === 'Your API key was replaced')?.body).toContain(
      `ending in ${keys[0]?.last4 ?? ''}`,
    );
    const actions = await h.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.targetUserId, me.userId));
    expect(actions.map((row) => row.action).sort()).toEqual(['api_key_create', 'api_key_roll']);
    // Replaced at once: the old key stopped with the change.
    expect((await quote(me.key)).status).toBe(401);
  });
});

describe('the key format at the data API', () => {
  it('refuses a mistyped key of the current shape by its checksum', async () => {
    const me = await owner();
    await me.send('POST', '/roll', { grace: 'now' });
    const [current] = (await me.list()).keys;
    const key = current?.key ?? '';
    const at = API_KEY_PREFIX.length + 3;
    const mistyped = `${key.slice(0, at)}${key[at] === 'x' ? 'y' : 'x'}${key.slice(at + 1)}`;
    const res = await quote(mistyped);
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toBe(MISTYPED_KEY_MESSAGE);
    expect((await quote(key)).status).toBe(200);
  });

  it('keeps accepting a key issued before the current shape', async () => {
    const me = await owner();
    const old = randomBytes(32).toString('base64url');
    const secret = serverSecret();
    await h.db
      .update(apiKeys)
      .set({ keyHash: hmacHex(secret, old), keyCiphertext: encrypt(secret, old), last4: old.slice(-4) })
      .where(and(eq(apiKeys.userId, me.userId), eq(apiKeys.primary, true)));
    expect((await quote(old)).status).toBe(200);
    expect((await me.list()).keys[0]?.key).toBe(old);
  });
});
