import path from 'node:path';
import * as pagefind from 'pagefind';

/** Where the search index is written in the build, and fetched from by the search dialog. */
export const SEARCH_INDEX_PATH = '/pagefind';

/**
 * Builds the documentation's search index with Pagefind from the built pages: only what a page
 * marks as its body (`data-pagefind-body`: the docs pages, guides, FAQs, the endpoint reference) is
 * indexed, so symbol pages and the site's frame stay out. The index is static files beside the
 * pages, so search works offline and costs the server nothing.
 */
export async function buildSearchIndex(clientDir: string): Promise<number> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
  try {
    if (index === undefined) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
    const added = await index.addDirectory({ path: clientDir });
    if (added.errors.length > 0)
      throw new Error(`Pagefind could not read the pages: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: path.join(clientDir, SEARCH_INDEX_PATH) });
    if (written.errors.length > 0)
      throw new Error(`Pagefind could not write the index: ${written.errors.join('; ')}`);
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}
