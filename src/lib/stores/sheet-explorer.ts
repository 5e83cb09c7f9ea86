import { atom, computed, map } from 'nanostores';
import { ApiError, dataApiGet } from '../http.ts';
import { KEY_PLACEHOLDER } from '../docs/key-placeholder.ts';
import {
  endpointOf,
  errorMessageOf,
  formProblems,
  maskKey,
  refusalAdvice,
  requestFromSearch,
  requestUrl,
  searchOf,
  withKey,
  type ParamValues,
} from '../playground.ts';
import {
  addInFormula,
  columnsOf,
  csvAddress,
  importDataFormula,
  previewTable,
  type ExplorerCatalogue,
  type ExplorerEndpoint,
  type ExplorerRequest,
  type PreviewTable,
} from '../spreadsheet/explorer.ts';
import { $apiUrl, $keyOwner, requestKey, startApiUrl } from './data-api-access.ts';

/*
 * The spreadsheet explorer (/developer/docs/excel-add-on-explorer): the endpoint, parameters and
 * fields chosen, the preview of the rows they bring, and the three ways of putting them in a
 * spreadsheet, each with the reader's key (masked on screen, whole when copied). The address holds
 * the choice, so a formula's page can be shared or bookmarked.
 */

/** The preview of the rows: fetched as JSON with the reader's key, as the spreadsheet would. */
export type PreviewState =
  | { status: 'waiting' }
  | { status: 'loading' }
  | { status: 'ready'; table: PreviewTable; rows: Record<string, unknown>[] }
  | { status: 'refused'; code: number; message: string; advice: string }
  | { status: 'failed'; message: string };

export interface ExplorerState {
  endpointId: string;
  values: ParamValues;
  /** Fields chosen, in the endpoint's order; null keeps them all, [] is none chosen yet. */
  fields: string[] | null;
  preview: PreviewState;
}

/** One way into a spreadsheet, as shown and as copied. */
export interface ExplorerOutput {
  kind: 'add-in' | 'importdata' | 'power-query';
  label: string;
  shown: string;
  copied: string;
}

/** How long a change waits before the preview follows it (each preview is one API call). */
const PREVIEW_PAUSE_MS = 600;

export const $explorerCatalogue = atom<ExplorerCatalogue | null>(null);

export const $explorer = map<ExplorerState>({
  endpointId: '',
  values: {},
  fields: null,
  preview: { status: 'waiting' },
});

/** What the last copy did, for the live region ('' before the first). */
export const $explorerCopyNote = atom('');

/** The endpoint chosen. */
export const $explorerEndpoint = computed([$explorerCatalogue, $explorer], (catalogue, state) =>
  catalogue === null ? null : endpointOf(catalogue, state.endpointId),
);

/** The parameters' problems; shown as soon as they exist, since nothing is sent until they are gone. */
export const $explorerProblems = computed([$explorerEndpoint, $explorer], (endpoint, state) =>
  endpoint === null ? {} : formProblems(endpoint, state.values),
);

function requestOf(endpoint: ExplorerEndpoint, state: ExplorerState): ExplorerRequest {
  return { endpoint, values: state.values, fields: state.fields };
}

/** The formula and addresses of the current choice, with the reader's key masked and whole. */
export const $explorerOutputs = computed(
  [$explorerCatalogue, $explorerEndpoint, $explorer, $apiUrl, $keyOwner],
  (catalogue, endpoint, state, apiUrl, owner): ExplorerOutput[] => {
    // Nothing to write until a field is chosen.
    if (catalogue === null || endpoint === null || state.fields?.length === 0) return [];
    const request = requestOf(endpoint, state);
    const base = apiUrl === '' ? catalogue.apiUrl : apiUrl;
    const formula = addInFormula(request);
    const outputs: ExplorerOutput[] = [
      { kind: 'add-in', label: 'Excel add-in formula', shown: formula, copied: formula },
    ];
    const shownKey = owner.kind === 'account' ? maskKey(owner.key) : KEY_PLACEHOLDER;
    const copiedKey = owner.kind === 'account' ? encodeURIComponent(owner.key) : KEY_PLACEHOLDER;
    const shown = csvAddress(base, request, shownKey);
    const copied = csvAddress(base, request, copiedKey);
    if (shown !== undefined && copied !== undefined) {
      outputs.push(
        {
          kind: 'importdata',
          label: 'Google Sheets IMPORTDATA formula',
          shown: importDataFormula(shown),
          copied: importDataFormula(copied),
        },
        { kind: 'power-query', label: 'Power Query address', shown, copied },
      );
    }
    return outputs;
  },
);

