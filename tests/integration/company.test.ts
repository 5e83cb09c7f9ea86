import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  CONTACT_EMAIL_REQUIRED_MESSAGE,
  CONTACT_MESSAGE_TOO_SHORT_MESSAGE,
  CONTACT_NAME_REQUIRED_MESSAGE,
  CONTACT_TOPIC_MESSAGE,
} from '../../src/lib/contact-message-form.ts';
import {
  COVER_NOTE_TOO_SHORT_MESSAGE,
  LINK_INVALID_MESSAGE,
  LINKS_REQUIRED_MESSAGE,
  LINKS_TOO_MANY_MESSAGE,
  ROLE_CLOSED_MESSAGE,
  ROLE_REQUIRED_MESSAGE,
} from '../../src/lib/job-application-form.ts';
import { EMAIL_MESSAGE } from '../../src/lib/messages.ts';
import type { MailboxMessage } from '../../src/lib/stores/dev-mailbox.ts';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { signSessionToken } from '../../src/server/auth/sign-in.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import { closeDatabase, getDatabase, type Database, type Db } from '../../src/server/db/client.ts';
import { contactMessages, jobApplications, outboxEmails } from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import { adminRoutes } from '../../src/server/routes/admin.ts';
import {
  CONTACT_MESSAGE_LIMIT,
  JOB_APPLICATION_LIMIT,
  companyRoutes,
} from '../../src/server/routes/company.ts';
import { devMailboxRoutes } from '../../src/server/routes/dev-mailbox.ts';
import { referencePattern } from '../../src/server/services/company-references.ts';
import { openRoles } from '../../src/server/services/open-roles.ts';
import { createUser, setRole } from '../../src/server/services/users.ts';
import { accountsAppOn, bearer, post } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

type Json = Record<string, unknown>;

const saved = { ...process.env };

const MESSAGE = {
  name: 'Grace Hopper',
  email: 'Grace@Example.com',
  topic: 'partnerships',
  message: 'We run a newsletter for quant developers and would like to feature your API.',
};

const ROLE = openRoles()[0];

function application(overrides: Json = {}): Json {
  return {
    name: 'Ada Lovelace',
    email: 'Ada@Example.com',
    role: ROLE?.id ?? '',
    links: 'github.com/ada\nhttps://www.linkedin.com/in/ada-lovelace',
    coverNote:
      'I have built market data pipelines for eight years and want to work on an API developers rely on every day.',
    ...overrides,
  };
}

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

