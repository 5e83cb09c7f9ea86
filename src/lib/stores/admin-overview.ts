import { map } from 'nanostores';
import type { AdminOverview } from '../admin.ts';
import { adminApi } from '../http.ts';
import { problemText, startStaffPage } from './admin-console.ts';

/*
 * The console's overview: the totals and the per-day series of the last 7, 30 or 90 days (sign-ups,
 * calls, errors, the busiest endpoints). The period chosen is kept in the address (`?days=7`).
 */

/** The periods the overview offers, in days. */
export const OVERVIEW_PERIODS = [7, 30, 90] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];
export const DEFAULT_PERIOD: OverviewPeriod = 30;

export interface AdminOverviewState {
  status: 'loading' | 'ready' | 'error';
  error: string;
  days: OverviewPeriod;
  overview: AdminOverview | null;
}

const INITIAL: AdminOverviewState = { status: 'loading', error: '', days: DEFAULT_PERIOD, overview: null };

export const $adminOverview = map<AdminOverviewState>({ ...INITIAL });

/** The period an address asks for (`?days=`), or the default. */
export function periodFromSearch(search: string): OverviewPeriod {
  const asked = Number(new URLSearchParams(search).get('days'));
  return OVERVIEW_PERIODS.find((days) => days === asked) ?? DEFAULT_PERIOD;
}

let ticket = 0;

/** Reads the overview of the chosen period. */
export async function loadOverview(): Promise<void> {
  const mine = ++ticket;
  const { days } = $adminOverview.get();
  $adminOverview.set({ ...$adminOverview.get(), status: 'loading', error: '' });
  try {
    const overview = await adminApi<AdminOverview>('overview', { query: { days } });
    if (mine !== ticket) return;
    $adminOverview.set({ ...$adminOverview.get(), status: 'ready', overview });
  } catch (error) {
    if (mine !== ticket) return;
    $adminOverview.set({
      ...$adminOverview.get(),
      status: 'error',
      error: problemText(error, 'The overview could not be read. Please try again.'),
    });
  }
}

/** Chooses the period, keeps it in the address and reads the overview again. */
export function choosePeriod(days: OverviewPeriod): void {
  $adminOverview.setKey('days', days);
  const url = new URL(location.href);
  if (days === DEFAULT_PERIOD) url.searchParams.delete('days');
  else url.searchParams.set('days', String(days));
  history.replaceState(history.state, '', url);
  void loadOverview();
}

/** Starts the overview page once the visitor is confirmed as staff. */
export function startAdminOverview(): () => void {
  $adminOverview.set({ ...INITIAL, days: periodFromSearch(location.search) });
  const stop = startStaffPage(() => void loadOverview());
  return () => {
    stop();
    ticket += 1;
    $adminOverview.set({ ...INITIAL });
  };
}
