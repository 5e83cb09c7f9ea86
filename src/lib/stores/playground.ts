import { atom, computed, map } from 'nanostores';
import { ApiError, api, dataApiGet, type DataApiAnswer } from '../http.ts';
import { KEY_PLACEHOLDER } from '../docs/key-placeholder.ts';
import type { CodeLanguage } from '../docs/code-languages.ts';
import {
  formProblems,
  maskKey,
  requestFromSearch,
  requestUrl,
  searchOf,
  withKey,
  endpointOf,
  type ParamValues,
  type PlaygroundCatalogue,
  type PlaygroundEndpoint,
} from '../playground.ts';
import { $apiUrl, $keyOwner, requestKey, startApiUrl } from './data-api-access.ts';

/*
 * The API viewer (/playground): the endpoint and parameters of the request being written, the last
 * answer, the request written as code, and the requests sent lately. The address always holds the
 * request (`?endpoint=quote&symbol=AAPL`): choosing an endpoint adds a history entry, typing
 * replaces the current one, and back and forward bring earlier requests back without a page load.
 */

/** How the answer is shown. */
export type AnswerView = 'json' | 'table' | 'chart' | 'headers';

/** An answer with what the viewer derives from it once. */
export interface ViewerAnswer extends DataApiAnswer {
  /** The request's address without the key. */
  url: string;
  endpointId: string;
  /** The parsed JSON body; undefined for CSV or text. */
  body: unknown;
  json: boolean;
}

export interface PlaygroundState {
  endpointId: string;
  values: ParamValues;
  /** Whether the form shows its problems (after a first attempt to send with some). */
  checked: boolean;
  sending: boolean;
  answer: ViewerAnswer | null;
  /** Why the API could not be reached ('' when it could). */
  failure: string;
  view: AnswerView;
}

/** One request sent lately, kept in this browser. */
export interface RecentRequest {
  endpointId: string;
  search: string;
  label: string;
  status: number;
  sentAt: string;
}

/** Where recent requests are kept (local storage), per viewer variant. */
export const RECENT_STORAGE_KEY = 'playgroundRecent';

/** How many recent requests are kept. */
export const RECENT_LIMIT = 10;

/** How long typing waits before the address and the code samples follow it. */
const TYPING_PAUSE_MS = 250;

/** Marks the history entries the viewer made, so back and forward between them stay on the page. */
const HISTORY_MARK = 'playground';

export const $catalogue = atom<PlaygroundCatalogue | null>(null);

export const $playground = map<PlaygroundState>({
  endpointId: '',
  values: {},
  checked: false,
  sending: false,
  answer: null,
  failure: '',
  view: 'json',
});

export const $recent = atom<RecentRequest[]>([]);

/** The endpoint being written. */
export const $endpoint = computed([$catalogue, $playground], (catalogue, state) =>
  catalogue === null ? null : endpointOf(catalogue, state.endpointId),
);

/** The form's problems: shown once the reader tried to send. */
export const $problems = computed([$endpoint, $playground], (endpoint, state) =>
  endpoint === null ? {} : formProblems(endpoint, state.values),
);

/** The request written in each documentation language (from the docs' generator on the server). */
export interface CodeSamplesState {
  search: string;
  status: 'loading' | 'ready' | 'error';
  samples: { language: CodeLanguage; label: string; code: string; html: string }[];
}

export const $codeSamples = atom<CodeSamplesState>({ search: '', status: 'loading', samples: [] });

/** What the last copy did, for the live region ('' before the first). */
export const $copyNote = atom('');

function catalogue(): PlaygroundCatalogue {
  const current = $catalogue.get();
  if (current === null) throw new Error('The API viewer has not started.');
  return current;
}

function currentEndpoint(): PlaygroundEndpoint {
  return endpointOf(catalogue(), $playground.get().endpointId);
}

/** The address of the request being written. */
export function currentSearch(): string {
  return searchOf(currentEndpoint(), $playground.get().values);
}

function recentKey(): string {
  return `${RECENT_STORAGE_KEY}:${catalogue().variant}`;
}

function loadRecent(): RecentRequest[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(recentKey()) ?? '[]');
    return Array.isArray(stored) ? (stored as RecentRequest[]).slice(0, RECENT_LIMIT) : [];
  } catch {
    return [];
  }
}

