import {
  CODE_LANGUAGE_STORAGE_KEY,
  DEFAULT_CODE_LANGUAGE,
  isCodeLanguage,
  type CodeLanguage,
} from './code-languages.ts';

/*
 * The code samples' language tabs (src/components/docs/CodeSamples.astro), without a framework. The
 * chosen language is `<html data-code-lang>`: the first-paint script sets it from local storage
 * before the first frame (and again after each client-side page change), and CSS shows that
 * language's panel and marks its tab, so nothing moves when this script starts. Choosing a
 * language here applies it to every sample on the page, remembers it for every other page and
 * later visits, and follows a choice made in another window. The tabs follow the ARIA tabs pattern:
 * one tab stop, arrow keys, Home and End.
 */

const TAB = '[data-code-tab]';

/** The language shown now. */
export function chosenLanguage(): CodeLanguage {
  const value = document.documentElement.dataset.codeLang;
  return isCodeLanguage(value) ? value : DEFAULT_CODE_LANGUAGE;
}

/** Marks every tab list for the language shown: the selected tab, and the one tab stop. */
function syncTabs(): void {
  const language = chosenLanguage();
  for (const tab of document.querySelectorAll<HTMLElement>(TAB)) {
    const selected = tab.dataset.lang === language;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
}

/** Shows `language` everywhere and remembers it. */
export function chooseLanguage(language: CodeLanguage): void {
  document.documentElement.dataset.codeLang = language;
  try {
    localStorage.setItem(CODE_LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage refused (private mode, quota): the choice holds for this page only.
  }
  syncTabs();
}

/** The tab an arrow, Home or End key moves to within a tab list, if the key is one of them. */
function targetTab(tabs: readonly HTMLElement[], current: HTMLElement, key: string): HTMLElement | undefined {
  const index = tabs.indexOf(current);
  if (index < 0) return undefined;
  if (key === 'ArrowRight') return tabs[(index + 1) % tabs.length];
  if (key === 'ArrowLeft') return tabs[(index - 1 + tabs.length) % tabs.length];
  if (key === 'Home') return tabs[0];
  if (key === 'End') return tabs.at(-1);
  return undefined;
}

function onKeydown(event: KeyboardEvent): void {
  const current = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>(TAB) : null;
  const list = current?.closest('[role="tablist"]');
  if (!current || !list) return;
  const tabs = [...list.querySelectorAll<HTMLElement>(TAB)];
  const next = targetTab(tabs, current, event.key);
  if (next === undefined || !isCodeLanguage(next.dataset.lang)) return;
  event.preventDefault();
  chooseLanguage(next.dataset.lang);
  next.focus();
}

let started = false;

/** Wires the language tabs of every documentation page. Browser only; the first call acts. */
export function startCodeTabs(): void {
  if (started) return;
  started = true;
  document.addEventListener('click', (event) => {
    const tab = event.target instanceof Element ? event.target.closest<HTMLElement>(TAB) : null;
    if (tab && isCodeLanguage(tab.dataset.lang)) chooseLanguage(tab.dataset.lang);
  });
  document.addEventListener('keydown', onKeydown);
  window.addEventListener('storage', (event) => {
    if (event.key !== CODE_LANGUAGE_STORAGE_KEY || !isCodeLanguage(event.newValue)) return;
    document.documentElement.dataset.codeLang = event.newValue;
    syncTabs();
  });
  document.addEventListener('astro:page-load', syncTabs);
  syncTabs();
}