function catalogue(): ExplorerCatalogue {
  const current = $explorerCatalogue.get();
  if (current === null) throw new Error('The spreadsheet explorer has not started.');
  return current;
}

function currentEndpoint(): ExplorerEndpoint {
  return endpointOf(catalogue(), $explorer.get().endpointId);
}

/** The explorer's address for the current choice: the viewer's address plus the fields. */
export function explorerSearch(): string {
  const state = $explorer.get();
  const search = searchOf(currentEndpoint(), state.values);
  return state.fields === null ? search : `${search}&fields=${state.fields.join(',')}`;
}

function writeAddress(): void {
  const url = `${location.pathname}${explorerSearch()}`;
  if (`${location.pathname}${location.search}` === url) return;
  // The router's own fields (index, scroll) are kept, so leaving the page and coming back still works.
  history.replaceState(history.state, '', url);
}

let previewTimer: ReturnType<typeof setTimeout> | undefined;
let previewing: AbortController | undefined;
/** The request the preview shows (endpoint, parameters and key): fields only narrow it. */
let previewed = '';

function previewKey(): string {
  const owner = $keyOwner.get();
  return `${searchOf(currentEndpoint(), $explorer.get().values)}|${owner.kind === 'account' ? owner.key : ''}`;
}

function showRows(rows: Record<string, unknown>[]): void {
  const request = requestOf(currentEndpoint(), $explorer.get());
  $explorer.setKey('preview', { status: 'ready', rows, table: previewTable(rows, columnsOf(request)) });
}

/** Fetches the rows of the current choice, unless the preview already shows them. */
async function refreshPreview(): Promise<void> {
  const endpoint = currentEndpoint();
  const state = $explorer.get();
  if (Object.keys(formProblems(endpoint, state.values)).length > 0) {
    previewing?.abort();
    previewed = '';
    $explorer.setKey('preview', { status: 'waiting' });
    return;
  }
  const key = previewKey();
  if (key === previewed && state.preview.status !== 'failed') return;
  previewing?.abort();
  const controller = new AbortController();
  previewing = controller;
  previewed = key;
  $explorer.setKey('preview', { status: 'loading' });
  const url = requestUrl($apiUrl.get() === '' ? catalogue().apiUrl : $apiUrl.get(), endpoint, state.values);
  try {
    const answer = await dataApiGet(withKey(url, await requestKey()), controller.signal);
    if (controller.signal.aborted) return;
    let body: unknown;
    try {
      body = JSON.parse(answer.text) as unknown;
    } catch {
      body = undefined;
    }
    if (answer.status === 200 && Array.isArray(body)) {
      showRows(body as Record<string, unknown>[]);
      return;
    }
    const retryAfter = answer.headers.find(([name]) => name.toLowerCase() === 'retry-after')?.[1] ?? null;
    $explorer.setKey('preview', {
      status: 'refused',
      code: answer.status,
      message: errorMessageOf(body) ?? `The data API answered ${String(answer.status)} ${answer.statusText}.`,
      advice: refusalAdvice(answer.status, $keyOwner.get().kind === 'account', retryAfter),
    });
  } catch (error) {
    if (controller.signal.aborted) return;
    previewed = '';
    $explorer.setKey('preview', {
      status: 'failed',
      message: error instanceof ApiError ? error.message : 'The preview could not be fetched.',
    });
  } finally {
    if (previewing === controller) previewing = undefined;
  }
}

