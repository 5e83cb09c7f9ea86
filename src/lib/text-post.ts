import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

/*
 * The text-post formatter: text written by people or carried in the data (news items, contact
 * messages, support conversations) shown as HTML with its links and images, and nothing else that
 * could run. The text is read as Markdown (`[words](https://…)`, `![alt](https://…)`, bare
 * addresses), raw HTML in it is dropped, and the result is filtered through rehype-sanitize with an
 * allow-list: paragraphs, line breaks, emphasis, code, lists, quotes, links and images; links and
 * images only to http(s) addresses or paths of this site (links also mailto:); no attributes but
 * href, src, alt and title; no scripts, styles, event attributes, `javascript:` or `data:` URLs.
 */

/** What survives: a few text elements, links and images, with only the attributes that place them. */
const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  tagNames: ['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'img'],
  attributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title'],
  },
  protocols: {
    href: ['http', 'https', 'mailto'],
    src: ['http', 'https'],
  },
  clobberPrefix: 'user-content-',
  strip: ['script', 'style'],
};

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm, { singleTilde: false })
  .use(() => (tree) => {
    asWritten(tree);
  })
  .use(remarkRehype)
  .use(rehypeSanitize, SCHEMA)
  .use(() => (tree) => {
    decorate(tree);
  })
  .use(rehypeStringify);

interface MdastNode {
  type: string;
  value?: string;
  children?: MdastNode[];
}

/**
 * HTML in the text is shown as the characters written, not dropped (nothing is lost) nor obeyed;
 * a line break in a paragraph stays a line break, as in a message box.
 */
function asWritten(node: MdastNode): void {
  if (node.children === undefined) return;
  node.children = node.children.flatMap((child): MdastNode[] => {
    if (child.type === 'html') {
      const text: MdastNode = { type: 'text', value: child.value ?? '' };
      return [node.type === 'root' ? { type: 'paragraph', children: [text] } : text];
    }
    if (child.type === 'text' && (child.value ?? '').includes('\n')) {
      return (child.value ?? '')
        .split('\n')
        .flatMap((line, index): MdastNode[] =>
          index === 0 ? [{ type: 'text', value: line }] : [{ type: 'break' }, { type: 'text', value: line }],
        );
    }
    asWritten(child);
    return [child];
  });
}

interface HastNode {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * Links others wrote open safely and carry no endorsement (rel nofollow, ugc, noopener); images load
 * lazily and never stretch past their column.
 */
function decorate(node: HastNode): void {
  if (node.children !== undefined)
    node.children = node.children.flatMap((child): HastNode[] => {
      // An image whose address was refused is left as its description.
      if (child.type === 'element' && child.tagName === 'img' && child.properties?.src === undefined) {
        const alt = typeof child.properties?.alt === 'string' ? child.properties.alt : '';
        return alt === '' ? [] : [{ type: 'text', value: alt }];
      }
      return [child];
    });
  if (node.type === 'element' && node.tagName === 'a') {
    const href = node.properties?.href;
    // Only this site's own paths and anchors go without; any other address is someone else's.
    if (typeof href === 'string' && !/^(\/(?!\/)|#)/.test(href))
      node.properties = { ...node.properties, rel: ['nofollow', 'ugc', 'noopener', 'noreferrer'] };
  }
  if (node.type === 'element' && node.tagName === 'img') {
    node.properties = { ...node.properties, loading: 'lazy', decoding: 'async' };
  }
  for (const child of node.children ?? []) decorate(child);
}

/**
 * A text post as safe HTML: Markdown links, images and bare web addresses become links and images;
 * everything else is text. Safe to insert with `set:html` / `innerHTML` whatever the text holds.
 */
export function formatTextPost(text: string): string {
  return String(processor.processSync(text)).trim();
}
