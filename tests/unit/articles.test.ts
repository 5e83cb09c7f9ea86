import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import sax from 'sax';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { isSymbolPagePath } from '../../src/lib/routes.ts';
import { filterStatus, matchesTag } from '../../src/lib/articles/tag-filter.ts';
import {
  articleItem,
  articleProblems,
  articleSchema,
  authorSchema,
  newestFirst,
  readingMinutes,
  relatedArticles,
  tagCounts,
  wantsTableOfContents,
  type ArticleData,
  type ArticleItem,
} from '../../src/server/articles/articles.ts';
import { articleFeed, type FeedArticle } from '../../src/server/articles/feed.ts';
import { articleJsonLd, articleMetaTags } from '../../src/server/articles/metadata.ts';
import { codeSamples, RUNNABLE_LANGUAGES, runnableSamples } from '../../src/server/articles/samples.ts';
import {
  ARTICLE_SECTION_IDS,
  ARTICLE_SECTIONS,
  feedPath,
  type ArticleSectionId,
} from '../../src/server/articles/sections.ts';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { FAMILIAR_SYMBOLS } from '../../src/server/services/market-data/seed/universe.ts';

/*
 * The article sections as the content layer reads them: every file's front matter checked by the
 * collections' own schema, the authors and related articles they name, their dates, the links in
 * their text, their code samples; and the pure parts of the pages (related articles, reading time,
 * the feed, the link-preview tags, the tag filter).
 */

const CONTENT = path.resolve('src/content');
const PAGES = path.resolve('src/pages');

interface ArticleFile extends ArticleItem {
  body: string;
}

/** A Markdown file split into its front matter (parsed) and its body. */
function splitFile(text: string): { front: unknown; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (match === null) throw new Error('no front matter');
  return { front: parseYaml(match[1] ?? ''), body: match[2] ?? '' };
}

/** Every article of every section, read as the collections read them. */
function articleFiles(): ArticleFile[] {
  return ARTICLE_SECTION_IDS.flatMap((section) => {
    const dir = path.join(CONTENT, ARTICLE_SECTIONS[section].folder);
    return readdirSync(dir)
      .filter((name) => name.endsWith('.md'))
      .map((name) => {
        const { front, body } = splitFile(readFileSync(path.join(dir, name), 'utf8'));
        const data = articleSchema.parse(front);
        return { ...articleItem(section, name.replace(/\.md$/, ''), data, body), body };
      });
  });
}

const articles = articleFiles();
const authors = new Map(
  Object.entries(
    parseYaml(readFileSync(path.join(CONTENT, 'authors.yaml'), 'utf8')) as Record<string, unknown>,
  ).map(([id, author]) => [id, authorSchema.parse(author)]),
);

/** Routes of the page files without parameters (`src/pages/faqs.astro` → `/faqs`). */
function staticRoutes(dir = PAGES, base = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name.includes('[') ? [] : staticRoutes(full, `${base}/${name}`);
    if (name.startsWith('_') || name.includes('[') || !/\.(astro|ts)$/.test(name)) return [];
    const stem = name.replace(/\.(astro|ts)$/, '');
    return [stem === 'index' ? base || '/' : `${base}/${stem}`];
  });
}

