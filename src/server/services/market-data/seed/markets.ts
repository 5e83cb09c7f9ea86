import { and, between, desc, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  dailyPrices,
  etfHoldings,
  indexConstituentChanges,
  indexConstituents,
  type ConstituentIndex,
} from '../../../db/schema.ts';
import {
  addWeekdays,
  fromDay,
  monthEnd,
  monthOf,
  nextTradingDay,
  toDay,
  weekday,
  yearOf,
} from './calendar.ts';
import { companyIds } from './company.ts';
import type { FilingRow } from './filings.ts';
import { createRandom, hashString, round, type Random } from './random.ts';
import { ETF_THEMES, MUTUAL_FUNDS, USD_PER_UNIT } from './universe-data.ts';
import type { SecuritySpec } from './universe.ts';

/**
 * Index memberships and fund holdings of the demo data set, drawn deterministically from the universe:
 * the S&P 500 is the largest US companies by market capitalisation, the Nasdaq 100 the largest NASDAQ
 * listings, the Dow thirty of the S&P's largest; each index has a history of changes over the last five
 * years (a member added in place of a company that left). Each equity ETF holds the largest stocks of
 * its theme and each mutual fund what its strategy buys, in shares sized from the fund's assets and the
 * holdings' closes on each report's date: the holdings the fund published the day before the "as of"
 * date, and its quarterly N-PORT filings.
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

/** Reports a fund has filed on Form N-PORT by the "as of" date, besides the holdings it publishes itself. */
export const FILED_REPORTS = 3;

/** The sectors growth funds buy and those value funds buy. */
const GROWTH_SECTORS = new Set(['Technology', 'Communication Services', 'Consumer Cyclical', 'Healthcare']);
const VALUE_SECTORS = new Set([
  'Financial Services',
  'Healthcare',
  'Energy',
  'Industrials',
  'Consumer Defensive',
  'Utilities',
  'Basic Materials',
]);

/** One security a fund holds on a report's date, with its weight (weights need not sum to 1). */
interface Target {
  spec: SecuritySpec;
  weight: number;
}

/** What a fund holds on a date: its positions' target weights. */
type Portfolio = (date: string) => Target[];

/** The universe as the funds choose from it: stocks by kind and the indexes' members over time. */
interface FundUniverse {
  stocks: readonly SecuritySpec[];
  /** US listings (NYSE, NASDAQ, AMEX), largest first. */
  us: readonly SecuritySpec[];
  /** A member list of an index on a date, undoing the changes after it. */
  membersAt: (code: ConstituentIndex, date: string) => SecuritySpec[];
}

function fundUniverse(
  universe: readonly SecuritySpec[],
  members: readonly ConstituentRow[],
  changes: readonly ConstituentChangeRow[],
): FundUniverse {
  const stocks = universe.filter((spec) => spec.assetType === 'stock');
  const bySymbol = new Map(universe.map((spec) => [spec.symbol, spec]));
  const membersAt = (code: ConstituentIndex, date: string): SecuritySpec[] => {
    const symbols = new Set(members.filter((m) => m.indexCode === code).map((m) => m.symbol));
    for (const change of changes) {
      if (change.indexCode !== code || change.date <= date) continue;
      if (change.addedSymbol) symbols.delete(change.addedSymbol);
      if (change.removedSymbol) symbols.add(change.removedSymbol);
    }
    return byCap([...symbols].flatMap((symbol) => bySymbol.get(symbol) ?? []));
  };
  const us = byCap(stocks.filter((spec) => spec.country === 'US'));
  return { stocks, us, membersAt };
}

const capWeighted = (list: readonly SecuritySpec[]): Target[] =>
  list.map((spec) => ({ spec, weight: usdCap(spec) }));

/**
 * An active fund's holdings on a date: about its number of positions from the largest names of its pool,
 * some left out and the weights tilted by a draw of its own per report, so positions come, go and change
 * between reports as a manager's would.
 */
function activePortfolio(
  seed: number,
  fund: SecuritySpec,
  pool: readonly SecuritySpec[],
  positions: number,
): Portfolio {
  return (date) => {
    const random = createRandom(seed, 'fund-holdings', fund.symbol, date);
    const chosen: Target[] = [];
    for (const spec of pool.slice(0, Math.round(positions * 1.4))) {
      if (chosen.length >= positions) break;
      if (random.chance(0.8)) chosen.push({ spec, weight: usdCap(spec) ** 0.7 * random.logNormal(1, 0.35) });
    }
    return chosen;
  };
}

