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

export const collections = { legal };
