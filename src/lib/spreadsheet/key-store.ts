/**
 * Where the add-in keeps the connected account: the API key the device flow delivered, with the email
 * and plan to show in the task pane. Inside Office it is OfficeRuntime.storage, which the task pane
 * and the custom functions share on every platform (also when they run in separate runtimes); in a
 * plain browser, localStorage. The functions read the key through this interface only, so tests give
 * them a key in memory.
 */

import { SITE_NAME } from '../routes.ts';

/** The account a workbook is connected to. */
export interface SpreadsheetConnection {
  apiKey: string;
  email: string;
  /** The plan code the accounts API reported when the key was delivered. */
  plan: string;
}

export interface KeyStore {
  get(): Promise<SpreadsheetConnection | undefined>;
  set(connection: SpreadsheetConnection): Promise<void>;
  clear(): Promise<void>;
}

/** The storage item's name. */
export const CONNECTION_STORAGE_KEY = `${SITE_NAME.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-excel-connection`;

/** The two calls both storages offer (OfficeRuntime.storage is promise-based, localStorage is not). */
interface ItemStorage {
  getItem(key: string): Promise<string | null> | string | null;
  setItem(key: string, value: string): Promise<void> | void;
  removeItem(key: string): Promise<void> | void;
}

function parseConnection(text: string | null): SpreadsheetConnection | undefined {
  if (text === null || text === '') return undefined;
  try {
    const value = JSON.parse(text) as Partial<Record<keyof SpreadsheetConnection, unknown>>;
    if (typeof value.apiKey !== 'string' || value.apiKey === '') return undefined;
    const asText = (field: unknown): string => (typeof field === 'string' ? field : '');
    return { apiKey: value.apiKey, email: asText(value.email), plan: asText(value.plan) };
  } catch {
    return undefined;
  }
}

/** A key store over any item storage. */
export function itemKeyStore(storage: ItemStorage): KeyStore {
  return {
    async get() {
      return parseConnection(await storage.getItem(CONNECTION_STORAGE_KEY));
    },
    async set(connection) {
      await storage.setItem(CONNECTION_STORAGE_KEY, JSON.stringify(connection));
    },
    async clear() {
      await storage.removeItem(CONNECTION_STORAGE_KEY);
    },
  };
}

/** A key store in memory (tests, or a host without storage). */
export function memoryKeyStore(initial?: SpreadsheetConnection): KeyStore {
  let current = initial;
  return {
    get: () => Promise.resolve(current),
    set: (connection) => {
      current = connection;
      return Promise.resolve();
    },
    clear: () => {
      current = undefined;
      return Promise.resolve();
    },
  };
}

/** The store of the running host: OfficeRuntime.storage inside Office, localStorage in a browser. */
export function hostKeyStore(): KeyStore {
  const office = (globalThis as { OfficeRuntime?: { storage?: ItemStorage } }).OfficeRuntime;
  if (office?.storage !== undefined) return itemKeyStore(office.storage);
  if (typeof localStorage !== 'undefined') return itemKeyStore(localStorage);
  return memoryKeyStore();
}
