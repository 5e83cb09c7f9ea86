/*
 * The datasets index's search box, without a framework: the page lists every dataset (which is what a
 * reader without JavaScript gets), and typing narrows the list to the datasets whose name, summary or
 * endpoints hold every word typed, hides the categories left empty, and says how many remain.
 */

/** The words of a query: lower-case, split on spaces and punctuation other than - and /. */
export function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}/-]+/u)
    .filter((word) => word !== '');
}

/** Whether a dataset with these keywords is shown for `query` (every word must occur; '' shows all). */
export function matchesQuery(keywords: string, query: string): boolean {
  return queryWords(query).every((word) => keywords.includes(word));
}

/** The status line: nothing without a query, else how many datasets match it. */
export function searchStatus(query: string, shown: number): string {
  if (queryWords(query).length === 0) return '';
  if (shown === 0) return `No dataset matches “${query.trim()}”.`;
  return `${String(shown)} ${shown === 1 ? 'dataset matches' : 'datasets match'} “${query.trim()}”.`;
}

/** Applies the search box's text to the index on the page, if there is one. */
function applySearch(input: HTMLInputElement): void {
  const query = input.value;
  let shown = 0;
  for (const section of document.querySelectorAll<HTMLElement>('[data-dataset-category]')) {
    let inSection = 0;
    for (const item of section.querySelectorAll<HTMLElement>('[data-dataset-keywords]')) {
      const visible = matchesQuery(item.dataset.datasetKeywords ?? '', query);
      item.hidden = !visible;
      if (visible) inSection += 1;
    }
    section.hidden = inSection === 0;
    shown += inSection;
  }
  const status = document.querySelector('[data-dataset-status]');
  if (status !== null) status.textContent = searchStatus(query, shown);
}

/** Wires the index's search box, if the page has one (the index, after any client-side navigation). */
function wireSearch(): void {
  const form = document.querySelector<HTMLFormElement>('[data-dataset-search]');
  const input = form?.querySelector<HTMLInputElement>('input[type="search"]');
  if (form == null || input == null || form.dataset.wired === 'true') return;
  form.dataset.wired = 'true';
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    applySearch(input);
  });
  input.addEventListener('input', () => {
    applySearch(input);
  });
  // A query kept by the browser (back to the page) applies at once.
  if (input.value !== '') applySearch(input);
}

let started = false;

/** Starts the search box: now, and after every client-side page change. Browser only; the first call acts. */
export function startDatasetSearch(): void {
  if (started) return;
  started = true;
  document.addEventListener('astro:page-load', wireSearch);
  wireSearch();
}
