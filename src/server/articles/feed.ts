import { SITE_NAME } from '../../lib/routes.ts';
import { escapeXml } from '../docs/changelog.ts';
import { lastChanged, newestFirst, type ArticleItem } from './articles.ts';
import { ARTICLE_SECTIONS, feedPath, type ArticleSectionId } from './sections.ts';

/*
 * A section's RSS 2.0 feed (`<section>/rss.xml`), written by hand like the changelog's: a few lines
 * of XML, and no feed library among the dependencies. Each item carries the summary as its
 * description and the whole article as content:encoded, so a feed reader shows it in full.
 */

/** One article as the feed takes it: the item, its author's name and its body as HTML. */
export interface FeedArticle extends ArticleItem {
  authorName: string;
  /** The rendered body. */
  html: string;
}

/** RFC 822 date, as RSS 2.0 wants it (at midnight UTC of the day). */
function rssDate(date: Date): string {
  return date.toUTCString();
}

/** HTML whose site-relative links and pictures point at the site, since a feed has no base address. */
function absoluteLinks(html: string, origin: string): string {
  return html.replaceAll(/(href|src)="\/(?!\/)/g, `$1="${origin}/`);
}

/** Text inside a CDATA section, which cannot hold its own end marker. */
function cdata(text: string): string {
  return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

function feedItem(article: FeedArticle, site: string): string[] {
  const link = new URL(article.path, site).href;
  return [
    '<item>',
    `<title>${escapeXml(article.data.title)}</title>`,
    `<link>${escapeXml(link)}</link>`,
    `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
    `<pubDate>${rssDate(article.data.published)}</pubDate>`,
    `<dc:creator>${escapeXml(article.authorName)}</dc:creator>`,
    ...article.data.tags.map((tag) => `<category>${escapeXml(tag)}</category>`),
    `<description>${escapeXml(article.data.description)}</description>`,
    `<content:encoded>${cdata(absoluteLinks(article.html, new URL(site).origin))}</content:encoded>`,
    '</item>',
  ];
}

/** The section's articles as an RSS 2.0 feed, newest first, every address absolute. */
export function articleFeed(
  section: ArticleSectionId,
  articles: readonly FeedArticle[],
  site: string,
): string {
  const { title, description, path } = ARTICLE_SECTIONS[section];
  const sorted = newestFirst(articles);
  const newest = sorted
    .map((article) => lastChanged(article.data))
    .toSorted((a, b) => b.getTime() - a.getTime())[0];
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    '<channel>',
    `<title>${escapeXml(`${title} | ${SITE_NAME}`)}</title>`,
    `<link>${escapeXml(new URL(path, site).href)}</link>`,
    `<description>${escapeXml(description)}</description>`,
    '<language>en</language>',
    `<atom:link href="${escapeXml(new URL(feedPath(section), site).href)}" rel="self" type="application/rss+xml"/>`,
    ...(newest === undefined ? [] : [`<lastBuildDate>${rssDate(newest)}</lastBuildDate>`]),
    ...sorted.flatMap((article) => feedItem(article, site)),
    '</channel>',
    '</rss>',
  ];
  return `${lines.join('\n')}\n`;
}
