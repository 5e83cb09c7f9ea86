import type { Element, ElementContent, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import { visit } from 'unist-util-visit';

/*
 * Small Markdown steps the documentation needs, written here because each is a few lines over the
 * syntax trees that Astro's Markdown pipeline already builds (no library does either as such).
 */

/** The data API's address the written pages use in their examples. */
export const DOCS_EXAMPLE_API_URL = 'http://localhost:4322';

/**
 * The data API's address as this deployment publishes it (PUBLIC_DATA_API_URL, as the pages' own
 * code reads it), so the examples in the written pages run against the right server.
 */
export function publishedApiUrl(env: Record<string, string | undefined> = process.env): string {
  const configured = env.PUBLIC_DATA_API_URL?.trim() ?? '';
  return (configured === '' ? DOCS_EXAMPLE_API_URL : configured).replace(/\/+$/, '');
}

/** Replaces the example address with the published one in a page's Markdown text. */
export function withPublishedApiUrl(markdown: string, url: string = publishedApiUrl()): string {
  return url === DOCS_EXAMPLE_API_URL ? markdown : markdown.replaceAll(DOCS_EXAMPLE_API_URL, url);
}

/** Remark: the published data API address in every text, code sample and link of a written page. */
export function remarkPublishedApiUrl(url: string = publishedApiUrl()) {
  return (tree: MdastRoot): void => {
    replaceAddress(tree, DOCS_EXAMPLE_API_URL, url);
  };
}

/**
 * The site's address the written pages use in examples that call the site itself (the accounts API
 * behind /devauth, which tools use to get a key).
 */
export const DOCS_EXAMPLE_SITE_URL = 'http://localhost:4321';

/** The site's address as this deployment publishes it (PUBLIC_SITE_URL), so those examples run here. */
export function publishedSiteUrl(env: Record<string, string | undefined> = process.env): string {
  const configured = env.PUBLIC_SITE_URL?.trim() ?? '';
  return (configured === '' ? DOCS_EXAMPLE_SITE_URL : configured).replace(/\/+$/, '');
}

/** Replaces the example site address with the published one in a page's Markdown text. */
export function withPublishedSiteUrl(markdown: string, url: string = publishedSiteUrl()): string {
  return url === DOCS_EXAMPLE_SITE_URL ? markdown : markdown.replaceAll(DOCS_EXAMPLE_SITE_URL, url);
}

/** Remark: the published site address in every text, code sample and link of a written page. */
export function remarkPublishedSiteUrl(url: string = publishedSiteUrl()) {
  return (tree: MdastRoot): void => {
    replaceAddress(tree, DOCS_EXAMPLE_SITE_URL, url);
  };
}

function replaceAddress(tree: MdastRoot, example: string, url: string): void {
  if (url === example) return;
  visit(tree, (node) => {
    if ('value' in node && typeof node.value === 'string') node.value = node.value.replaceAll(example, url);
    if ('url' in node && typeof node.url === 'string') node.url = node.url.replaceAll(example, url);
  });
}

/**
 * Rehype: every table inside a focusable, labelled region that scrolls sideways on a narrow screen,
 * so a wide table never widens the page (the same frame as the symbol pages' tables). A region is
 * named by its table's header; two tables with the same header on one page (ratios and key metrics,
 * say) also carry the heading they follow, as each landmark's name must be unique.
 */
export function rehypeScrollTables() {
  return (tree: HastRoot): void => {
    const frames: { frame: Element; label: string; heading: string }[] = [];
    let heading = '';
    visit(tree, 'element', (node: Element, index, parent) => {
      if (/^h[1-6]$/.test(node.tagName)) heading = node.children.map(textOf).join('').trim();
      if (node.tagName !== 'table' || parent === undefined || index === undefined) return;
      if (parent.type === 'element' && parent.properties.className?.toString().includes('table-scroll'))
        return;
      const caption = firstHeaderText(node);
      const label = caption === '' ? 'Table' : `Table: ${caption}`;
      const frame: Element = {
        type: 'element',
        tagName: 'div',
        properties: { className: ['table-scroll'], tabIndex: 0, role: 'region', ariaLabel: label },
        children: [node],
      };
      frames.push({ frame, label, heading });
      parent.children.splice(index, 1, frame as ElementContent);
    });
    for (const { frame, label, heading: under } of frames) {
      const repeated = frames.filter((other) => other.label === label).length > 1;
      if (repeated && under !== '') frame.properties.ariaLabel = `${label} (${under})`;
    }
  };
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** The first header cells' text, naming the table for assistive technology. */
function firstHeaderText(table: Element): string {
  let text = '';
  visit(table, 'element', (cell: Element) => {
    if (text === '' && cell.tagName === 'tr') {
      text = cell.children
        .filter((child): child is Element => child.type === 'element' && child.tagName === 'th')
        .map((child) => textOf(child).trim())
        .filter((value) => value !== '')
        .join(', ');
    }
  });
  return text;
}
