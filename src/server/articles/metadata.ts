import { SITE_NAME } from '../../lib/routes.ts';
import { isoDay } from '../../lib/iso-date.ts';
import { lastChanged, type ArticleData, type Author } from './articles.ts';
import { ARTICLE_SECTIONS, type ArticleSectionId } from './sections.ts';

/*
 * What an article tells link previews and search engines beyond the page's own title and
 * description (which the base layout writes): Open Graph's article properties, Twitter's card and
 * schema.org Article data.
 */

/** A `<meta>` element: Open Graph's use `property`, Twitter's `name`. */
export interface MetaTag {
  property?: string;
  name?: string;
  content: string;
}

/** What the head of an article page describes. */
export interface ArticleHead {
  section: ArticleSectionId;
  /** The page's absolute address. */
  url: string;
  data: ArticleData;
  author: Author;
  /** The cover's absolute address, when the article has one. */
  imageUrl?: string | undefined;
}

/**
 * Open Graph and Twitter tags of an article: its kind, address, dates, section and tags, and its
 * cover as the preview's picture (a large card with one, a summary card without).
 */
export function articleMetaTags({ section, url, data, imageUrl }: ArticleHead): MetaTag[] {
  const tags: MetaTag[] = [
    { property: 'og:type', content: 'article' },
    { property: 'og:url', content: url },
    { property: 'article:published_time', content: isoDay(data.published) },
    { property: 'article:modified_time', content: isoDay(lastChanged(data)) },
    { property: 'article:section', content: ARTICLE_SECTIONS[section].title },
    ...data.tags.map((tag) => ({ property: 'article:tag', content: tag })),
    { name: 'twitter:card', content: imageUrl === undefined ? 'summary' : 'summary_large_image' },
    { name: 'twitter:title', content: data.title },
    { name: 'twitter:description', content: data.description },
  ];
  if (imageUrl !== undefined && data.cover !== undefined) {
    tags.push(
      { property: 'og:image', content: imageUrl },
      { property: 'og:image:alt', content: data.cover.alt },
      { name: 'twitter:image', content: imageUrl },
      { name: 'twitter:image:alt', content: data.cover.alt },
    );
  }
  return tags;
}

/**
 * The article as schema.org Article JSON-LD, serialised for an inline
 * `<script type="application/ld+json">`: `<` is escaped, so no text can close the element early (a
 * data block is not run, so the pages' script policy need not allow it).
 */
export function articleJsonLd({ section, url, data, author, imageUrl }: ArticleHead, site: string): string {
  const json = {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: data.title,
    description: data.description,
    url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    datePublished: isoDay(data.published),
    dateModified: isoDay(lastChanged(data)),
    author: { '@type': 'Person', name: author.name, jobTitle: author.role },
    publisher: { '@type': 'Organization', name: SITE_NAME, url: new URL('/', site).href },
    articleSection: ARTICLE_SECTIONS[section].title,
    keywords: data.tags.join(', '),
    ...(imageUrl === undefined ? {} : { image: imageUrl }),
  };
  return JSON.stringify(json).replaceAll('<', '\\u003c');
}
