import { copyFile, access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { sourceFingerprint, writeBuildInfo } from './build-info.ts';
import { precompress } from './static-assets.ts';
import { buildSearchIndex } from '../docs/search-index.ts';

/**
 * Indexes the documentation for search, precompresses the built assets and stamps the build, so
 * `npm start` knows when to rebuild.
 */
export function buildIntegration(): AstroIntegration {
  let fingerprint = '';
  let clientDir = '';
  return {
    name: 'market-data:build',
    hooks: {
      'astro:config:done': ({ config }) => {
        clientDir = fileURLToPath(config.build.client);
      },
      'astro:build:start': () => {
        fingerprint = sourceFingerprint();
      },
      'astro:build:done': async ({ logger }) => {
        // The sitemap integration (which runs first) writes sitemap-index.xml; /sitemap.xml is where
        // crawlers look first.
        const sitemapIndex = path.join(clientDir, 'sitemap-index.xml');
        const found = await access(sitemapIndex).then(
          () => true,
          () => false,
        );
        if (found) await copyFile(sitemapIndex, path.join(clientDir, 'sitemap.xml'));
        const indexed = await buildSearchIndex(clientDir);
        logger.info(`indexed ${indexed} documentation pages for search`);
        const count = await precompress(clientDir);
        logger.info(`precompressed ${count} assets (br, gzip)`);
        writeBuildInfo(fingerprint);
      },
    },
  };
}