/** A mutual fund's portfolio from its strategy (see data/mutual-funds.json); null for funds holding nothing listed. */
function mutualFundPortfolio(seed: number, fund: SecuritySpec, u: FundUniverse): Portfolio | null {
  const def = MUTUAL_FUNDS.find((candidate) => candidate.symbol === fund.symbol);
  if (def === undefined || def.positions === 0) return null;
  const sp500 = new Set(u.membersAt('sp500', '9999-12-31').map((spec) => spec.symbol));
  switch (def.strategy) {
    case 'sp500':
      return (date) => capWeighted(u.membersAt('sp500', date));
    case 'mid-cap': {
      const list = u.us.filter((spec) => !sp500.has(spec.symbol)).slice(0, def.positions);
      return () => capWeighted(list);
    }
    case 'growth': {
      const list = u.us.filter((spec) => GROWTH_SECTORS.has(spec.sector)).slice(0, def.positions);
      return () => capWeighted(list);
    }
    case 'international': {
      const list = byCap(u.stocks.filter((spec) => spec.country !== 'US')).slice(0, def.positions);
      return () => capWeighted(list);
    }
    case 'active-growth':
      return activePortfolio(
        seed,
        fund,
        u.us.filter((spec) => GROWTH_SECTORS.has(spec.sector)),
        def.positions,
      );
    case 'active-value':
      return activePortfolio(
        seed,
        fund,
        u.us.filter((spec) => VALUE_SECTORS.has(spec.sector)),
        def.positions,
      );
    case 'bond':
      return null;
  }
}

/**
 * Every fund's portfolio: SPY holds the S&P 500 and QQQ the Nasdaq 100 of each report's date, the other
 * equity ETFs the 10 to 40 largest stocks of their theme, weighted by market capitalisation (equally for
 * the equal-weight theme); the mutual funds follow their strategies. Bond and commodity funds hold nothing
 * the universe lists.
 */
function portfolios(
  seed: number,
  universe: readonly SecuritySpec[],
  u: FundUniverse,
): Map<string, Portfolio> {
  const plans = new Map<string, Portfolio>();
  for (const fund of universe) {
    if (fund.assetType === 'fund') {
      const portfolio = mutualFundPortfolio(seed, fund, u);
      if (portfolio !== null) plans.set(fund.symbol, portfolio);
      continue;
    }
    if (fund.assetType !== 'etf' || fund.details.assetClass !== 'Equity') continue;
    const random = createRandom(seed, 'etf-holdings', fund.symbol);
    const theme = ETF_THEMES.find((candidate) => fund.name.endsWith(` ${candidate.label} ETF`))?.label ?? '';
    const equal = fund.name.includes('Equal Weight');
    const weigh = (list: readonly SecuritySpec[]): Target[] =>
      equal ? list.map((spec) => ({ spec, weight: 1 })) : capWeighted(list);
    if (fund.symbol === 'SPY') plans.set(fund.symbol, (date) => weigh(u.membersAt('sp500', date)));
    else if (fund.symbol === 'QQQ') plans.set(fund.symbol, (date) => weigh(u.membersAt('nasdaq', date)));
    else {
      const list = themePool(theme, u.stocks).slice(0, random.int(10, 40));
      plans.set(fund.symbol, () => weigh(list));
    }
  }
  return plans;
}

/** One of a fund's reports: the date its holdings are as of, and its N-PORT filing (null: published by the fund). */
export interface FundReport {
  fund: string;
  date: string;
  filing: FilingRow | null;
}

/** The day a fund's NPORT-P for a calendar quarter is accepted: 50 to 58 days after the quarter's end. */
function nportDay(seed: number, fund: string, year: number, quarter: number): number {
  const end = monthEnd(year, quarter * 3);
  return nextTradingDay(end + 50 + (hashString(`${seed}|nport|${fund}|${year}|${quarter}`) % 9), 'exchange');
}

/** A time of day in New York from a key, between 8:00 and 18:00, as the SEC stamps an acceptance. */
function acceptedAt(key: string): string {
  const seconds = 8 * 3600 + (hashString(key) % (10 * 3600));
  const part = (value: number): string => String(value).padStart(2, '0');
  return `${part(Math.floor(seconds / 3600))}:${part(Math.floor(seconds / 60) % 60)}:${part(seconds % 60)}`;
}

/**
 * The reports of every fund with a portfolio: the holdings it published the weekday before the data set's
 * last day, and its last FILED_REPORTS quarterly NPORT-P filings accepted by then (each a sec_filings row
 * under the fund's registrant, with the fund's ticker).
 */
