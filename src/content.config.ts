import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { CAREERS_TEAMS, EMPLOYMENT_TYPES, WORKPLACES } from './lib/careers.ts';
import { HELP_TOPIC_IDS } from './lib/help-topics.ts';
import { articleSchema, authorSchema } from './server/articles/articles.ts';
import { ARTICLE_SECTIONS, type ArticleSectionId } from './server/articles/sections.ts';
import { changelogEntrySchema } from './server/docs/changelog.ts';

/** The legal documents linked from the footer (Terms of Service, Privacy Policy). */
const legal = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './src/content/legal' }),
  schema: z.object({
    title: z.string().min(1),
    description: z.string().min(1),
    /** When the document last changed in substance; shown as "Last updated". */
    updated: z.coerce.date(),
  }),
});

/** The sections of the documentation's sidebar that guides belong to, in the sidebar's order. */
export const DOC_SECTIONS = ['Get started', 'Guides', 'Formulas'] as const;

/**
 * The documentation's written pages (`/developer/docs/<id>`): guides, the quickstart, the formulas.
 * Plain Markdown, so each page's text is also its Markdown twin for AI tools (`<page>.md`).
 */
const docs = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './src/content/docs' }),
  schema: z.object({
    title: z.string().min(1),
    description: z.string().min(1),
    /** The sidebar section the page is listed in. */
    section: z.enum(DOC_SECTIONS),
    /** Position within its section, smallest first. */
    order: z.number().int(),
    /** When the page last changed in substance; shown as "Last updated". */
    updated: z.coerce.date(),
  }),
});

/**
 * The API changelog's entries (`/developer/docs/changelog/` and its RSS feed): one Markdown file per
 * change, dated, of one kind, naming the endpoints it concerns (a test fails when an endpoint is in
 * none, or an entry names one that does not exist).
 */
const changelog = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/changelog' }),
  schema: changelogEntrySchema,
});

/**
 * The questions of `/faqs`: one Markdown file per question, its answer the text, in a folder per
 * topic (`faqs/<topic>/<anchor>.md`). The file name is the answer's anchor, so `/faqs#<anchor>`
 * links to it; anchors are unique across topics (a test checks).
 */
const faqs = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './src/content/faqs' }),
  schema: z.object({
    question: z.string().min(1),
    /** The topic the question is listed under; must match its folder. */
    group: z.enum(HELP_TOPIC_IDS),
    /** Position within its topic, smallest first. */
    order: z.number().int(),
    /** When the answer last changed in substance. */
    updated: z.coerce.date(),
  }),
});

/**
 * The help center's how-to articles (`/help-center#<anchor>`): one Markdown file per task, in a
 * folder per topic, the steps as plain paragraphs and lists (no headings: each article is one
 * section of the page).
 */
const help = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './src/content/help' }),
  schema: z.object({
    title: z.string().min(1),
    /** One sentence saying what the article helps with, shown under its title. */
    description: z.string().min(1),
    group: z.enum(HELP_TOPIC_IDS),
    order: z.number().int(),
    updated: z.coerce.date(),
  }),
});

/** Who writes the articles: name, role and a short bio, keyed by the id an article's `author` names. */
const authors = defineCollection({
  loader: file('./src/content/authors.yaml'),
  schema: authorSchema,
});

/**
 * One article section (src/server/articles/sections.ts): its Markdown files, one per article, the
 * file name the article's address. Plain Markdown like the docs, so the examples get the published
 * API address and code is coloured the same way.
 */
function articleCollection(section: ArticleSectionId) {
  return defineCollection({
    loader: glob({ pattern: '*.md', base: `./src/content/${ARTICLE_SECTIONS[section].folder}` }),
    schema: articleSchema,
  });
}

/**
 * The open roles of `/careers`: one Markdown file per role, the file name its address
 * (`/careers/<id>`) and the id an application names. The text says what the role is, then has the
 * sections "What you will do", "What we are looking for" and "How we hire". Closing a role is removing
 * its file.
 */
const careers = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/careers' }),
  schema: z.object({
    title: z.string().min(1),
    team: z.enum(CAREERS_TEAMS),
    /** Where the role is based: a city, or the regions a remote role can be worked from. */
    location: z.string().min(1),
    workplace: z.enum(WORKPLACES),
    employment: z.enum(EMPLOYMENT_TYPES),
    /** The pay range, written as it is offered (currency, range, equity). */
    salary: z.string().min(1),
    /** One sentence for the list of roles. */
    summary: z.string().min(1),
    posted: z.coerce.date(),
  }),
});

export const collections = {
  careers,
  legal,
  docs,
  changelog,
  faqs,
  help,
  authors,
  blog: articleCollection('blog'),
  devBlog: articleCollection('devBlog'),
  dcfBlog: articleCollection('dcfBlog'),
  education: articleCollection('education'),
  howTo: articleCollection('howTo'),
};
