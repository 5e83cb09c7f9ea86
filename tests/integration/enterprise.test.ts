import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  COMPANY_REQUIRED_MESSAGE,
  COMPANY_SIZE_MESSAGE,
  COMPANY_SIZES,
  CONSENT_MESSAGE,
  JOB_TITLE_TOO_LONG_MESSAGE,
  MESSAGE_TOO_SHORT_MESSAGE,
  NAME_REQUIRED_MESSAGE,
} from '../../src/lib/enterprise-form.ts';
import { EMAIL_MESSAGE } from '../../src/lib/messages.ts';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { closeDatabase, getDatabase, type Database, type Db } from '../../src/server/db/client.ts';
import { enterpriseEnquiries } from '../../src/server/db/schema.ts';
import { signSessionToken } from '../../src/server/auth/sign-in.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import { adminRoutes } from '../../src/server/routes/admin.ts';
import { ENQUIRY_LIMIT, enterpriseRoutes } from '../../src/server/routes/enterprise.ts';
import { createUser, setRole } from '../../src/server/services/users.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import { accountsAppOn, bearer, post } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

type Json = Record<string, unknown>;

const saved = { ...process.env };

const VALID = {
  name: 'Ada Lovelace',
  email: 'Ada@Example.com',
  company: 'Analytical Engines Ltd',
  jobTitle: 'Head of Data',
  companySize: '51-200',
  message: 'We want to display end-of-day prices in our client portal for 20,000 users.',
  consent: true,
};

/** The valid enquiry minus one field. */
function without(field: keyof typeof VALID): Json {
  return Object.fromEntries(Object.entries(VALID).filter(([key]) => key !== field));
}

beforeEach(async () => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  delete process.env.TRUST_PROXY;
  // Every test starts with a fresh budget: all test requests share one client address.
  await closeSharedRateLimitStore();
});

afterEach(() => {
  process.env = { ...saved };
});

