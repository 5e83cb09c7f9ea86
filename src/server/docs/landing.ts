import { isPending } from '../../lib/routes.ts';
import { ALL_ENDPOINTS } from '../data-api/endpoints/index.ts';
import { endpointGroups, type HomeGroup } from './home.ts';
import { DOCS_BASE, docsEntries, docsPath, type DocsNavLink } from './navigation.ts';

/** What the landing page shows, at build time. */
export interface DocsLanding {
  groups: HomeGroup[];
  next: DocsNavLink[];
  /** Pages beside the guides (the API viewer, status, changelog) that exist; they have no Markdown twin. */
  pages: DocsNavLink[];
  endpointCount: number;
}

/** The guides a newcomer reads after the quickstart, in this order, where they are written. */
const NEXT_READS = ['quickstart', 'authentication', 'errors', 'rate-limits', 'plans', 'formula'] as const;

/** Pages beside the written guides that the landing page points to, once they exist. */
const NEXT_PAGES: readonly DocsNavLink[] = [
  { href: '/playground', label: 'API viewer' },
  { href: `${DOCS_BASE}/status`, label: 'Status' },
  { href: `${DOCS_BASE}/changelog`, label: 'Changelog' },
];

export async function docsLanding(): Promise<DocsLanding> {
  const entries = await docsEntries();
  const next = NEXT_READS.flatMap((id) => {
    const entry = entries.find((candidate) => candidate.id === id);
    return entry === undefined ? [] : [{ href: docsPath(entry), label: entry.data.title }];
  });
  const pages = NEXT_PAGES.filter((link) => !isPending(link.href));
  return { groups: endpointGroups(), next, pages, endpointCount: ALL_ENDPOINTS.length };
}

/** The landing page's Markdown twin. */
export function landingMarkdown(landing: DocsLanding, apiUrl: string): string {
  const lines = [
    '# API documentation',
    '',
    `> One REST API for financial market data, with FMP's paths and field names. ${String(landing.endpointCount)} endpoints.`,
    '',
    '## Quickstart in three steps',
    '',
    '1. Get a free key: sign up, confirm your address, copy the key from your dashboard.',
    `2. Call the API: every endpoint lives under \`${apiUrl}/stable/\`; pass your key as \`apikey\`:`,
    '',
    '   ```sh',
    `   curl "${apiUrl}/stable/quote?symbol=AAPL&apikey=YOUR_API_KEY"`,
    '   ```',
    '',
    '3. Use the answer: an array of objects, with headers that say how many calls you have left.',
    '',
  ];
  if (landing.next.length > 0) {
    lines.push('## Read next', '');
    for (const link of landing.next) lines.push(`- [${link.label}](${link.href}.md)`);
    for (const link of landing.pages) lines.push(`- [${link.label}](${link.href})`);
    lines.push('');
  }
  lines.push('## Endpoints by category', '');
  for (const group of landing.groups) {
    lines.push(`### ${group.name}`, '');
    for (const endpoint of group.endpoints)
      lines.push(`- [\`/stable/${endpoint.path}\`](${endpoint.href}.md): ${endpoint.summary}`);
    lines.push('');
  }
  return `${lines.join('\n').trim()}\n`;
}

export { DOCS_BASE };
