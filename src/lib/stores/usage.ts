import { computed, map } from 'nanostores';
import { DATA_API_URL } from '../endpoints.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, portal } from '../http.ts';
import { isoDayStart, isoDaysThrough } from '../iso-date.ts';
import type { PricePlan } from '../price-plans.ts';
import { $signedIn } from './auth.ts';
import { $dashboard, $dashboardView } from './dashboard.ts';
import { showSnackbar } from './snackbar.ts';

/** The period the dashboard shows: long enough for a monthly pattern, short enough for one chart. */
export const USAGE_DAYS = 30;

/** What the placeholder in the example command reads while the key is masked. */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

export const EXAMPLE_COPIED_MESSAGE = 'Example command copied to the clipboard.';
export const EXAMPLE_COPY_REFUSED_MESSAGE =
  'Your browser did not let the page copy the command. Select it and copy it by hand instead.';

/** One endpoint's use on one UTC day, as GET /api/portal/user/api-usage answers it. */
export interface UsageRow {
  /** UTC day, YYYY-MM-DD. */
  date: string;
  /** Path under /stable/, e.g. 'quote'. */
  endpoint: string;
  calls: number;
  /** Bytes of the answers sent. */
  bytes: number;
}

/** GET /api/portal/user/api-usage: the days asked for (inclusive, UTC) and their rows, oldest first. */
export interface UsageAnswer {
  from: string;
  /** Today, as the server counts days. */
  to: string;
  usage: UsageRow[];
}

export type UsageStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface UsageState {
  status: UsageStatus;
  /** The last answer; kept while a refresh runs or fails, so the numbers do not vanish. */
  answer: UsageAnswer | null;
  /** Why the last load failed, in the server's words where it gave any; '' when it did not fail. */
  error: string;
}

const INITIAL: UsageState = { status: 'idle', answer: null, error: '' };

export const $usage = map<UsageState>({ ...INITIAL });

/** One day of the chart; `share` is the day's calls relative to the busiest day (0 to 1). */
export interface DayUsage {
  date: string;
  calls: number;
  share: number;
}

/** One endpoint's use over the whole period. */
export interface EndpointUsage {
  endpoint: string;
  calls: number;
  bytes: number;
}

/** The most days a series is drawn for, so a malformed range cannot spin the browser. */
const MAX_SERIES_DAYS = 366;

/**
 * Every day from `from` to `to` with its calls, days without use included as 0: the server sends
 * only days with calls, but a chart with gaps would make quiet days disappear rather than show.
 */
export function dailySeries(rows: readonly UsageRow[], from: string, to: string): DayUsage[] {
  const perDay = new Map<string, number>();
  for (const row of rows) perDay.set(row.date, (perDay.get(row.date) ?? 0) + row.calls);
  const days = isoDaysThrough(from, to, MAX_SERIES_DAYS).map((date) => ({
    date,
    calls: perDay.get(date) ?? 0,
  }));
  const busiest = Math.max(0, ...days.map((day) => day.calls));
  return days.map((day) => ({ ...day, share: busiest === 0 ? 0 : day.calls / busiest }));
}

/** Calls on one day over every endpoint; the daily limit counts them all together. */
export function callsOn(rows: readonly UsageRow[], date: string): number {
  let calls = 0;
  for (const row of rows) if (row.date === date) calls += row.calls;
  return calls;
}

/**
 * Calls and bytes per endpoint over the period, busiest first (ties by name), so the endpoints that
 * spend the budget lead the list.
 */
export function endpointTotals(rows: readonly UsageRow[]): EndpointUsage[] {
  const totals = new Map<string, EndpointUsage>();
  for (const row of rows) {
    const entry = totals.get(row.endpoint);
    if (entry === undefined)
      totals.set(row.endpoint, { endpoint: row.endpoint, calls: row.calls, bytes: row.bytes });
    else {
      entry.calls += row.calls;
      entry.bytes += row.bytes;
    }
  }
  return [...totals.values()].sort((a, b) => b.calls - a.calls || a.endpoint.localeCompare(b.endpoint));
}

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;
const byteNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * Bytes in decimal units (1 kB = 1,000 B, as network traffic is billed), one decimal at most; a
 * value that rounds up to 1,000 moves to the next unit, so it reads "1 MB", never "1,000 kB".
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let unit = 0;
  let value = bytes;
  while (unit < BYTE_UNITS.length - 1 && Number(byteNumber.format(value).replaceAll(',', '')) >= 1000) {
    unit += 1;
    value /= 1000;
  }
  return `${byteNumber.format(value)} ${BYTE_UNITS[unit] ?? 'B'}`;
}

