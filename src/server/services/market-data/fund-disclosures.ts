import { and, between, desc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import { isoDay } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import {
  companyProfiles,
  dailyPrices,
  etfHoldings,
  secFilings,
  securities,
  type Security,
} from '../../db/schema.ts';
import { SymbolDirectory } from './directory.ts';
import { identifiers, ratesFrom, usdPairs } from './etf-holdings.ts';
import { round } from './prices.ts';
import { fullCik } from './sec-filings.ts';

/**
 * What funds (ETFs and mutual funds) disclosed on Form N-PORT: the reports in the one holdings table
 * (etf_holdings) that name an NPORT-P filing, read as filed. A filing's positions are valued at the
 * closes of its period end (as traded then, in US dollars at that day's currency rates), so its values
 * and weights never change afterwards, unlike the latest holdings etf-holdings.ts values at today's prices.
 */

/** One NPORT-P filing of a fund that reports holdings. */
export interface FundFiling {
  fund: string;
  /** The filer's CIK (the fund's registrant). */
  cik: string;
  /** The period end the holdings are as of, YYYY-MM-DD. */
  date: string;
  filingId: string;
  /** When the SEC accepted it, 'YYYY-MM-DD HH:MM:SS' (New York time). */
  acceptedDate: string;
}

/** One position of a filing, valued at the period end's close. */
export interface FiledPosition {
  asset: Security;
  shares: number;
  /** Shares times the period end's close, in US dollars (0 when no close is stored). */
  valueUsd: number;
  /** Percent of the filing's total value. */
  pct: number;
}

/** Whether a security is a fund (ETF or mutual fund), the only filers of N-PORT. */
export function isFund(security: Security | undefined): security is Security {
  return security?.assetType === 'etf' || security?.assetType === 'fund';
}

/** The year and calendar quarter of a date. */
export function calendarQuarter(date: string): { year: number; quarter: number } {
  return { year: Number(date.slice(0, 4)), quarter: Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1 };
}

/** Whether a CIK given by a client (leading zeros optional) is the filing's. */
export function sameCik(asked: string | undefined, cik: string): boolean {
  return asked === undefined || fullCik(asked) === cik;
}

/** The funds' NPORT-P filings that report holdings, filed by `now`'s day, newest first per fund. */
export async function fundFilings(
  db: Db,
  funds: readonly string[],
  now: Date,
): Promise<Map<string, FundFiling[]>> {
  const byFund = new Map<string, FundFiling[]>();
  if (funds.length === 0) return byFund;
  const rows = await db
    .selectDistinct({
      fund: etfHoldings.etfSymbol,
      date: etfHoldings.reportDate,
      filingId: secFilings.id,
      cik: secFilings.cik,
      acceptedDate: secFilings.acceptedDate,
    })
    .from(etfHoldings)
    .innerJoin(secFilings, eq(secFilings.id, etfHoldings.filingId))
    .where(
      and(
        inArray(etfHoldings.etfSymbol, [...funds]),
        isNotNull(etfHoldings.filingId),
        lte(secFilings.filingDate, isoDay(now)),
      ),
    )
    .orderBy(etfHoldings.etfSymbol, desc(etfHoldings.reportDate));
  for (const row of rows) {
    const list = byFund.get(row.fund) ?? [];
    list.push(row);
    byFund.set(row.fund, list);
  }
  return byFund;
}

/** Each symbol's latest close on or before a date (within two weeks), as traded then. */
async function closesAt(db: Db, symbols: readonly string[], date: string): Promise<Map<string, number>> {
  const closes = new Map<string, number>();
  if (symbols.length === 0) return closes;
  const start = new Date(Date.parse(`${date}T00:00:00Z`) - 14 * 86_400_000).toISOString().slice(0, 10);
  const rows = await db
    .selectDistinctOn([dailyPrices.symbol], { symbol: dailyPrices.symbol, close: dailyPrices.close })
    .from(dailyPrices)
    .where(and(inArray(dailyPrices.symbol, [...symbols]), between(dailyPrices.date, start, date)))
    .orderBy(dailyPrices.symbol, desc(dailyPrices.date));
  for (const row of rows) closes.set(row.symbol, row.close);
  return closes;
}

/**
 * The positions of filings, valued at their period ends' closes and currency rates, largest first;
 * one price query per period end (funds file for the same quarter ends).
 */
export async function filedPositions(
  db: Db,
  directory: SymbolDirectory,
  filings: readonly FundFiling[],
): Promise<Map<string, FiledPosition[]>> {
  const byFiling = new Map<string, FiledPosition[]>();
  if (filings.length === 0) return byFiling;
  const rows = await db
    .select()
    .from(etfHoldings)
    .where(
      inArray(
        etfHoldings.filingId,
        filings.map((filing) => filing.filingId),
      ),
    );
  const dates = new Map<string, (typeof rows)[number][]>();
  for (const row of rows) {
    const list = dates.get(row.reportDate) ?? [];
    list.push(row);
    dates.set(row.reportDate, list);
  }
  for (const [date, list] of dates) {
    const assets = list.flatMap((row) => directory.get(row.assetSymbol) ?? []);
    const pairs = usdPairs(directory, new Set(assets.map((asset) => asset.currency)));
    const closes = await closesAt(
      db,
      [...assets.map((asset) => asset.symbol), ...pairs.map((pair) => pair.symbol)],
      date,
    );
    const rates = ratesFrom(pairs, (symbol) => closes.get(symbol));
    for (const row of list) {
      const asset = directory.get(row.assetSymbol);
      if (asset === undefined || row.filingId === null) continue;
      const value = row.shares * (closes.get(asset.symbol) ?? 0) * (rates.get(asset.currency) ?? 0);
      const positions = byFiling.get(row.filingId) ?? [];
      positions.push({ asset, shares: row.shares, valueUsd: value, pct: 0 });
      byFiling.set(row.filingId, positions);
    }
  }
  for (const positions of byFiling.values()) {
    const total = positions.reduce((sum, position) => sum + position.valueUsd, 0);
    for (const position of positions) position.pct = total > 0 ? (position.valueUsd / total) * 100 : 0;
    positions.sort((a, b) => b.valueUsd - a.valueUsd || a.asset.symbol.localeCompare(b.asset.symbol));
  }
  return byFiling;
}

/**
 * The positions one NPORT-P filing reports, valued as filed, largest first ([] for another filing): for
 * the filing's page, which has no symbol directory at hand, so the securities it needs are read here.
 */
export async function nportPositions(db: Db, filing: FundFiling): Promise<FiledPosition[]> {
  const held = await db
    .select({ security: securities })
    .from(etfHoldings)
    .innerJoin(securities, eq(securities.symbol, etfHoldings.assetSymbol))
    .where(eq(etfHoldings.filingId, filing.filingId));
  const assets = held.map((row) => row.security);
  const candidates = [...new Set(assets.map((asset) => asset.currency))].flatMap((currency) =>
    currency === 'USD' ? [] : [`${currency}USD`, `USD${currency}`],
  );
  const pairs =
    candidates.length === 0
      ? []
      : await db.select().from(securities).where(inArray(securities.symbol, candidates));
  const directory = new SymbolDirectory([...assets, ...pairs]);
  return (await filedPositions(db, directory, [filing])).get(filing.filingId) ?? [];
}

/** A text as N-PORT writes a missing one: N/A. */
function orNotAvailable(text: string | undefined): string {
  return text === undefined || text === '' ? 'N/A' : text;
}

/** FMP's fund disclosure row: one position of an NPORT-P filing, with N-PORT's own field names. */
export interface DisclosureRow {
  cik: string;
  date: string;
  acceptedDate: string;
  symbol: string;
  name: string;
  lei: string;
  title: string;
  cusip: string;
  isin: string;
  balance: number;
  units: string;
  cur_cd: string;
  valUsd: number;
  pctVal: number;
  payoffProfile: string;
  assetCat: string;
  issuerCat: string;
  invCountry: string;
  isRestrictedSec: string;
  fairValLevel: string;
  isCashCollateral: string;
  isNonCashCollateral: string;
  isLoanByFund: string;
}

/**
 * A fund's NPORT-P for a calendar quarter (the latest of the quarter if it filed more than one), its
 * positions as filed, largest first; [] for a symbol that is not a fund, another CIK or a quarter
 * without a filing.
 */
export async function fundDisclosure(
  db: Db,
  directory: SymbolDirectory,
  query: { symbol: string; year: number; quarter: number; cik?: string | undefined },
  now: Date,
): Promise<DisclosureRow[]> {
  const fund = directory.get(query.symbol);
  if (!isFund(fund)) return [];
  const filings = (await fundFilings(db, [fund.symbol], now)).get(fund.symbol) ?? [];
  const filing = filings.find((candidate) => {
    const { year, quarter } = calendarQuarter(candidate.date);
    return year === query.year && quarter === query.quarter && sameCik(query.cik, candidate.cik);
  });
  if (filing === undefined) return [];
  const positions = (await filedPositions(db, directory, [filing])).get(filing.filingId) ?? [];
  const ids = await identifiers(
    db,
    positions.map((position) => position.asset.symbol),
  );
  return positions.map((position) => {
    const id = ids.get(position.asset.symbol);
    return {
      cik: filing.cik,
      date: filing.date,
      acceptedDate: filing.acceptedDate,
      symbol: position.asset.symbol,
      name: position.asset.name,
      lei: 'N/A',
      title: position.asset.name,
      cusip: orNotAvailable(id?.cusip),
      isin: orNotAvailable(id?.isin),
      balance: position.shares,
      units: 'NS',
      cur_cd: position.asset.currency,
      valUsd: round(position.valueUsd, 2),
      pctVal: round(position.pct, 6),
      payoffProfile: 'Long',
      assetCat: 'EC',
      issuerCat: 'CORP',
      invCountry: position.asset.country,
      isRestrictedSec: 'N',
      fairValLevel: '1',
      isCashCollateral: 'N',
      isNonCashCollateral: 'N',
      isLoanByFund: 'N',
    };
  });
}

/** The period ends of a fund's NPORT-P filings with their calendar year and quarter, newest first. */
export async function disclosureDates(
  db: Db,
  directory: SymbolDirectory,
  query: { symbol: string; cik?: string | undefined },
  now: Date,
): Promise<{ date: string; year: number; quarter: number }[]> {
  const fund = directory.get(query.symbol);
  if (!isFund(fund)) return [];
  const filings = (await fundFilings(db, [fund.symbol], now)).get(fund.symbol) ?? [];
  return filings
    .filter((filing) => sameCik(query.cik, filing.cik))
    .map((filing) => ({ date: filing.date, ...calendarQuarter(filing.date) }));
}

/** FMP's latest-holder row: a fund whose latest NPORT-P holds the security. */
export interface DisclosureHolderRow {
  cik: string;
  holder: string;
  shares: number;
  dateReported: string;
  change: number;
  weightPercent: number;
}

/** The fund's own name for the holder lists: its series' name, else its listing's. */
function fundName(fund: Security | undefined, symbol: string): string {
  const series = fund?.details.seriesName;
  return typeof series === 'string' && series !== '' ? series : (fund?.name ?? symbol);
}

/**
 * Every fund whose latest NPORT-P holds a security: its shares, their weight in that filing and the
 * change in shares since the fund's filing before (the whole position when it held none then, 0 when
 * there is no filing before); most shares first.
 */
export async function latestDisclosureHolders(
  db: Db,
  directory: SymbolDirectory,
  symbol: string,
  now: Date,
): Promise<DisclosureHolderRow[]> {
  const holders = await db
    .selectDistinct({ fund: etfHoldings.etfSymbol })
    .from(etfHoldings)
    .where(and(eq(etfHoldings.assetSymbol, symbol), isNotNull(etfHoldings.filingId)));
  const filings = await fundFilings(
    db,
    holders.map((holder) => holder.fund),
    now,
  );
  const latest = [...filings.values()].flatMap((list) => list[0] ?? []);
  const previous = [...filings.values()].flatMap((list) => list[1] ?? []);
  const [valued, before] = await Promise.all([
    filedPositions(db, directory, latest),
    previous.length === 0
      ? Promise.resolve([])
      : db
          .select({ filingId: etfHoldings.filingId, shares: etfHoldings.shares })
          .from(etfHoldings)
          .where(
            and(
              eq(etfHoldings.assetSymbol, symbol),
              inArray(
                etfHoldings.filingId,
                previous.map((filing) => filing.filingId),
              ),
            ),
          ),
  ]);
  const sharesBefore = new Map(before.map((row) => [row.filingId, row.shares]));
  const rows: DisclosureHolderRow[] = [];
  for (const filing of latest) {
    const position = valued.get(filing.filingId)?.find((entry) => entry.asset.symbol === symbol);
    if (position === undefined) continue;
    const earlier = filings.get(filing.fund)?.[1];
    const change = earlier === undefined ? 0 : position.shares - (sharesBefore.get(earlier.filingId) ?? 0);
    rows.push({
      cik: filing.cik,
      holder: fundName(directory.get(filing.fund), filing.fund),
      shares: position.shares,
      dateReported: filing.date,
      change,
      weightPercent: round(position.pct, 6),
    });
  }
  return rows.sort((a, b) => b.shares - a.shares || a.holder.localeCompare(b.holder));
}

/** FMP's fund search row: a fund as the SEC registers it (registrant, series, class) with its address. */
export interface FundRegistrationRow {
  symbol: string;
  cik: string;
  classId: string;
  seriesId: string;
  entityName: string;
  entityOrgType: string;
  seriesName: string;
  className: string;
  reportingFileNumber: string;
  address: string;
  city: string;
  zipCode: string;
  state: string;
}

/** N-PORT's organisation type of a registered open-end fund, as FMP writes it. */
export const FUND_ORG_TYPE = '30';

const detail = (fund: Security, key: string): string => {
  const value = fund.details[key];
  return typeof value === 'string' ? value : '';
};

/**
 * Funds (ETFs and mutual funds) whose registrant, series or listing name contains the text (any case),
 * with their SEC registration and the registrant's address, by registrant then series name.
 */
export async function searchFundRegistrations(
  db: Db,
  directory: SymbolDirectory,
  name: string,
): Promise<FundRegistrationRow[]> {
  const needle = name.toLowerCase();
  const funds = directory
    .all()
    .filter(
      (security) =>
        isFund(security) &&
        detail(security, 'seriesId') !== '' &&
        [security.name, detail(security, 'entityName'), detail(security, 'seriesName')].some((text) =>
          text.toLowerCase().includes(needle),
        ),
    );
  if (funds.length === 0) return [];
  const profiles = await db
    .select({
      symbol: companyProfiles.symbol,
      cik: companyProfiles.cik,
      address: companyProfiles.address,
      city: companyProfiles.city,
      zip: companyProfiles.zip,
      state: companyProfiles.state,
    })
    .from(companyProfiles)
    .where(
      inArray(
        companyProfiles.symbol,
        funds.map((fund) => fund.symbol),
      ),
    );
  const bySymbol = new Map(profiles.map((profile) => [profile.symbol, profile]));
  return funds
    .map((fund) => {
      const profile = bySymbol.get(fund.symbol);
      return {
        symbol: fund.symbol,
        cik: profile?.cik ?? '',
        classId: detail(fund, 'classId'),
        seriesId: detail(fund, 'seriesId'),
        entityName: detail(fund, 'entityName'),
        entityOrgType: FUND_ORG_TYPE,
        seriesName: detail(fund, 'seriesName'),
        className: detail(fund, 'className'),
        reportingFileNumber: detail(fund, 'reportingFileNumber'),
        address: profile?.address ?? '',
        city: profile?.city ?? '',
        zipCode: profile?.zip ?? '',
        state: profile?.state ?? '',
      };
    })
    .sort(
      (a, b) =>
        a.entityName.localeCompare(b.entityName) ||
        a.seriesName.localeCompare(b.seriesName) ||
        a.symbol.localeCompare(b.symbol),
    );
}
