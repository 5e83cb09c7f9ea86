import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import {
  changelogEntrySchema,
  changelogFeed,
  sortChangelog,
  unknownEndpoints,
  unmentionedEndpoints,
  type ChangelogItem,
} from '../../src/server/docs/changelog.ts';
import { LEGACY_ROUTES } from '../../src/server/data-api/legacy.ts';
import { cycleTimes, cycleTimesMarkdown, legacyCycleTimes } from '../../src/server/docs/cycle-times.ts';

/** The changelog's entries as the collection reads them: front matter checked by the same schema. */
function changelogEntries(): { id: string; data: ReturnType<typeof changelogEntrySchema.parse> }[] {
  const dir = path.resolve('src/content/changelog');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => {
      const text = readFileSync(path.join(dir, name), 'utf8');
      const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
      return { id: name.replace(/\.md$/, ''), data: changelogEntrySchema.parse(parseYaml(front)) };
    });
}

describe('the cycle times', () => {
  it('list every endpoint once, by group, with how often and when its data is refreshed', () => {
    const groups = cycleTimes();
    expect(groups.flatMap((group) => group.rows.map((row) => row.path))).toEqual(
      ALL_ENDPOINTS.map((definition) => definition.path),
    );
    const charts = groups.find((group) => group.name === 'Charts');
    expect(charts?.labels).toEqual(['Intraday', 'End of day']);
    expect(charts?.rows.find((row) => row.path === 'historical-chart/5min')?.when).toContain(
      '5-minute interval',
    );
    expect(cycleTimesMarkdown(groups, 'Intro.')).toContain(
      '| [`/stable/quote`](/developer/docs/stable/quote.md) Stock quote | Real-time |',
    );
  });

  it('give every legacy path the cadence of the stable endpoint that answers it', () => {
    const groups = legacyCycleTimes();
    const rows = groups.flatMap((group) => group.rows);
    expect(rows.map((row) => row.path)).toEqual(LEGACY_ROUTES.map((route) => `/api/v3/${route.path}`));
    const quote = rows.find((row) => row.path === '/api/v3/quote/{symbol}');
    const stable = cycleTimes()
      .flatMap((group) => group.rows)
      .find((row) => row.path === 'quote');
    expect(quote).toMatchObject({
      stablePath: 'quote',
      href: '/developer/docs/stable/quote',
      label: stable?.label,
      when: stable?.when,
    });
    expect(groups.map((group) => group.name)).toContain('Quotes');
  });
});

describe('the changelog', () => {
  it('mentions every endpoint in the definitions in at least one entry', () => {
    expect(
      unmentionedEndpoints(
        changelogEntries(),
        ALL_ENDPOINTS.map((definition) => definition.path),
      ),
    ).toEqual([]);
  });

  it('names no endpoint that does not exist', () => {
    expect(
      unknownEndpoints(
        changelogEntries(),
        ALL_ENDPOINTS.map((definition) => definition.path),
      ),
    ).toEqual([]);
  });

  it('finds the endpoint an entry forgets, and the one it misspells', () => {
    const entries = [{ data: { endpoints: ['quote', 'qoute'] } }];
    expect(unmentionedEndpoints(entries, ['quote', 'profile'])).toEqual(['profile']);
    expect(unknownEndpoints(entries, ['quote', 'profile'])).toEqual(['qoute']);
  });

  it('is an RSS feed of the entries, newest first, with absolute links and escaped text', () => {
    const items: ChangelogItem[] = [
      {
        id: 'older',
        data: {
          title: 'Quotes & more',
          date: new Date('2026-11-22'),
          type: 'new endpoint',
          endpoints: ['quote'],
        },
        html: '<p>See <a href="/developer/docs/stable/quote">quote</a>.</p>',
      },
      {
        id: 'newer',
        data: { title: 'A change', date: new Date('2026-11-24'), type: 'change', endpoints: [] },
        html: '<p>Text</p>',
      },
    ];
    const feed = changelogFeed(items, 'https://example.org', { title: 'API changelog', description: 'All.' });
    expect(feed).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    expect(feed.indexOf('<title>A change</title>')).toBeLessThan(
      feed.indexOf('<title>Quotes &amp; more</title>'),
    );
    expect(feed).toContain('<link>https://example.org/developer/docs/changelog/#older</link>');
    expect(feed).toContain('<pubDate>Sun, 22 Nov 2026 00:00:00 GMT</pubDate>');
    expect(feed).toContain('<category>New endpoint</category>');
    expect(feed).toContain('&lt;a href=&quot;https://example.org/developer/docs/stable/quote&quot;&gt;');
    expect(feed).toContain('Endpoints: /stable/quote');
    expect(feed).toContain('<lastBuildDate>Tue, 24 Nov 2026 00:00:00 GMT</lastBuildDate>');
    expect(sortChangelog(items).map((item) => item.id)).toEqual(['newer', 'older']);
  });

  it('dates every entry on or after the first endpoints arrived', () => {
    for (const entry of changelogEntries()) {
      expect(entry.data.date.getTime(), entry.id).toBeGreaterThanOrEqual(Date.parse('2026-11-22'));
      expect(entry.id.startsWith(entry.data.date.toISOString().slice(0, 10)), entry.id).toBe(true);
    }
  });
});
