// @ts-check
import { defineConfig } from 'astro/config';
import OpenProps from 'open-props';
import postcssJitProps from 'postcss-jit-props';
import node from '@astrojs/node';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import sitemap from '@astrojs/sitemap';
import rehypeHighlight from 'rehype-highlight';
import { buildIntegration } from './src/server/app/build-integration.ts';
import { endpointListsFingerprint, remarkEndpointLists } from './src/server/docs/endpoint-lists.ts';
import {
  rehypeScrollTables,
  remarkPublishedApiUrl,
  remarkPublishedSiteUrl,
} from './src/server/docs/markdown-plugins.ts';
import { inlineScriptHashes, inlineStyleHashes } from './src/server/app/inline-hashes.ts';
import { DATASETS, datasetPath } from './src/lib/routes.ts';

const port = Number(process.env.PORT ?? 4321);
const site = process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321';

/** Pages that are no one's search result: an account's own pages, local tools, error pages. */
const NOT_IN_SITEMAP = [
  '/developer/docs/dashboard',
  '/developer/docs/invoices',
  '/dev/',
  '/devauth',
  '/excel-add-in/',
  '/auth/action',
  '/404',
  '/500',
];

/** `client:demand="name"`: islands that hydrate when the page asks for them (src/lib/shell/demand.ts). */
const demandDirective = {
  name: 'demand-directive',
  hooks: {
    /** @param {{ addClientDirective: (directive: { name: string; entrypoint: string }) => void }} options */
    'astro:config:setup': ({ addClientDirective }) => {
      addClientDirective({ name: 'demand', entrypoint: './src/lib/shell/demand-directive.ts' });
    },
  },
};

export default defineConfig({
  site,
  output: 'static',
  adapter: node({
    mode: 'standalone',
    // Prerendered pages' Content-Security-Policy goes to dist/_headers.json (and out of a <meta>,
    // where frame-ancestors would be ignored); the site server sends it on every HTML answer.
    staticHeaders: true,
  }),
  integrations: [
    react(),
    mdx({ extendMarkdownConfig: false, syntaxHighlight: false }),
    // The site's pages, for search engines (sitemap-index.xml; the build copies it to sitemap.xml).
    sitemap({
      // The dataset pages are rendered per request from one dynamic route, which the sitemap cannot list
      // itself (pages without parameters, such as the market pages, it lists).
      customPages: DATASETS.map((dataset) => new URL(datasetPath(dataset.id), site).href),
      filter: (page) => {
        const path = new URL(page).pathname;
        return !/\.(md|txt|xml)$/.test(path) && !NOT_IN_SITEMAP.some((prefix) => path.startsWith(prefix));
      },
      // The addresses the pages name as canonical: without a trailing slash (the root excepted).
      serialize: (item) => ({ ...item, url: item.url.replace(/(?<=[^/])\/$/, '') }),
    }),
    buildIntegration(),
    demandDirective,
  ],
  session: false,
  // Astro hashes every inline script and style it emits into script-src and style-src, for all
  // pages alike; the site server completes the policy (src/server/app/content-security-policy.ts).
  security: {
    csp: {
      algorithm: 'SHA-256',
      scriptDirective: { hashes: inlineScriptHashes() },
      styleDirective: { hashes: inlineStyleHashes() },
    },
  },
  // Code is coloured with classes (highlight.js through rehype-highlight) rather than Shiki, which
  // colours with style attributes that the pages' policy refuses; src/styles/prose.css has the colours.
  markdown: {
    syntaxHighlight: false,
    // The written pages' lists of endpoints come from the definitions (src/server/docs/endpoint-lists.ts);
    // their fingerprint makes Astro render the pages again when a definition changes a list.
    remarkPlugins: [
      [remarkEndpointLists, { fingerprint: endpointListsFingerprint() }],
      remarkPublishedApiUrl,
      remarkPublishedSiteUrl,
    ],
    rehypePlugins: [[rehypeHighlight, { detect: false }], rehypeScrollTables],
  },
  server: { port, host: '127.0.0.1' },
  prefetch: { prefetchAll: false, defaultStrategy: 'hover' },
  // Small style sheets (a page's own, under 10 KB) go inline, so a first visit waits for one style
  // sheet, the shell's, which every later page takes from the cache.
  build: { inlineStylesheets: 'auto' },
  vite: {
    build: { assetsInlineLimit: 10 * 1024 },
    // Only the Open Props a stylesheet uses end up in it (the full set is about 40 KB of CSS).
    css: { postcss: { plugins: [postcssJitProps(OpenProps)] } },
    ssr: { external: ['@electric-sql/pglite', 'firebase-admin', 'postgres'] },
    // Imported only on demand by the chart island: listed so the dev server prepares it up front
    // instead of discovering it on the first chart and failing that load.
    optimizeDeps: { include: ['lightweight-charts'] },
  },
});
