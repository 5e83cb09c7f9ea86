import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { sourceFingerprint, writeBuildInfo } from './build-info.ts';
import { precompress } from './static-assets.ts';

/** Precompresses the built assets and stamps the build, so `npm start` knows when to rebuild. */
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
        const count = await precompress(clientDir);
        logger.info(`precompressed ${count} assets (br, gzip)`);
        writeBuildInfo(fingerprint);
      },
    },
  };
}
