/*
 * Where the documentation's pages live. Plain functions without the content layer, so every docs
 * module (and its tests) can use them.
 */

/** The base of every documentation page. */
export const DOCS_BASE = '/developer/docs';

/** The base of the stable API's reference pages. */
export const REFERENCE_BASE = `${DOCS_BASE}/stable`;

/** Where a page's Markdown twin lives: the page's path with `.md`. */
export function markdownPath(pagePath: string): string {
  return `${pagePath.replace(/\/$/, '')}.md`;
}

/** Where an endpoint's reference page lives: `/developer/docs/stable/<path>`. */
export function referencePath(endpoint: { path: string }): string {
  return `${REFERENCE_BASE}/${endpoint.path}`;
}