describe('the careers collection as the accounts API reads it', () => {
  it('offers every role file with its title', () => {
    expect(openRoles().length).toBeGreaterThanOrEqual(4);
    for (const role of openRoles()) {
      expect(role.id).toMatch(/^[a-z0-9-]+$/);
      expect(role.title.length, role.id).toBeGreaterThan(5);
      expect(role.title, role.id).not.toMatch(/^['"]/);
    }
  });
});

describe.each(databaseTargets())('the company pages’ forms on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  const app = accountsAppOn(db, [
    ['/portal', companyRoutes],
    ['/admin', adminRoutes],
    ['/', devMailboxRoutes],
  ]);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  const sendMessage = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    Promise.resolve(app.request('/portal/contact/message', post(body, headers)));
  const apply = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    Promise.resolve(app.request('/portal/careers/application', post(body, headers)));

  const count = async (
    table: typeof contactMessages | typeof jobApplications | typeof outboxEmails,
  ): Promise<number> => {
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table);
    return row?.n ?? 0;
  };

  async function mailTo(email: string): Promise<MailboxMessage[]> {
    const res = await app.request('/dev/mailbox');
    const { messages } = (await res.json()) as { messages: MailboxMessage[] };
    return messages.filter((message) => message.email === email);
  }

  /** A signed-in account with the given role, and an access token for it. */
  async function account(
    role: 'user' | 'analyst' | 'admin',
  ): Promise<{ userId: string; accessToken: string }> {
    const user = await createUser(db(), {
      firebaseUid: `uid-${randomUUID()}`,
      email: `${role}.${randomUUID().slice(0, 8)}@example.com`,
    });
    const current = role === 'user' ? user : ((await setRole(db(), user.id, role, null)) ?? user);
    const session = await startSession(db(), current.id);
    return { userId: current.id, accessToken: await signSessionToken(current, session.sessionId) };
  }

  describe('POST /portal/contact/message', () => {
    it('stores the message and mails the sender a confirmation naming its reference', async () => {
      const email = `contact.${randomUUID().slice(0, 8)}@example.com`;
      const res = await sendMessage({ ...MESSAGE, email });
      expect(res.status).toBe(201);
      const { id, reference } = await json(res);
      expect(String(reference)).toMatch(referencePattern('CT'));
      const [row] = await db()
        .select()
        .from(contactMessages)
        .where(eq(contactMessages.id, String(id)));
      expect(row).toMatchObject({
        reference,
        name: 'Grace Hopper',
        email,
        topic: 'partnerships',
        userId: null,
      });
      const mail = await mailTo(email);
      expect(mail).toHaveLength(1);
      expect(mail[0]).toMatchObject({
        requestType: 'CONTACT_MESSAGE_RECEIVED',
        subject: `We received your message (${String(reference)})`,
        link: '/contact',
      });
      expect(mail[0]?.body).toMatch(/^Hello Grace,/);
      expect(mail[0]?.body).toContain(`Your reference is ${String(reference)}.`);
      expect(mail[0]?.body).toContain(MESSAGE.message);
    });

    it('records the account of a signed-in sender', async () => {
      const { userId, accessToken } = await account('user');
      const res = await sendMessage(MESSAGE, { Authorization: `Bearer ${accessToken}` });
      const { id } = await json(res);
      const [row] = await db()
        .select({ userId: contactMessages.userId })
        .from(contactMessages)
        .where(eq(contactMessages.id, String(id)));
      expect(row?.userId).toBe(userId);
    });

    it.each([
      ['name', ' ', CONTACT_NAME_REQUIRED_MESSAGE],
      ['email', '', CONTACT_EMAIL_REQUIRED_MESSAGE],
      ['email', 'grace-at-example.com', EMAIL_MESSAGE],
      ['topic', 'lottery', CONTACT_TOPIC_MESSAGE],
      ['message', 'Hi!', CONTACT_MESSAGE_TOO_SHORT_MESSAGE],
    ])(
      'refuses a bad %s (%j) with 400 naming the field, storing and mailing nothing',
      async (field, value, text) => {
        const messages = await count(contactMessages);
        const emails = await count(outboxEmails);
        const res = await sendMessage({ ...MESSAGE, [field]: value });
        expect(res.status).toBe(400);
        expect(await json(res)).toMatchObject({ error: `${field}: ${text}`, field });
        expect(await count(contactMessages)).toBe(messages);
        expect(await count(outboxEmails)).toBe(emails);
      },
    );

    it('drops a message whose hidden field is filled in, answering like a stored one and mailing nothing', async () => {
      const messages = await count(contactMessages);
      const emails = await count(outboxEmails);
      const res = await sendMessage({ ...MESSAGE, website: 'https://cheap-backlinks.example' });
      expect(res.status).toBe(201);
      expect(String((await json(res)).reference)).toMatch(referencePattern('CT'));
      expect(await count(contactMessages)).toBe(messages);
      expect(await count(outboxEmails)).toBe(emails);
    });

    it(`allows ${String(CONTACT_MESSAGE_LIMIT)} messages per client address in ten minutes, then answers 429 with Retry-After`, async () => {
      process.env.TRUST_PROXY = '1';
      const from = (ip: string): Record<string, string> => ({ 'X-Forwarded-For': ip });
      for (let sent = 0; sent < CONTACT_MESSAGE_LIMIT; sent += 1) {
        const email = `burst${String(sent)}.${randomUUID().slice(0, 6)}@example.com`;
        expect((await sendMessage({ ...MESSAGE, email }, from('203.0.113.7'))).status).toBe(201);
      }
      const messages = await count(contactMessages);
      const refused = await sendMessage({ ...MESSAGE, email: 'late@example.com' }, from('203.0.113.7'));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(500);
      expect((await json(refused)).error).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
      expect(await count(contactMessages)).toBe(messages);
      expect((await sendMessage(MESSAGE, from('198.51.100.4'))).status).toBe(201);
    });

    it(`allows ${String(CONTACT_MESSAGE_LIMIT)} messages per sender address from any client address`, async () => {
      process.env.TRUST_PROXY = '1';
      const email = `flood.${randomUUID().slice(0, 8)}@example.com`;
      for (let sent = 0; sent < CONTACT_MESSAGE_LIMIT; sent += 1) {
        const res = await sendMessage(
          { ...MESSAGE, email },
          { 'X-Forwarded-For': `192.0.2.${String(sent + 1)}` },
        );
        expect(res.status).toBe(201);
      }
      const refused = await sendMessage(
        { ...MESSAGE, email: email.toUpperCase() },
        { 'X-Forwarded-For': '192.0.2.99' },
      );
      expect(refused.status).toBe(429);
      expect(await mailTo(email)).toHaveLength(CONTACT_MESSAGE_LIMIT);
    });
  });

  describe('POST /portal/careers/application', () => {
    it('stores an application for an open role with its title and links, and mails the applicant', async () => {
      const email = `applicant.${randomUUID().slice(0, 8)}@example.com`;
      const res = await apply(application({ email }));
      expect(res.status).toBe(201);
      const { id, reference } = await json(res);
      expect(String(reference)).toMatch(referencePattern('JA'));
      const [row] = await db()
        .select()
        .from(jobApplications)
        .where(eq(jobApplications.id, String(id)));
      expect(row).toMatchObject({
        reference,
        roleId: ROLE?.id,
        roleTitle: ROLE?.title,
        name: 'Ada Lovelace',
        email,
        links: ['https://github.com/ada', 'https://www.linkedin.com/in/ada-lovelace'],
      });
      const mail = await mailTo(email);
      expect(mail).toHaveLength(1);
      expect(mail[0]).toMatchObject({
        requestType: 'JOB_APPLICATION_RECEIVED',
        subject: `Your application for ${ROLE?.title ?? ''} (${String(reference)})`,
        link: '/careers',
      });
      expect(mail[0]?.body).toContain('- https://github.com/ada');
    });

    it('accepts the links as a list, as API callers may send them', async () => {
      const res = await apply(application({ links: ['https://ada.dev/cv.pdf'] }));
      expect(res.status).toBe(201);
    });

    it.each([
      ['role', '', ROLE_REQUIRED_MESSAGE],
      ['role', 'chief-vibes-officer', ROLE_CLOSED_MESSAGE],
      ['links', '  ', LINKS_REQUIRED_MESSAGE],
      ['links', 'javascript:alert(1)', LINK_INVALID_MESSAGE],
      ['links', 'localhost/cv', LINK_INVALID_MESSAGE],
      ['links', 'a.io b.io c.io d.io e.io f.io', LINKS_TOO_MANY_MESSAGE],
      ['coverNote', 'Hire me.', COVER_NOTE_TOO_SHORT_MESSAGE],
      ['email', 'ada@', EMAIL_MESSAGE],
    ])('refuses a bad %s (%j) with 400 naming the field, storing nothing', async (field, value, text) => {
      const before = await count(jobApplications);
      const res = await apply(application({ [field]: value }));
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: `${field}: ${text}`, field });
      expect(await count(jobApplications)).toBe(before);
    });

    it('refuses unknown fields by name', async () => {
      const res = await apply(application({ salary: 'a lot' }));
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: 'Unknown field: salary', field: 'salary' });
    });

    it('drops an application whose hidden field is filled in, answering like a stored one', async () => {
      const before = await count(jobApplications);
      const emails = await count(outboxEmails);
      const res = await apply(application({ website: 'spam' }));
      expect(res.status).toBe(201);
      expect(String((await json(res)).reference)).toMatch(referencePattern('JA'));
      expect(await count(jobApplications)).toBe(before);
      expect(await count(outboxEmails)).toBe(emails);
    });

    it(`allows ${String(JOB_APPLICATION_LIMIT)} applications per address in an hour, then answers 429`, async () => {
      process.env.TRUST_PROXY = '1';
      const email = `eager.${randomUUID().slice(0, 8)}@example.com`;
      for (let sent = 0; sent < JOB_APPLICATION_LIMIT; sent += 1) {
        expect((await apply(application({ email }), { 'X-Forwarded-For': '203.0.113.50' })).status).toBe(201);
      }
      expect((await apply(application({ email }), { 'X-Forwarded-For': '203.0.113.51' })).status).toBe(429);
    });
  });

  describe('the admin lists', () => {
    it('show contact messages and job applications newest first, a page at a time, to staff', async () => {
      const { accessToken } = await account('analyst');
      const future = Date.UTC(2100, 0, 1);
      await db()
        .insert(contactMessages)
        .values(
          [0, 1, 2].map((n) => ({
            reference: `CT-T${randomUUID().slice(0, 6).toUpperCase()}${String(n)}`,
            name: `Sender ${String(n)}`,
            email: `sender${String(n)}@example.com`,
            topic: 'press',
            message: 'Could we interview your founder?',
            createdAt: new Date(future + n * 1000),
          })),
        );
      const first = await app.request('/admin/contact-messages?limit=2', bearer(accessToken));
      expect(first.status).toBe(200);
      expect(first.headers.get('Cache-Control')).toBe('no-store');
      const page1 = (await first.json()) as { entries: { name: string }[]; nextBefore: string };
      expect(page1.entries.map((entry) => entry.name)).toEqual(['Sender 2', 'Sender 1']);
      const second = await app.request(
        `/admin/contact-messages?limit=2&before=${page1.nextBefore}`,
        bearer(accessToken),
      );
      expect(((await second.json()) as { entries: { name: string }[] }).entries[0]?.name).toBe('Sender 0');

      const applied = await json(await apply(application({ name: 'Newest Applicant' })));
      const list = await app.request('/admin/job-applications', bearer(accessToken));
      expect(list.status).toBe(200);
      const { entries } = (await list.json()) as {
        entries: { id: string; roleTitle: string; links: string[] }[];
      };
      expect(entries.find((entry) => entry.id === applied.id)).toMatchObject({
        roleTitle: ROLE?.title,
        links: ['https://github.com/ada', 'https://www.linkedin.com/in/ada-lovelace'],
      });
    });

    it('refuse accounts that are not staff with 403 and signed-out callers with 401', async () => {
      const { accessToken } = await account('user');
      for (const path of ['/admin/contact-messages', '/admin/job-applications']) {
        const asUser = await app.request(path, bearer(accessToken));
        expect(asUser.status, path).toBe(403);
        expect((await app.request(path)).status, path).toBe(401);
      }
    });
  });
});

describe('the company calls in the accounts API', () => {
  afterAll(async () => {
    await closeDatabase();
  });

  it('are served under /api/portal without signing in', async () => {
    await getDatabase();
    const message = await accountsApp.request('http://localhost:4321/portal/contact/message', post(MESSAGE));
    expect(message.status).toBe(201);
    const applied = await accountsApp.request(
      'http://localhost:4321/portal/careers/application',
      post(application()),
    );
    expect(applied.status).toBe(201);
  });
});
