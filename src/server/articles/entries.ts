import { getCollection, type CollectionEntry } from 'astro:content';
import {
  articleItem,
  articleProblems,
  newestFirst,
  relatedArticles,
  tagCounts,
  type ArticleItem,
  type Author,
  type TagCount,
} from './articles.ts';
import { articleFeed } from './feed.ts';
import { articleJsonLd, articleMetaTags, type MetaTag } from './metadata.ts';
import {
  ARTICLE_SECTION_IDS,
  ARTICLE_SECTIONS,
  feedPath,
  type ArticleSection,
  type ArticleSectionId,
} from './sections.ts';

/*
 * The article sections read from the content layer at build time: the static paths of a section's
 * pages, and the view models its index, its articles and its feed are drawn from. The pages stay
 * thin: a section's three route files call one function each.
 */

/** An article as the content layer holds it. */
export type ArticleEntry = CollectionEntry<ArticleSectionId>;

/** An article with its author, as lists show it. */
export interface ArticleSummary extends ArticleItem {
  author: Author;
}

const DEFAULT_SITE = new URL('http://localhost:4321');

async function authors(): Promise<Map<string, Author>> {
  const entries = await getCollection('authors');
  return new Map(entries.map((entry) => [entry.id, entry.data]));
}

function summary(item: ArticleItem, byId: ReadonlyMap<string, Author>): ArticleSummary {
  const author = byId.get(item.data.author);
  if (author === undefined) throw new Error(`${item.path}: no author "${item.data.author}"`);
  return { ...item, author };
}

function itemOf(entry: ArticleEntry): ArticleItem {
  return articleItem(entry.collection, entry.id, entry.data, entry.body ?? '');
}

/**
 * Every article of every section with its author, newest first. Refuses (failing the build) a set
 * where an author or a related article does not exist, so no page links to nothing.
 */
export async function allArticles(): Promise<ArticleSummary[]> {
  const [byId, ...sections] = await Promise.all([
    authors(),
    ...ARTICLE_SECTION_IDS.map((section) => getCollection(section)),
  ]);
  const items = sections.flat().map(itemOf);
  const problems = articleProblems(items, new Set(byId.keys()));
  if (problems.length > 0) throw new Error(`The articles do not hold together:\n${problems.join('\n')}`);
  return newestFirst(items.map((item) => summary(item, byId)));
}

/** The static paths of a section's article pages, each with its entry. */
export async function articlePaths(
  section: ArticleSectionId,
): Promise<{ params: { id: string }; props: { entry: ArticleEntry } }[]> {
  const entries = await getCollection(section);
  return entries.map((entry) => ({ params: { id: entry.id }, props: { entry } }));
}

/** What a section's index page shows. */
export interface ArticleIndexView {
  section: ArticleSection;
  /** Newest first. */
  articles: ArticleSummary[];
  /** The section's tags, most used first: the filter's choices. */
  tags: TagCount[];
  feedPath: string;
}

/** A section's index: its articles newest first, its tags and its feed. */
export async function articleIndexView(section: ArticleSectionId): Promise<ArticleIndexView> {
  const articles = (await allArticles()).filter((article) => article.section === section);
  return {
    section: ARTICLE_SECTIONS[section],
    articles,
    tags: tagCounts(articles),
    feedPath: feedPath(section),
  };
}

/** What an article page shows beside the article's own text. */
export interface ArticleView {
  section: ArticleSection;
  article: ArticleSummary;
  related: ArticleSummary[];
  /** The page's absolute address. */
  url: string;
  /** Open Graph and Twitter tags. */
  metaTags: MetaTag[];
  /** The schema.org Article data, ready for an inline data block. */
  jsonLd: string;
  feedPath: string;
}

/** An article page's view: the article with its author, related articles and head metadata. */
export async function articleView(entry: ArticleEntry, site: URL | undefined): Promise<ArticleView> {
  const base = site ?? DEFAULT_SITE;
  const all = await allArticles();
  const article = all.find(
    (candidate) => candidate.section === entry.collection && candidate.id === entry.id,
  );
  if (article === undefined) throw new Error(`no article ${entry.collection}/${entry.id}`);
  const url = new URL(article.path, base).href;
  const cover = article.data.cover;
  const head = {
    section: article.section,
    url,
    data: article.data,
    author: article.author,
    imageUrl: cover === undefined ? undefined : new URL(cover.src, base).href,
  };
  return {
    section: ARTICLE_SECTIONS[article.section],
    article,
    related: relatedArticles(article, all),
    url,
    metaTags: articleMetaTags(head),
    jsonLd: articleJsonLd(head, base.href),
    feedPath: feedPath(article.section),
  };
}

/** A section's RSS feed as an HTTP answer. */
export async function articleFeedResponse(
  section: ArticleSectionId,
  site: URL | undefined,
): Promise<Response> {
  const entries = await getCollection(section);
  const html = new Map(entries.map((entry) => [entry.id, entry.rendered?.html ?? '']));
  const articles = (await allArticles())
    .filter((article) => article.section === section)
    .map((article) => ({ ...article, authorName: article.author.name, html: html.get(article.id) ?? '' }));
  return new Response(articleFeed(section, articles, (site ?? DEFAULT_SITE).href), {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' },
  });
}