function saveRecent(list: RecentRequest[]): void {
  $recent.set(list);
  try {
    localStorage.setItem(recentKey(), JSON.stringify(list));
  } catch {
    // Storage refused (private mode, quota): the list lasts for this page view.
  }
}

function markedState(): Record<string, unknown> {
  const state: unknown = history.state;
  return { ...(typeof state === 'object' && state !== null ? state : {}), [HISTORY_MARK]: true };
}

let typingTimer: ReturnType<typeof setTimeout> | undefined;

function writeAddress(mode: 'push' | 'replace'): void {
  clearTimeout(typingTimer);
  const url = `${location.pathname}${currentSearch()}`;
  if (`${location.pathname}${location.search}` === url) return;
  // The router's own fields (index, scroll) are kept, so leaving the page and coming back still works.
  if (mode === 'push') history.pushState(markedState(), '', url);
  else history.replaceState(markedState(), '', url);
}

function applySearch(search: string): void {
  const request = requestFromSearch(catalogue(), search);
  $playground.set({
    ...$playground.get(),
    endpointId: request.endpoint.id,
    values: request.values,
    checked: false,
    failure: '',
  });
}

/**
 * Starts the viewer on this page with its catalogue and the address's request, and keeps back and
 * forward between the viewer's own history entries on the page. Returns the stop for the island's
 * unmount (the client router swaps pages without a reload).
 */
export function startPlayground(source: PlaygroundCatalogue): () => void {
  $catalogue.set(source);
  void startApiUrl(source.apiUrl);
  applySearch(location.search);
  $recent.set(loadRecent());
  history.replaceState(markedState(), '');
  const pathname = location.pathname;
  // Registered for the capture phase, so it runs before the client router's own listener and keeps
  // it from loading the page again for an entry this page made.
  const onPopState = (event: PopStateEvent): void => {
    const state: unknown = event.state;
    const ours = typeof state === 'object' && state !== null && HISTORY_MARK in state;
    if (!ours || location.pathname !== pathname) return;
    event.stopImmediatePropagation();
    applySearch(location.search);
    $playground.setKey('answer', null);
  };
  window.addEventListener('popstate', onPopState, { capture: true });
  const stopSamples = $playground.listen(scheduleSamples);
  void loadSamples();
  return () => {
    window.removeEventListener('popstate', onPopState, { capture: true });
    stopSamples();
    clearTimeout(typingTimer);
    clearTimeout(samplesTimer);
  };
}

/** Opens another endpoint with its example's values (a new history entry). */
export function selectEndpoint(id: string): void {
  const endpoint = endpointOf(catalogue(), id);
  $playground.set({
    ...$playground.get(),
    endpointId: endpoint.id,
    values: { ...endpoint.example },
    checked: false,
    answer: null,
    failure: '',
    view: 'json',
  });
  writeAddress('push');
}

/** Changes one parameter; the address follows once typing pauses. */
export function setParam(name: string, value: string): void {
  $playground.setKey('values', { ...$playground.get().values, [name]: value });
  clearTimeout(typingTimer);
  typingTimer = setTimeout(() => {
    writeAddress('replace');
  }, TYPING_PAUSE_MS);
}

/** Shows the answer another way. */
export function setView(view: AnswerView): void {
  $playground.setKey('view', view);
}

function parsedBody(answer: DataApiAnswer): { body: unknown; json: boolean } {
  if (!answer.contentType.includes('json')) return { body: undefined, json: false };
  try {
    return { body: JSON.parse(answer.text) as unknown, json: true };
  } catch {
    return { body: undefined, json: false };
  }
}

function remember(endpoint: PlaygroundEndpoint, search: string, status: number): void {
  const values = $playground.get().values;
  const symbol = endpoint.params.find((param) => param.kind === 'symbol' || param.kind === 'symbols');
  const subject = symbol === undefined ? '' : (values[symbol.name] ?? '').trim();
  const entry: RecentRequest = {
    endpointId: endpoint.id,
    search,
    label: subject === '' ? endpoint.id : `${endpoint.id} · ${subject.toUpperCase()}`,
    status,
    sentAt: new Date().toISOString(),
  };
  saveRecent([entry, ...$recent.get().filter((item) => item.search !== search)].slice(0, RECENT_LIMIT));
}

