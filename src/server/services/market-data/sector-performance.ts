import { and, asc, between, eq, inArray, sql } from 'drizzle-orm';
import { shiftIsoDays } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { dailyPrices, financialStatements, splits, type Security } from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';
import { stockDayOn } from './movers.ts';
import { round, roundPercent } from './prices.ts';

/**
 * Sector and industry views computed from the stored daily bars and income statements: the mean daily
 * change of a group's stocks (equal-weighted, as the sector-performance-snapshot endpoint has it) and the
 * group's price-to-earnings ratio, market-cap-weighted: the group's total market capitalisation over its
 * total trailing-twelve-month net income (the four latest quarters filed by the day).
 */

/** Which grouping a view uses. */
export type GroupKey = 'sector' | 'industry';

export interface GroupFilter {
  key: GroupKey;
  /** Only this sector or industry (case-insensitive). */
  name?: string | undefined;
  /** Only stocks listed on this exchange. */
  exchange?: string | undefined;
}

export interface GroupChangeRow {
  date: string;
  group: string;
  exchange: string;
  averageChange: number;
}

export interface GroupPeRow {
  date: string;
  group: string;
  exchange: string;
  pe: number;
}

/** The stocks of the directory a filter keeps. */
function groupStocks(directory: SymbolDirectory, filter: GroupFilter): Security[] {
  const name = filter.name?.toLowerCase();
  const exchange = filter.exchange?.toUpperCase();
  return directory.list('stock').filter((security) => {
    const group = security[filter.key];
    if (group === '') return false;
    if (name !== undefined && group.toLowerCase() !== name) return false;
    return exchange === undefined || security.exchange === exchange;
  });
}

/** Rows sorted by date, then group, then exchange. */
function byDateGroupExchange<T extends { date: string; group: string; exchange: string }>(rows: T[]): T[] {
  return rows.sort(
    (a, b) =>
      a.date.localeCompare(b.date) || a.group.localeCompare(b.group) || a.exchange.localeCompare(b.exchange),
  );
}

/** Sums per (date, group, exchange), turned into rows by `finish` (which may drop a group). */
class GroupSums<R> {
  private readonly sums = new Map<
    string,
    { date: string; group: string; exchange: string; a: number; b: number }
  >();

  add(date: string, security: Security, key: GroupKey, a: number, b: number): void {
    const id = `${date}|${security[key]}|${security.exchange}`;
    const sum = this.sums.get(id);
    if (sum === undefined)
      this.sums.set(id, { date, group: security[key], exchange: security.exchange, a, b });
    else {
      sum.a += a;
      sum.b += b;
    }
  }

