import { expect, test } from '@playwright/test';

test.describe('serving the built site', () => {
  test('the site reports itself alive and ready with its database and identity provider', async ({
    request,
  }) => {
    expect((await request.get('/api/livez')).status()).toBe(200);
    const ready = await request.get('/api/readyz');
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', identity: 'ok' } });
  });

  test('the data API answers its own health checks on its own port', async ({ request, baseURL }) => {
    const dataApi = new URL(baseURL ?? '');
    dataApi.port = process.env.E2E_DATA_API_PORT ?? '4352';
    const res = await request.get(new URL('/readyz', dataApi).href);
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  test('hashed assets come compressed with long immutable caching', async ({ page, request }) => {
    const assets: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/_astro/') && /\.(js|css)$/.test(url.pathname)) assets.push(url.pathname);
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const res = await request.get(asset, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.status(), asset).toBe(200);
      expect(res.headers()['cache-control'], asset).toBe('public, max-age=31536000, immutable');
      const body = await res.body();
      if (body.length >= 512) expect(res.headers()['content-encoding'], asset).toMatch(/^(br|gzip)$/);
    }
  });

  test('an unknown page answers 404 with a helpful page', async ({ page }) => {
    const res = await page.goto('/no-such-page-here');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});
