import {
  barLevel,
  barsSummary,
  barText,
  latencyText,
  overallLabel,
  stateLabel,
  STATUS_API_PATH,
  type ComponentStatus,
  type StatusAnswer,
} from '../status.ts';

/*
 * The status page in the browser, without a framework: reads GET /api/status, writes each
 * component's state, latency, uptime and daily bars into the page's static HTML, and reads it again
 * several times per probe interval while the page is open.
 */

/**
 * The page reads the status four times per probe interval, within these bounds, so a new round shows
 * soon after it ran (the answer is cheap: the newest round is kept in memory).
 */
const READS_PER_INTERVAL = 4;
const FASTEST_REFRESH_MS = 2_000;
const SLOWEST_REFRESH_MS = 15_000;
/** After a failed read, the next one. */
const RETRY_MS = 15_000;

const timeFormat = new Intl.DateTimeFormat('en-US', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

function setText(element: Element | null, text: string): void {
  if (element !== null && element.textContent !== text) element.textContent = text;
}

function setState(element: Element | null, state: string): void {
  if (element instanceof HTMLElement && element.dataset.state !== state) element.dataset.state = state;
}

/** The 90 bars of a component, built once and then updated in place; each day's figures are its tooltip. */
function renderBars(list: HTMLElement, item: ComponentStatus): void {
  while (list.children.length < item.days.length) {
    const bar = document.createElement('li');
    bar.className = 'status-bar';
    list.append(bar);
  }
  while (list.children.length > item.days.length) list.lastElementChild?.remove();
  item.days.forEach((day, index) => {
    const bar = list.children[index] as HTMLElement;
    const level = barLevel(day);
    if (bar.dataset.level !== level) bar.dataset.level = level;
    const text = barText(day);
    if (bar.title !== text) bar.title = text;
  });
}

function renderItem(root: HTMLElement, item: ComponentStatus): void {
  const element = root.querySelector<HTMLElement>(`[data-status-item="${CSS.escape(item.id)}"]`);
  if (element === null) return;
  const state = element.querySelector('[data-status-state]');
  setState(state, item.state);
  setText(state, stateLabel(item.state));
  setText(element.querySelector('[data-status-latency]'), latencyText(item.latencyMs));
  setText(
    element.querySelector('[data-status-uptime]'),
    item.uptime90d === null ? 'No data' : `${String(item.uptime90d)}%`,
  );
  setText(element.querySelector('[data-status-summary]'), barsSummary(item.days));
  const bars = element.querySelector<HTMLElement>('[data-status-bars]');
  if (bars !== null) renderBars(bars, item);
}

function render(root: HTMLElement, answer: StatusAnswer): void {
  setState(root.querySelector('[data-status-overall]'), answer.state);
  setText(root.querySelector('[data-status-headline]'), overallLabel(answer.state));
  setText(
    root.querySelector('[data-status-checked]'),
    answer.checkedAt === null
      ? 'The first checks have not run yet.'
      : `Last checked at ${timeFormat.format(new Date(answer.checkedAt))} UTC; this page refreshes on its own.`,
  );
  for (const item of [...answer.components, ...answer.groups]) renderItem(root, item);
}

let timer: ReturnType<typeof setTimeout> | undefined;

/** Reads the status and shows it, then schedules the next read while the page is shown. */
async function refresh(root: HTMLElement): Promise<void> {
  let next = RETRY_MS;
  try {
    const res = await fetch(root.dataset.statusSource ?? STATUS_API_PATH, {
      cache: 'no-store',
      headers: { Accept: 'application/json' },
    });
    if (!res.ok) throw new Error(String(res.status));
    const answer = (await res.json()) as StatusAnswer;
    if (!root.isConnected) return;
    render(root, answer);
    next = Math.min(
      Math.max(answer.probeIntervalMs / READS_PER_INTERVAL, FASTEST_REFRESH_MS),
      SLOWEST_REFRESH_MS,
    );
  } catch {
    if (!root.isConnected) return;
    setText(root.querySelector('[data-status-headline]'), 'The current status could not be loaded');
    setText(root.querySelector('[data-status-checked]'), 'Trying again shortly.');
  }
  clearTimeout(timer);
  timer = setTimeout(() => void refresh(root), next);
}

let started = false;

/** Starts the status page's reads on every page that has the status board. Browser only; the first call acts. */
export function startStatus(): void {
  if (started) return;
  started = true;
  const onPage = (): void => {
    clearTimeout(timer);
    const root = document.querySelector<HTMLElement>('[data-status]');
    if (root !== null) void refresh(root);
  };
  document.addEventListener('astro:page-load', onPage);
  document.addEventListener('astro:before-swap', () => clearTimeout(timer));
  onPage();
}
