import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { cacheLifetimeMs, isSymbolPagePath, pageCache } from '../../src/server/middleware/page-cache.ts';

const PUBLIC = 'public, max-age=60, stale-while-revalidate=300';

interface Harness {
  app: Hono;
  /** Renders per path (query string included). */
  renders: Map<string, number>;
  advance(ms: number): void;
  get(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * A tiny site behind the cache: `/page/:id` answers with the Cache-Control, status and cookie the
 * query asks for, and counts its renders, so each test sees whether the handler ran.
 */
function harness(options: { maxEntries?: number; gate?: Promise<void> } = {}): Harness {
  let now = 1_000_000;
  const renders = new Map<string, number>();
  const app = new Hono();
  app.use(
    pageCache({
      match: (pathname) => pathname.startsWith('/page/'),
      maxEntries: options.maxEntries ?? 10,
      ttlMs: 30_000,
      clock: () => now,
    }),
  );
  const handler = async (c: import('hono').Context): Promise<Response> => {
    const key = `${c.req.path}${new URL(c.req.url).search}`;
    const count = (renders.get(key) ?? 0) + 1;
    renders.set(key, count);
    await options.gate;
    const headers: Record<string, string> = {
      'Cache-Control': c.req.query('cc') ?? PUBLIC,
      'Content-Type': 'text/html',
    };
    if (c.req.query('cookie') !== undefined) headers['Set-Cookie'] = 'session=abc';
    const status = Number(c.req.query('status') ?? 200);
    return new Response(`<p>${key} render ${count}</p>`, {
      status,
      headers,
    });
  };
  app.get('/page/:id', handler);
  app.get('/other/:id', handler);
  return {
    app,
    renders,
    advance(ms) {
      now += ms;
    },
    get: (path, init) => Promise.resolve(app.request(path, init)),
  };
}

describe('page cache', () => {
  it('serves a second request within the lifetime without calling the handler', async () => {
    const site = harness();
    const first = await site.get('/page/AAPL');
    const firstBody = await first.text();
    site.advance(12_500);
    const second = await site.get('/page/AAPL');

    expect(site.renders.get('/page/AAPL')).toBe(1);
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(firstBody);
    expect(second.headers.get('cache-control')).toBe(PUBLIC);
    expect(second.headers.get('content-type')).toBe('text/html');
    expect(second.headers.get('age')).toBe('12');
    expect(first.headers.get('age')).toBe('0');
  });

  it('renders again once the 30 s ceiling has passed, though the page allows 60 s', async () => {
    const site = harness();
    await site.get('/page/AAPL');
    site.advance(29_999);
    await site.get('/page/AAPL');
    expect(site.renders.get('/page/AAPL')).toBe(1);
    site.advance(1);
    const again = await site.get('/page/AAPL');
    expect(site.renders.get('/page/AAPL')).toBe(2);
    expect(await again.text()).toContain('render 2');
  });

  it('keeps a page no longer than its own shorter max-age', async () => {
    const site = harness();
    const path = `/page/AAPL?cc=${encodeURIComponent('public, max-age=5')}`;
    await site.get(path);
    site.advance(4_000);
    await site.get(path);
    expect(site.renders.get(path)).toBe(1);
    site.advance(1_000);
    await site.get(path);
    expect(site.renders.get(path)).toBe(2);
  });

  it('never keeps answers that are not public, not 200, or set a cookie', async () => {
    const site = harness();
    const paths = [
      `/page/A?cc=${encodeURIComponent('private, max-age=60')}`,
      `/page/B?cc=${encodeURIComponent('no-store')}`,
      `/page/C?cc=${encodeURIComponent('public, no-cache, max-age=60')}`,
      `/page/D?cc=${encodeURIComponent('public')}`,
      `/page/E?cc=${encodeURIComponent('max-age=60')}`,
      '/page/F?status=404',
      '/page/G?status=500',
      '/page/H?cookie=1',
    ];
    for (const path of paths) {
      const first = await site.get(path);
      await first.text();
      const second = await site.get(path);
      expect(await second.text(), path).toContain('render 2');
      expect(second.headers.get('age'), path).toBeNull();
    }
    expect([...site.renders.values()]).toEqual(paths.map(() => 2));
  });

  it('passes other paths and methods straight to the handler', async () => {
    const site = harness();
    await site.get('/other/AAPL');
    await site.get('/other/AAPL');
    expect(site.renders.get('/other/AAPL')).toBe(2);
    const app = new Hono();
    let posts = 0;
    app.use(pageCache({ match: () => true, maxEntries: 10, ttlMs: 30_000 }));
    app.post('/page/x', (c) => {
      posts += 1;
      return c.text('ok', 200, { 'Cache-Control': PUBLIC });
    });
    await app.request('/page/x', { method: 'POST' });
    await app.request('/page/x', { method: 'POST' });
    expect(posts).toBe(2);
  });

  it('keys pages by path and query string', async () => {
    const site = harness();
    await site.get('/page/AAPL?period=annual');
    await site.get('/page/AAPL?period=quarter');
    await site.get('/page/AAPL?period=annual');
    expect(site.renders.get('/page/AAPL?period=annual')).toBe(1);
    expect(site.renders.get('/page/AAPL?period=quarter')).toBe(1);
  });

  it('holds no more pages than its bound, dropping the least recently used', async () => {
    const site = harness({ maxEntries: 2 });
    await site.get('/page/A');
    await site.get('/page/B');
    await site.get('/page/A'); // A is now the most recently used
    await site.get('/page/C'); // B goes
    await site.get('/page/A');
    await site.get('/page/C');
    expect(site.renders.get('/page/A')).toBe(1);
    expect(site.renders.get('/page/C')).toBe(1);
    await site.get('/page/B');
    expect(site.renders.get('/page/B')).toBe(2);
  });

  it('renders once for concurrent misses of one page', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const site = harness({ gate });
    const answers = Array.from({ length: 5 }, () => site.get('/page/AAPL'));
    open();
    const bodies = await Promise.all(answers.map(async (answer) => (await answer).text()));
    expect(site.renders.get('/page/AAPL')).toBe(1);
    expect(new Set(bodies).size).toBe(1);
  });

  it('lets each waiting request render its own answer when the shared one is not kept', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const site = harness({ gate });
    const path = `/page/AAPL?cc=${encodeURIComponent('private, max-age=60')}`;
    const answers = Array.from({ length: 3 }, () => site.get(path));
    open();
    const bodies = await Promise.all(answers.map(async (answer) => (await answer).text()));
    expect(site.renders.get(path)).toBe(3);
    expect(new Set(bodies).size).toBe(3);
  });

  it('answers HEAD from a stored page without a body', async () => {
    const site = harness();
    const get = await site.get('/page/AAPL');
    const length = (await get.arrayBuffer()).byteLength;
    const head = await site.get('/page/AAPL', { method: 'HEAD' });
    expect(site.renders.get('/page/AAPL')).toBe(1);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('cacheLifetimeMs', () => {
  const answer = (headers: Record<string, string>, status = 200): Response =>
    new Response('x', { status, headers });

  it('prefers s-maxage and caps the lifetime at the ceiling', () => {
    expect(cacheLifetimeMs(answer({ 'Cache-Control': 'public, max-age=60, s-maxage=10' }), 30_000)).toBe(
      10_000,
    );
    expect(cacheLifetimeMs(answer({ 'Cache-Control': PUBLIC }), 30_000)).toBe(30_000);
  });

  it('refuses answers that vary on request headers', () => {
    expect(cacheLifetimeMs(answer({ 'Cache-Control': PUBLIC, Vary: 'Origin' }), 30_000)).toBe(0);
  });
});

describe('isSymbolPagePath', () => {
  it('accepts a known page name followed by a symbol', () => {
    expect(isSymbolPagePath('/financial-summary/AAPL')).toBe(true);
    expect(isSymbolPagePath('/index-summary/%5EGSPC')).toBe(true);
  });

  it('rejects unknown page names, missing symbols and deeper paths', () => {
    expect(isSymbolPagePath('/search/AAPL')).toBe(false);
    expect(isSymbolPagePath('/chart/')).toBe(false);
    expect(isSymbolPagePath('/chart/AAPL/extra')).toBe(false);
    expect(isSymbolPagePath('/chart')).toBe(false);
    expect(isSymbolPagePath('/api/chart/AAPL')).toBe(false);
  });
});
