import { $user } from '../stores/user.ts';
import { startCodeTabs } from './code-tabs.ts';
import { KEY_PLACEHOLDER } from './key-placeholder.ts';
import { requestRun } from './run-it-demand.ts';

/*
 * What the documentation pages do in the browser, without a framework: the phone's sidebar toggle,
 * the sidebar's current-page mark after a client-side page change, "Copy page as Markdown", a copy
 * button on every code sample, the code samples' language tabs (code-tabs.ts), the reader's own
 * API key in the samples once the session is known (never in the static HTML, which is the same for
 * everyone), and the first press of the quickstart's "Run it" (run-it-demand.ts).
 */

export { KEY_PLACEHOLDER };

const normal = (path: string): string => (path.length > 1 ? path.replace(/\/$/, '') : path);

/**
 * Marks the sidebar link of the page shown (the sidebar persists across page changes) and opens the
 * collapsed group it is in, so the reader sees where they are.
 */
function markCurrent(): void {
  const here = normal(location.pathname);
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-docs-sidebar] a')) {
    if (normal(new URL(link.href).pathname) !== here) {
      link.removeAttribute('aria-current');
      continue;
    }
    link.setAttribute('aria-current', 'page');
    for (
      let group = link.closest('details');
      group !== null;
      group = group.parentElement?.closest('details') ?? null
    ) {
      group.open = true;
    }
  }
}

function setStatus(element: Element | null, text: string): void {
  if (element instanceof HTMLElement) element.textContent = text;
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The page's Markdown twin, with the reader's key in the samples when signed in. */
async function copyMarkdown(button: HTMLElement): Promise<void> {
  const status = button.parentElement?.querySelector('[data-copy-status]') ?? null;
  const path = button.dataset.copyMarkdown;
  if (path === undefined) return;
  try {
    const res = await fetch(path, { headers: { Accept: 'text/markdown' } });
    if (!res.ok) throw new Error(String(res.status));
    const copied = await copyText(withReaderKey(await res.text()));
    setStatus(status, copied ? 'Copied the page as Markdown.' : 'Copying was refused by the browser.');
  } catch {
    setStatus(status, 'The Markdown could not be loaded. Please try again.');
  }
}

/** The reader's API key when signed in with one, else undefined. */
function readerKey(): string | undefined {
  const key = $user.get().apiKey;
  return key === '' ? undefined : key;
}

function withReaderKey(text: string): string {
  const key = readerKey();
  return key === undefined ? text : text.replaceAll(KEY_PLACEHOLDER, key);
}

/**
 * Puts the reader's key into every code sample's placeholder (and back to the placeholder when the
 * reader signs out), keeping the original text of each changed piece of text.
 */
function insertKey(): void {
  const key = readerKey();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest('pre, code') !== null &&
      node.parentElement?.closest('[data-key-sample]') === null
        ? NodeFilter.FILTER_ACCEPT
        : NodeFilter.FILTER_REJECT,
  });
  const originals = textOriginals;
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node as Text;
    const original = originals.get(text) ?? text.data;
    if (!original.includes(KEY_PLACEHOLDER)) continue;
    originals.set(text, original);
    text.data = key === undefined ? original : original.replaceAll(KEY_PLACEHOLDER, key);
  }
  for (const notice of document.querySelectorAll<HTMLElement>('[data-signed-out-only]')) {
    notice.hidden = key !== undefined;
  }
}

const textOriginals = new WeakMap<Text, string>();

/** A "Copy" button on each code sample that has none yet. */
function addCopyButtons(): void {
  for (const pre of document.querySelectorAll<HTMLElement>('.prose pre, pre[data-copyable]')) {
    if (pre.querySelector(':scope > [data-copy-code]') !== null) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'code-copy';
    button.dataset.copyCode = '';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy code');
    pre.append(button);
  }
}

async function copyCode(button: HTMLElement): Promise<void> {
  const pre = button.closest('pre');
  const code = pre?.querySelector('code') ?? pre;
  if (!code) return;
  const copied = await copyText(code.textContent);
  button.textContent = copied ? 'Copied' : 'Copy failed';
  setTimeout(() => {
    button.textContent = 'Copy';
  }, 2000);
}

function setNavOpen(open: boolean): void {
  document.querySelector('[data-docs-nav]')?.toggleAttribute('data-open', open);
  document.querySelector('[data-docs-nav-toggle]')?.setAttribute('aria-expanded', String(open));
}

let started = false;

/** Starts the documentation pages' behaviour. Browser only; the first call acts. */
export function startDocs(): void {
  if (started) return;
  started = true;
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const markdown = target?.closest<HTMLElement>('[data-copy-markdown]');
    if (markdown) {
      void copyMarkdown(markdown);
      return;
    }
    const code = target?.closest<HTMLElement>('[data-copy-code]');
    if (code) {
      void copyCode(code);
      return;
    }
    // "Run it" pressed before its island is hydrated: the island is asked for, and runs once it is.
    if (target?.closest('[data-run-it]')?.closest('astro-island')?.hasAttribute('ssr') === true) {
      requestRun();
      return;
    }
    if (target?.closest('[data-docs-nav-toggle]')) {
      setNavOpen(document.querySelector('[data-docs-nav]')?.hasAttribute('data-open') !== true);
    }
  });
  const onPage = (): void => {
    markCurrent();
    setNavOpen(false);
    addCopyButtons();
    insertKey();
  };
  document.addEventListener('astro:page-load', onPage);
  onPage();
  $user.listen(insertKey);
  startCodeTabs();
}
