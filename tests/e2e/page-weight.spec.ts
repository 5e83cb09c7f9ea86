import path from 'node:path';
import { expect, test } from '@playwright/test';
import { pageScripts } from '../../scripts/size.ts';

test('a content page ships no JavaScript beyond the shell islands', async () => {
  const pages = await pageScripts(path.resolve('dist/client'));
  const home = pages.find((p) => p.page === '/');
  const terms = pages.find((p) => p.page === '/terms-of-service');
  expect(home, 'home page in the build').toBeDefined();
  expect(terms, 'terms page in the build').toBeDefined();
  const islandNames = (p: typeof home) => (p?.islands ?? []).map((i) => i.name).sort();
  expect(islandNames(terms)).toEqual(islandNames(home));
  const urls = (p: typeof home) => new Set((p?.files ?? []).map((f) => f.url));
  expect([...urls(terms)].filter((u) => !urls(home).has(u))).toEqual([]);
});
