/*
 * The status answer (GET /api/status) as the browser reads it, and the words and levels the status
 * page shows for it. Shared by the server that writes the answer and the page's script.
 */

/** Where the status answer is served (by the site's accounts API). */
export const STATUS_API_PATH = '/api/status';

/** A component's state: as last probed, or unknown when no recent check exists. */
export type ComponentState = 'operational' | 'degraded' | 'down' | 'unknown';

/** How many daily bars the page shows, and the days the uptime is counted over. */
export const STATUS_DAYS = 90;

/** One UTC day of checks of a component. */
export interface StatusDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  checks: number;
  /** Checks that found the component working (operational or degraded). */
  ok: number;
}

/** One component (the site, an API, the database, the identity provider) or endpoint group. */
export interface ComponentStatus {
  id: string;
  name: string;
  state: ComponentState;
  /** How long the last check took; null before the first. */
  latencyMs: number | null;
  /** When the last check ran (ISO 8601); null before the first. */
  checkedAt: string | null;
  /** Share of the checks of the last 90 days that passed, in percent (two decimals); null without checks. */
  uptime90d: number | null;
  /** The last 90 UTC days, oldest first, today last; days without checks have `checks: 0`. */
  days: StatusDay[];
}

/** GET /api/status. */
export interface StatusAnswer {
  /** The worst of the components, with a problem of an endpoint group counted as degraded. */
  state: ComponentState;
  /** When the newest check ran (ISO 8601); null before the first. */
  checkedAt: string | null;
  /** How often the server probes itself, in milliseconds. */
  probeIntervalMs: number;
  components: ComponentStatus[];
  groups: ComponentStatus[];
}

/** What a state is called on the page. */
export function stateLabel(state: ComponentState): string {
  if (state === 'operational') return 'Operational';
  if (state === 'degraded') return 'Degraded';
  if (state === 'down') return 'Down';
  return 'No data yet';
}

/** The page's headline for the overall state. */
export function overallLabel(state: ComponentState): string {
  if (state === 'operational') return 'All systems operational';
  if (state === 'degraded') return 'Some systems are degraded';
  if (state === 'down') return 'Some systems are down';
  return 'No checks yet';
}

/** The share of passed checks, as the page writes it ("99.95%"), or "No data". */
export function percentText(ok: number, checks: number): string {
  if (checks === 0) return 'No data';
  if (ok === checks) return '100%';
  // 99.999…% is not 100%: a day with one failed check never reads as perfect.
  const share = Math.min((ok / checks) * 100, 99.99);
  return `${share.toFixed(share >= 99 ? 2 : 1).replace(/\.?0+$/, '')}%`;
}

/** How a daily bar is coloured: every check passed, most did, many failed, or no checks. */
export type BarLevel = 'full' | 'partial' | 'poor' | 'none';

/** A day's bar colour: at least 99% passed is partial (amber), less is poor (red). */
export function barLevel(day: StatusDay): BarLevel {
  if (day.checks === 0) return 'none';
  if (day.ok === day.checks) return 'full';
  return day.ok / day.checks >= 0.99 ? 'partial' : 'poor';
}

/** A day's bar as words: "2026-11-20: 100% of checks passed", or "2026-11-20: No data". */
export function barText(day: StatusDay): string {
  return day.checks === 0
    ? `${day.date}: No data`
    : `${day.date}: ${percentText(day.ok, day.checks)} of checks passed`;
}

function days(n: number): string {
  return n === 1 ? '1 day' : `${String(n)} days`;
}

/**
 * The daily bars in one sentence for screen readers (the bars themselves are drawn, each with its
 * day as a tooltip): how many days passed every check and had no data, and each day with failures.
 */
export function barsSummary(series: readonly StatusDay[]): string {
  const perfect = series.filter((day) => day.checks > 0 && day.ok === day.checks).length;
  const empty = series.filter((day) => day.checks === 0).length;
  const failing = series.filter((day) => day.ok < day.checks);
  const parts = [`every check passed on ${days(perfect)}`];
  if (failing.length > 0) parts.push(`some failed on ${days(failing.length)}`);
  if (empty > 0) parts.push(`no data on ${days(empty)}`);
  const listed = failing.map((day) => `${day.date} (${percentText(day.ok, day.checks)} passed)`).join(', ');
  return `Last ${String(series.length)} days: ${parts.join(', ')}.${listed === '' ? '' : ` Days with failed checks: ${listed}.`}`;
}

/** Latency as the page writes it: "38 ms", "1.2 s", or "—" before a check. */
export function latencyText(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${String(Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}
