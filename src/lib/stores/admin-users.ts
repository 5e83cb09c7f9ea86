import { map } from 'nanostores';
import type { AdminUserPage, AdminUserRow, UserSearch, UserSort } from '../admin.ts';
import {
  DEFAULT_USER_SORT,
  firstOrder,
  userSearchFromParams,
  userSearchQuery,
  userSearchToParams,
} from '../admin-console.ts';
import { adminApi, portal } from '../http.ts';
import type { PricePlan, PricePlansAnswer } from '../price-plans.ts';
import { problemText, startStaffPage } from './admin-console.ts';

/*
 * The console's users list: a search (start of an address or username, or a whole id), filters, one
 * sort column and pages by cursor. The query lives in the address, so a filtered list can be linked
 * and survives a reload; the cursors of the pages before are kept here for "Previous page".
 */

export interface AdminUsersState {
  status: 'loading' | 'ready' | 'error';
  error: string;
  /** The query the list shows, as the address holds it. */
  search: UserSearch;
  users: AdminUserRow[];
  nextCursor: string | null;
  /** The cursors of the pages before this one, oldest first ('' is the first page). */
  earlier: string[];
  /** The catalogue's plans, for the plan filter and the plans' names. */
  plans: PricePlan[];
}

const INITIAL: AdminUsersState = {
  status: 'loading',
  error: '',
  search: {},
  users: [],
  nextCursor: null,
  earlier: [],
  plans: [],
};

export const $adminUsers = map<AdminUsersState>({ ...INITIAL });

/** The sort the list is in: the one asked for, or the newest sign-ups first. */
export function effectiveSort(search: UserSearch): { sort: UserSort; order: 'asc' | 'desc' } {
  const sort = search.sort ?? DEFAULT_USER_SORT;
  return { sort, order: search.order ?? firstOrder(sort) };
}

function writeAddress(search: UserSearch): void {
  const params = userSearchToParams(search).toString();
  const url = `${location.pathname}${params === '' ? '' : `?${params}`}`;
  history.replaceState(history.state, '', url);
}

let ticket = 0;

/** Reads the page the current query names. */
export async function loadUsers(): Promise<void> {
  const mine = ++ticket;
  const { search } = $adminUsers.get();
  $adminUsers.set({ ...$adminUsers.get(), status: 'loading', error: '' });
  try {
    const page = await adminApi<AdminUserPage>('users', { query: userSearchQuery(search) });
    if (mine !== ticket) return;
    $adminUsers.set({
      ...$adminUsers.get(),
      status: 'ready',
      users: page.users,
      nextCursor: page.nextCursor,
    });
  } catch (error) {
    if (mine !== ticket) return;
    $adminUsers.set({
      ...$adminUsers.get(),
      status: 'error',
      error: problemText(error, 'The users could not be read. Please try again.'),
    });
  }
}

function show(search: UserSearch, earlier: string[]): void {
  $adminUsers.set({ ...$adminUsers.get(), search, earlier });
  writeAddress(search);
  void loadUsers();
}

/** Changes to the query: a value left undefined or empty clears its filter. */
export type SearchChanges = { [K in keyof UserSearch]?: UserSearch[K] | undefined };

/** Runs a new search or filter: back to the first page, keeping the sort. */
export function applySearch(changes: SearchChanges): void {
  const merged: SearchChanges = { ...$adminUsers.get().search, ...changes };
  delete merged.cursor;
  const next = Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== undefined && value !== ''),
  ) as UserSearch;
  show(next, []);
}

/** Clears the search and every filter, keeping the sort. */
export function clearSearch(): void {
  const { sort, order } = $adminUsers.get().search;
  show({ ...(sort === undefined ? {} : { sort }), ...(order === undefined ? {} : { order }) }, []);
}

/** Sorts by a column: the same column again turns the order around; a new one starts from its own first order. */
export function sortBy(column: UserSort): void {
  const { search } = $adminUsers.get();
  const current = effectiveSort(search);
  const order = current.sort === column ? (current.order === 'asc' ? 'desc' : 'asc') : firstOrder(column);
  const next: UserSearch = { ...search, sort: column, order };
  delete next.cursor;
  show(next, []);
}

/** The next page. */
export function nextPage(): void {
  const { search, nextCursor, earlier } = $adminUsers.get();
  if (nextCursor === null) return;
  show({ ...search, cursor: nextCursor }, [...earlier, search.cursor ?? '']);
}

/**
 * The page before: the cursor it was opened with, or the first page when this one was opened from an
 * address (a link or a reload) and the pages before it are not known.
 */
export function previousPage(): void {
  const { search, earlier } = $adminUsers.get();
  const cursor = earlier.at(-1) ?? '';
  const next: UserSearch = { ...search };
  if (cursor === '') delete next.cursor;
  else next.cursor = cursor;
  show(next, earlier.slice(0, -1));
}

async function loadPlans(): Promise<void> {
  try {
    const answer = await portal<PricePlansAnswer>('account/get-price-plans');
    $adminUsers.setKey('plans', answer.plans);
  } catch {
    // Without the catalogue the plan filter offers no choice and plans show by their codes.
  }
}

/** Starts the users page from the address once the visitor is confirmed as staff. */
export function startAdminUsers(): () => void {
  $adminUsers.set({ ...INITIAL, search: userSearchFromParams(new URLSearchParams(location.search)) });
  const stop = startStaffPage(() => {
    void loadUsers();
    void loadPlans();
  });
  return () => {
    stop();
    ticket += 1;
    $adminUsers.set({ ...INITIAL });
  };
}
