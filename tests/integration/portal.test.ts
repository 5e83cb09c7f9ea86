import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { closeDatabase, getDatabase } from '../../src/server/db/client.ts';
import { eq } from 'drizzle-orm';
import { clientErrors, users } from '../../src/server/db/schema.ts';
import { signSessionToken } from '../../src/server/auth/sign-in.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { SIGNUP_QUESTIONS } from '../../src/server/services/surveys.ts';

const SITE = 'http://localhost:4321';

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    accountsApp.request(`${SITE}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(accountsApp.request(`${SITE}${path}`, { headers }));
}

const answers = Object.fromEntries(SIGNUP_QUESTIONS.map(({ question, options }) => [question, options[0]]));
const saved = { ...process.env };

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
  process.env.EDITOR_KEYS = 'editor-key-one,editor-key-two';
  const { db } = await getDatabase();
  await db.insert(users).values({ firebaseUid: 'taken-uid', email: 'Taken@Example.com', username: 'taken' });
});

afterAll(async () => {
  await closeDatabase();
  process.env = { ...saved };
});

describe('POST /api/portal/auth/validate-email', () => {
  it('answers true for a new address and an acceptable password', async () => {
    const res = await post('/portal/auth/validate-email', { email: 'new@example.com', password: 'secret1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe(true);
  });

  it.each([
    [{ email: '', password: 'secret1' }, 'Please fill all the fields.'],
    [{ email: 'a@example.com', password: '' }, 'Please fill all the fields.'],
    [{ email: 'not-an-email', password: 'secret1' }, 'Please enter a valid email address.'],
    [{ email: 'short@example.com', password: '12345' }, 'Password should be at least 6 characters.'],
    [{ email: 'TAKEN@example.com', password: 'secret1' }, 'User already exists.'],
  ])('answers the spec text for %j', async (body, message) => {
    const res = await post('/portal/auth/validate-email', body);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(message);
  });

  it('refuses unknown fields and non-JSON bodies', async () => {
    const unknown = await post('/portal/auth/validate-email', {
      email: 'a@b.co',
      password: 'secret1',
      admin: true,
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'Unknown field: admin' });
    const form = await accountsApp.request(`${SITE}/api/portal/auth/validate-email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=a@b.co',
    });
    expect(form.status).toBe(415);
  });
});

/** A signed-in account with this address: the bearer header of its session. */
async function signedInAs(email: string): Promise<Record<string, string>> {
  const { db } = await getDatabase();
  const [owner] = await db
    .insert(users)
    .values({ firebaseUid: `uid-${email}`, email, username: email.split('@')[0] ?? 'x', emailVerified: true })
    .returning();
  if (!owner) throw new Error('test user not created');
  const session = await startSession(db, owner.id);
  return { Authorization: `Bearer ${await signSessionToken(owner, session.sessionId)}` };
}

