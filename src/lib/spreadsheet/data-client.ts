import type { KeyStore } from './key-store.ts';
import { badArgument, notAvailable } from './errors.ts';
import { SITE_NAME } from '../routes.ts';

/**
 * The spreadsheet functions' one way to the data API: a GET of `/stable/<path>` with the connected
 * account's key, answered as rows or as a {@link SpreadsheetError} carrying the API's own message.
 * The HTTP call is injected (`fetch` in Excel and in tests alike), so the same code runs in both.
 */

/** One row of an answer, as the API writes it. */
export type DataRow = Record<string, unknown>;

export interface DataClient {
  /** The rows of `/stable/<path>?<params>`; refusals throw with the API's message. */
  rows(path: string, params: Readonly<Record<string, string>>): Promise<DataRow[]>;
}

export interface DataClientOptions {
  /** The data API's base URL, e.g. the value of PUBLIC_DATA_API_URL. */
  baseUrl: string;
  keys: KeyStore;
  fetch?: typeof fetch;
}

/** Shown when no account is connected: the key is never typed into a formula. */
export const NOT_CONNECTED_MESSAGE = `Not connected to ${SITE_NAME}. Open the ${SITE_NAME} task pane (Home tab) and choose Connect.`;

/** Shown when the API cannot be reached at all. */
export const UNREACHABLE_MESSAGE = `The ${SITE_NAME} data API could not be reached. Check the connection and recalculate.`;

function errorMessageOf(body: unknown): string | undefined {
  if (body !== null && typeof body === 'object' && 'Error Message' in body) {
    const message = body['Error Message'];
    if (typeof message === 'string' && message !== '') return message;
  }
  return undefined;
}

/** A data client over HTTP. */
export function createDataClient(options: DataClientOptions): DataClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const send = options.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    async rows(path, params) {
      const connection = await options.keys.get();
      if (connection === undefined) throw notAvailable(NOT_CONNECTED_MESSAGE);
      const query = new URLSearchParams(params);
      let response: Response;
      try {
        // The key goes in the header, so it never appears in a URL a proxy or a log might keep.
        response = await send(`${base}/stable/${path}?${query.toString()}`, {
          headers: { apikey: connection.apiKey, accept: 'application/json' },
        });
      } catch {
        throw notAvailable(UNREACHABLE_MESSAGE);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw notAvailable(`The data API answered ${String(response.status)} without data. Try again later.`);
      }
      if (response.ok && Array.isArray(body)) return body as DataRow[];
      const message =
        errorMessageOf(body) ?? `The data API answered ${String(response.status)}. Try again later.`;
      // A 400 names the argument to correct; everything else is data the reader cannot have now.
      throw response.status === 400 ? badArgument(message) : notAvailable(message);
    },
  };
}