  rows(
    finish: (sum: { date: string; group: string; exchange: string; a: number; b: number }) => R | undefined,
  ): R[] {
    const rows: R[] = [];
    for (const sum of this.sums.values()) {
      const row = finish(sum);
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }
}

/**
 * The mean change (percent) from the previous close of each group's stocks on one day, one row per group
 * and exchange; the same arithmetic as the sector-performance-snapshot endpoint, grouped as asked.
 */
export async function groupChangeOn(
  db: Db,
  directory: SymbolDirectory,
  date: string,
  filter: GroupFilter,
): Promise<GroupChangeRow[]> {
  const day = await stockDayOn(db, date);
  const kept = new Set(groupStocks(directory, filter).map((security) => security.symbol));
  const sums = new GroupSums<GroupChangeRow>();
  for (const entry of day.entries) {
    const security = directory.get(entry.symbol);
    if (security === undefined || !kept.has(entry.symbol)) continue;
    if (entry.previousClose === null || entry.previousClose <= 0) continue;
    sums.add(
      date,
      security,
      filter.key,
      ((entry.close - entry.previousClose) / entry.previousClose) * 100,
      1,
    );
  }
  return byDateGroupExchange(
    sums
      .rows((sum) => ({ ...sum, averageChange: roundPercent(sum.a / sum.b) }))
      .map(({ date: d, group, exchange, averageChange }) => ({ date: d, group, exchange, averageChange })),
  );
}

/** Bars of a group's stocks between two dates, oldest first per symbol, with the splits that move them. */
interface GroupBars {
  bars: Map<string, { date: string; close: number }[]>;
  splits: Map<string, { date: string; ratio: number }[]>;
}

/** Days read before `from` so the first day of a range has a previous close. */
const LOOKBACK_DAYS = 14;

async function loadGroupBars(
  db: Db,
  symbols: readonly string[],
  from: string,
  to: string,
): Promise<GroupBars> {
  const bars = new Map<string, { date: string; close: number }[]>();
  const splitMap = new Map<string, { date: string; ratio: number }[]>();
  if (symbols.length === 0) return { bars, splits: splitMap };
  const rows = await db
    .select({ symbol: dailyPrices.symbol, date: dailyPrices.date, close: dailyPrices.close })
    .from(dailyPrices)
    .where(
      and(
        inArray(dailyPrices.symbol, [...symbols]),
        between(dailyPrices.date, shiftIsoDays(from, -LOOKBACK_DAYS), to),
      ),
    )
    .orderBy(asc(dailyPrices.symbol), asc(dailyPrices.date));
  for (const row of rows) {
    const list = bars.get(row.symbol);
    if (list === undefined) bars.set(row.symbol, [{ date: row.date, close: row.close }]);
    else list.push({ date: row.date, close: row.close });
  }
  const splitRows = await db
    .select({
      symbol: splits.symbol,
      date: splits.date,
      numerator: splits.numerator,
      denominator: splits.denominator,
    })
    .from(splits)
    .where(inArray(splits.symbol, [...symbols]));
  for (const row of splitRows) {
    const list = splitMap.get(row.symbol) ?? [];
    list.push({ date: row.date, ratio: row.numerator / row.denominator });
    splitMap.set(row.symbol, list);
  }
  return { bars, splits: splitMap };
}

/** Product of the split ratios dated in (after, upTo]. */
function splitRatio(
  list: readonly { date: string; ratio: number }[] | undefined,
  after: string,
  upTo: string,
): number {
  let ratio = 1;
  for (const split of list ?? []) if (split.date > after && split.date <= upTo) ratio *= split.ratio;
  return ratio;
}

/** Checks a from/to pair and fills the defaults: the three months up to `to` (default the latest day). */
export function groupRange(
  params: { from?: string | undefined; to?: string | undefined },
  today: string,
): { from: string; to: string } {
  const to = params.to ?? today;
  const from = params.from ?? shiftIsoDays(to, -91);
  return { from, to };
}

/**
 * The group's mean daily change on every trading day of a range, one row per day, group and exchange,
 * oldest first; a split between two closes is taken out so it does not show as a crash.
 */
export async function groupChangeHistory(
  db: Db,
  directory: SymbolDirectory,
  range: { from: string; to: string },
  filter: GroupFilter,
): Promise<GroupChangeRow[]> {
  const stocks = groupStocks(directory, filter);
  const data = await loadGroupBars(
    db,
    stocks.map((security) => security.symbol),
    range.from,
    range.to,
  );
  const sums = new GroupSums<GroupChangeRow>();
  for (const security of stocks) {
    const list = data.bars.get(security.symbol) ?? [];
    for (let index = 1; index < list.length; index += 1) {
      const bar = list[index];
      const before = list[index - 1];
      if (bar === undefined || before === undefined || bar.date < range.from) continue;
      const previous = before.close / splitRatio(data.splits.get(security.symbol), before.date, bar.date);
      if (!(previous > 0)) continue;
      sums.add(bar.date, security, filter.key, ((bar.close - previous) / previous) * 100, 1);
    }
  }
  return byDateGroupExchange(
    sums.rows((sum) => ({ ...sum, averageChange: roundPercent(sum.a / sum.b) })),
  ).map(({ date, group, exchange, averageChange }) => ({ date, group, exchange, averageChange }));
}

/** Quarterly net income of the stocks, with the date each quarter was filed, oldest first. */
async function quarterlyEarnings(
  db: Db,
  symbols: readonly string[],
): Promise<Map<string, { filed: string; netIncome: number }[]>> {
  const found = new Map<string, { filed: string; netIncome: number }[]>();
  if (symbols.length === 0) return found;
  const rows = await db
    .select({
      symbol: financialStatements.symbol,
      date: financialStatements.date,
      filed: sql<string | null>`${financialStatements.data}->>'filingDate'`,
      netIncome: sql<string | null>`${financialStatements.data}->>'netIncome'`,
    })
    .from(financialStatements)
    .where(
      and(
        inArray(financialStatements.symbol, [...symbols]),
        eq(financialStatements.statement, 'income'),
        inArray(financialStatements.period, ['Q1', 'Q2', 'Q3', 'Q4']),
      ),
    )
    .orderBy(asc(financialStatements.symbol), asc(financialStatements.date));
  for (const row of rows) {
    const netIncome = Number(row.netIncome);
    if (row.netIncome === null || !Number.isFinite(netIncome)) continue;
    const list = found.get(row.symbol) ?? [];
    list.push({ filed: row.filed ?? row.date, netIncome });
    found.set(row.symbol, list);
  }
  return found;
}

/** Net income of the four latest quarters filed on or before a date; undefined with fewer than four. */
function trailingEarnings(
  quarters: readonly { filed: string; netIncome: number }[] | undefined,
  date: string,
): number | undefined {
  const filed = (quarters ?? []).filter((quarter) => quarter.filed <= date);
  if (filed.length < 4) return undefined;
  return filed.slice(-4).reduce((sum, quarter) => sum + quarter.netIncome, 0);
}

/**
 * The group's price-to-earnings ratio on each trading day of a range (a single day for a snapshot):
 * total market capitalisation (the day's close in today's share terms times the shares outstanding)
 * over total trailing net income, over the stocks with both; a group whose earnings sum to zero or less
 * has no meaningful ratio and is left out. Oldest first, then by group and exchange.
 */
export async function groupPe(
  db: Db,
  directory: SymbolDirectory,
  range: { from: string; to: string },
  filter: GroupFilter,
): Promise<GroupPeRow[]> {
  const stocks = groupStocks(directory, filter).filter(
    (security) => security.sharesOutstanding !== null && security.sharesOutstanding > 0,
  );
  const symbols = stocks.map((security) => security.symbol);
  const [data, earnings] = await Promise.all([
    loadGroupBars(db, symbols, range.from, range.to),
    quarterlyEarnings(db, symbols),
  ]);
  const sums = new GroupSums<GroupPeRow>();
  for (const security of stocks) {
    const quarters = earnings.get(security.symbol);
    const splitList = data.splits.get(security.symbol);
    for (const bar of data.bars.get(security.symbol) ?? []) {
      if (bar.date < range.from) continue;
      const trailing = trailingEarnings(quarters, bar.date);
      if (trailing === undefined) continue;
      const close = bar.close / splitRatio(splitList, bar.date, '9999-12-31');
      sums.add(bar.date, security, filter.key, close * (security.sharesOutstanding ?? 0), trailing);
    }
  }
  return byDateGroupExchange(
    sums.rows((sum) =>
      sum.b > 0
        ? { date: sum.date, group: sum.group, exchange: sum.exchange, pe: round(sum.a / sum.b, 4) }
        : undefined,
    ),
  );
}
