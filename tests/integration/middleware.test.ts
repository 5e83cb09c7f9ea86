import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { emailSchema, passwordSchema, usernameOrEmailSchema } from '../../src/lib/validation.ts';
import {
  INTERNAL_ERROR_MESSAGE,
  UNAVAILABLE_MESSAGE,
  handleApiError,
  isDatabaseUnavailable,
  redactSecrets,
} from '../../src/server/app/errors.ts';
import { bodyLimit, requireJson } from '../../src/server/middleware/body.ts';
import { siteOrigins } from '../../src/server/app/config.ts';
import { clientIp } from '../../src/server/app/request.ts';
import { originCheck, siteCors } from '../../src/server/middleware/cors.ts';
import { ipKey, rateLimit } from '../../src/server/middleware/rate-limit.ts';
import { noStore, securityHeaders } from '../../src/server/middleware/security-headers.ts';
import { jsonBody, queryParams, type JsonInput } from '../../src/server/middleware/validate.ts';
import {
  MemoryStore,
  RedisStore,
  createRateLimitStore,
  type RateLimitStore,
} from '../../src/server/middleware/rate-limit-store.ts';

const SITE = 'http://localhost:4321';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const saved = { ...process.env };

afterEach(() => {
  process.env = { ...saved };
  vi.restoreAllMocks();
});

function json(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  };
}

/** A body that arrives in chunks with no Content-Length, as a chunked upload does. */
function streamed(bytes: number, chunk = 1024): RequestInit {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) {
        controller.close();
        return;
      }
      const size = Math.min(chunk, bytes - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(120));
    },
  });
  return { method: 'POST', body, duplex: 'half' } as RequestInit;
}