let sending: AbortController | undefined;

/**
 * Sends the request: first the form's own checks (nothing is sent, and no call is spent, while a
 * parameter would be refused), then the data API with the reader's key, answer and refusal alike
 * shown as they came.
 */
export async function send(): Promise<void> {
  const endpoint = currentEndpoint();
  const state = $playground.get();
  if (Object.keys(formProblems(endpoint, state.values)).length > 0) {
    $playground.setKey('checked', true);
    return;
  }
  writeAddress('replace');
  sending?.abort();
  const controller = new AbortController();
  sending = controller;
  $playground.set({ ...$playground.get(), checked: false, sending: true, failure: '' });
  const url = requestUrl($apiUrl.get(), endpoint, state.values);
  try {
    const answer = await dataApiGet(withKey(url, await requestKey()), controller.signal);
    if (controller.signal.aborted) return;
    const { body, json } = parsedBody(answer);
    const view = $playground.get().view;
    $playground.set({
      ...$playground.get(),
      sending: false,
      answer: { ...answer, url, endpointId: endpoint.id, body, json },
      view: view === 'chart' && !endpoint.chart ? 'json' : view,
    });
    remember(endpoint, searchOf(endpoint, state.values), answer.status);
  } catch (error) {
    if (controller.signal.aborted) return;
    $playground.set({
      ...$playground.get(),
      sending: false,
      answer: null,
      failure: error instanceof ApiError ? error.message : 'The request could not be sent.',
    });
  } finally {
    if (sending === controller) sending = undefined;
  }
}

/** Opens a recent request (a new history entry); it is not sent until the reader sends it. */
export function openRecent(entry: RecentRequest): void {
  applySearch(entry.search);
  $playground.setKey('answer', null);
  writeAddress('push');
}

/** Forgets the recent requests of this browser. */
export function clearRecent(): void {
  saveRecent([]);
}

let samplesTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleSamples(): void {
  clearTimeout(samplesTimer);
  samplesTimer = setTimeout(() => {
    void loadSamples();
  }, TYPING_PAUSE_MS);
}

async function loadSamples(): Promise<void> {
  const search = currentSearch();
  if ($codeSamples.get().search === search && $codeSamples.get().status === 'ready') return;
  $codeSamples.set({ ...$codeSamples.get(), search, status: 'loading' });
  try {
    const query = Object.fromEntries(new URLSearchParams(search));
    const answer = await api<{ samples: CodeSamplesState['samples'] }>('/api/playground/code-samples', {
      query: { ...query, variant: catalogue().variant },
    });
    if (currentSearch() !== search) return;
    $codeSamples.set({ search, status: 'ready', samples: answer.samples });
  } catch {
    if (currentSearch() !== search) return;
    $codeSamples.set({ search, status: 'error', samples: [] });
  }
}

/** A sample as the screen shows it: a signed-in reader's key masked, a visitor's placeholder kept. */
export function shownCode(text: string): string {
  const owner = $keyOwner.get();
  return owner.kind === 'account' ? text.replaceAll(KEY_PLACEHOLDER, maskKey(owner.key)) : text;
}

/** A sample as it is copied: with the reader's whole key, ready to run. */
export function copiedCode(text: string): string {
  const owner = $keyOwner.get();
  return owner.kind === 'account' ? text.replaceAll(KEY_PLACEHOLDER, owner.key) : text;
}

/** Copies a language's sample with the reader's key, and says so. */
export async function copySample(language: CodeLanguage): Promise<void> {
  const sample = $codeSamples.get().samples.find((candidate) => candidate.language === language);
  if (sample === undefined) return;
  try {
    await navigator.clipboard.writeText(copiedCode(sample.code));
    $copyNote.set(
      $keyOwner.get().kind === 'account'
        ? `${sample.label} request copied, with your API key.`
        : `${sample.label} request copied. Replace ${KEY_PLACEHOLDER} with your key.`,
    );
  } catch {
    $copyNote.set('Copying was refused by the browser: select the code and copy it instead.');
  }
}