function schedulePreview(): void {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => {
    void refreshPreview();
  }, PREVIEW_PAUSE_MS);
}

/** After a change of the choice: the address follows, and the preview once typing pauses. */
function changed(): void {
  writeAddress();
  const preview = $explorer.get().preview;
  // Fields narrow rows already fetched: no call needed.
  if (preview.status === 'ready' && previewKey() === previewed) showRows(preview.rows);
  else schedulePreview();
}

function fieldsFrom(endpoint: ExplorerEndpoint, written: string | null): string[] | null {
  if (written === null) return null;
  const asked = new Set(written.split(',').map((field) => field.trim()));
  return endpoint.fields.filter((field) => asked.has(field));
}

/**
 * Starts the explorer with its catalogue and the choice the address holds (or the default
 * endpoint's example), and previews it. Returns the stop for the island's unmount.
 */
export function startExplorer(source: ExplorerCatalogue): () => void {
  $explorerCatalogue.set(source);
  const located = startApiUrl(source.apiUrl);
  const request = requestFromSearch(source, location.search);
  $explorer.set({
    endpointId: request.endpoint.id,
    values: request.values,
    fields: fieldsFrom(request.endpoint, new URLSearchParams(location.search).get('fields')),
    preview: { status: 'waiting' },
  });
  previewed = '';
  $explorerCopyNote.set('');
  // The first preview waits for the data API's address, which only the running server knows.
  let stopped = false;
  void located.then(() => (stopped ? undefined : refreshPreview()));
  // Signing in or out changes the key: the preview is asked again with the new one.
  const stopKey = $keyOwner.listen(schedulePreview);
  return () => {
    stopped = true;
    stopKey();
    clearTimeout(previewTimer);
    previewing?.abort();
  };
}

/** Chooses another endpoint, with its example's values and all its fields. */
export function chooseEndpoint(id: string): void {
  const endpoint = endpointOf(catalogue(), id);
  $explorer.set({
    endpointId: endpoint.id,
    values: { ...endpoint.example },
    fields: null,
    preview: { status: 'waiting' },
  });
  changed();
}

/** Changes one parameter. */
export function setExplorerParam(name: string, value: string): void {
  $explorer.setKey('values', { ...$explorer.get().values, [name]: value });
  changed();
}

/** Keeps a field or leaves it out; keeping every field is the same as naming none. */
export function toggleField(field: string, kept: boolean): void {
  const endpoint = currentEndpoint();
  const current = new Set(columnsOf(requestOf(endpoint, $explorer.get())));
  if (kept) current.add(field);
  else current.delete(field);
  const next = endpoint.fields.filter((name) => current.has(name));
  $explorer.setKey('fields', next.length === endpoint.fields.length ? null : next);
  changed();
}

/** Keeps every field (the formulas then name none). */
export function keepAllFields(): void {
  $explorer.setKey('fields', null);
  changed();
}

/** Leaves every field out, to pick the few wanted. */
export function clearFields(): void {
  $explorer.setKey('fields', []);
  changed();
}

/** Copies one output with the reader's whole key, and says so. */
export async function copyOutput(kind: ExplorerOutput['kind']): Promise<void> {
  const output = $explorerOutputs.get().find((candidate) => candidate.kind === kind);
  if (output === undefined) return;
  try {
    await navigator.clipboard.writeText(output.copied);
    const keyed = kind !== 'add-in';
    $explorerCopyNote.set(
      !keyed
        ? `${output.label} copied.`
        : $keyOwner.get().kind === 'account'
          ? `${output.label} copied, with your API key.`
          : `${output.label} copied. Replace ${KEY_PLACEHOLDER} with your key.`,
    );
  } catch {
    $explorerCopyNote.set('Copying was refused by the browser: select the text and copy it instead.');
  }
}
