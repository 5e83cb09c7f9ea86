import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { symbolSearches } from '../../src/server/db/schema.ts';
import {
  countSymbolSearch,
  mostSearchedSymbols,
  pruneSymbolSearches,
  SEARCH_RETENTION_DAYS,
} from '../../src/server/services/symbol-searches.ts';
import { databaseTargets } from './databases.ts';

// The most-searched page's counts: one row per symbol and UTC day, added to by an upsert, so any
// number of site instances on one database count together.

/** Noon UTC on a day, so a test's searches fall on the day it names. */
const at = (day: string): Date => new Date(`${day}T12:00:00Z`);

async function searchTimes(db: Db, symbol: string, day: string, times: number): Promise<void> {
  for (let index = 0; index < times; index += 1) await countSymbolSearch(db, symbol, at(day));
}

describe.each(databaseTargets())('search counts on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  it('adds searches of one symbol on one day into one row, concurrent ones included', async () => {
    await Promise.all(Array.from({ length: 25 }, () => countSymbolSearch(db(), 'CONC', at('2026-03-02'))));
    const rows = (await db().select().from(symbolSearches)).filter((row) => row.symbol === 'CONC');
    expect(rows).toEqual([{ day: '2026-03-02', symbol: 'CONC', count: 25 }]);
  });

  it('ranks symbols by their searches over the last 7 days, most first, leaving earlier days out', async () => {
    await searchTimes(db(), 'WKA', '2026-04-10', 3);
    await searchTimes(db(), 'WKA', '2026-04-04', 1);
    await searchTimes(db(), 'WKB', '2026-04-07', 5);
    // Eight days before the 10th: outside a week, inside 30 days.
    await searchTimes(db(), 'WKC', '2026-04-02', 9);
    // The day after: not yet counted on the 10th.
    await searchTimes(db(), 'WKD', '2026-04-11', 7);
    const now = at('2026-04-10');
    const keep = (symbol: string): boolean => symbol.startsWith('WK');

    expect(await mostSearchedSymbols(db(), { days: 7, now, limit: 10, keep })).toEqual([
      { symbol: 'WKB', searches: 5 },
      { symbol: 'WKA', searches: 4 },
    ]);
    expect(await mostSearchedSymbols(db(), { days: 30, now, limit: 10, keep })).toEqual([
      { symbol: 'WKC', searches: 9 },
      { symbol: 'WKB', searches: 5 },
      { symbol: 'WKA', searches: 4 },
    ]);
    expect(await mostSearchedSymbols(db(), { days: 30, now, limit: 2, keep })).toHaveLength(2);
  });

  it('keeps only the symbols the caller asks for, and orders ties by symbol', async () => {
    await searchTimes(db(), 'TIEB', '2026-05-20', 2);
    await searchTimes(db(), 'TIEA', '2026-05-20', 2);
    await searchTimes(db(), 'TIEX', '2026-05-20', 8);
    const ranked = await mostSearchedSymbols(db(), {
      days: 7,
      now: at('2026-05-20'),
      limit: 10,
      keep: (symbol) => symbol === 'TIEA' || symbol === 'TIEB',
    });
    expect(ranked).toEqual([
      { symbol: 'TIEA', searches: 2 },
      { symbol: 'TIEB', searches: 2 },
    ]);
  });

  it('answers no symbols for a window without searches', async () => {
    expect(await mostSearchedSymbols(db(), { days: 7, now: at('2031-01-15'), limit: 10 })).toEqual([]);
  });

  it('removes the days older than the retention and keeps the rest', async () => {
    const now = at('2027-09-30');
    const oldest = new Date(now.getTime() - (SEARCH_RETENTION_DAYS - 1) * 86_400_000);
    const expired = new Date(now.getTime() - SEARCH_RETENTION_DAYS * 86_400_000);
    await countSymbolSearch(db(), 'KEPT', oldest);
    await countSymbolSearch(db(), 'GONE', expired);
    await pruneSymbolSearches(db(), now);
    const symbols = (await db().select().from(symbolSearches)).map((row) => row.symbol);
    expect(symbols).toContain('KEPT');
    expect(symbols).not.toContain('GONE');
  });
});
