import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  HELP_EMAIL_REQUIRED_MESSAGE,
  HELP_MESSAGE_TOO_SHORT_MESSAGE,
  HELP_NAME_REQUIRED_MESSAGE,
  HELP_TOPIC_MESSAGE,
} from '../../src/lib/help-form.ts';
import { HELP_TOPIC_IDS } from '../../src/lib/help-topics.ts';
import { EMAIL_MESSAGE } from '../../src/lib/messages.ts';
import type { MailboxMessage } from '../../src/lib/stores/dev-mailbox.ts';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { signSessionToken } from '../../src/server/auth/sign-in.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import { closeDatabase, getDatabase, type Database, type Db } from '../../src/server/db/client.ts';
import { outboxEmails, supportRequests } from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import { adminRoutes } from '../../src/server/routes/admin.ts';
import { devMailboxRoutes } from '../../src/server/routes/dev-mailbox.ts';
import { HELP_REQUEST_LIMIT, helpRoutes } from '../../src/server/routes/help.ts';
import { REFERENCE_PATTERN } from '../../src/server/services/support-requests.ts';
import { createUser, setRole } from '../../src/server/services/users.ts';
import { accountsAppOn, bearer, post } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

type Json = Record<string, unknown>;

const saved = { ...process.env };

const VALID = {
  name: 'Grace Hopper',
  email: 'Grace@Example.com',
  topic: 'keys',
  message: 'My key answers 401 since this morning. What should I check?',
};

beforeEach(async () => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  delete process.env.TRUST_PROXY;
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
  // Every test starts with a fresh budget: all test requests share one client address.
  await closeSharedRateLimitStore();
});

afterEach(() => {
  process.env = { ...saved };
});

