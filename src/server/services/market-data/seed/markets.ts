import { and, between, desc, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  dailyPrices,
  etfHoldings,
  indexConstituentChanges,
  indexConstituents,
  type ConstituentIndex,
} from '../../../db/schema.ts';
import { addWeekdays, fromDay, toDay, weekday } from './calendar.ts';
import { createRandom, round, type Random } from './random.ts';
import { ETF_THEMES, USD_PER_UNIT } from './universe-data.ts';
import type { SecuritySpec } from './universe.ts';

/**
 * Index memberships and ETF holdings of the demo data set, drawn deterministically from the universe:
 * the S&P 500 is the largest US companies by market capitalisation, the Nasdaq 100 the largest NASDAQ
 * listings, the Dow thirty of the S&P's largest; each index has a history of changes over the last five
 * years (a member added in place of a company that left). Each equity ETF holds the largest stocks of
 * its theme, in shares sized from its assets and the holdings' closes on the "as of" date.
 */

interface IndexRule {
  code: ConstituentIndex;
  size: number;
  /** Earliest date a member can have joined. */
  since: string;
}

const RULES: readonly IndexRule[] = [
  { code: 'sp500', size: 500, since: '1957-03-04' },
  { code: 'nasdaq', size: 100, since: '1985-01-31' },
  { code: 'dowjones', size: 30, since: '1928-10-01' },
];

/** Changes drawn per index (fewer when the universe has fewer companies outside it). */
const CHANGES_PER_INDEX = 24;
const HISTORY_DAYS = 5 * 365;

const REASONS = [
  'Market capitalization change.',
  'Acquired by another company.',
  'Spun off from its parent company.',
  'Annual reconstitution.',
  'Did not meet the liquidity requirements.',
];

const usdCap = (spec: SecuritySpec): number => (spec.marketCap ?? 0) * (USD_PER_UNIT[spec.currency] ?? 1);

function byCap(list: readonly SecuritySpec[]): SecuritySpec[] {
  return [...list].sort((a, b) => usdCap(b) - usdCap(a) || a.symbol.localeCompare(b.symbol));
}

/** A weekday between two days, drawn from the stream. */
function weekdayBetween(random: Random, from: number, to: number): number {
  let day = random.int(from, Math.max(from, to));
  while (weekday(day) === 0 || weekday(day) === 6) day -= 1;
  return day;
}

/** A copy of a list in an order drawn from the stream (Fisher–Yates). */
function shuffled<T>(random: Random, list: readonly T[]): T[] {
  const copy = [...list];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = random.int(0, index);
    const item = copy[index] as T;
    copy[index] = copy[other] as T;
    copy[other] = item;
  }
  return copy;
}

/** Members of an index: up to its size, leaving a quarter of the candidates outside (they leave in its history). */
function membersOf(rule: IndexRule, candidates: readonly SecuritySpec[]): SecuritySpec[] {
  return candidates.slice(0, Math.min(rule.size, Math.floor(candidates.length * 0.75)));
}

export type ConstituentRow = typeof indexConstituents.$inferInsert;
export type ConstituentChangeRow = typeof indexConstituentChanges.$inferInsert;