describe('security headers', () => {
  const app = new Hono()
    .use(securityHeaders())
    .get('/page', (c) => c.json({ ok: true }))
    .get('/fails', () => {
      throw new Error('boom');
    })
    .get('/session', noStore(), (c) => c.json({ token: 'x' }));
  app.onError(handleApiError);

  it('protects every answer against sniffing, framing, referrer leaks and other sites’ windows', async () => {
    for (const path of ['/page', '/missing', '/fails']) {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const res = await app.request(path);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    }
  });

  it('sends HSTS only to clients on https', async () => {
    expect((await app.request('http://localhost/page')).headers.get('strict-transport-security')).toBeNull();
    expect((await app.request('https://example.com/page')).headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });

  it('believes X-Forwarded-Proto only when TRUST_PROXY=1', async () => {
    const forwarded = { headers: { 'X-Forwarded-Proto': 'https' } };
    expect((await app.request('/page', forwarded)).headers.get('strict-transport-security')).toBeNull();
    process.env.TRUST_PROXY = '1';
    expect((await app.request('/page', forwarded)).headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });

  it('keeps authentication answers out of caches only where noStore is applied', async () => {
    expect((await app.request('/session')).headers.get('cache-control')).toBe('no-store');
    expect((await app.request('/page')).headers.get('cache-control')).toBeNull();
  });
});

describe('body limits', () => {
  const app = new Hono()
    .use(bodyLimit(64))
    .post('/upload', async (c) => c.json({ received: await c.req.text() }))
    .get('/page', (c) => c.json({ ok: true }));
  const tooLarge = { error: 'Request body too large (limit 64 bytes).' };

  it('refuses a body whose Content-Length is over the limit', async () => {
    const res = await app.request('/upload', json({ text: 'x'.repeat(100) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLarge);
  });

  it('refuses an oversized body that declares no length, by counting the bytes', async () => {
    const init = streamed(10_000);
    expect(new Request('http://localhost/', init).headers.get('content-length')).toBeNull();
    const res = await app.request('/upload', init);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(tooLarge);
  });

  it('refuses an oversized body that understates its length', async () => {
    const res = await app.request('/upload', json({ text: 'x'.repeat(100) }, { 'Content-Length': '10' }));
    expect(res.status).toBe(413);
  });

  it('hands a body within the limit to the handler intact, streamed or not', async () => {
    const streamedRes = await app.request('/upload', streamed(64, 10));
    expect(await streamedRes.json()).toEqual({ received: 'x'.repeat(64) });
    const plain = await app.request('/upload', { method: 'POST', body: 'hello' });
    expect(await plain.json()).toEqual({ received: 'hello' });
    expect((await app.request('/page')).status).toBe(200);
  });
});

describe('JSON bodies', () => {
  const app = new Hono()
    .use(requireJson())
    .post('/echo', async (c) => c.json({ received: await c.req.json<unknown>() }))
    .post('/logout', (c) => c.json({ ok: true }))
    .get('/page', (c) => c.json({ ok: true }));

  it('refuses bodies that are not JSON with 415', async () => {
    const types = ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'];
    for (const contentType of types) {
      const res = await app.request('/echo', {
        method: 'POST',
        body: '{}',
        headers: { 'Content-Type': contentType },
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: 'Content-Type must be application/json.' });
    }
    const missing = await app.request('/echo', { method: 'PUT', body: new Uint8Array([123, 125]) });
    expect(missing.status).toBe(415);
  });

  it('accepts JSON declared with a UTF-8 charset and hands the parsed body on', async () => {
    const res = await app.request(
      '/echo',
      json({ ok: true }, { 'Content-Type': 'Application/JSON; charset=UTF-8' }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: { ok: true } });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await app.request('/echo', {
      method: 'POST',
      body: '{"email": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Request body is not valid JSON.' });
  });

  it('lets requests without a body through', async () => {
    expect((await app.request('/page')).status).toBe(200);
    expect((await app.request('/logout', { method: 'POST' })).status).toBe(200);
    const empty = await app.request('/logout', { method: 'POST', headers: { 'Content-Length': '0' } });
    expect(empty.status).toBe(200);
  });
});

describe('validation', () => {
  const signIn = z.object({ login: usernameOrEmailSchema, password: passwordSchema });
  const app = new Hono()
    .post('/sign-in', jsonBody(signIn), (c) => {
      const { login, password } = c.req.valid('json');
      return c.json({ login, passwordLength: password.length });
    })
    .post('/register', jsonBody(z.object({ email: z.email(), password: passwordSchema })), (c) =>
      c.json({ email: c.req.valid('json').email }),
    )
    .post('/campaign', jsonBody(z.object({ campaign: z.strictObject({ email: emailSchema }) })), (c) =>
      c.json(c.req.valid('json')),
    )
    .get('/plans', queryParams(z.object({ couponCode: z.string().max(32).optional() })), (c) =>
      c.json({ couponCode: c.req.valid('query').couponCode ?? null }),
    );

  it('hands the handler the parsed, normalised body', async () => {
    const res = await app.request('/sign-in', json({ login: ' Ann@Example.COM ', password: 'secret1' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ login: 'ann@example.com', passwordLength: 7 });
  });

  it('refuses an unknown field, naming it', async () => {
    const res = await app.request('/sign-in', json({ login: 'ann', password: 'secret1', foo: 1 }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'Unknown field: foo',
      field: 'foo',
      issues: [{ path: 'foo', message: 'Unknown field' }],
    });
  });

  it('names the field of the first problem and lists all of them', async () => {
    const res = await app.request('/register', json({ email: 'not-an-email', password: '123' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'email: Invalid email address',
      field: 'email',
      issues: [
        { path: 'email', message: 'Invalid email address' },
        { path: 'password', message: 'Password should be at least 6 characters.' },
      ],
    });
  });

  it('says a missing field is required and locates nested problems', async () => {
    const missing = await app.request('/sign-in', json({ login: 'ann' }));
    expect(await missing.json()).toMatchObject({ error: 'password: Required', field: 'password' });
    const nested = await app.request('/campaign', json({ campaign: { email: 'x', extra: 1 } }));
    expect(await nested.json()).toMatchObject({
      error: 'campaign.email: Please enter a valid email address.',
      field: 'campaign.email',
      issues: [
        { path: 'campaign.email', message: 'Please enter a valid email address.' },
        { path: 'campaign.extra', message: 'Unknown field' },
      ],
    });
  });

  it('checks the content type and JSON syntax before validating', async () => {
    const text = await app.request('/sign-in', { method: 'POST', body: 'login=ann' });
    expect(text.status).toBe(415);
    const broken = await app.request('/sign-in', {
      method: 'POST',
      body: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: 'Request body is not valid JSON.' });
  });

  it('validates query strings and refuses unknown parameters', async () => {
    expect(await (await app.request('/plans?couponCode=SPRING')).json()).toEqual({ couponCode: 'SPRING' });
    const unknown = await app.request('/plans?coupon=SPRING');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'Unknown parameter: coupon', field: 'coupon' });
    const repeated = await app.request('/plans?couponCode=A&couponCode=B');
    expect(repeated.status).toBe(400);
  });
});

describe('CORS for the site origins', () => {
  const app = new Hono().use(siteCors([SITE])).post('/auth/signin', (c) => c.json({ ok: true }));

  it('lets the site read answers with credentials, echoing its origin', async () => {
    const res = await app.request('/auth/signin', { method: 'POST', headers: { Origin: SITE } });
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('grants nothing to other origins', async () => {
    const res = await app.request('/auth/signin', {
      method: 'POST',
      headers: { Origin: 'https://evil.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('answers a preflight from the site without reaching the handler', async () => {
    const res = await app.request('/auth/signin', {
      method: 'OPTIONS',
      headers: {
        Origin: SITE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
  });

  it('refuses a preflight from another origin', async () => {
    const res = await app.request('/auth/signin', {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toEqual({ error: 'Cross-site request refused.' });
  });

  it('defaults to the local site on its usual port and on PORT, and reads SITE_ORIGINS when set', () => {
    expect(siteOrigins({ PORT: '5000' })).toEqual([
      'http://localhost:4321',
      'http://127.0.0.1:4321',
      'http://localhost:5000',
      'http://127.0.0.1:5000',
    ]);
    expect(siteOrigins({ SITE_ORIGINS: 'https://www.example.com/, https://example.com' })).toEqual([
      'https://www.example.com',
      'https://example.com',
    ]);
    expect(() => siteOrigins({ SITE_ORIGINS: '*' })).toThrow(/SITE_ORIGINS/);
    expect(() => siteCors(['*'])).toThrow();
  });
});

describe('cross-site request check', () => {
  const app = new Hono()
    .use(originCheck([SITE]))
    .post('/account', (c) => c.json({ changed: true }))
    .get('/account', (c) => c.json({ read: true }));
  const cookie = { Cookie: 'session=abc' };

  it('refuses a cookie-bearing POST from another site', async () => {
    const res = await app.request('http://localhost:4321/account', {
      method: 'POST',
      headers: { ...cookie, Origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'Cross-site request refused.' });
  });

  it('refuses a cookie-bearing POST that names no origin, or the opaque "null" origin', async () => {
    for (const headers of [cookie, { ...cookie, Origin: 'null', Referer: `${SITE}/account` }]) {
      const res = await app.request('http://localhost:4321/account', { method: 'POST', headers });
      expect(res.status).toBe(403);
    }
  });

  it('passes same-origin and allowlisted requests, judging by Referer when Origin is absent', async () => {
    const sameOrigin = await app.request('http://api.example.com/account', {
      method: 'POST',
      headers: { ...cookie, Origin: 'http://api.example.com' },
    });
    expect(sameOrigin.status).toBe(200);
    const allowed = await app.request('http://api.example.com/account', {
      method: 'DELETE',
      headers: { ...cookie, Origin: SITE },
    });
    expect(allowed.status).toBe(404);
    const byReferer = await app.request('http://api.example.com/account', {
      method: 'POST',
      headers: { ...cookie, Referer: `${SITE}/sign-in?next=/account` },
    });
    expect(byReferer.status).toBe(200);
    const evilReferer = await app.request('http://api.example.com/account', {
      method: 'POST',
      headers: { ...cookie, Referer: 'https://evil.example/page' },
    });
    expect(evilReferer.status).toBe(403);
  });

  it('leaves cookieless requests and reads alone', async () => {
    const cookieless = await app.request('/account', {
      method: 'POST',
      headers: { Origin: 'https://evil.example' },
    });
    expect(cookieless.status).toBe(200);
    const read = await app.request('/account', { headers: { ...cookie, Origin: 'https://evil.example' } });
    expect(read.status).toBe(200);
  });

  it('recognises the https origin behind a trusted TLS-terminating proxy', async () => {
    const init = {
      method: 'POST',
      headers: { ...cookie, Origin: 'https://api.example.com', 'X-Forwarded-Proto': 'https' },
    };
    expect((await app.request('http://api.example.com/account', init)).status).toBe(403);
    process.env.TRUST_PROXY = '1';
    expect((await app.request('http://api.example.com/account', init)).status).toBe(200);
  });
});

describe('client addresses', () => {
  const app = new Hono().get('/ip', (c) => c.json({ ip: clientIp(c), key: ipKey(c) }));

  it('is unknown without a socket, and ignores X-Forwarded-For unless the proxy is trusted', async () => {
    const headers = { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' };
    expect(await (await app.request('/ip', { headers })).json()).toEqual({
      ip: 'unknown',
      key: 'ip:unknown',
    });
    process.env.TRUST_PROXY = '1';
    expect(await (await app.request('/ip', { headers })).json()).toEqual({
      ip: '203.0.113.9',
      key: 'ip:203.0.113.9',
    });
  });

  it('groups IPv6 clients by their /64 network', async () => {
    process.env.TRUST_PROXY = '1';
    const res = await app.request('/ip', { headers: { 'X-Forwarded-For': '2001:db8:a:b:1:2:3:4' } });
    expect(await res.json()).toEqual({ ip: '2001:db8:a:b:1:2:3:4', key: 'ip:2001:db8:a:b::/64' });
  });

  it('reads the address Astro recorded for the request', async () => {
    const request = new Request('http://localhost/ip');
    Reflect.set(request, Symbol.for('astro.clientAddress'), '::ffff:192.0.2.4');
    expect(await (await app.request(request)).json()).toMatchObject({ ip: '192.0.2.4' });
  });

  it('reads the address Astro’s dev server hands over in its render options', async () => {
    const request = new Request('http://localhost/ip');
    Reflect.set(request, Symbol.for('astro.renderOptions'), { clientAddress: '192.0.2.5' });
    expect(await (await app.request(request)).json()).toMatchObject({ ip: '192.0.2.5' });
  });

  it('still knows the address after the body limit has read the body', async () => {
    const limited = new Hono()
      .use(bodyLimit(1024))
      .post('/ip', async (c) => c.json({ ip: clientIp(c), body: await c.req.text() }));
    const request = new Request('http://localhost/ip', { method: 'POST', body: 'hello' });
    Reflect.set(request, Symbol.for('astro.clientAddress'), '192.0.2.6');
    expect(await (await limited.request(request)).json()).toEqual({ ip: '192.0.2.6', body: 'hello' });
  });

  it('reads the socket address under the Node server', async () => {
    const server = createAdaptorServer({ fetch: app.fetch }) as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/ip`);
      expect(await res.json()).toMatchObject({ ip: '127.0.0.1' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

type Requester = Pick<Hono, 'request'>;

/** A sign-in route limited per client address and per account named in the body. */
const signInBody = z.object({ login: usernameOrEmailSchema, password: z.string() });

function signInApp(store: RateLimitStore, limit = 3): Requester {
  return new Hono().post(
    '/auth/signin',
    jsonBody(signInBody),
    rateLimit<JsonInput<typeof signInBody>>({
      name: 'signin',
      limit,
      windowMs: 60_000,
      store,
      key: (c) => [ipKey(c), `login:${c.req.valid('json').login}`],
    }),
    (c) => c.json({ ok: true }),
  );
}

function signInAs(app: Requester, login: string, ip = '203.0.113.1'): Promise<Response> {
  return Promise.resolve(
    app.request('/auth/signin', json({ login, password: 'pw' }, { 'X-Forwarded-For': ip })),
  );
}

describe('rate limiting in memory', () => {
  it('refuses with 429 and Retry-After once the budget is spent, announcing the budget as it goes', async () => {
    const app = signInApp(new MemoryStore());
    const remaining: (string | null)[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const res = await signInAs(app, 'ann@example.com');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"signin";q=3;w=60');
      remaining.push(res.headers.get('ratelimit'));
    }
    expect(remaining.map((value) => value?.replace(/;t=\d+$/, ''))).toEqual([
      '"signin";r=2',
      '"signin";r=1',
      '"signin";r=0',
    ]);
    const refused = await signInAs(app, 'ann@example.com');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ error: `Too many requests. Try again in ${retryAfter} seconds.` });
    expect(refused.headers.get('ratelimit')).toBe(`"signin";r=0;t=${retryAfter}`);
    expect(refused.headers.get('ratelimit-policy')).toBe('"signin";q=3;w=60');
  });

  it('limits an account across client addresses, and an address across accounts', async () => {
    process.env.TRUST_PROXY = '1';
    const app = signInApp(new MemoryStore());
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      expect((await signInAs(app, 'bo@example.com', ip)).status).toBe(200);
    }
    expect((await signInAs(app, 'BO@example.com', '198.51.100.4')).status).toBe(429);
    for (const login of ['cy', 'di', 'ed'])
      expect((await signInAs(app, login, '198.51.100.9')).status).toBe(200);
    expect((await signInAs(app, 'fay', '198.51.100.9')).status).toBe(429);
    expect((await signInAs(app, 'fay', '198.51.100.10')).status).toBe(200);
  });

  it('frees a slot as the oldest request leaves the sliding window', async () => {
    let now = 1_000_000;
    const store = new MemoryStore({ now: () => now });
    expect((await store.hit('k', 10_000, 2)).allowed).toBe(true);
    now += 4000;
    expect((await store.hit('k', 10_000, 2)).allowed).toBe(true);
    const refused = await store.hit('k', 10_000, 2);
    expect(refused).toEqual({ allowed: false, remaining: 0, resetMs: 6000 });
    now += 6000;
    expect(await store.hit('k', 10_000, 2)).toEqual({ allowed: true, remaining: 0, resetMs: 4000 });
  });

  it('counts every request of a busy millisecond and refuses the one over the limit', () => {
    const now = 5_000;
    const store = new MemoryStore({ now: () => now });
    for (let index = 0; index < 3; index += 1) expect(store.hitNow('k', 1000, 3).allowed).toBe(true);
    expect(store.hitNow('k', 1000, 3)).toEqual({ allowed: false, remaining: 0, resetMs: 1000 });
  });

  it('stays exact over long runs as old requests leave the window', () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now });
    // Three requests a millisecond for ten windows: 200 fit in each 100 ms, taken in its first 67 ms.
    let allowed = 0;
    for (; now < 1000; now += 1) {
      for (let index = 0; index < 3; index += 1) if (store.hitNow('k', 100, 200).allowed) allowed += 1;
    }
    expect(allowed).toBe(200 * 10);
    // At 1000 the three requests of 900 have left: one of their places taken, two left.
    expect(store.hitNow('k', 100, 200)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('evicts the least recently used key when the key count is capped', () => {
    const store = new MemoryStore({ maxKeys: 3, now: () => 0 });
    for (const key of ['a', 'b', 'c', 'a', 'd']) store.hitNow(key, 1000, 5);
    // 'b' was used least recently, so it went: it starts again with a full budget.
    expect(store.hitNow('b', 1000, 5).remaining).toBe(4);
    expect(store.hitNow('a', 1000, 5).remaining).toBe(2);
  });

  it('keeps memory bounded: stale keys are swept and the key count is capped', async () => {
    let now = 0;
    const store = new MemoryStore({ maxKeys: 3, now: () => now });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await store.hit(key, 1000, 5);
    expect(store.size).toBe(3);
    now += 1000;
    store.sweep();
    expect(store.size).toBe(0);
  });
});

describe('rate limiting in Redis', () => {
  const prefix = `test:ratelimit:${process.pid}:${randomUUID()}:`;
  const stores: RedisStore[] = [];
  let admin: Redis;

  beforeAll(() => {
    admin = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  function redisStore(): RedisStore {
    const store = new RedisStore(REDIS_URL, { prefix, fallback: new MemoryStore() });
    stores.push(store);
    return store;
  }

  it('shares one budget between processes', async () => {
    const first = signInApp(redisStore());
    const second = signInApp(redisStore());
    expect((await signInAs(first, 'gil@example.com')).status).toBe(200);
    expect((await signInAs(second, 'gil@example.com')).status).toBe(200);
    expect((await signInAs(first, 'gil@example.com')).status).toBe(200);
    const refused = await signInAs(second, 'gil@example.com');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toMatch(/^"signin";r=0;t=\d+$/);
    expect(refused.headers.get('ratelimit-policy')).toBe('"signin";q=3;w=60');
    expect(await admin.keys(`${prefix}*`)).not.toHaveLength(0);
  });

  it('never lets concurrent requests overspend the budget', async () => {
    const [a, b] = [redisStore(), redisStore()];
    const key = `burst:${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).hit(key, 60_000, 5)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(5);
  });

  it('stores no e-mail addresses in key names', async () => {
    await signInAs(signInApp(redisStore()), 'private.person@example.com');
    const keys = await admin.keys(`${prefix}*`);
    expect(keys.join(' ')).not.toContain('private.person');
  });

  it('fails open within a second, with one warning, when Redis cannot be reached', async () => {
    const warn = vi.fn();
    const store = createRateLimitStore({ redisUrl: 'redis://:hunter2@127.0.0.1:1', warn });
    try {
      const app = signInApp(store, 100);
      const started = performance.now();
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await signInAs(app, 'hal@example.com')).status).toBe(200);
      }
      expect(performance.now() - started).toBeLessThan(1000);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).not.toContain('hunter2');
    } finally {
      await store.close();
    }
  });

  it.each([
    ['memory', (): RateLimitStore => new MemoryStore()],
    ['Redis', (): RateLimitStore => new RedisStore(REDIS_URL, { prefix })],
  ])('reports a window without counting and takes back a count, in %s', async (_name, make) => {
    const store = make();
    try {
      const key = `peek-${randomUUID()}`;
      await store.hit(key, 60_000, 3);
      await store.hit(key, 60_000, 3);
      expect(await store.peek(key, 60_000, 3)).toMatchObject({ allowed: true, remaining: 1 });
      expect(await store.peek(key, 60_000, 3)).toMatchObject({ allowed: true, remaining: 1 });
      await store.release(key);
      expect((await store.hit(key, 60_000, 3)).remaining).toBe(1);
      expect((await store.hit(key, 60_000, 3)).remaining).toBe(0);
      expect(await store.peek(key, 60_000, 3)).toMatchObject({ allowed: false, remaining: 0 });
    } finally {
      await store.close();
    }
  });

  it('uses Redis when REDIS_URL is set and memory otherwise', async () => {
    delete process.env.REDIS_URL;
    const memory = createRateLimitStore();
    expect(memory).toBeInstanceOf(MemoryStore);
    await memory.close();
    process.env.REDIS_URL = REDIS_URL;
    const redis = createRateLimitStore({ prefix });
    expect(redis).toBeInstanceOf(RedisStore);
    await redis.close();
  });
});

describe('error answers', () => {
  const app = new Hono()
    .get('/bug', () => {
      throw new Error('lookup failed for postgres://app:hunter2@db/accounts with token=abc123');
    })
    .get('/database-down', () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    })
    .get('/refused', () => {
      throw new HTTPException(401, { message: 'Please sign in.' });
    });
  app.onError(handleApiError);

  it('hides the cause of a 500 from the client but logs it without secrets', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await app.request('/bug');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: INTERNAL_ERROR_MESSAGE });
    expect(text).not.toContain('hunter2');
    expect(text).not.toMatch(/at .*\.ts/);
    const line = logged.mock.calls.map((call) => call.join(' ')).join('\n');
    expect(line).toContain('GET /bug');
    expect(line).toContain('lookup failed');
    expect(line).not.toContain('hunter2');
    expect(line).not.toContain('abc123');
  });

  it('answers 503 with Retry-After when the database is unreachable', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const res = await app.request('/database-down');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ error: UNAVAILABLE_MESSAGE });
  });

  it('keeps the status and message of deliberate HTTP errors', async () => {
    const res = await app.request('/refused');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Please sign in.' });
  });

  it('recognises a closed PGlite and a refused PostgreSQL connection, however wrapped', async () => {
    const pglite = new PGlite();
    await pglite.close();
    const closed = await pglite.query('select 1').catch((error: unknown) => error);
    expect(isDatabaseUnavailable(closed)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: closed }))).toBe(true);

    const sql = postgres('postgres://127.0.0.1:1/nowhere', { connect_timeout: 2, max: 1 });
    const refused = await sql`select 1`.catch((error: unknown) => error);
    await sql.end({ timeout: 1 });
    expect(isDatabaseUnavailable(refused)).toBe(true);

    expect(isDatabaseUnavailable(new Error('duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax'), { code: '42601' }))).toBe(false);
  });

  it('redacts credentials, tokens and query parameters from log text', () => {
    const text = redactSecrets(
      'postgres://app:hunter2@db/x Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln ' +
        'password=pa55 {"refreshToken":"r-123"}\nparams: ann@example.com,secret1',
    );
    for (const secret of ['hunter2', 'eyJhbGci', 'pa55', 'r-123', 'ann@example.com', 'secret1']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('the protection layer assembled', () => {
  const app = new Hono()
    .use(securityHeaders(), siteCors([SITE]), originCheck([SITE]), bodyLimit(16 * 1024), requireJson())
    .post(
      '/auth/signin',
      noStore(),
      rateLimit({ name: 'signin-ip', limit: 2, windowMs: 60_000, store: new MemoryStore(), key: ipKey }),
      jsonBody(z.object({ login: usernameOrEmailSchema, password: z.string().min(1) })),
      (c) => c.json({ login: c.req.valid('json').login }),
    );
  app.onError(handleApiError);

  it('serves the site and refuses everyone else, with the protective headers on every answer', async () => {
    const fromSite = await app.request(
      `${SITE}/auth/signin`,
      json({ login: 'Ann', password: 'x' }, { Origin: SITE, Cookie: 'theme=dark' }),
    );
    expect(fromSite.status).toBe(200);
    expect(fromSite.headers.get('cache-control')).toBe('no-store');
    expect(fromSite.headers.get('access-control-allow-origin')).toBe(SITE);

    const crossSite = await app.request(
      `${SITE}/auth/signin`,
      json({ login: 'Ann', password: 'x' }, { Origin: 'https://evil.example', Cookie: 'theme=dark' }),
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('x-content-type-options')).toBe('nosniff');

    await app.request(`${SITE}/auth/signin`, json({ login: 'Ann', password: 'x' }));
    const limited = await app.request(`${SITE}/auth/signin`, json({ login: 'Ann', password: 'x' }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-frame-options')).toBe('DENY');
    expect(limited.headers.get('cache-control')).toBe('no-store');
  });
});