async function json(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

describe.each(databaseTargets())('enterprise enquiries on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  const app = accountsAppOn(db, [
    ['/portal', enterpriseRoutes],
    ['/admin', adminRoutes],
  ]);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  const send = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    Promise.resolve(app.request('/portal/enterprise/enquiry', post(body, headers)));

  const stored = async (): Promise<number> => {
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(enterpriseEnquiries);
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

  describe('POST /portal/enterprise/enquiry', () => {
    it('stores a valid enquiry with the time of consent and answers 201 with its id', async () => {
      const before = Date.now();
      const res = await send(VALID);
      expect(res.status).toBe(201);
      const { id } = await json(res);
      expect(typeof id).toBe('string');
      const [row] = await db()
        .select()
        .from(enterpriseEnquiries)
        .where(eq(enterpriseEnquiries.id, String(id)));
      expect(row).toMatchObject({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        company: 'Analytical Engines Ltd',
        jobTitle: 'Head of Data',
        companySize: '51-200',
        message: VALID.message,
        userId: null,
      });
      expect(row?.consentedAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    });

    it('accepts every company size the form offers and an empty job title', async () => {
      for (const { value } of COMPANY_SIZES) {
        await closeSharedRateLimitStore();
        const res = await send({ ...VALID, companySize: value, jobTitle: '' });
        expect(res.status, value).toBe(201);
      }
    });

    it('records the account of a signed-in sender', async () => {
      const { userId, accessToken } = await account('user');
      const res = await send(VALID, { Authorization: `Bearer ${accessToken}` });
      expect(res.status).toBe(201);
      const { id } = await json(res);
      const [row] = await db()
        .select({ userId: enterpriseEnquiries.userId })
        .from(enterpriseEnquiries)
        .where(eq(enterpriseEnquiries.id, String(id)));
      expect(row?.userId).toBe(userId);
    });

    it.each([
      ['name', '  ', NAME_REQUIRED_MESSAGE],
      ['email', 'ada-at-example.com', EMAIL_MESSAGE],
      ['company', '', COMPANY_REQUIRED_MESSAGE],
      ['jobTitle', 'j'.repeat(101), JOB_TITLE_TOO_LONG_MESSAGE],
      ['companySize', 'enormous', COMPANY_SIZE_MESSAGE],
      ['message', 'Prices, please.', MESSAGE_TOO_SHORT_MESSAGE],
      ['consent', false, CONSENT_MESSAGE],
    ])('refuses a bad %s with 400 naming the field and stores nothing', async (field, value, message) => {
      const count = await stored();
      const res = await send({ ...VALID, [field]: value });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: `${field}: ${message}`, field });
      expect(await stored()).toBe(count);
    });

    it('refuses a missing field and an unknown one, naming each', async () => {
      const missing = await send(without('consent'));
      expect(missing.status).toBe(400);
      expect(await json(missing)).toMatchObject({ error: `consent: ${CONSENT_MESSAGE}`, field: 'consent' });
      const nameless = await send(without('name'));
      expect(nameless.status).toBe(400);
      expect(await json(nameless)).toMatchObject({ error: 'name: Required', field: 'name' });
      const unknown = await send({ ...VALID, phone: '+1 555 0100' });
      expect(unknown.status).toBe(400);
      expect(await json(unknown)).toMatchObject({ error: 'Unknown field: phone', field: 'phone' });
    });

    it('lists every problem of an empty form in the issues', async () => {
      const res = await send({
        name: '',
        email: '',
        company: '',
        companySize: '',
        message: '',
        consent: false,
      });
      expect(res.status).toBe(400);
      const { issues } = await json(res);
      expect((issues as { path: string }[]).map((issue) => issue.path)).toEqual([
        'name',
        'email',
        'company',
        'companySize',
        'message',
        'consent',
      ]);
    });

    it('drops an enquiry whose honeypot is filled in, answering like a stored one', async () => {
      const count = await stored();
      const res = await send({ ...VALID, website: 'https://cheap-backlinks.example' });
      expect(res.status).toBe(201);
      const { id } = await json(res);
      expect(String(id)).toMatch(/^[0-9a-f-]{36}$/);
      expect(await stored()).toBe(count);
    });

    it(`allows ${ENQUIRY_LIMIT} enquiries per address in ten minutes, then answers 429 with Retry-After`, async () => {
      process.env.TRUST_PROXY = '1';
      const from = (ip: string): Record<string, string> => ({ 'X-Forwarded-For': ip });
      for (let sent = 0; sent < ENQUIRY_LIMIT; sent += 1) {
        expect((await send(VALID, from('203.0.113.7'))).status).toBe(201);
      }
      const refused = await send(VALID, from('203.0.113.7'));
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThan(500);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect((await json(refused)).error).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
      expect((await send(VALID, from('198.51.100.20'))).status).toBe(201);
    });

    it('does not count refused forms against the budget', async () => {
      for (let attempt = 0; attempt < ENQUIRY_LIMIT + 2; attempt += 1) {
        expect((await send({ ...VALID, company: '' })).status).toBe(400);
      }
      expect((await send(VALID)).status).toBe(201);
    });
  });

  describe('GET /admin/enterprise-enquiries', () => {
    it('lists enquiries newest first, a page at a time, to admins', async () => {
      const { accessToken } = await account('admin');
      // Dated in the future so they are the newest, whatever other tests stored.
      const future = Date.UTC(2100, 0, 1);
      const inserted = await db()
        .insert(enterpriseEnquiries)
        .values(
          [0, 1, 2, 3, 4].map((n) => ({
            name: `Sender ${n}`,
            email: `sender${n}@example.com`,
            company: 'Future Co',
            companySize: '1-10',
            message: 'A message long enough to be an enquiry.',
            createdAt: new Date(future + n * 1000),
          })),
        )
        .returning({ id: enterpriseEnquiries.id, name: enterpriseEnquiries.name });
      const idOf = (name: string): string | undefined => inserted.find((row) => row.name === name)?.id;

      const first = await app.request('/admin/enterprise-enquiries?limit=2', bearer(accessToken));
      expect(first.status).toBe(200);
      expect(first.headers.get('Cache-Control')).toBe('no-store');
      const page1 = (await first.json()) as { entries: { id: string; name: string }[]; nextBefore: string };
      expect(page1.entries.map((entry) => entry.name)).toEqual(['Sender 4', 'Sender 3']);
      expect(page1.nextBefore).toBe(idOf('Sender 3'));

      const second = await app.request(
        `/admin/enterprise-enquiries?limit=2&before=${page1.nextBefore}`,
        bearer(accessToken),
      );
      const page2 = (await second.json()) as { entries: { name: string }[] };
      expect(page2.entries.map((entry) => entry.name)).toEqual(['Sender 2', 'Sender 1']);

      // Walking every page visits each stored enquiry exactly once.
      const seen: string[] = [];
      let before: string | null = null;
      do {
        const query: string = before === null ? '?limit=3' : `?limit=3&before=${before}`;
        const res = await app.request(`/admin/enterprise-enquiries${query}`, bearer(accessToken));
        const page = (await res.json()) as { entries: { id: string }[]; nextBefore: string | null };
        seen.push(...page.entries.map((entry) => entry.id));
        before = page.nextBefore;
      } while (before !== null);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toHaveLength(await stored());
    });

    it('refuses a malformed page request', async () => {
      const { accessToken } = await account('admin');
      expect((await app.request('/admin/enterprise-enquiries?before=nope', bearer(accessToken))).status).toBe(
        400,
      );
      expect((await app.request('/admin/enterprise-enquiries?limit=0', bearer(accessToken))).status).toBe(
        400,
      );
      expect((await app.request('/admin/enterprise-enquiries?limit=201', bearer(accessToken))).status).toBe(
        400,
      );
    });

    it('refuses users who are not staff with 403 and signed-out callers with 401', async () => {
      const { accessToken } = await account('user');
      const asUser = await app.request('/admin/enterprise-enquiries', bearer(accessToken));
      expect(asUser.status).toBe(403);
      expect(await json(asUser)).toMatchObject({ error: 'Only administrators and analysts can see this.' });
      const signedOut = await app.request('/admin/enterprise-enquiries');
      expect(signedOut.status).toBe(401);
      expect(await json(signedOut)).toMatchObject({ error: 'Please sign in to continue.' });
    });
  });
});

describe('the enquiry call in the accounts API', () => {
  afterAll(async () => {
    await closeDatabase();
  });

  it('is served at /api/portal/enterprise/enquiry without signing in', async () => {
    await getDatabase();
    const res = await accountsApp.request('http://localhost:4321/portal/enterprise/enquiry', post(VALID));
    expect(res.status).toBe(201);
    expect(await json(res)).toEqual({ id: expect.any(String) as unknown });
  });
});
