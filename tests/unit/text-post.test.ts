import fc from 'fast-check';
import { fromHtml } from 'hast-util-from-html';
import { describe, expect, it } from 'vitest';
import { formatTextPost } from '../../src/lib/text-post.ts';

interface Node {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: Node[];
}

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'img',
]);
const ALLOWED_PROPERTIES: Record<string, readonly string[]> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'loading', 'decoding'],
};

/** Every element of the HTML as a browser parses it. */
function elements(html: string): Node[] {
  const found: Node[] = [];
  const walk = (node: Node): void => {
    if (node.type === 'element') found.push(node);
    for (const child of node.children ?? []) walk(child);
  };
  walk(fromHtml(html, { fragment: true }));
  return found;
}

/** What a browser would make of an address: entities decoded by the parser, blanks and controls ignored. */
function scheme(url: string): string {
  // eslint-disable-next-line no-control-regex -- controls are what a browser skips in an address
  const cleaned = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  const match = /^([a-z][a-z0-9+.-]*):/.exec(cleaned);
  return match?.[1] ?? '';
}

/** The ways people and attackers write into a text box, mixed. */
const fragment = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '<svg onload=alert(1)>',
    '<iframe src="https://evil.example"></iframe>',
    '<style>body{display:none}</style>',
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click](java\tscript:alert(1))',
    '[click](&#106;avascript:alert(1))',
    '[click](data:text/html;base64,PHNjcmlwdD4=)',
    '[click](vbscript:msgbox)',
    '![x](data:image/png;base64,AAAA)',
    '![x](javascript:alert(1))',
    '![x](https://img.example.com/a.png "t")',
    '[ok](https://example.com/path?q=1)',
    '[ok](/quote/AAPL)',
    'https://example.com/bare',
    '<https://example.com/auto>',
    '" onmouseover="alert(1)',
    "' onfocus='alert(1)",
    '**bold** _em_ `code`',
    '\n\n',
    '\n',
    '> quote',
    '- item',
    '&lt;script&gt;',
    '[a](<javascript:alert(1)>)',
    '[ref]: javascript:alert(1)\n\n[ref]',
  ),
);
const post = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(' '));

describe('the text-post formatter', () => {
  it('turns Markdown links, images and bare web addresses into links and images', () => {
    const html = formatTextPost(
      'Read [the docs](/developer/docs), see https://example.com/news and ![Chart](https://img.example.com/c.png)',
    );
    const found = elements(html);
    const links = found.filter((node) => node.tagName === 'a').map((node) => node.properties?.href);
    expect(links).toEqual(['/developer/docs', 'https://example.com/news']);
    const image = found.find((node) => node.tagName === 'img');
    expect(image?.properties).toMatchObject({ src: 'https://img.example.com/c.png', alt: 'Chart' });
  });

  it('marks links to other sites as not endorsed and opens nothing in the page’s name', () => {
    const [link] = elements(formatTextPost('[x](https://example.com)')).filter(
      (node) => node.tagName === 'a',
    );
    expect(link?.properties?.rel).toEqual(['nofollow', 'ugc', 'noopener', 'noreferrer']);
    const [own] = elements(formatTextPost('[x](/pricing)')).filter((node) => node.tagName === 'a');
    expect(own?.properties?.rel).toBeUndefined();
  });

  it('shows HTML written in the text as the characters written, losing none of the words', () => {
    const html = formatTextPost('<script>alert(1)</script> hello <b>there</b>');
    expect(elements(html).map((node) => node.tagName)).toEqual(['p']);
    const text = fromHtml(html, { fragment: true });
    expect(JSON.stringify(text)).toContain('<script>alert(1)</script> hello <b>there</b>');
  });

  it('keeps line breaks and paragraphs as written', () => {
    const html = formatTextPost('first line\nsecond line\n\nnext paragraph');
    expect(elements(html).map((node) => node.tagName)).toEqual(['p', 'br', 'p']);
  });

  it('drops links and images to javascript: and data: addresses, keeping their words', () => {
    const html = formatTextPost('[click me](javascript:alert(1)) ![a chart](data:image/png;base64,AAAA)');
    const found = elements(html);
    expect(found.some((node) => node.properties?.href !== undefined || node.tagName === 'img')).toBe(false);
    expect(html).toContain('click me');
    expect(html).toContain('a chart');
  });

  it('never lets a script, an event attribute, another element or a javascript: or data: address through, whatever the text', () => {
    fc.assert(
      fc.property(post, (text) => {
        for (const node of elements(formatTextPost(text))) {
          const tag = node.tagName ?? '';
          expect(ALLOWED_TAGS.has(tag), tag).toBe(true);
          for (const [name, value] of Object.entries(node.properties ?? {})) {
            expect(ALLOWED_PROPERTIES[tag] ?? [], `${tag} ${name}`).toContain(name);
            expect(name.toLowerCase().startsWith('on')).toBe(false);
            if (name === 'href') expect(['', 'http', 'https', 'mailto']).toContain(scheme(String(value)));
            if (name === 'src') expect(['http', 'https', '']).toContain(scheme(String(value)));
          }
        }
      }),
      { numRuns: 600 },
    );
  }, 60_000);
});
