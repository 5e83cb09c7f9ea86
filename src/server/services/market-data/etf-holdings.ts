import { and, eq, inArray, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companyProfiles, etfHoldings, type Security } from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';
import { round } from './prices.ts';
import { quoteFacts } from './quotes.ts';

/**
 * What funds (ETFs and mutual funds) hold, valued at today's prices: the stored holdings are shares as of
 * each fund's latest report, and every market value, weight and weighting is computed from the current
 * prices of quotes.ts (converted to US dollars at the current currency rates), so weights always sum to
 * 100. The earlier reports a fund filed (Form N-PORT) are read by fund-disclosures.ts.
 */

/** One position of a fund, valued now. */
export interface Position {
  etf: string;
  asset: Security;
  shares: number;
  /** Market value in US dollars. */
  value: number;
  /** Percent of the fund's holdings' total value. */
  weight: number;
  reportDate: string;
}

/** The forex pair that prices a currency in US dollars, and whether its price must be inverted. */
export interface UsdPair {
  currency: string;
  symbol: string;
  inverse: boolean;
}

/** The listed pairs that price each currency in US dollars (CURUSD, else USDCUR inverted). */
export function usdPairs(directory: SymbolDirectory, currencies: ReadonlySet<string>): UsdPair[] {
  const pairs: UsdPair[] = [];
  for (const currency of currencies) {
    if (currency === 'USD') continue;
    if (directory.get(`${currency}USD`) !== undefined)
      pairs.push({ currency, symbol: `${currency}USD`, inverse: false });
    else if (directory.get(`USD${currency}`) !== undefined)
      pairs.push({ currency, symbol: `USD${currency}`, inverse: true });
  }
  return pairs;
}

/** US dollars per unit of each currency from the pairs' prices; US dollars are 1, unpriced currencies absent. */
export function ratesFrom(
  pairs: readonly UsdPair[],
  price: (symbol: string) => number | undefined,
): Map<string, number> {
  const rates = new Map<string, number>([['USD', 1]]);
  for (const pair of pairs) {
    const value = price(pair.symbol);
    if (value !== undefined && value > 0) rates.set(pair.currency, pair.inverse ? 1 / value : value);
  }
  return rates;
}

/** US dollars per unit of each currency the securities trade in, from the current forex quotes. */
async function usdRates(
  db: Db,
  directory: SymbolDirectory,
  currencies: ReadonlySet<string>,
  now: Date,
): Promise<Map<string, number>> {
  const pairs = usdPairs(directory, currencies);
  const facts = await quoteFacts(
    db,
    pairs.flatMap((pair) => directory.get(pair.symbol) ?? []),
    now,
  );
  return ratesFrom(pairs, (symbol) => facts.get(symbol)?.price);
}

/** Positions valued now, grouped by fund, each fund's weights summing to 100; unpriced positions are left out. */
async function valuePositions(
  db: Db,
  directory: SymbolDirectory,
  rows: readonly (typeof etfHoldings.$inferSelect)[],
  now: Date,
): Promise<Map<string, Position[]>> {
  const assets = new Map<string, Security>();
  for (const row of rows) {
    const security = directory.get(row.assetSymbol);
    if (security !== undefined) assets.set(security.symbol, security);
  }
  const [facts, rates] = await Promise.all([
    quoteFacts(db, [...assets.values()], now),
    usdRates(db, directory, new Set([...assets.values()].map((security) => security.currency)), now),
  ]);
  const byFund = new Map<string, Position[]>();
  for (const row of rows) {
    const asset = assets.get(row.assetSymbol);
    const price = facts.get(row.assetSymbol)?.price;
    const rate = asset === undefined ? undefined : rates.get(asset.currency);
    if (asset === undefined || price === undefined || rate === undefined) continue;
    const list = byFund.get(row.etfSymbol) ?? [];
    list.push({
      etf: row.etfSymbol,
      asset,
      shares: row.shares,
      value: row.shares * price * rate,
      weight: 0,
      reportDate: row.reportDate,
    });
    byFund.set(row.etfSymbol, list);
  }
  for (const list of byFund.values()) {
    const total = list.reduce((sum, position) => sum + position.value, 0);
    for (const position of list) position.weight = total > 0 ? (position.value / total) * 100 : 0;
    list.sort((a, b) => b.value - a.value || a.asset.symbol.localeCompare(b.asset.symbol));
  }
  return byFund;
}

/** The latest report's date of each fund, as a subquery keyed by fund. */
function latestReports(db: Db, funds: readonly string[]) {
  return db
    .select({ fund: etfHoldings.etfSymbol, date: max(etfHoldings.reportDate).as('latest_date') })
    .from(etfHoldings)
    .where(inArray(etfHoldings.etfSymbol, [...funds]))
    .groupBy(etfHoldings.etfSymbol)
    .as('latest');
}