describe('the questionnaire record', () => {
  it('stores a sign-up survey once and reports that it exists to its owner, without showing the answers', async () => {
    const sam = await signedInAs('Sam@Example.com');
    const first = await post(
      '/portal/account/submit-survey',
      { email: 'Sam@Example.com', type: 'signup', ...answers },
      sam,
    );
    expect(first.status).toBe(201);
    const again = await post(
      '/portal/account/submit-survey',
      { email: 'sam@example.com', type: 'signup', ...answers },
      sam,
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ created: false });

    const found = await get('/portal/account/get-survey?email=SAM%40example.com&type=signup', sam);
    expect(await found.json()).toEqual({ email: 'Sam@Example.com', type: 'signup' });
    const kim = await signedInAs('kim@example.com');
    const missing = await get('/portal/account/get-survey?email=kim%40example.com&type=signup', kim);
    expect(await missing.json()).toEqual({});
  });

  it('tells nobody without proof of an address whether it has signed up', async () => {
    const owner = await signedInAs('known@example.com');
    await post(
      '/portal/account/submit-survey',
      { email: 'known@example.com', type: 'signup', ...answers },
      owner,
    );
    const anonymous = await get('/portal/account/get-survey?email=known%40example.com&type=signup');
    expect(anonymous.status).toBe(401);
    const unknownAnonymous = await get('/portal/account/get-survey?email=unknown%40example.com&type=signup');
    expect(unknownAnonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual(await unknownAnonymous.json());
    const other = await signedInAs('nosy@example.com');
    const nosy = await get('/portal/account/get-survey?email=known%40example.com&type=signup', other);
    expect(nosy.status).toBe(403);
    expect(await nosy.json()).toEqual({
      error: 'You can only answer or look up the questionnaire of your own address.',
    });
  });

  it("refuses answers written for someone else, so the owner's own answers are the ones kept", async () => {
    const anonymous = await post('/portal/account/submit-survey', {
      email: 'victim@example.com',
      type: 'signup',
      ...answers,
    });
    expect(anonymous.status).toBe(401);
    const other = await signedInAs('squatter@example.com');
    const squatted = await post(
      '/portal/account/submit-survey',
      { email: 'victim@example.com', type: 'signup', ...answers },
      other,
    );
    expect(squatted.status).toBe(403);
    const victim = await signedInAs('victim@example.com');
    const own = await post(
      '/portal/account/submit-survey',
      { email: 'victim@example.com', type: 'signup', ...answers },
      victim,
    );
    expect(own.status).toBe(201);
  });

  it('refuses an answer that is not one of the options, naming the question', async () => {
    const [first] = SIGNUP_QUESTIONS;
    const res = await post('/portal/account/submit-survey', {
      email: 'x@example.com',
      type: 'signup',
      ...answers,
      [first.question]: 'Fun',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(first.question);
  });
});

describe('POST /api/portal/user/save-campaign', () => {
  it('saves a campaign with its UTM values, empty ones defaulting to empty strings', async () => {
    const res = await post('/portal/user/save-campaign', {
      campaign: { email: 'ads@example.com', utm_source: 'newsletter', utm_medium: 'email' },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      saved: true,
      campaign: {
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: '',
        utm_term: '',
        utm_content: '',
      },
    });
  });

  it('skips a campaign without utm_source', async () => {
    const res = await post('/portal/user/save-campaign', { campaign: { email: 'ads@example.com' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ saved: false, reason: 'missing_utm_source' });
  });
});

describe('GET /api/portal/account/get-price-plans', () => {
  it('lists the plans with the default monthlyT2 among them and no coupon error', async () => {
    const res = await get('/portal/account/get-price-plans');
    const body = (await res.json()) as {
      plans: { code: string }[];
      couponCode: string;
      couponCodeError: string;
    };
    expect(res.status).toBe(200);
    expect(body.plans.map((p) => p.code)).toContain('monthlyT2');
    expect(body.couponCode).toBe('');
    expect(body.couponCodeError).toBe('');
  });

  it('explains an unknown coupon', async () => {
    const body = (await (await get('/portal/account/get-price-plans?couponCode=NOPE')).json()) as {
      couponCodeError: string;
    };
    expect(body.couponCodeError).toBe('Coupon code NOPE is not valid.');
  });
});

describe('POST /api/log', () => {
  it('stores a browser error report', async () => {
    const res = await post('/log', { type: 'TypeError', stackTrace: 'at x (y.js:1:1)', server: 'web' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ id: expect.any(String) as string });
  });

  it('stores a stack trace over 3000 characters cut to 3000 and marked as cut', async () => {
    const res = await post('/log', { type: 'Error', stackTrace: 'x'.repeat(4000) });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const { db } = await getDatabase();
    const [row] = await db.select().from(clientErrors).where(eq(clientErrors.id, id));
    expect(row?.stackTrace).toHaveLength(3000);
    expect(row?.stackTrace.endsWith(' …[cut]')).toBe(true);
  });

  it('refuses a stack trace that is not text, naming the field', async () => {
    const res = await post('/log', { type: 'Error', stackTrace: 42 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: 'stackTrace' });
  });
});

describe('GET /api/status/get-mce-key', () => {
  it('hands an editor key to a signed-in caller, and the next one when told it failed', async () => {
    const { db } = await getDatabase();
    const [owner] = await db
      .insert(users)
      .values({
        firebaseUid: 'editor-uid',
        email: 'editor@example.com',
        username: 'editor',
        emailVerified: true,
      })
      .returning();
    if (!owner) throw new Error('test user not created');
    const session = await startSession(db, owner.id);
    const headers = { Authorization: `Bearer ${await signSessionToken(owner, session.sessionId)}` };
    const first = await get('/status/get-mce-key?apikey=anything', headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({ key: 'editor-key-one', id: '0' });
    const next = await get('/status/get-mce-key?id=0&success=false', headers);
    expect(await next.json()).toEqual({ key: 'editor-key-two', id: '1' });
  });

  it('answers a valid and an unknown API key alike without a session, so it reveals nothing about keys', async () => {
    const { db } = await getDatabase();
    const [owner] = await db
      .insert(users)
      .values({
        firebaseUid: 'oracle-uid',
        email: 'oracle@example.com',
        username: 'oracle',
        emailVerified: true,
      })
      .returning();
    if (!owner) throw new Error('test user not created');
    const issued = await createApiKey(db, owner.id);
    if (!issued) throw new Error('test key not issued');
    const valid = await get(`/status/get-mce-key?apikey=${issued.key}`);
    const unknown = await get('/status/get-mce-key?apikey=not-a-key');
    expect(valid.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await valid.json()).toEqual(await unknown.json());
    expect(valid.headers.get('cache-control')).toBe('no-store');
  });

  it('limits how often one account asks for editor keys', async () => {
    const { db } = await getDatabase();
    const [owner] = await db
      .insert(users)
      .values({
        firebaseUid: 'burst-uid',
        email: 'burst@example.com',
        username: 'burst',
        emailVerified: true,
      })
      .returning();
    if (!owner) throw new Error('test user not created');
    const session = await startSession(db, owner.id);
    const headers = { Authorization: `Bearer ${await signSessionToken(owner, session.sessionId)}` };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await get('/status/get-mce-key', headers)).status);
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('protection', () => {
  it('puts the security headers on every answer', async () => {
    for (const res of [
      await get('/portal/account/get-price-plans'),
      await get('/no-such-call'),
      await post('/app/auth/signin', { login: '' }),
    ]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('adds HSTS for clients on https', async () => {
    const res = await accountsApp.request('https://example.com/livez');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });

  it('refuses a cookie-bearing cross-site POST', async () => {
    const res = await post(
      '/log',
      { type: 'Error' },
      { Origin: 'https://evil.example', Cookie: 'refreshToken=abc' },
    );
    expect(res.status).toBe(403);
  });

  it('refuses bodies over the size limit with 413', async () => {
    const res = await post('/log', { type: 'Error', stackTrace: 'x'.repeat(70_000) });
    expect(res.status).toBe(413);
  });
});
