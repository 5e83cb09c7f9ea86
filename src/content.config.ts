import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

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

export const collections = { legal, docs };