/** The rows of each fund's latest report. */
async function latestRows(db: Db, funds: readonly string[]): Promise<(typeof etfHoldings.$inferSelect)[]> {
  if (funds.length === 0) return [];
  const latest = latestReports(db, funds);
  const rows = await db
    .select({ row: etfHoldings })
    .from(etfHoldings)
    .innerJoin(
      latest,
      and(eq(etfHoldings.etfSymbol, latest.fund), eq(etfHoldings.reportDate, sql`${latest.date}`)),
    );
  return rows.map((entry) => entry.row);
}

/** A fund's positions in its latest report, valued now, largest first. */
export async function fundPositions(
  db: Db,
  directory: SymbolDirectory,
  etf: string,
  now: Date,
): Promise<Position[]> {
  const rows = await latestRows(db, [etf]);
  return (await valuePositions(db, directory, rows, now)).get(etf) ?? [];
}

/** FMP's etf/holdings row: one position of a fund. */
export interface EtfHoldingRow {
  symbol: string;
  asset: string;
  name: string;
  isin: string;
  securityCusip: string;
  sharesNumber: number;
  weightPercentage: number;
  marketValue: number;
  updatedAt: string;
  updated: string;
}

/**
 * The holdings of several funds, valued now, in the order given, each fund's largest position first
 * (funds without priced holdings left out), from one read of their holdings: what etf/holdings
 * answers for each fund, and the bulk file lists a batch of funds at a time.
 */
export async function etfHoldingRows(
  db: Db,
  directory: SymbolDirectory,
  etfs: readonly string[],
  now: Date,
): Promise<EtfHoldingRow[]> {
  if (etfs.length === 0) return [];
  const stored = await latestRows(db, etfs);
  const byFund = await valuePositions(db, directory, stored, now);
  const positions = etfs.flatMap((etf) => byFund.get(etf) ?? []);
  const ids = await identifiers(db, [...new Set(positions.map((position) => position.asset.symbol))]);
  return positions.map((position) => ({
    symbol: position.etf,
    asset: position.asset.symbol,
    name: position.asset.name,
    isin: ids.get(position.asset.symbol)?.isin ?? '',
    securityCusip: ids.get(position.asset.symbol)?.cusip ?? '',
    sharesNumber: position.shares,
    weightPercentage: round(position.weight, 4),
    marketValue: round(position.value, 2),
    updatedAt: `${position.reportDate} 00:00:00`,
    updated: position.reportDate,
  }));
}

/** Every fund whose latest report holds a security, with the position valued now, largest weight first. */
export async function fundsHolding(
  db: Db,
  directory: SymbolDirectory,
  asset: string,
  now: Date,
): Promise<Position[]> {
  const holders = await db
    .selectDistinct({ etf: etfHoldings.etfSymbol })
    .from(etfHoldings)
    .where(eq(etfHoldings.assetSymbol, asset));
  const rows = await latestRows(
    db,
    holders.map((holder) => holder.etf),
  );
  const byFund = await valuePositions(db, directory, rows, now);
  const found: Position[] = [];
  for (const list of byFund.values()) {
    const position = list.find((entry) => entry.asset.symbol === asset);
    if (position !== undefined) found.push(position);
  }
  return found.sort((a, b) => b.weight - a.weight || a.etf.localeCompare(b.etf));
}

/** ISIN, CUSIP and web site of securities, from their profiles. */
export async function identifiers(
  db: Db,
  symbols: readonly string[],
): Promise<Map<string, { isin: string; cusip: string; website: string }>> {
  if (symbols.length === 0) return new Map();
  const rows = await db
    .select({
      symbol: companyProfiles.symbol,
      isin: companyProfiles.isin,
      cusip: companyProfiles.cusip,
      website: companyProfiles.website,
    })
    .from(companyProfiles)
    .where(inArray(companyProfiles.symbol, [...symbols]));
  return new Map(rows.map((row) => [row.symbol, { isin: row.isin, cusip: row.cusip, website: row.website }]));
}

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region' });

/** Weights summed by a key of the holding (its sector, its country's name), largest first, rounded to 2 decimals. */
export function weightings(
  positions: readonly Position[],
  keyOf: (asset: Security) => string,
): [string, number][] {
  const sums = new Map<string, number>();
  for (const position of positions) {
    const key = keyOf(position.asset);
    sums.set(key, (sums.get(key) ?? 0) + position.weight);
  }
  return [...sums.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, weight]) => [key, round(weight, 2)]);
}

/** A country code as a name: 'US' → 'United States'. */
export function countryName(code: string): string {
  if (code === '') return 'Other';
  return REGIONS.of(code) ?? code;
}
