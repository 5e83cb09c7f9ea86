// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import mdx from '@astrojs/mdx';
import { buildIntegration } from './src/server/app/build-integration.ts';

const port = Number(process.env.PORT ?? 4321);

export default defineConfig({
  site: process.env.PUBLIC_SITE_URL ?? 'http://localhost:4321',
  output: 'static',
  adapter: node({ mode: 'standalone' }),
  integrations: [react(), mdx(), buildIntegration()],
  session: false,
  server: { port, host: '127.0.0.1' },
  prefetch: { prefetchAll: false, defaultStrategy: 'hover' },
  vite: {
    ssr: { external: ['@electric-sql/pglite', 'firebase-admin', 'postgres'] },
    // Imported only on demand by the chart island: listed so the dev server prepares it up front
    // instead of discovering it on the first chart and failing that load.
    optimizeDeps: { include: ['lightweight-charts'] },
  },
});
