import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteUrl } from '../../src/server/app/config.ts';
import { AUTH_LINKS } from '../../src/lib/routes.ts';
import { createDataClient, NOT_CONNECTED_MESSAGE } from '../../src/lib/spreadsheet/data-client.ts';
import { SpreadsheetError } from '../../src/lib/spreadsheet/errors.ts';
import { spreadsheetFunction, type Argument } from '../../src/lib/spreadsheet/functions.ts';
import { memoryKeyStore } from '../../src/lib/spreadsheet/key-store.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * The spreadsheet functions (src/lib/spreadsheet) as Excel runs them, against the real data API
 * listening on a port: the same client code, `fetch` and all, with a verified account's key in the
 * key store the task pane would have filled.
 */

let h: DataApiHarness;
let server: ServerType;
let baseUrl: string;
let freeKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  freeKey = await h.keyFor('free');
  server = serve({ fetch: h.api.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});

/** Runs a function as Excel calls it, with the account of `key` connected (none when null). */
async function call(name: string, args: Argument[], key: string | null = freeKey): Promise<unknown> {
  const fn = spreadsheetFunction(name);
  if (fn === undefined) throw new Error(`no function ${name}`);
  const keys = memoryKeyStore(
    key === null ? undefined : { apiKey: key, email: 'a@example.com', plan: 'free' },
  );
  return fn.run(createDataClient({ baseUrl, keys }), args);
}

/** The refusal a call ends in. */
async function refusal(
  name: string,
  args: Argument[],
  key: string | null = freeKey,
): Promise<SpreadsheetError> {
  try {
    await call(name, args, key);
  } catch (error) {
    if (error instanceof SpreadsheetError) return error;
    throw error;
  }
  throw new Error(`${name} answered instead of refusing`);
}

const PRICING_URL = `${siteUrl()}${AUTH_LINKS.pricing}`;

describe('values and ranges', () => {
  it('answers QUOTE with the price the quote endpoint gives, and another field when asked', async () => {
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: freeKey });
    const [quote] = (await res.json()) as { price: number; volume: number }[];
    expect(await call('QUOTE', ['AAPL', null])).toBe(quote?.price);
    expect(await call('QUOTE', ['aapl', 'Volume'])).toBe(quote?.volume);
  });

  it('spills HISTORY oldest day first under a header row of the date and the fields asked for', async () => {
    const range = (await call('HISTORY', [
      'AAPL',
      '2026-10-01',
      '2026-10-31',
      'close,volume',
    ])) as unknown[][];
    expect(range[0]).toEqual(['date', 'close', 'volume']);
    const days = range.slice(1).map((row) => row[0] as string);
    expect(days.length).toBeGreaterThan(15);
    expect(days).toEqual(days.toSorted());
    expect((days[0] ?? '') >= '2026-10-01').toBe(true);
    expect((days.at(-1) ?? '') <= '2026-10-31').toBe(true);
    expect(range.slice(1).every((row) => typeof row[1] === 'number' && typeof row[2] === 'number')).toBe(
      true,
    );
  });

  it('takes Excel date serials for from and to', async () => {
    // 46296 is 2026-10-01 and 46326 is 2026-10-31 in Excel's 1900 date system.
    const bySerial = await call('HISTORY', ['AAPL', 46296, 46326, 'date,close']);
    const byText = await call('HISTORY', ['AAPL', '2026-10-01', '2026-10-31', null]);
    expect(bySerial).toEqual(byText);
  });

  it('lays STATEMENT out with lines as rows and periods as columns, newest period first', async () => {
    const range = (await call('STATEMENT', ['AAPL', 'income', 'annual', 3])) as unknown[][];
    expect(await call('STATEMENT', ['AAPL', 'Income Statement', null, 3])).toEqual(range);
    const [header, dates] = range;
    expect(header?.[0]).toBe('Line');
    expect(header).toHaveLength(4);
    expect(header?.[1]).toMatch(/^FY \d{4}$/);
    expect(dates?.[0]).toBe('date');
    const periods = (dates ?? []).slice(1) as string[];
    expect(periods).toEqual(periods.toSorted().toReversed());
    const revenue = range.find((row) => row[0] === 'revenue');
    expect(revenue?.slice(1).every((value) => typeof value === 'number' && value > 0)).toBe(true);
  });

  it('answers PROFILE with one fact and DATA with any endpoint’s rows', async () => {
    expect(await call('PROFILE', ['AAPL', 'companyName'])).toMatch(/Apple/);
    const range = (await call('DATA', [
      'key-metrics',
      'symbol=AAPL&limit=2',
      'date,marketCap',
    ])) as unknown[][];
    expect(range[0]).toEqual(['date', 'marketCap']);
    expect(range).toHaveLength(3);
  });
});

describe('errors', () => {
  it('answers an unknown symbol with #N/A saying the API has no data for it', async () => {
    const error = await refusal('QUOTE', ['ZZZZZZ', null]);
    expect(error.code).toBe('notAvailable');
    expect(error.message).toBe('Unknown symbol ZZZZZZ: the data API has no data for it.');
  });

  it('answers a plan refusal with #N/A and the API’s message, which names the plan', async () => {
    const error = await refusal('STATEMENT', ['AAPL', 'income', 'quarter', 4]);
    expect(error.code).toBe('notAvailable');
    expect(error.message).toBe(
      `Your Free plan does not cover quarterly statements. It is included in the Professional plan and above: see ${PRICING_URL}.`,
    );
    const endpoint = await refusal('DATA', ['key-executives', 'symbol=AAPL', null]);
    expect(endpoint.message).toContain('Starter plan');
  });

  it('answers bad arguments with #VALUE! and a message saying what to write', async () => {
    const statement = await refusal('STATEMENT', ['AAPL', 'cash', null, null]);
    expect(statement.code).toBe('invalidValue');
    expect(statement.message).toBe('statement must be "income", "balance" or "cashflow".');
    const field = await refusal('QUOTE', ['AAPL', 'colour']);
    expect(field.code).toBe('invalidValue');
    expect(field.message).toMatch(/^Unknown field "colour"\. Fields: symbol, name, price/);
    const date = await refusal('HISTORY', ['AAPL', '31/01/2025', null, null]);
    expect(date.code).toBe('invalidValue');
    const symbol = await refusal('QUOTE', ['AA PL', null]);
    expect(symbol.code).toBe('invalidValue');
    // A parameter the API itself refuses (400) is the reader's to fix too, in the API's words.
    const api = await refusal('DATA', ['income-statement', 'symbol=AAPL&limit=0', null]);
    expect(api.code).toBe('invalidValue');
    expect(api.message).toContain('limit');
  });

  it('asks to connect in the task pane when no account is connected, before any call', async () => {
    const error = await refusal('QUOTE', ['AAPL', null], null);
    expect(error.code).toBe('notAvailable');
    expect(error.message).toBe(NOT_CONNECTED_MESSAGE);
  });
});
