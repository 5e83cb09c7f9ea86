import { map } from 'nanostores';
import type { ClientErrorGroup } from '../admin.ts';
import { adminApi } from '../http.ts';
import { problemText, startStaffPage } from './admin-console.ts';

/*
 * The console's browser error log: the reports of the last days grouped by message (how often, for
 * how many users, first and last seen), a group's latest reports read in full, and every report,
 * newest first, a page at a time.
 */

/** One stored browser report, as the admin API lists it (secrets redacted, line breaks escaped). */
export interface ClientErrorReport {
  id: string;
  type: string;
  stackTrace: string;
  server: string;
  cron: string;
  fargate: string;
  discordChannel: string;
  userId: string | null;
  createdAt: string;
}

interface ReportPage {
  entries: ClientErrorReport[];
  nextBefore: string | null;
}

/** The periods the groups cover, in days. */
export const GROUP_PERIODS = [1, 7, 30, 90] as const;
export type GroupPeriod = (typeof GROUP_PERIODS)[number];

/** Reports per page of the list. */
export const REPORTS_PER_PAGE = 50;
/** How many of a group's latest reports are shown when it is opened. */
const GROUP_LATEST = 5;

export interface OpenGroup {
  group: ClientErrorGroup;
  status: 'loading' | 'ready' | 'error';
  error: string;
  reports: ClientErrorReport[];
}

export interface AdminErrorsState {
  days: GroupPeriod;
  groupsStatus: 'loading' | 'ready' | 'error';
  groupsError: string;
  groups: ClientErrorGroup[];
  reportsStatus: 'loading' | 'ready' | 'error';
  reportsError: string;
  reports: ClientErrorReport[];
  nextBefore: string | null;
  loadingMore: boolean;
  open: OpenGroup | null;
}

const INITIAL: AdminErrorsState = {
  days: 7,
  groupsStatus: 'loading',
  groupsError: '',
  groups: [],
  reportsStatus: 'loading',
  reportsError: '',
  reports: [],
  nextBefore: null,
  loadingMore: false,
  open: null,
};

export const $adminErrors = map<AdminErrorsState>({ ...INITIAL });

let groupsTicket = 0;

/** Reads the groups of the chosen period. */
export async function loadGroups(): Promise<void> {
  const mine = ++groupsTicket;
  $adminErrors.set({ ...$adminErrors.get(), groupsStatus: 'loading', groupsError: '' });
  try {
    const { groups } = await adminApi<{ groups: ClientErrorGroup[] }>('client-errors/groups', {
      query: { days: $adminErrors.get().days },
    });
    if (mine !== groupsTicket) return;
    $adminErrors.set({ ...$adminErrors.get(), groupsStatus: 'ready', groups });
  } catch (error) {
    if (mine !== groupsTicket) return;
    $adminErrors.set({
      ...$adminErrors.get(),
      groupsStatus: 'error',
      groupsError: problemText(error, 'The error groups could not be read. Please try again.'),
    });
  }
}

/** Groups the reports of another period. */
export function chooseGroupPeriod(days: GroupPeriod): void {
  $adminErrors.setKey('days', days);
  void loadGroups();
}

/** Reads the newest page of reports. */
export async function loadReports(): Promise<void> {
  $adminErrors.set({ ...$adminErrors.get(), reportsStatus: 'loading', reportsError: '' });
  try {
    const page = await adminApi<ReportPage>('client-errors', { query: { limit: REPORTS_PER_PAGE } });
    $adminErrors.set({
      ...$adminErrors.get(),
      reportsStatus: 'ready',
      reports: page.entries,
      nextBefore: page.nextBefore,
    });
  } catch (error) {
    $adminErrors.set({
      ...$adminErrors.get(),
      reportsStatus: 'error',
      reportsError: problemText(error, 'The error log could not be read. Please try again.'),
    });
  }
}

/** Adds the next, older page of reports below. */
export async function loadOlderReports(): Promise<void> {
  const state = $adminErrors.get();
  if (state.nextBefore === null || state.loadingMore) return;
  $adminErrors.setKey('loadingMore', true);
  try {
    const page = await adminApi<ReportPage>('client-errors', {
      query: { limit: REPORTS_PER_PAGE, before: state.nextBefore },
    });
    $adminErrors.set({
      ...$adminErrors.get(),
      loadingMore: false,
      reports: [...$adminErrors.get().reports, ...page.entries],
      nextBefore: page.nextBefore,
    });
  } catch (error) {
    $adminErrors.set({
      ...$adminErrors.get(),
      loadingMore: false,
      reportsError: problemText(error, 'Older reports could not be read. Please try again.'),
    });
  }
}

/** Opens a group: its latest reports in full, read by the group's type and message. */
export async function openGroup(group: ClientErrorGroup | null): Promise<void> {
  if (group === null) {
    $adminErrors.setKey('open', null);
    return;
  }
  $adminErrors.setKey('open', { group, status: 'loading', error: '', reports: [] });
  try {
    const answer = await adminApi<ReportPage>('client-errors', {
      query: { limit: GROUP_LATEST, type: group.type, message: group.message },
    });
    if ($adminErrors.get().open?.group !== group) return;
    $adminErrors.setKey('open', { group, status: 'ready', error: '', reports: answer.entries });
  } catch (error) {
    if ($adminErrors.get().open?.group !== group) return;
    $adminErrors.setKey('open', {
      group,
      status: 'error',
      error: problemText(error, 'The reports of this error could not be read. Please try again.'),
      reports: [],
    });
  }
}

/** Starts the error log page once the visitor is confirmed as staff. */
export function startAdminErrors(): () => void {
  $adminErrors.set({ ...INITIAL });
  const stop = startStaffPage(() => {
    void loadGroups();
    void loadReports();
  });
  return () => {
    stop();
    groupsTicket += 1;
    $adminErrors.set({ ...INITIAL });
  };
}