const whole = new Intl.NumberFormat('en-US');
const longDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A UTC day as "Mar 3, 2026"; the day the server counted in, whatever the reader's time zone. */
export function formatDay(date: string): string {
  const time = isoDayStart(date);
  return Number.isNaN(time) ? date : longDay.format(time);
}

/** A UTC day as "Mar 3", for the chart's axis where the year would only crowd it. */
export function formatShortDay(date: string): string {
  const time = isoDayStart(date);
  return Number.isNaN(time) ? date : shortDay.format(time);
}

/** A count with separators, shared by every figure of the panel. */
export function formatCalls(calls: number): string {
  return whole.format(calls);
}

function callCount(calls: number): string {
  return `${whole.format(calls)} ${calls === 1 ? 'call' : 'calls'}`;
}

/** What the plan allows, in words, for the panel's limits line. */
export function perMinuteText(plan: PricePlan): string {
  return plan.callsPerMinute === null
    ? 'Your plan has no per-minute limit.'
    : `Up to ${callCount(plan.callsPerMinute)} per minute.`;
}

/** Today against the daily cap; `limit` is null when the plan has none or is not known. */
export interface TodayUsage {
  calls: number;
  limit: number | null;
  /** Share of the cap used, 0 to 1; 0 without a cap. */
  share: number;
  /** "12 of 250 calls today", or "12 calls today" without a cap. */
  text: string;
}

/** The daily cap counts every endpoint of the UTC day, so today's figure is read against the plan's. */
export function todayUsage(calls: number, plan: PricePlan | null): TodayUsage {
  const limit = plan?.callsPerDay ?? null;
  if (limit === null) return { calls, limit, share: 0, text: `${callCount(calls)} today` };
  return {
    calls,
    limit,
    share: limit <= 0 ? 1 : Math.min(1, calls / limit),
    text: `${whole.format(calls)} of ${callCount(limit)} today`,
  };
}

/** The quickest way to see a call counted: one quote, with the key or its placeholder. */
export function curlExample(apiKey: string, baseUrl: string = DATA_API_URL): string {
  return `curl "${baseUrl}/stable/quote?symbol=AAPL&apikey=${apiKey === '' ? API_KEY_PLACEHOLDER : apiKey}"`;
}

/** Everything the panel shows for one answer; pure, so it can be checked without a browser. */
export interface UsageSummary {
  from: string;
  to: string;
  today: TodayUsage;
  /** Null while the plan catalogue is not loaded or lacks the plan. */
  perMinute: string | null;
  /** Whether the plan is known to have no daily cap (not merely unknown). */
  unlimitedDaily: boolean;
  days: DayUsage[];
  endpoints: EndpointUsage[];
  totalCalls: number;
  totalBytes: number;
}

/** One place computes the panel's figures, so the island only lays them out. */
export function summarizeUsage(answer: UsageAnswer, plan: PricePlan | null): UsageSummary {
  const endpoints = endpointTotals(answer.usage);
  return {
    from: answer.from,
    to: answer.to,
    today: todayUsage(callsOn(answer.usage, answer.to), plan),
    perMinute: plan === null ? null : perMinuteText(plan),
    unlimitedDaily: plan !== null && plan.callsPerDay === null,
    days: dailySeries(answer.usage, answer.from, answer.to),
    endpoints,
    totalCalls: endpoints.reduce((sum, entry) => sum + entry.calls, 0),
    totalBytes: endpoints.reduce((sum, entry) => sum + entry.bytes, 0),
  };
}