/** The members of each index and their changes, as of a day. */
export function constituentRows(
  seed: number,
  universe: readonly SecuritySpec[],
  asOfDay: number,
): { members: ConstituentRow[]; changes: ConstituentChangeRow[] } {
  const usStocks = byCap(
    universe.filter(
      (spec) =>
        spec.assetType === 'stock' &&
        spec.country === 'US' &&
        (spec.exchange === 'NYSE' || spec.exchange === 'NASDAQ') &&
        spec.ipoDate !== null &&
        spec.ipoDate <= fromDay(asOfDay),
    ),
  );
  const sp500 = membersOf(RULES[0] ?? { code: 'sp500', size: 500, since: '' }, usStocks);
  const candidates: Record<ConstituentIndex, SecuritySpec[]> = {
    sp500: usStocks,
    nasdaq: usStocks.filter((spec) => spec.exchange === 'NASDAQ'),
    dowjones: sp500,
  };
  const members: ConstituentRow[] = [];
  const changes: ConstituentChangeRow[] = [];
  for (const rule of RULES) {
    const random = createRandom(seed, 'index-constituents', rule.code);
    const pool = candidates[rule.code];
    const chosen = rule.code === 'sp500' ? sp500 : membersOf(rule, pool);
    const memberSet = new Set(chosen.map((spec) => spec.symbol));
    const outside = pool.filter((spec) => !memberSet.has(spec.symbol));
    const count = Math.min(CHANGES_PER_INDEX, outside.length, chosen.length);
    const added = new Map<string, number>();
    const shuffledMembers = shuffled(random, chosen);
    const shuffledOutside = shuffled(random, outside);
    const start = asOfDay - HISTORY_DAYS;
    for (let index = 0; index < count; index += 1) {
      const joiner = shuffledMembers[index];
      const leaver = shuffledOutside[index];
      if (joiner === undefined || leaver === undefined) continue;
      const ipo = toDay(joiner.ipoDate ?? fromDay(start));
      const day = weekdayBetween(random, Math.max(start, ipo + 30), asOfDay - 1);
      if (day > asOfDay - 1 || day < ipo) continue;
      added.set(joiner.symbol, day);
      changes.push({
        indexCode: rule.code,
        date: fromDay(day),
        addedSymbol: joiner.symbol,
        removedSymbol: leaver.symbol,
        reason: random.pick(REASONS),
        sequence: 0,
      });
    }
    changes
      .filter((change) => change.indexCode === rule.code)
      .sort((a, b) => a.date.localeCompare(b.date))
      .forEach((change, index) => {
        change.sequence = index + 1;
      });
    for (const spec of chosen) {
      const ipo = toDay(spec.ipoDate ?? rule.since);
      const first = Math.max(toDay(rule.since), ipo);
      const joined = added.get(spec.symbol) ?? weekdayBetween(random, first, Math.max(first, start - 1));
      members.push({
        indexCode: rule.code,
        symbol: spec.symbol,
        dateFirstAdded: fromDay(Math.max(joined, first)),
        founded: String(Number((spec.ipoDate ?? '2000').slice(0, 4)) - random.int(2, 30)),
      });
    }
  }
  return { members, changes };
}

/** The sector each "Select" theme and the countries each regional theme hold. */
const THEME_SECTORS: Readonly<Record<string, string>> = {
  'Technology Select': 'Technology',
  'Healthcare Select': 'Healthcare',
  'Financials Select': 'Financial Services',
  'Energy Select': 'Energy',
  'Industrials Select': 'Industrials',
  'Consumer Staples Select': 'Consumer Defensive',
  'Consumer Discretionary Select': 'Consumer Cyclical',
  'Utilities Select': 'Utilities',
  'Real Estate Select': 'Real Estate',
  'Materials Select': 'Basic Materials',
  'Communication Services Select': 'Communication Services',
  Semiconductor: 'Technology',
  Cybersecurity: 'Technology',
  'Cloud Computing': 'Technology',
  Biotech: 'Healthcare',
  'Regional Banks': 'Financial Services',
};
const THEME_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  'Developed Markets': ['GB', 'DE', 'FR', 'JP', 'CA'],
  Europe: ['GB', 'DE', 'FR'],
  Japan: ['JP'],
  'China Large Cap': ['HK'],
  'Emerging Markets': ['HK'],
  Canada: ['CA'],
  'United Kingdom': ['GB'],
};

/** The stocks an equity ETF of a theme chooses from, largest first. */
function themePool(theme: string, stocks: readonly SecuritySpec[]): SecuritySpec[] {
  const sector = THEME_SECTORS[theme];
  const countries = THEME_COUNTRIES[theme];
  let pool: SecuritySpec[];
  if (sector !== undefined) pool = stocks.filter((spec) => spec.sector === sector && spec.country === 'US');
  else if (countries !== undefined) pool = stocks.filter((spec) => countries.includes(spec.country));
  else pool = stocks.filter((spec) => spec.country === 'US');
  return byCap(pool.length >= 3 ? pool : stocks.filter((spec) => spec.country === 'US'));
}

export type HoldingRow = typeof etfHoldings.$inferInsert;

/** Latest close of each symbol in the two weeks up to a date, as traded then, in one query. */
async function closesOn(db: Db, symbols: readonly string[], asOf: string): Promise<Map<string, number>> {
  const closes = new Map<string, number>();
  if (symbols.length === 0) return closes;
  const rows = await db
    .selectDistinctOn([dailyPrices.symbol], { symbol: dailyPrices.symbol, close: dailyPrices.close })
    .from(dailyPrices)
    .where(
      and(
        inArray(dailyPrices.symbol, [...symbols]),
        between(dailyPrices.date, fromDay(toDay(asOf) - 14), asOf),
      ),
    )
    .orderBy(dailyPrices.symbol, desc(dailyPrices.date));
  for (const row of rows) closes.set(row.symbol, row.close);
  return closes;
}