async function json(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

describe.each(databaseTargets())('help requests on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  const app = accountsAppOn(db, [
    ['/portal', helpRoutes],
    ['/admin', adminRoutes],
    ['/', devMailboxRoutes],
  ]);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  const send = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    Promise.resolve(app.request('/portal/help/request', post(body, headers)));

  const count = async (table: typeof supportRequests | typeof outboxEmails): Promise<number> => {
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table);
    return row?.n ?? 0;
  };

  /** A signed-in account with the given role, and an access token for it. */
  async function account(role: 'user' | 'admin'): Promise<{ userId: string; accessToken: string }> {
    const user = await createUser(db(), {
      firebaseUid: `uid-${randomUUID()}`,
      email: `${role}.${randomUUID().slice(0, 8)}@example.com`,
    });
    const current = role === 'admin' ? ((await setRole(db(), user.id, 'admin', null)) ?? user) : user;
    const session = await startSession(db(), current.id);
    return { userId: current.id, accessToken: await signSessionToken(current, session.sessionId) };
  }

  describe('POST /portal/help/request', () => {
    it('stores a valid request and answers 201 with its id and a reference', async () => {
      const res = await send(VALID);
      expect(res.status).toBe(201);
      const { id, reference } = await json(res);
      expect(String(reference)).toMatch(REFERENCE_PATTERN);
      const [row] = await db()
        .select()
        .from(supportRequests)
        .where(eq(supportRequests.id, String(id)));
      expect(row).toMatchObject({
        reference,
        name: 'Grace Hopper',
        email: 'grace@example.com',
        topic: 'keys',
        message: VALID.message,
        userId: null,
      });
    });

    it('puts a confirmation naming the reference, the topic and the message in the local mailbox', async () => {
      const email = `help.${randomUUID().slice(0, 8)}@example.com`;
      const { reference } = await json(await send({ ...VALID, email }));
      const res = await app.request('/dev/mailbox');
      expect(res.status).toBe(200);
      const { messages } = (await res.json()) as { messages: MailboxMessage[] };
      const mine = messages.filter((message) => message.email === email);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        requestType: 'HELP_REQUEST_RECEIVED',
        subject: `We received your question (${String(reference)})`,
        link: '/help-center',
      });
      expect(mine[0]?.body).toContain(`Your reference is ${String(reference)}.`);
      expect(mine[0]?.body).toContain('Your question about API keys has reached us');
      expect(mine[0]?.body).toContain(VALID.message);
      expect(mine[0]?.body).toMatch(/^Hello Grace,/);
    });

    it('accepts every topic the form offers', async () => {
      for (const topic of HELP_TOPIC_IDS) {
        await closeSharedRateLimitStore();
        expect((await send({ ...VALID, topic })).status, topic).toBe(201);
      }
    });

    it('records the account of a signed-in sender', async () => {
      const { userId, accessToken } = await account('user');
      const res = await send(VALID, { Authorization: `Bearer ${accessToken}` });
      expect(res.status).toBe(201);
      const { id } = await json(res);
      const [row] = await db()
        .select({ userId: supportRequests.userId })
        .from(supportRequests)
        .where(eq(supportRequests.id, String(id)));
      expect(row?.userId).toBe(userId);
    });

    it.each([
      ['name', '  ', HELP_NAME_REQUIRED_MESSAGE],
      ['email', '', HELP_EMAIL_REQUIRED_MESSAGE],
      ['email', 'grace-at-example.com', EMAIL_MESSAGE],
      ['topic', 'weather', HELP_TOPIC_MESSAGE],
      ['message', 'Help!', HELP_MESSAGE_TOO_SHORT_MESSAGE],
    ])(
      'refuses a bad %s (%j) with 400 naming the field, storing and mailing nothing',
      async (field, value, message) => {
        const requests = await count(supportRequests);
        const emails = await count(outboxEmails);
        const res = await send({ ...VALID, [field]: value });
        expect(res.status).toBe(400);
        expect(await json(res)).toMatchObject({ error: `${field}: ${message}`, field });
        expect(await count(supportRequests)).toBe(requests);
        expect(await count(outboxEmails)).toBe(emails);
      },
    );

    it('lists every problem of an empty form in the issues, and refuses unknown fields', async () => {
      const res = await send({ name: '', email: '', topic: '', message: '' });
      expect(res.status).toBe(400);
      const { issues } = await json(res);
      expect((issues as { path: string }[]).map((issue) => issue.path)).toEqual([
        'name',
        'email',
        'topic',
        'message',
      ]);
      const unknown = await send({ ...VALID, phone: '+1 555 0100' });
      expect(unknown.status).toBe(400);
      expect(await json(unknown)).toMatchObject({ error: 'Unknown field: phone', field: 'phone' });
    });

    it('drops a request whose honeypot is filled in, answering like a stored one and mailing nothing', async () => {
      const requests = await count(supportRequests);
      const emails = await count(outboxEmails);
      const res = await send({ ...VALID, website: 'https://cheap-backlinks.example' });
      expect(res.status).toBe(201);
      const { id, reference } = await json(res);
      expect(String(id)).toMatch(/^[0-9a-f-]{36}$/);
      expect(String(reference)).toMatch(REFERENCE_PATTERN);
      expect(await count(supportRequests)).toBe(requests);
      expect(await count(outboxEmails)).toBe(emails);
    });

    it(`allows ${HELP_REQUEST_LIMIT} requests per address in ten minutes, then answers 429 with Retry-After`, async () => {
      process.env.TRUST_PROXY = '1';
      const from = (ip: string): Record<string, string> => ({ 'X-Forwarded-For': ip });
      for (let sent = 0; sent < HELP_REQUEST_LIMIT; sent += 1) {
        expect((await send(VALID, from('203.0.113.9'))).status).toBe(201);
      }
      const requests = await count(supportRequests);
      const refused = await send(VALID, from('203.0.113.9'));
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThan(500);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect((await json(refused)).error).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
      expect(await count(supportRequests)).toBe(requests);
      expect((await send(VALID, from('198.51.100.21'))).status).toBe(201);
    });

    it('does not count refused forms against the budget', async () => {
      for (let attempt = 0; attempt < HELP_REQUEST_LIMIT + 2; attempt += 1) {
        expect((await send({ ...VALID, topic: '' })).status).toBe(400);
      }
      expect((await send(VALID)).status).toBe(201);
    });
  });

  describe('GET /admin/support-requests', () => {
    it('lists requests newest first, a page at a time, to admins', async () => {
      const { accessToken } = await account('admin');
      // Dated in the future so they are the newest, whatever other tests stored.
      const future = Date.UTC(2100, 0, 1);
      const inserted = await db()
        .insert(supportRequests)
        .values(
          [0, 1, 2].map((n) => ({
            reference: `HC-TEST${randomUUID().slice(0, 4).toUpperCase()}${String(n)}`,
            name: `Sender ${String(n)}`,
            email: `sender${String(n)}@example.com`,
            topic: 'billing',
            message: 'Where is my invoice for November?',
            createdAt: new Date(future + n * 1000),
          })),
        )
        .returning({ id: supportRequests.id, name: supportRequests.name });
      const idOf = (name: string): string | undefined => inserted.find((row) => row.name === name)?.id;

      const first = await app.request('/admin/support-requests?limit=2', bearer(accessToken));
      expect(first.status).toBe(200);
      expect(first.headers.get('Cache-Control')).toBe('no-store');
      const page1 = (await first.json()) as {
        entries: { id: string; name: string; topic: string; reference: string }[];
        nextBefore: string;
      };
      expect(page1.entries.map((entry) => entry.name)).toEqual(['Sender 2', 'Sender 1']);
      expect(page1.entries[0]).toMatchObject({ topic: 'billing', email: 'sender2@example.com' });
      expect(page1.nextBefore).toBe(idOf('Sender 1'));

      const second = await app.request(
        `/admin/support-requests?limit=2&before=${page1.nextBefore}`,
        bearer(accessToken),
      );
      const page2 = (await second.json()) as { entries: { name: string }[] };
      expect(page2.entries[0]?.name).toBe('Sender 0');

      expect((await app.request('/admin/support-requests?before=nope', bearer(accessToken))).status).toBe(
        400,
      );
    });

    it('refuses users who are not staff with 403 and signed-out callers with 401', async () => {
      const { accessToken } = await account('user');
      const asUser = await app.request('/admin/support-requests', bearer(accessToken));
      expect(asUser.status).toBe(403);
      expect(await json(asUser)).toMatchObject({ error: 'Only administrators and analysts can see this.' });
      const signedOut = await app.request('/admin/support-requests');
      expect(signedOut.status).toBe(401);
    });
  });
});

describe('the help request call in the accounts API', () => {
  afterAll(async () => {
    await closeDatabase();
  });

  it('is served at /api/portal/help/request without signing in', async () => {
    await getDatabase();
    const res = await accountsApp.request('http://localhost:4321/portal/help/request', post(VALID));
    expect(res.status).toBe(201);
    expect(await json(res)).toEqual({
      id: expect.any(String) as unknown,
      reference: expect.any(String) as unknown,
    });
  });
});