/** What the usage panel shows. */
export type UsageView =
  | { status: 'hidden' }
  | { status: 'loading' }
  | { status: 'error'; error: string }
  | {
      status: 'ready';
      summary: UsageSummary;
      /** A refresh is under way; the last numbers stay on screen meanwhile. */
      refreshing: boolean;
      /** Why the last refresh failed; '' when it did not. */
      error: string;
      /** The example command, with the real key only while the dashboard shows it revealed. */
      example: string;
      keyRevealed: boolean;
      /** Calls are refused until the address is verified, so the empty state says so. */
      keyActive: boolean;
    };

/**
 * The panel's view. It follows the dashboard's: nothing for a signed-out visitor (the route guard
 * sends them away) and a skeleton until the session is confirmed and the first answer is in.
 */
export const $usageView = computed(
  [$signedIn, $dashboardView, $usage, $dashboard],
  (signedIn, dashboardView, usage, dashboard): UsageView => {
    if (!signedIn) return { status: 'hidden' };
    if (dashboardView.status !== 'ready') return { status: 'loading' };
    if (usage.answer === null) {
      return usage.status === 'error' ? { status: 'error', error: usage.error } : { status: 'loading' };
    }
    return {
      status: 'ready',
      summary: summarizeUsage(usage.answer, dashboardView.plan),
      refreshing: usage.status === 'loading',
      error: usage.status === 'error' ? usage.error : '',
      example: curlExample(dashboard.keyRevealed ? dashboardView.apiKey : ''),
      keyRevealed: dashboard.keyRevealed,
      keyActive: dashboardView.emailVerified,
    };
  },
);

/** Asks the accounts API for the signed-in user's usage; a parameter of {@link loadUsage} for tests. */
export type UsageRequest = (days: number) => Promise<UsageAnswer>;

const requestUsage: UsageRequest = (days) => portal<UsageAnswer>('user/api-usage', { query: { days } });

let latestLoad = 0;

/**
 * Fetches the last {@link USAGE_DAYS} days. Only the newest load may write, so a slow answer cannot
 * replace a fresher one after Refresh; a failure keeps the numbers already shown.
 */
export async function loadUsage(request: UsageRequest = requestUsage): Promise<void> {
  const call = ++latestLoad;
  $usage.set({ ...$usage.get(), status: 'loading', error: '' });
  try {
    const answer = await request(USAGE_DAYS);
    if (call !== latestLoad) return;
    $usage.set({ status: 'ready', answer, error: '' });
  } catch (error) {
    if (call !== latestLoad) return;
    const message = error instanceof ApiError ? error.message : NETWORK_ERROR_MESSAGE;
    $usage.set({ ...$usage.get(), status: 'error', error: message });
  }
}

/**
 * Loads the usage once the dashboard has confirmed the session, so the call goes out with a token
 * the server accepts. Another account signing in on the page starts over, and the returned cleanup forgets
 * the numbers, so nobody ever sees someone else's usage, not even for a moment.
 */
export function startUsage(request: UsageRequest = requestUsage): () => void {
  let owner = '';
  const stop = $dashboardView.subscribe((view) => {
    if (view.status !== 'ready') return;
    if (view.email !== owner) {
      owner = view.email;
      forgetUsage();
    }
    if ($usage.get().status === 'idle') void loadUsage(request);
  });
  return () => {
    stop();
    forgetUsage();
  };
}

/** Drops the numbers and any load still under way, whose answer would belong to the old state. */
function forgetUsage(): void {
  latestLoad += 1;
  $usage.set({ ...INITIAL });
}

/** The page's clipboard, absent outside secure pages and in old browsers. */
function browserClipboard(): Pick<Clipboard, 'writeText'> | undefined {
  if (typeof navigator === 'undefined') return undefined;
  const { clipboard } = navigator as { clipboard?: Clipboard };
  return clipboard;
}

/** Copies the example command as shown; browsers may refuse, and the snackbar then says so. */
export async function copyExample(
  command: string,
  clipboard: Pick<Clipboard, 'writeText'> | undefined = browserClipboard(),
): Promise<void> {
  try {
    if (clipboard === undefined) throw new Error('The Clipboard API is not available');
    await clipboard.writeText(command);
    showSnackbar(EXAMPLE_COPIED_MESSAGE, { type: 'success' });
  } catch {
    showSnackbar(EXAMPLE_COPY_REFUSED_MESSAGE, { type: 'error' });
  }
}
