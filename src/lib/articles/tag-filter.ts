/*
 * The tag filter of an article index, without a framework: the page lists every article, and this
 * shows only those carrying the tag named in the address (`?tag=valuation`), marks that tag as the
 * current choice and says how many articles remain. Reading the address (rather than keeping state)
 * makes a filtered index a link to share, and back and forward move between filters.
 */

/** Whether an article with these space-separated tags is shown for `tag` ('' shows every article). */
export function matchesTag(articleTags: string, tag: string): boolean {
  return tag === '' || articleTags.split(' ').includes(tag);
}

/** The status line for a filter: nothing for all articles, else the count and the tag. */
export function filterStatus(tag: string, shown: number): string {
  if (tag === '') return '';
  const articles = shown === 1 ? 'article' : 'articles';
  return `${String(shown)} ${articles} tagged “${tag.replaceAll('-', ' ')}”.`;
}

/** Applies the address's tag to the index on the page, if there is one. */
export function applyTagFilter(): void {
  const list = document.querySelector('[data-article-list]');
  if (list === null) return;
  const tag = new URLSearchParams(location.search).get('tag')?.trim().toLowerCase() ?? '';
  let shown = 0;
  for (const item of list.querySelectorAll<HTMLElement>('[data-article-tags]')) {
    const visible = matchesTag(item.dataset.articleTags ?? '', tag);
    item.hidden = !visible;
    if (visible) shown += 1;
  }
  for (const link of document.querySelectorAll<HTMLElement>('[data-tag-filter] [data-tag]')) {
    if (link.dataset.tag === tag) link.setAttribute('aria-current', 'true');
    else link.removeAttribute('aria-current');
  }
  const status = document.querySelector('[data-articles-status]');
  if (status !== null) status.textContent = filterStatus(tag, shown);
  const empty = document.querySelector<HTMLElement>('[data-articles-empty]');
  if (empty !== null) empty.hidden = shown > 0;
}

let started = false;

/** Starts the filter: now, and after every client-side page change. Browser only; the first call acts. */
export function startTagFilter(): void {
  if (started) return;
  started = true;
  document.addEventListener('astro:page-load', applyTagFilter);
  applyTagFilter();
}