const docsIds = readdirSync(path.join(CONTENT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => name.replace(/\.md$/, ''));

/** Every address of the site a written link may lead to, apart from the per-symbol pages. */
const routes = new Set([
  ...staticRoutes(),
  ...docsIds.map((id) => `/developer/docs/${id}`),
  ...ALL_ENDPOINTS.map((endpoint) => `/developer/docs/stable/${endpoint.path}`),
  ...articles.map((article) => article.path),
]);

const familiar = new Set<string>(FAMILIAR_SYMBOLS);

/** Whether an internal link leads to a page: a route, or a per-symbol page of a demo symbol. */
function resolves(href: string): boolean {
  const target = href.split(/[?#]/)[0] ?? '';
  const normal = target.length > 1 ? target.replace(/\/$/, '') : target;
  if (routes.has(normal)) return true;
  return isSymbolPagePath(normal) && familiar.has(normal.split('/')[2] ?? '');
}

/** The site-relative link targets of a Markdown text, outside code. */
function internalLinks(markdown: string): string[] {
  const prose = codeSamples(markdown).reduce((text, sample) => text.replace(sample.code, ''), markdown);
  return [...prose.matchAll(/\]\((\/[^)\s]*)\)/g)].map((match) => match[1] ?? '');
}

function sample(
  overrides: Partial<ArticleData> & { path?: string; section?: ArticleSectionId } = {},
): ArticleItem {
  const { path: articlePath = '/blogs/a', section = 'blog', ...data } = overrides;
  return {
    section,
    id: articlePath.split('/').at(-1) ?? 'a',
    path: articlePath,
    minutes: 3,
    data: {
      title: 'A',
      description: 'About A.',
      author: 'maya-lindqvist',
      published: new Date('2026-11-24'),
      tags: ['valuation'],
      related: [],
      ...data,
    },
  };
}

describe('the article collections', () => {
  it('hold the articles each section promises: four or more DCF articles, six or more blog posts and eight or more how-to guides', () => {
    const count = (section: ArticleSectionId): number => articles.filter((a) => a.section === section).length;
    expect(count('dcfBlog')).toBeGreaterThanOrEqual(4);
    expect(count('blog') + count('devBlog')).toBeGreaterThanOrEqual(6);
    expect(count('blog')).toBeGreaterThan(0);
    expect(count('devBlog')).toBeGreaterThan(0);
    expect(count('howTo')).toBeGreaterThanOrEqual(8);
    expect(count('education')).toBeGreaterThanOrEqual(12);
  });

  it('name only authors of the authors file and related articles that exist', () => {
    expect(articleProblems(articles, new Set(authors.keys()))).toEqual([]);
    for (const author of authors.keys()) {
      expect(
        articles.some((article) => article.data.author === author),
        `${author} wrote nothing`,
      ).toBe(true);
    }
  });

  it('find an unknown author and a misspelt related address', () => {
    const broken = [sample({ author: 'nobody', related: ['/blogs/missing'] })];
    expect(articleProblems(broken, new Set(['maya-lindqvist']))).toEqual([
      '/blogs/a: no author "nobody"',
      '/blogs/a: no related article /blogs/missing',
    ]);
  });

  it('date every article in the product’s life, never in the future, updates on or after publication', () => {
    const now = Date.now();
    for (const article of articles) {
      const { published, updated } = article.data;
      expect(published.getTime(), article.path).toBeGreaterThanOrEqual(Date.parse('2026-11-22'));
      expect(published.getTime(), article.path).toBeLessThanOrEqual(now);
      if (updated !== undefined) {
        expect(updated.getTime(), article.path).toBeGreaterThanOrEqual(published.getTime());
        expect(updated.getTime(), article.path).toBeLessThanOrEqual(now);
      }
    }
  });

  it('refuses front matter whose update comes before its publication', () => {
    const front = {
      title: 'T',
      description: 'D',
      author: 'a',
      published: '2026-11-25',
      updated: '2026-11-24',
    };
    expect(articleSchema.safeParse(front).success).toBe(false);
    expect(articleSchema.safeParse({ ...front, updated: '2026-11-26' }).success).toBe(false);
    expect(articleSchema.safeParse({ ...front, updated: '2026-11-26', tags: ['Bad Tag'] }).success).toBe(
      false,
    );
    expect(articleSchema.safeParse({ ...front, updated: '2026-11-26', tags: ['ok-tag'] }).success).toBe(true);
  });

  it('link only to pages that exist: routes, written docs, endpoint references, articles, demo symbols', () => {
    const broken = articles.flatMap((article) =>
      internalLinks(article.body)
        .filter((href) => !resolves(href))
        .map((href) => `${article.path}: ${href}`),
    );
    expect(broken).toEqual([]);
    expect(articles.flatMap((article) => internalLinks(article.body)).length).toBeGreaterThan(30);
    // The checker itself tells a page from a typo.
    expect(resolves('/developer/docs/dcf-formula')).toBe(true);
    expect(resolves('/discounted-cash-flow-model/AAPL')).toBe(true);
    expect(resolves('/developer/docs/stable/quote')).toBe(true);
    expect(resolves('/developer/docs/dfc-formula')).toBe(false);
    expect(resolves('/discounted-cash-flow-model/NOPE')).toBe(false);
  });

  it('link each DCF article and each education lesson to a formula page and to a company page', () => {
    for (const article of articles.filter((a) => a.section === 'dcfBlog' || a.section === 'education')) {
      const links = internalLinks(article.body);
      expect(
        links.some(
          (href) => href.startsWith('/developer/docs/') && docsIds.includes(href.split('/')[3] ?? ''),
        ),
        article.path,
      ).toBe(true);
      expect(
        links.some((href) => isSymbolPagePath(href)),
        article.path,
      ).toBe(true);
    }
  });

  it('give every developer article and how-to guide code that runs, in a language the sample test runs', () => {
    for (const article of articles) {
      const runnable = runnableSamples(article.body);
      if (article.section === 'devBlog' || article.section === 'howTo')
        expect(runnable.length, article.path).toBeGreaterThan(0);
      for (const code of runnable) {
        expect(RUNNABLE_LANGUAGES as readonly string[], `${article.path}:${String(code.line)}`).toContain(
          code.language,
        );
      }
    }
  });

  it('write samples against the documented API address with the key placeholder, never a real key', () => {
    for (const article of articles) {
      for (const code of codeSamples(article.body)) {
        const where = `${article.path}:${String(code.line)}`;
        for (const url of code.code.match(/\b(?:https?|wss?):\/\/[^\s'"`)]+/g) ?? []) {
          // Namespace names (RSS modules, schema.org, SVG) name a vocabulary; nothing calls them.
          if (/^(?:http:\/\/purl\.org|https:\/\/schema\.org|http:\/\/www\.w3\.org)\//.test(url)) continue;
          expect(url, where).toMatch(/^http:\/\/localhost:4322\b/);
        }
        expect(code.code, where).not.toMatch(/apikey=(?!YOUR_API_KEY)[A-Za-z0-9]{8,}/);
      }
    }
  });
});

describe('the how-to guides', () => {
  const guides = articles.filter((article) => article.section === 'howTo');
  const endpointPaths = new Set(ALL_ENDPOINTS.map((endpoint) => endpoint.path));
  const PLAN_NAMES = /\b(?:Free|Starter|Professional|Power|Commercial)\b/;

  it('each say up front which plan they need and link to the reference of an endpoint they use', () => {
    for (const guide of guides) {
      const needs = /^## What you need$([\s\S]*?)^## /m.exec(guide.body)?.[1] ?? '';
      expect(needs, `${guide.path} opens with "What you need" naming a plan`).toMatch(PLAN_NAMES);
      const references = internalLinks(guide.body)
        .filter((href) => href.startsWith('/developer/docs/stable/'))
        .map((href) => href.replace('/developer/docs/stable/', '').split(/[?#]/)[0] ?? '');
      expect(references.length, guide.path).toBeGreaterThan(0);
      for (const reference of references) expect(endpointPaths.has(reference), reference).toBe(true);
    }
  });

  it('call only endpoints that exist, with the documented address', () => {
    const called = guides.flatMap((guide) =>
      codeSamples(guide.body).flatMap((code) =>
        [...code.code.matchAll(/localhost:4322\/stable\/([a-z0-9/-]+?)(?=[?"'\s`]|$)/g)].map((match) => ({
          where: guide.path,
          path: match[1] ?? '',
        })),
      ),
    );
    expect(called.length).toBeGreaterThan(10);
    expect(called.filter(({ path }) => !endpointPaths.has(path))).toEqual([]);
  });

  it('list the how-to guides in their own feed, well-formed, each guide in full', () => {
    const items: FeedArticle[] = guides.map((guide) => ({
      ...guide,
      authorName: authors.get(guide.data.author)?.name ?? '',
      html: guide.body,
    }));
    const xml = articleFeed('howTo', items, 'https://example.org');
    expect(() => sax.parser(true, { xmlns: true }).write(xml).close()).not.toThrow();
    const parsed = new XMLParser().parse(xml) as {
      rss: { channel: { title: string; link: string; item: { link: string }[] } };
    };
    expect(parsed.rss.channel.title).toBe('How-to guides | Tickerlake');
    expect(parsed.rss.channel.link).toBe('https://example.org/how-to');
    expect(parsed.rss.channel.item.map((item) => item.link).toSorted()).toEqual(
      guides.map((guide) => `https://example.org/how-to/${guide.id}`).toSorted(),
    );
  });
});

describe('the education section', () => {
  const lessons = articles.filter((article) => article.section === 'education');

  /** Words of prose, outside code, as the reading time counts them. */
  function proseWords(markdown: string): number {
    const prose = codeSamples(markdown).reduce((text, sample) => text.replace(sample.code, ''), markdown);
    return prose.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  }

  it('teaches each topic an investor needs, from the three statements to the price chart', () => {
    const ids = lessons.map((lesson) => lesson.id);
    for (const topic of [
      'income-statement',
      'balance-sheet',
      'cash-flow-statement',
      'valuation-ratios',
      'profitability',
      'liquidity-and-leverage',
      'discounted-cash-flow',
      'wacc',
      'piotroski',
      'owner-earnings',
      'price-chart',
      'dividends',
    ]) {
      expect(
        ids.some((id) => id.includes(topic)),
        topic,
      ).toBe(true);
    }
  });

  it('gives every lesson between 700 and 1400 words of prose', () => {
    for (const lesson of lessons) {
      const words = proseWords(lesson.body);
      expect(words, lesson.path).toBeGreaterThanOrEqual(700);
      expect(words, lesson.path).toBeLessThanOrEqual(1400);
    }
  });

  it('works through figures of the demo data and says they are demo data', () => {
    for (const lesson of lessons) expect(lesson.body, lesson.path).toMatch(/demo\s+data/);
  });

  it('lets a reader check most lessons with code that runs against the API', () => {
    const withCode = lessons.filter((lesson) => runnableSamples(lesson.body).length > 0);
    expect(withCode.length).toBeGreaterThanOrEqual(10);
  });

  it('leads each lesson to at least one other lesson, so the section reads as a course', () => {
    for (const lesson of lessons) {
      expect(
        internalLinks(lesson.body).some((href) => href.startsWith('/education/')),
        lesson.path,
      ).toBe(true);
    }
  });

  it('is offered as a valid RSS feed of every lesson at /education/rss.xml', () => {
    const xml = articleFeed(
      'education',
      lessons.map((lesson) => ({
        ...lesson,
        authorName: authors.get(lesson.data.author)?.name ?? '',
        html: '',
      })),
      'https://example.org',
    );
    expect(() => sax.parser(true, { xmlns: true }).write(xml).close()).not.toThrow();
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      rss: {
        channel: { title: string; link: string; 'atom:link': { '@_href': string }; item: { link: string }[] };
      };
    };
    const { channel } = parsed.rss;
    expect(feedPath('education')).toBe('/education/rss.xml');
    expect(channel.title).toBe('Education | Tickerlake');
    expect(channel.link).toBe('https://example.org/education');
    expect(channel['atom:link']['@_href']).toBe('https://example.org/education/rss.xml');
    expect(channel.item.map((item) => item.link).toSorted()).toEqual(
      lessons.map((lesson) => `https://example.org/education/${lesson.id}`).toSorted(),
    );
  });
});

describe('reading time', () => {
  it('counts prose at 230 words a minute and code by its lines, at least one minute', () => {
    expect(readingMinutes('word '.repeat(460))).toBe(2);
    expect(readingMinutes('Short.')).toBe(1);
    const code = ['```js', ...Array.from({ length: 45 }, () => 'const x = 1;'), '```'].join('\n');
    // 45 lines at 4 seconds are 3 minutes; the words inside the fence are not prose.
    expect(readingMinutes(code)).toBe(3);
  });

  it('gives the published articles between 2 and 20 minutes', () => {
    for (const article of articles) {
      expect(article.minutes, article.path).toBeGreaterThanOrEqual(2);
      expect(article.minutes, article.path).toBeLessThanOrEqual(20);
    }
  });
});

describe('related articles', () => {
  const a = sample({ path: '/blogs/a', tags: ['dcf', 'wacc', 'valuation'] });
  const b = sample({ path: '/blogs/b', tags: ['dcf', 'wacc'], published: new Date('2026-11-23') });
  const c = sample({ path: '/blogs/c', tags: ['valuation'], published: new Date('2026-11-26') });
  const d = sample({ path: '/blogs/d', tags: ['websockets'] });
  const e = sample({ path: '/blogs/e', tags: ['dcf'], published: new Date('2026-11-27') });

  it('list those sharing the most tags first, newer first among equals, and never the article itself', () => {
    expect(relatedArticles(a, [a, b, c, d, e]).map((item) => item.path)).toEqual([
      '/blogs/b',
      '/blogs/e',
      '/blogs/c',
    ]);
  });

  it('put the articles the front matter names first, and leave out those sharing no tag', () => {
    const named = { ...a, data: { ...a.data, related: ['/blogs/d'] } };
    expect(relatedArticles(named, [named, b, c, d, e], 2).map((item) => item.path)).toEqual([
      '/blogs/d',
      '/blogs/b',
    ]);
    expect(relatedArticles(d, [a, b, c, d, e])).toEqual([]);
  });

  it('suggest something for every published article', () => {
    for (const article of articles)
      expect(relatedArticles(article, articles).length, article.path).toBeGreaterThan(0);
  });
});

describe('an index', () => {
  it('lists articles newest first and its tags most used first', () => {
    const items = [
      sample({ path: '/blogs/old', published: new Date('2026-11-22'), tags: ['dcf'] }),
      sample({ path: '/blogs/new', published: new Date('2026-11-26'), tags: ['dcf', 'wacc'] }),
    ];
    expect(newestFirst(items).map((item) => item.path)).toEqual(['/blogs/new', '/blogs/old']);
    expect(tagCounts(items)).toEqual([
      { tag: 'dcf', count: 2 },
      { tag: 'wacc', count: 1 },
    ]);
  });

  it('shows every article without a tag in the address, and only the tagged ones with one', () => {
    expect(matchesTag('dcf wacc', '')).toBe(true);
    expect(matchesTag('dcf wacc', 'wacc')).toBe(true);
    expect(matchesTag('dcf wacc', 'wac')).toBe(false);
    expect(filterStatus('', 4)).toBe('');
    expect(filterStatus('free-cash-flow', 1)).toBe('1 article tagged “free cash flow”.');
    expect(filterStatus('dcf', 3)).toBe('3 articles tagged “dcf”.');
  });

  it('opens a long article with its contents, from three sections on', () => {
    expect(wantsTableOfContents([{ depth: 2 }, { depth: 3 }, { depth: 2 }])).toBe(false);
    expect(wantsTableOfContents([{ depth: 2 }, { depth: 2 }, { depth: 2 }])).toBe(true);
  });
});

describe('an article’s head', () => {
  const author = { name: 'Maya Lindqvist', role: 'Developer relations', bio: 'Writes.' };
  const data = sample({ tags: ['dcf', 'wacc'], updated: new Date('2026-11-26') }).data;

  it('describes it as an article for link previews, with its dates and tags, and a summary card without a cover', () => {
    const tags = articleMetaTags({ section: 'dcfBlog', url: 'https://example.org/x', data, author });
    const value = (key: string): string[] =>
      tags.filter((tag) => tag.property === key || tag.name === key).map((tag) => tag.content);
    expect(value('og:type')).toEqual(['article']);
    expect(value('article:published_time')).toEqual(['2026-11-24']);
    expect(value('article:modified_time')).toEqual(['2026-11-26']);
    expect(value('article:tag')).toEqual(['dcf', 'wacc']);
    expect(value('twitter:card')).toEqual(['summary']);
    expect(value('og:image')).toEqual([]);
  });

  it('shows its cover in large previews when it has one', () => {
    const withCover = { ...data, cover: { src: '/c.png', alt: 'A chart', width: 1200, height: 630 } };
    const tags = articleMetaTags({
      section: 'blog',
      url: 'https://example.org/x',
      data: withCover,
      author,
      imageUrl: 'https://example.org/c.png',
    });
    expect(tags).toContainEqual({ name: 'twitter:card', content: 'summary_large_image' });
    expect(tags).toContainEqual({ property: 'og:image', content: 'https://example.org/c.png' });
    expect(tags).toContainEqual({ property: 'og:image:alt', content: 'A chart' });
  });

  it('carries schema.org Article data that no text can break out of', () => {
    const hostile = { ...data, title: 'A </script><script>alert(1)</script>' };
    const text = articleJsonLd(
      { section: 'blog', url: 'https://example.org/x', data: hostile, author },
      'https://example.org',
    );
    expect(text).not.toContain('<');
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(json).toMatchObject({
      '@type': 'Article',
      headline: hostile.title,
      datePublished: '2026-11-24',
      dateModified: '2026-11-26',
      author: { '@type': 'Person', name: 'Maya Lindqvist', jobTitle: 'Developer relations' },
      publisher: { '@type': 'Organization', name: 'Tickerlake' },
    });
  });
});

describe('a section’s RSS feed', () => {
  const feedArticles: FeedArticle[] = [
    {
      ...sample({ path: '/blogs/older', title: 'Cash & flow', published: new Date('2026-11-22') }),
      authorName: 'Daniel Okafor',
      html: '<p>See <a href="/developer/docs/dcf-formula">the formula</a>. ]]> stays text.</p>',
    },
    {
      ...sample({
        path: '/blogs/newer',
        title: 'Newer',
        published: new Date('2026-11-25'),
        tags: ['dcf', 'wacc'],
      }),
      authorName: 'Maya Lindqvist',
      html: '<p>Text</p>',
    },
  ];
  const xml = articleFeed('blog', feedArticles, 'https://example.org');

  it('is well-formed RSS 2.0 with one item per article, newest first, every link absolute', () => {
    // A strict XML parser reads it to the end without an error.
    expect(() => sax.parser(true, { xmlns: true }).write(xml).close()).not.toThrow();
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      rss: {
        '@_version': string;
        channel: {
          title: string;
          link: string;
          'atom:link': { '@_href': string };
          item: {
            title: string;
            link: string;
            pubDate: string;
            'dc:creator': string;
            category: string | string[];
          }[];
        };
      };
    };
    expect(parsed.rss['@_version']).toBe('2.0');
    const { channel } = parsed.rss;
    expect(channel.title).toBe('Blog | Tickerlake');
    expect(channel.link).toBe('https://example.org/blogs');
    expect(channel['atom:link']['@_href']).toBe(`https://example.org${feedPath('blog')}`);
    expect(channel.item.map((item) => item.title)).toEqual(['Newer', 'Cash & flow']);
    expect(channel.item[0]?.link).toBe('https://example.org/blogs/newer');
    expect(channel.item[0]?.pubDate).toBe('Wed, 25 Nov 2026 00:00:00 GMT');
    expect(channel.item[0]?.['dc:creator']).toBe('Maya Lindqvist');
    expect(channel.item[0]?.category).toEqual(['dcf', 'wacc']);
  });

  it('carries each article in full, its site links made absolute', () => {
    const parsed = new XMLParser().parse(xml) as {
      rss: { channel: { item: { 'content:encoded': string }[] } };
    };
    const body = parsed.rss.channel.item[1]?.['content:encoded'] ?? '';
    expect(body).toContain('href="https://example.org/developer/docs/dcf-formula"');
    expect(body).toContain(']]> stays text.');
  });
});

describe('code samples', () => {
  it('are found with their language and whether they are marked runnable', () => {
    const markdown = ['Text', '```js runnable', 'console.log(1);', '```', '', '```json', '{}', '```'].join(
      '\n',
    );
    expect(codeSamples(markdown)).toEqual([
      { language: 'js', runnable: true, code: 'console.log(1);', line: 2 },
      { language: 'json', runnable: false, code: '{}', line: 6 },
    ]);
  });
});
