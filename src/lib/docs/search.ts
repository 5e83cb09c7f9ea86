/*
 * The documentation's search dialog (src/components/docs/DocsSearch.astro) on Pagefind's index,
 * which the build writes to /pagefind: the index and its code are loaded the first time the
 * dialog opens. `/` or Ctrl-K (⌘K) opens it; the arrows move through the results.
 */

/** The part of Pagefind's browser API the dialog uses. */
interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: { title?: string };
}

interface PagefindResult {
  id: string;
  data: () => Promise<PagefindResultData>;
}

interface Pagefind {
  options: (options: Record<string, unknown>) => Promise<void>;
  init: () => Promise<void>;
  debouncedSearch: (
    query: string,
    options?: object,
    timeout?: number,
  ) => Promise<{ results: PagefindResult[] } | null>;
}

/** Results shown at most; the rest are one more specific word away. */
export const MAX_RESULTS = 8;

/** Where the build writes the index (src/server/docs/search-index.ts). */
const PAGEFIND_MODULE = '/pagefind/pagefind.js';

let loading: Promise<Pagefind> | undefined;

function loadPagefind(): Promise<Pagefind> {
  loading ??= (import(/* @vite-ignore */ PAGEFIND_MODULE) as Promise<Pagefind>).then(async (module) => {
    // In the page rather than a worker: a worker runs under its script's own policy, which allows
    // no fetches, while the page's allows the index (connect-src 'self') and its WebAssembly.
    await module.options({ excerptLength: 24, noWorker: true });
    await module.init();
    return module;
  });
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * Text with Pagefind's <mark> around the words found, as DOM nodes: only the marks become elements,
 * everything else stays text (the excerpt is the page's own text, but it is never parsed as HTML).
 */
export function excerptNodes(excerpt: string, doc: Document = document): Node[] {
  const nodes: Node[] = [];
  const parts = excerpt.split(/(<mark>.*?<\/mark>)/g);
  const decode = (text: string): string =>
    text.replace(
      /&(amp|lt|gt|quot|#39);/g,
      (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '',
    );
  for (const part of parts) {
    if (part === '') continue;
    const marked = /^<mark>(.*)<\/mark>$/.exec(part);
    if (marked) {
      const mark = doc.createElement('mark');
      mark.textContent = decode(marked[1] ?? '');
      nodes.push(mark);
    } else {
      nodes.push(doc.createTextNode(decode(part.replace(/<[^>]*>/g, ''))));
    }
  }
  return nodes;
}

function elements() {
  const dialog = document.querySelector<HTMLDialogElement>('[data-docs-search]');
  return {
    dialog,
    input: dialog?.querySelector<HTMLInputElement>('[data-docs-search-input]') ?? null,
    results: dialog?.querySelector<HTMLOListElement>('[data-docs-search-results]') ?? null,
    status: dialog?.querySelector<HTMLElement>('[data-docs-search-status]') ?? null,
  };
}

let latest = 0;

async function runSearch(query: string): Promise<void> {
  const { results, status } = elements();
  if (!results || !status) return;
  const ticket = ++latest;
  if (query.trim() === '') {
    results.replaceChildren();
    status.textContent = '';
    return;
  }
  try {
    const pagefind = await loadPagefind();
    const search = await pagefind.debouncedSearch(query, {}, 80);
    if (search === null || ticket !== latest) return;
    const found = await Promise.all(search.results.slice(0, MAX_RESULTS).map((result) => result.data()));
    if (ticket !== latest) return;
    results.replaceChildren(
      ...found.map((data) => {
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = data.url
          .replace(/\.html$/, '')
          .replace(/\/index$/, '')
          .replace(/(?<=[^/])\/$/, '');
        const title = document.createElement('span');
        title.className = 'result-title';
        title.textContent = data.meta.title ?? data.url;
        const excerpt = document.createElement('span');
        excerpt.className = 'result-excerpt';
        excerpt.append(...excerptNodes(data.excerpt));
        link.append(title, excerpt);
        item.append(link);
        return item;
      }),
    );
    const count = search.results.length;
    status.textContent =
      count === 0
        ? `Nothing found for “${query}”. Try another word, or browse the sidebar.`
        : `${String(count)} ${count === 1 ? 'page' : 'pages'} found${count > MAX_RESULTS ? `, the first ${String(MAX_RESULTS)} shown` : ''}.`;
  } catch {
    if (ticket === latest)
      status.textContent = 'Search could not be loaded. Please check your connection and try again.';
  }
}

function openSearch(): void {
  const { dialog, input } = elements();
  if (!dialog || dialog.open) return;
  dialog.showModal();
  input?.select();
  void loadPagefind().catch(() => undefined);
}

/** Whether a key press belongs to a field the reader is typing in. */
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

let started = false;

/** Wires the search dialog of the documentation pages. Browser only; the first call acts. */
export function startSearch(): void {
  if (started) return;
  started = true;
  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('[data-docs-search-open]')) openSearch();
  });
  document.addEventListener('keydown', (event) => {
    const { dialog, results } = elements();
    if (!dialog) return;
    const shortcut = (event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey);
    if (!dialog.open && (shortcut || (event.key === '/' && !typing(event.target)))) {
      event.preventDefault();
      openSearch();
      return;
    }
    if (dialog.open && event.key === 'Escape') {
      // A search field would spend the first Escape on clearing itself; Escape closes the dialog.
      event.preventDefault();
      dialog.close();
      return;
    }
    if (!dialog.open || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
    const links = [...(results?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];
    if (links.length === 0) return;
    event.preventDefault();
    const index = links.indexOf(document.activeElement as HTMLAnchorElement);
    const step = event.key === 'ArrowDown' ? 1 : -1;
    const next =
      index === -1 ? (step === 1 ? 0 : links.length - 1) : (index + step + links.length) % links.length;
    links[next]?.focus();
  });
  document.addEventListener('input', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.matches('[data-docs-search-input]')) {
      void runSearch(event.target.value);
    }
  });
  document.addEventListener('submit', (event) => {
    // Enter opens the first result; the Close button closes the dialog.
    if (!(event.target instanceof HTMLFormElement) || !event.target.matches('[data-docs-search-form]'))
      return;
    const submitter = event.submitter;
    if (submitter instanceof HTMLButtonElement && submitter.value === 'close') return;
    event.preventDefault();
    elements().results?.querySelector<HTMLAnchorElement>('a')?.click();
  });
  document.addEventListener('astro:before-swap', () => {
    elements().dialog?.close();
  });
}