/**
 * Holdings of every equity ETF: SPY holds the S&P 500, QQQ the Nasdaq 100, the others the 10 to 40
 * largest stocks of their theme; weights follow market capitalisation (equally for the equal-weight
 * theme), and shares are the weight of the fund's assets (its close times its shares) over each close.
 * Bond and commodity funds hold nothing the universe lists.
 */
export async function holdingRows(
  db: Db,
  seed: number,
  universe: readonly SecuritySpec[],
  members: readonly ConstituentRow[],
  asOf: string,
): Promise<HoldingRow[]> {
  const stocks = universe.filter((spec) => spec.assetType === 'stock');
  const bySymbol = new Map(universe.map((spec) => [spec.symbol, spec]));
  const indexMembers = (code: ConstituentIndex): SecuritySpec[] =>
    members
      .filter((member) => member.indexCode === code)
      .map((member) => bySymbol.get(member.symbol))
      .filter((spec) => spec !== undefined);
  const plans = new Map<string, SecuritySpec[]>();
  for (const etf of universe) {
    if (etf.assetType !== 'etf' || etf.details.assetClass !== 'Equity') continue;
    const random = createRandom(seed, 'etf-holdings', etf.symbol);
    const theme = ETF_THEMES.find((candidate) => etf.name.endsWith(` ${candidate.label} ETF`))?.label ?? '';
    if (etf.symbol === 'SPY') plans.set(etf.symbol, indexMembers('sp500'));
    else if (etf.symbol === 'QQQ') plans.set(etf.symbol, indexMembers('nasdaq'));
    else plans.set(etf.symbol, themePool(theme, stocks).slice(0, random.int(10, 40)));
  }
  const needed = new Set<string>();
  for (const [etf, held] of plans) {
    needed.add(etf);
    for (const spec of held) needed.add(spec.symbol);
  }
  const closes = await closesOn(db, [...needed], asOf);
  const rows: HoldingRow[] = [];
  for (const [etfSymbol, held] of plans) {
    const etf = bySymbol.get(etfSymbol);
    const etfClose = closes.get(etfSymbol);
    if (etf === undefined || etfClose === undefined) continue;
    const assets = etfClose * (etf.sharesOutstanding ?? 0);
    const equal = etf.name.includes('Equal Weight');
    const priced = held.filter((spec) => (closes.get(spec.symbol) ?? 0) > 0);
    const total = priced.reduce((sum, spec) => sum + (equal ? 1 : usdCap(spec)), 0);
    if (total <= 0) continue;
    for (const spec of priced) {
      const weight = (equal ? 1 : usdCap(spec)) / total;
      const close = (closes.get(spec.symbol) ?? 1) / (USD_PER_UNIT[spec.currency] ?? 1);
      const shares = round((weight * assets) / close, 0);
      if (shares > 0)
        rows.push({ etfSymbol, assetSymbol: spec.symbol, shares, reportDate: addDays(asOf, -1) });
    }
  }
  return rows;
}

/** The weekday before a date: holdings are reported the day before the data set's last day. */
function addDays(date: string, days: number): string {
  return fromDay(addWeekdays(toDay(date), days));
}

/**
 * Writes the index memberships, their changes and the ETF holdings (after the prices are written, as
 * holdings are sized from closes); returns the rows written per table.
 */
export async function seedMarkets(
  db: Db,
  seed: number,
  universe: readonly SecuritySpec[],
  asOfDay: number,
): Promise<Record<string, number>> {
  const { members, changes } = constituentRows(seed, universe, asOfDay);
  const holdings = await holdingRows(db, seed, universe, members, fromDay(asOfDay));
  for (let index = 0; index < members.length; index += 1_000)
    await db.insert(indexConstituents).values(members.slice(index, index + 1_000));
  if (changes.length > 0) await db.insert(indexConstituentChanges).values(changes);
  for (let index = 0; index < holdings.length; index += 1_000)
    await db.insert(etfHoldings).values(holdings.slice(index, index + 1_000));
  return {
    index_constituents: members.length,
    index_constituent_changes: changes.length,
    etf_holdings: holdings.length,
  };
}
