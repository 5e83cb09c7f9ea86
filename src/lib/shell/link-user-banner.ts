import { $linkSwitch, $linkUser, formatTimeLeft, returnToAdmin, startLinkUser } from '../stores/link-user.ts';

/*
 * The Link User banner (src/components/header/LinkUserBanner.astro) on the switch's store: while an
 * administrator views another account, `<html data-link-user="on">` shows it on every page (the
 * first-paint script sets it from storage before the first frame, so nothing shifts; this keeps it
 * true), with the viewed user's name and the time left, and "Return to admin" returns.
 */

/** The banner's attribute on `<html>`; `on` while switched into another account. */
export const LINK_USER_ATTRIBUTE = 'linkUser';

let ticker: ReturnType<typeof setInterval> | undefined;

function setAll(selector: string, apply: (element: HTMLElement) => void): void {
  for (const element of document.querySelectorAll<HTMLElement>(selector)) apply(element);
}

function renderTime(): void {
  const record = $linkSwitch.get();
  const text = record === null ? '' : formatTimeLeft(record.endsAt - Date.now());
  setAll('[data-link-time]', (element) => {
    if (element.textContent !== text) element.textContent = text;
  });
}

function render(): void {
  const record = $linkSwitch.get();
  document.documentElement.dataset[LINK_USER_ATTRIBUTE] = record === null ? 'off' : 'on';
  setAll('[data-link-username]', (element) => {
    const name = record?.username ?? '';
    if (element.textContent !== name) element.textContent = name;
  });
  renderTime();
  clearInterval(ticker);
  ticker = record === null ? undefined : setInterval(renderTime, 1000);
}

function renderReturning(): void {
  const { returning } = $linkUser.get();
  setAll('[data-link-return]', (element) => {
    element.setAttribute('aria-disabled', String(returning));
  });
}

let started = false;

/**
 * Starts the switch's part of the shell (the store's session hooks, tabs and timer) and keeps the
 * banner in step with it. Browser only; the first call acts.
 */
export function startLinkUserBanner(): void {
  if (started) return;
  started = true;
  startLinkUser();
  $linkSwitch.subscribe(render);
  $linkUser.subscribe(renderReturning);
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('[data-link-return]')) return;
    void returnToAdmin();
  });
  // A navigation replaces the attributes of <html>; the store decides, not the stored copy.
  document.addEventListener('astro:after-swap', render);
}
