import { map } from 'nanostores';
import { ID_PATTERN, type AdminAuditEntry } from '../admin.ts';
import { adminApi } from '../http.ts';
import { problemText, startStaffPage } from './admin-console.ts';

/*
 * The console's audit trail: who did what to whose account, when and why, newest first and a page at
 * a time, for everyone or for one user (as actor or as target). The user filter lives in the address
 * (`?userId=`), so a user's page can link to their trail.
 */

/** Entries per page. */
export const AUDIT_PER_PAGE = 50;

export const USER_ID_MESSAGE = 'A user id looks like 7d4c1a2e-0b6f-4c1e-9a57-3f1e2d4c5b6a.';

export interface AdminAuditState {
  status: 'loading' | 'ready' | 'error';
  error: string;
  userId: string;
  /** Why the user id typed was not taken, in words. */
  filterProblem: string;
  entries: AdminAuditEntry[];
  nextCursor: string | null;
  loadingMore: boolean;
}

const INITIAL: AdminAuditState = {
  status: 'loading',
  error: '',
  userId: '',
  filterProblem: '',
  entries: [],
  nextCursor: null,
  loadingMore: false,
};

export const $adminAudit = map<AdminAuditState>({ ...INITIAL });

interface AuditPage {
  entries: AdminAuditEntry[];
  nextCursor: string | null;
}

function query(before?: string): Record<string, string | number | undefined> {
  const { userId } = $adminAudit.get();
  return { limit: AUDIT_PER_PAGE, userId: userId === '' ? undefined : userId, before };
}

let ticket = 0;

/** Reads the newest entries for the current filter. */
export async function loadAudit(): Promise<void> {
  const mine = ++ticket;
  $adminAudit.set({ ...$adminAudit.get(), status: 'loading', error: '' });
  try {
    const page = await adminApi<AuditPage>('audit', { query: query() });
    if (mine !== ticket) return;
    $adminAudit.set({
      ...$adminAudit.get(),
      status: 'ready',
      entries: page.entries,
      nextCursor: page.nextCursor,
    });
  } catch (error) {
    if (mine !== ticket) return;
    $adminAudit.set({
      ...$adminAudit.get(),
      status: 'error',
      error: problemText(error, 'The audit trail could not be read. Please try again.'),
    });
  }
}

/** Adds the next, older page below. */
export async function loadOlderAudit(): Promise<void> {
  const state = $adminAudit.get();
  if (state.nextCursor === null || state.loadingMore) return;
  $adminAudit.setKey('loadingMore', true);
  try {
    const page = await adminApi<AuditPage>('audit', { query: query(state.nextCursor) });
    $adminAudit.set({
      ...$adminAudit.get(),
      loadingMore: false,
      entries: [...$adminAudit.get().entries, ...page.entries],
      nextCursor: page.nextCursor,
    });
  } catch (error) {
    $adminAudit.set({
      ...$adminAudit.get(),
      loadingMore: false,
      error: problemText(error, 'Older entries could not be read. Please try again.'),
    });
  }
}

/** Shows one user's entries ('' for everyone's), keeping the filter in the address. */
export function filterByUser(typed: string): void {
  const userId = typed.trim();
  if (userId !== '' && !ID_PATTERN.test(userId)) {
    $adminAudit.setKey('filterProblem', USER_ID_MESSAGE);
    return;
  }
  $adminAudit.set({ ...$adminAudit.get(), userId, filterProblem: '' });
  const url = new URL(location.href);
  if (userId === '') url.searchParams.delete('userId');
  else url.searchParams.set('userId', userId);
  history.replaceState(history.state, '', url);
  void loadAudit();
}

/** Starts the audit page from the address once the visitor is confirmed as staff. */
export function startAdminAudit(): () => void {
  const asked = new URLSearchParams(location.search).get('userId')?.trim() ?? '';
  $adminAudit.set({ ...INITIAL, userId: ID_PATTERN.test(asked) ? asked : '' });
  const stop = startStaffPage(() => void loadAudit());
  return () => {
    stop();
    ticket += 1;
    $adminAudit.set({ ...INITIAL });
  };
}
