import { computed, map } from 'nanostores';
import { DATA_API_URL } from '../endpoints.ts';
import type { RequestLogEntry, RequestLogPage } from '../dashboard-data.ts';
import { ApiError, portal } from '../http.ts';
import { KEY_PLACEHOLDER } from '../docs/key-placeholder.ts';
import { maskKey } from '../playground.ts';
import { $signedIn } from './auth.ts';
import { $apiUrl, startApiUrl } from './data-api-access.ts';
import { $sessionChecked, startSession } from './session.ts';
import { showSnackbar } from './snackbar.ts';

/*
 * The dashboard's Request log page: the account's data API requests, newest first, filtered by
 * status, endpoint, key and time range, a page at a time, and one request opened with its curl
 * command (the key masked on screen, whole when copied).
 */

/** The time ranges the page offers. */
export const TIME_RANGES = [
  { value: '1h', label: 'Last hour', ms: 60 * 60 * 1000 },
  { value: '24h', label: 'Last 24 hours', ms: 24 * 60 * 60 * 1000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 24 * 60 * 60 * 1000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 24 * 60 * 60 * 1000 },
] as const;
export type TimeRange = (typeof TIME_RANGES)[number]['value'];

/** The status filters the page offers. */
export const STATUS_FILTERS = [
  { value: '', label: 'All statuses' },
  { value: '2xx', label: 'Succeeded (2xx)' },
  { value: '304', label: 'Not modified (304)' },
  { value: '4xx', label: 'Refused (4xx)' },
  { value: '429', label: 'Limit reached (429)' },
  { value: '5xx', label: 'Failed (5xx)' },
] as const;

export interface RequestLogFilters {
  status: string;
  endpoint: string;
  key: string;
  range: TimeRange;
}

interface KeyChoice {
  id: string;
  name: string;
  last4: string;
  key: string;
}

export interface RequestLogState {
  status: 'loading' | 'ready' | 'error';
  error: string;
  filters: RequestLogFilters;
  entries: RequestLogEntry[];
  nextBefore: string | null;
  loadingMore: boolean;
  endpoints: string[];
  keys: KeyChoice[];
  /** The request opened in the detail view. */
  openId: number | null;
}

const INITIAL: RequestLogState = {
  status: 'loading',
  error: '',
  filters: { status: '', endpoint: '', key: '', range: '24h' },
  entries: [],
  nextBefore: null,
  loadingMore: false,
  endpoints: [],
  keys: [],
  openId: null,
};

export const $requestLog = map<RequestLogState>({ ...INITIAL });

/** The request opened, with its address and curl command as shown and as copied. */
export const $openRequest = computed([$requestLog, $apiUrl], (state, apiUrl) => {
  const entry = state.entries.find((item) => item.id === state.openId);
  if (entry === undefined) return null;
  const key = state.keys.find((item) => item.id === entry.keyId);
  const base = `${apiUrl === '' ? DATA_API_URL : apiUrl}/stable/${entry.endpoint}?${entry.params === '' ? '' : `${entry.params}&`}apikey=`;
  const shown = `curl "${base}${key === undefined ? KEY_PLACEHOLDER : maskKey(key.key)}"`;
  const copied = `curl "${base}${key === undefined ? KEY_PLACEHOLDER : encodeURIComponent(key.key)}"`;
  return { entry, shown, copied, keyWorks: key !== undefined };
});

function query(filters: RequestLogFilters, before: string | null): Record<string, string | undefined> {
  const range = TIME_RANGES.find((item) => item.value === filters.range) ?? TIME_RANGES[1];
  return {
    status: filters.status === '' ? undefined : filters.status,
    endpoint: filters.endpoint === '' ? undefined : filters.endpoint,
    key: filters.key === '' ? undefined : filters.key,
    from: new Date(Date.now() - range.ms).toISOString(),
    before: before ?? undefined,
  };
}

let loading = 0;

/** Reads the first page for the current filters. */
export async function loadRequests(): Promise<void> {
  const ticket = ++loading;
  $requestLog.set({ ...$requestLog.get(), status: 'loading', openId: null });
  try {
    const answer = await portal<RequestLogPage>('user/request-log', {
      query: query($requestLog.get().filters, null),
    });
    if (ticket !== loading) return;
    $requestLog.set({
      ...$requestLog.get(),
      status: 'ready',
      error: '',
      entries: answer.entries,
      nextBefore: answer.nextBefore,
      endpoints: answer.endpoints,
    });
  } catch (error) {
    if (ticket !== loading) return;
    $requestLog.set({
      ...$requestLog.get(),
      status: 'error',
      error: error instanceof ApiError ? error.message : 'The request log could not be read.',
    });
  }
}

/** Reads the next, older page and adds it below. */
export async function loadOlder(): Promise<void> {
  const state = $requestLog.get();
  if (state.nextBefore === null || state.loadingMore) return;
  $requestLog.setKey('loadingMore', true);
  try {
    const answer = await portal<RequestLogPage>('user/request-log', {
      query: query(state.filters, state.nextBefore),
    });
    $requestLog.set({
      ...$requestLog.get(),
      loadingMore: false,
      entries: [...$requestLog.get().entries, ...answer.entries],
      nextBefore: answer.nextBefore,
    });
  } catch (error) {
    $requestLog.setKey('loadingMore', false);
    showSnackbar(error instanceof ApiError ? error.message : 'Older requests could not be read.', {
      type: 'error',
    });
  }
}

/** Changes one filter and reads the log again. */
export function setFilter<K extends keyof RequestLogFilters>(name: K, value: RequestLogFilters[K]): void {
  $requestLog.setKey('filters', { ...$requestLog.get().filters, [name]: value });
  void loadRequests();
}

/** Opens a request's detail view, or closes it (null). */
export function openRequest(id: number | null): void {
  $requestLog.setKey('openId', id);
}

/** Copies the opened request's curl command with the key in full. */
export async function copyCurl(): Promise<void> {
  const open = $openRequest.get();
  if (open === null) return;
  try {
    await navigator.clipboard.writeText(open.copied);
    showSnackbar(
      open.keyWorks
        ? 'curl command copied, with your key.'
        : `curl command copied. Replace ${KEY_PLACEHOLDER} with a key.`,
      {
        type: 'success',
      },
    );
  } catch {
    showSnackbar('Your browser did not let the page copy the command. Select it and copy it by hand.', {
      type: 'error',
    });
  }
}

async function loadKeys(): Promise<void> {
  try {
    const answer = await portal<{ keys: KeyChoice[] }>('user/api-keys');
    $requestLog.setKey(
      'keys',
      answer.keys.map(({ id, name, last4, key }) => ({ id, name, last4, key })),
    );
  } catch {
    // Without the keys, the key filter offers none and curl commands show the placeholder.
  }
}

let stopWatching: (() => void) | undefined;

/** Starts the page: the session, then the log and the account's keys once it is confirmed. */
export function startRequestLog(): () => void {
  startSession();
  void startApiUrl(DATA_API_URL);
  stopWatching?.();
  stopWatching = $sessionChecked.subscribe((checked) => {
    if (checked && $signedIn.get() && $requestLog.get().entries.length === 0) {
      void loadRequests();
      void loadKeys();
    }
  });
  return () => {
    stopWatching?.();
    stopWatching = undefined;
    $requestLog.set({ ...INITIAL });
  };
}
