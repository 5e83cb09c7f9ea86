import { z } from 'astro/zod';
import { ARTICLE_SECTIONS, articlePath, type ArticleSectionId } from './sections.ts';

/*
 * What every article section shares: the front matter an article carries, its authors, its reading
 * time, the order of an index, its tags and the articles related to it. Pure functions over plain
 * data, so the pages (through entries.ts) and the tests use the same rules.
 */

/** A tag as written in front matter and in `?tag=`: lower-case words joined by hyphens. */
const TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** An article's address on this site, as `related` names it: `/<section path>/<id>`. */
const ARTICLE_LINK = /^\/[a-z0-9/-]+$/;

/** An article's front matter (the schema of every article collection, src/content.config.ts). */
export const articleSchema = z
  .object({
    title: z.string().min(1),
    /** One or two sentences: the index's summary, the meta description and the feed's. */
    description: z.string().min(1).max(300),
    /** The id of the author in src/content/authors.yaml. */
    author: z.string().min(1),
    /** The day it first appeared. */
    published: z.coerce.date(),
    /** The day it last changed in substance, when that is after it appeared. */
    updated: z.coerce.date().optional(),
    /** What it is about; readers filter an index by one (`?tag=`), and related articles share them. */
    tags: z.array(z.string().regex(TAG, 'must be lower-case words joined by hyphens')).min(1).max(6),
    /** A picture for the top of the page and for link previews (a file in public/). */
    cover: z
      .object({
        src: z.string().regex(/^\/[^/]/, 'must be a path under public/'),
        alt: z.string().min(1),
        /** Its size in pixels, so the page keeps its room before it loads. */
        width: z.number().int().positive(),
        height: z.number().int().positive(),
      })
      .optional(),
    /** Articles to list first under "Related articles", by address; tag matches fill the rest. */
    related: z
      .array(z.string().regex(ARTICLE_LINK, 'must be an article address such as /blogs/<id>'))
      .default([]),
  })
  .refine((data) => data.updated === undefined || data.updated >= data.published, {
    message: 'updated must be on or after published',
    path: ['updated'],
  });

export type ArticleData = z.infer<typeof articleSchema>;

/** An author of articles (src/content/authors.yaml, keyed by id). */
export const authorSchema = z.object({
  name: z.string().min(1),
  /** Their job here, shown beside the name. */
  role: z.string().min(1),
  /** Two sentences at most, shown at the end of their articles. */
  bio: z.string().min(1).max(400),
});

export type Author = z.infer<typeof authorSchema>;

/** One article as the sections handle it: where it lives, its front matter and its reading time. */
export interface ArticleItem {
  section: ArticleSectionId;
  id: string;
  /** Its page, `/<section path>/<id>`. */
  path: string;
  data: ArticleData;
  /** Minutes a reader needs, from the text (see {@link readingMinutes}). */
  minutes: number;
}

/** Words a minute of prose an unhurried reader gets through. */
export const WORDS_PER_MINUTE = 230;
/** Seconds a reader spends on a line of code. */
export const SECONDS_PER_CODE_LINE = 4;

/**
 * Minutes to read a Markdown text, at least 1: its prose at {@link WORDS_PER_MINUTE} and its code
 * at {@link SECONDS_PER_CODE_LINE} a line, since code is read slower than prose but has fewer words.
 */
export function readingMinutes(markdown: string): number {
  let words = 0;
  let codeLines = 0;
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      if (line.trim() !== '') codeLines += 1;
      continue;
    }
    words += line.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  }
  const minutes = words / WORDS_PER_MINUTE + (codeLines * SECONDS_PER_CODE_LINE) / 60;
  return Math.max(1, Math.round(minutes));
}

/** An article from its section, id, front matter and Markdown body. */
export function articleItem(
  section: ArticleSectionId,
  id: string,
  data: ArticleData,
  body: string,
): ArticleItem {
  return { section, id, path: articlePath(section, id), data, minutes: readingMinutes(body) };
}

/** The day an article last changed: its update, else the day it appeared. */
export function lastChanged(data: Pick<ArticleData, 'published' | 'updated'>): Date {
  return data.updated ?? data.published;
}

/** Articles newest first (by the day they appeared), then by title, so an index never reshuffles. */
export function newestFirst<T extends Pick<ArticleItem, 'data'>>(items: readonly T[]): T[] {
  return items.toSorted(
    (a, b) =>
      b.data.published.getTime() - a.data.published.getTime() || a.data.title.localeCompare(b.data.title),
  );
}

export interface TagCount {
  tag: string;
  count: number;
}

/** The tags of a set of articles with how many carry each, most used first, then alphabetical. */
export function tagCounts(items: readonly Pick<ArticleItem, 'data'>[]): TagCount[] {
  const counts = new Map<string, number>();
  for (const item of items) for (const tag of item.data.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .toSorted((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** How a tag reads as a label: its words with spaces ("free-cash-flow" → "free cash flow"). */
export function tagLabel(tag: string): string {
  return tag.replaceAll('-', ' ');
}

/** How many tags two articles share. */
function sharedTags(a: Pick<ArticleItem, 'data'>, b: Pick<ArticleItem, 'data'>): number {
  return a.data.tags.filter((tag) => b.data.tags.includes(tag)).length;
}

/**
 * The articles to suggest after one, from every section: those its front matter names first, in
 * that order, then those sharing the most tags with it (newer first among equals), at most `count`.
 * Articles sharing no tag are never suggested unless named.
 */
export function relatedArticles<T extends ArticleItem>(article: T, all: readonly T[], count = 3): T[] {
  const others = all.filter((other) => other.path !== article.path);
  const named = article.data.related.flatMap((path) => others.filter((other) => other.path === path));
  const byTags = newestFirst(
    others.filter((other) => !named.includes(other) && sharedTags(article, other) > 0),
  )
    .map((other, order) => ({ other, order, shared: sharedTags(article, other) }))
    .toSorted((a, b) => b.shared - a.shared || a.order - b.order)
    .map(({ other }) => other);
  return [...named, ...byTags].slice(0, count);
}

/** `related` addresses of an article that no article has (a typo, or an article since removed). */
export function unknownRelated(
  article: Pick<ArticleItem, 'data'>,
  all: readonly Pick<ArticleItem, 'path'>[],
): string[] {
  const paths = new Set(all.map((item) => item.path));
  return article.data.related.filter((path) => !paths.has(path));
}

/** Whether a piece is long enough to open with a table of contents: three sections or more. */
export function wantsTableOfContents(headings: readonly { depth: number }[]): boolean {
  return headings.filter((heading) => heading.depth === 2).length >= 3;
}

/** A date as the pages write it ("November 24, 2026"), in UTC like the dates in front matter. */
export function articleDate(date: Date): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** The section an article address belongs to, if it is one. */
export function sectionOfPath(path: string): ArticleSectionId | undefined {
  return (Object.values(ARTICLE_SECTIONS) as { id: ArticleSectionId; path: string }[]).find((section) =>
    path.startsWith(`${section.path}/`),
  )?.id;
}

/**
 * What is wrong with a set of articles, one sentence each: an author not in the authors file, or a
 * `related` address no article has. The build refuses such a set (entries.ts), and the tests name
 * every problem.
 */
export function articleProblems(items: readonly ArticleItem[], authorIds: ReadonlySet<string>): string[] {
  return items.flatMap((item) => [
    ...(authorIds.has(item.data.author) ? [] : [`${item.path}: no author "${item.data.author}"`]),
    ...unknownRelated(item, items).map((path) => `${item.path}: no related article ${path}`),
  ]);
}