export function fundReports(seed: number, universe: readonly SecuritySpec[], asOfDay: number): FundReport[] {
  const reports: FundReport[] = [];
  for (const fund of universe) {
    const holds =
      (fund.assetType === 'etf' && fund.details.assetClass === 'Equity') ||
      (fund.assetType === 'fund' &&
        (MUTUAL_FUNDS.find((candidate) => candidate.symbol === fund.symbol)?.positions ?? 0) > 0);
    if (!holds) continue;
    reports.push({ fund: fund.symbol, date: fromDay(addWeekdays(asOfDay, -1)), filing: null });
    const cik = companyIds(seed, fund).cik;
    const entity = typeof fund.details.entityName === 'string' ? fund.details.entityName : fund.name;
    let year = yearOf(asOfDay);
    let quarter = Math.floor((monthOf(asOfDay) - 1) / 3) + 1;
    let filed = 0;
    while (filed < FILED_REPORTS) {
      const day = nportDay(seed, fund.symbol, year, quarter);
      if (day <= asOfDay) {
        const end = fromDay(monthEnd(year, quarter * 3));
        const filingDate = fromDay(day);
        const sequence = (hashString(`${fund.symbol}|nport`) % 1000) * 1000 + quarter * 100 + (year % 100);
        reports.push({
          fund: fund.symbol,
          date: end,
          filing: {
            id: `${cik}-${filingDate.slice(2, 4)}-${String(sequence).padStart(6, '0')}`,
            symbol: fund.symbol,
            cik,
            companyName: entity,
            formType: 'NPORT-P',
            filingDate,
            acceptedDate: `${filingDate} ${acceptedAt(`${fund.symbol}${filingDate}`)}`,
            hasFinancials: false,
            periodEnd: end,
            fiscalYear: null,
            period: null,
            description: `Portfolio holdings (Form N-PORT) of ${fund.name} for the period ended ${end}`,
          },
        });
        filed += 1;
      }
      quarter -= 1;
      if (quarter === 0) {
        quarter = 4;
        year -= 1;
      }
    }
  }
  return reports;
}

/**
 * Each report's holdings: shares of each position sized from the fund's assets on the report's date (its
 * close times its shares outstanding) and the position's weight, at the closes (in US dollars) of that date.
 */
export async function holdingRows(
  db: Db,
  seed: number,
  universe: readonly SecuritySpec[],
  constituents: { members: readonly ConstituentRow[]; changes: readonly ConstituentChangeRow[] },
  reports: readonly FundReport[],
): Promise<HoldingRow[]> {
  const u = fundUniverse(universe, constituents.members, constituents.changes);
  const plans = portfolios(seed, universe, u);
  const bySymbol = new Map(universe.map((spec) => [spec.symbol, spec]));
  const byDate = new Map<string, { report: FundReport; targets: Target[] }[]>();
  for (const report of reports) {
    const plan = plans.get(report.fund);
    if (plan === undefined) continue;
    const list = byDate.get(report.date) ?? [];
    list.push({ report, targets: plan(report.date) });
    byDate.set(report.date, list);
  }
  const rows: HoldingRow[] = [];
  for (const [date, list] of [...byDate].sort((a, b) => a[0].localeCompare(b[0]))) {
    const needed = new Set<string>();
    for (const { report, targets } of list) {
      needed.add(report.fund);
      for (const target of targets) needed.add(target.spec.symbol);
    }
    const closes = await closesOn(db, [...needed], date);
    for (const { report, targets } of list) {
      const fund = bySymbol.get(report.fund);
      const fundClose = closes.get(report.fund);
      if (fund === undefined || fundClose === undefined) continue;
      const assets = fundClose * (fund.sharesOutstanding ?? 0);
      const priced = targets.filter((target) => (closes.get(target.spec.symbol) ?? 0) > 0);
      const total = priced.reduce((sum, target) => sum + target.weight, 0);
      if (total <= 0) continue;
      for (const { spec, weight } of priced) {
        const usdClose = (closes.get(spec.symbol) ?? 1) * (USD_PER_UNIT[spec.currency] ?? 1);
        const shares = round(((weight / total) * assets) / usdClose, 0);
        if (shares > 0)
          rows.push({
            etfSymbol: report.fund,
            assetSymbol: spec.symbol,
            shares,
            reportDate: report.date,
            filingId: report.filing?.id ?? null,
          });
      }
    }
  }
  return rows;
}

/**
 * Writes the index memberships, their changes and the funds' holdings (after the prices are written, as
 * holdings are sized from closes); returns the rows written per table. The NPORT-P filings the holdings
 * name are written with the other filings (fundReports).
 */
export async function seedMarkets(
  db: Db,
  seed: number,
  universe: readonly SecuritySpec[],
  asOfDay: number,
): Promise<Record<string, number>> {
  const { members, changes } = constituentRows(seed, universe, asOfDay);
  const reports = fundReports(seed, universe, asOfDay);
  const holdings = await holdingRows(db, seed, universe, { members, changes }, reports);
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
