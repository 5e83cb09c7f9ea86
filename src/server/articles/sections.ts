import { DOCS_BASE } from '../docs/paths.ts';

/*
 * The article sections of the site: each is one content collection (src/content/<folder>/*.md), an
 * index page, an article page and an RSS feed under its own base path. A new section (education,
 * how-to) is an entry here, a collection in src/content.config.ts and its three thin route files.
 * Plain data without the content layer, so tests and build scripts can read it.
 */

/** The sections, by the name of their content collection. */
export const ARTICLE_SECTION_IDS = ['blog', 'devBlog', 'dcfBlog', 'education', 'howTo'] as const;
export type ArticleSectionId = (typeof ARTICLE_SECTION_IDS)[number];

export interface ArticleSection {
  id: ArticleSectionId;
  /** Where its Markdown files live, under src/content. */
  folder: string;
  /** The index page; an article is `<path>/<id>`, the feed `<path>/rss.xml`. */
  path: string;
  /** The index page's heading and the feed's title. */
  title: string;
  /** One sentence saying who the section is for, under the heading and in the feed. */
  description: string;
  /** What the breadcrumb and the article pages call the section. */
  shortTitle: string;
  /** The section inside a sentence ("More in the developer blog"). */
  inSentence: string;
}

/** Every section, in the order the site lists them. */
export const ARTICLE_SECTIONS: Readonly<Record<ArticleSectionId, ArticleSection>> = {
  blog: {
    id: 'blog',
    folder: 'blog',
    path: '/blogs',
    title: 'Blog',
    shortTitle: 'Blog',
    inSentence: 'the blog',
    description:
      'Notes for investors and analysts: how to read the statements, the scores and the ratios behind a company, with the data to check every step.',
  },
  devBlog: {
    id: 'devBlog',
    folder: 'developer-blog',
    path: `${DOCS_BASE}/blog`,
    title: 'Developer blog',
    shortTitle: 'Developer blog',
    inSentence: 'the developer blog',
    description:
      'Practical notes for developers who call the API: paging, bulk files, live streams and caching, each with code that runs against your key.',
  },
  dcfBlog: {
    id: 'dcfBlog',
    folder: 'dcf-blog',
    path: '/discounted-cash-flow-blogs',
    title: 'Discounted cash flow articles',
    shortTitle: 'DCF articles',
    inSentence: 'the DCF articles',
    description:
      'How a discounted cash flow model works, where it misleads, and how to choose its inputs: the discount rate, the terminal value and the cash flow it discounts.',
  },
  education: {
    id: 'education',
    folder: 'education',
    path: '/education',
    title: 'Education',
    shortTitle: 'Education',
    inSentence: 'the education section',
    description:
      'Lessons for investors learning to analyse a company: the three statements, the ratios, discounted cash flow, the scores and the price chart, each worked through with figures you can fetch from the API yourself.',
  },
  howTo: {
    id: 'howTo',
    folder: 'how-to',
    path: '/how-to',
    title: 'How-to guides',
    shortTitle: 'How-to guides',
    inSentence: 'the how-to guides',
    description:
      'Step-by-step walkthroughs for developers: a screener, statements in Excel, live prices, an AI assistant, bulk files, charts, insider alerts and a dividend calendar, each with code that runs against your key.',
  },
};

/** Where an article of a section lives. */
export function articlePath(section: ArticleSectionId, id: string): string {
  return `${ARTICLE_SECTIONS[section].path}/${id}`;
}

/** Where a section's RSS feed lives. */
export function feedPath(section: ArticleSectionId): string {
  return `${ARTICLE_SECTIONS[section].path}/rss.xml`;
}

/** A section's index filtered to one tag (the index page reads `?tag=` in the browser). */
export function tagPath(section: ArticleSectionId, tag: string): string {
  return `${ARTICLE_SECTIONS[section].path}?tag=${encodeURIComponent(tag)}`;
}
