import { and, asc, eq, getTableName, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client.ts';
import {
  companyNotes,
  companyProfiles,
  delistedCompanies,
  employeeCounts,
  executiveCompensation,
  financialStatements,
  keyExecutives,
  mergersAcquisitions,
  securities,
  sharesFloat,
  symbolChanges,
} from '../../../db/schema.ts';
import { RowBuffer, type Cell, type ColumnKind } from './bulk.ts';
import { fromDay, toDay, weekday, yearOf } from './calendar.ts';
import { NAME_PREFIXES } from './names.ts';
import { createRandom, randomUuid, round, type Random } from './random.ts';
import type { Scale, SecuritySpec } from './universe.ts';
import { CORPORATE_SUFFIX } from './universe-data.ts';

/**
 * Company facts derived from the generated universe once its statements, profiles and executives are
 * stored: ticker changes, delisted companies (with the acquisitions that ended some of them), free float,
 * head count per annual report, listed notes, executive pay per proxy year, and mergers. Everything is
 * drawn from the data set's seed, so the same seed and "as of" date give the same rows.
 */

/** The tables this step fills, children of `securities` among them: the seed's truncate list names them. */
export const COMPANY_FACT_TABLES: readonly PgTable[] = [
  symbolChanges,
  delistedCompanies,
  sharesFloat,
  employeeCounts,
  companyNotes,
  executiveCompensation,
  mergersAcquisitions,
];

/** Real ticker changes of the familiar companies, kept when the company is in the universe. */
const KNOWN_CHANGES: readonly { date: string; oldSymbol: string; newSymbol: string }[] = [
  { date: '2022-06-09', oldSymbol: 'FB', newSymbol: 'META' },
];

const BUSINESS_WORDS = [
  'Therapeutics',
  'Systems',
  'Energy',
  'Networks',
  'Bancorp',
  'Retail',
  'Labs',
  'Minerals',
  'Media',
  'Logistics',
  'Semiconductor',
  'Foods',
] as const;

/** Named executive officers a proxy statement lists at most. */
const NAMED_EXECUTIVES = 5;
/** Proxy years of pay kept per company. */
const PAY_YEARS = 3;

interface StockFacts {
  symbol: string;
  name: string;
  exchange: string;
  industry: string;
  shares: number | null;
  cik: string;
  employees: number | null;
  ipoDate: string | null;
}

interface AnnualFiling {
  symbol: string;
  fiscalYear: number;
  periodEnd: string;
  filingDate: string;
  acceptedDate: string;
}

export interface CompanyFactsOptions {
  seed: number;
  scale: Scale;
  asOf: string;
  universe: readonly SecuritySpec[];
  binary: boolean;
}

function buffer(
  table: PgTable,
  columns: readonly (readonly [PgColumn, ColumnKind])[],
  binary: boolean,
): RowBuffer {
  return new RowBuffer(
    { name: getTableName(table), columns: columns.map(([column, kind]) => [column.name, kind] as const) },
    binary,
  );
}

/** Stored stocks with their profile facts, in symbol order. */
async function readStocks(db: Db): Promise<StockFacts[]> {
  const rows = await db
    .select({
      symbol: securities.symbol,
      name: securities.name,
      exchange: securities.exchange,
      industry: securities.industry,
      shares: securities.sharesOutstanding,
      cik: companyProfiles.cik,
      employees: companyProfiles.fullTimeEmployees,
      ipoDate: companyProfiles.ipoDate,
    })
    .from(securities)
    .innerJoin(companyProfiles, eq(companyProfiles.symbol, securities.symbol))
    .where(eq(securities.assetType, 'stock'))
    .orderBy(asc(securities.symbol));
  return rows;
}

/** Every CIK a stored profile holds (stocks, funds and trusts alike). */
async function readCiks(db: Db): Promise<Set<string>> {
  const rows = await db
    .select({ cik: companyProfiles.cik })
    .from(companyProfiles)
    .where(ne(companyProfiles.cik, ''));
  return new Set(rows.map((row) => row.cik));
}

/** The stored annual (FY) reports of every company, oldest first per symbol. */
async function readAnnualFilings(db: Db): Promise<Map<string, AnnualFiling[]>> {
  const rows = await db
    .select({
      symbol: financialStatements.symbol,
      fiscalYear: financialStatements.fiscalYear,
      periodEnd: financialStatements.date,
      filingDate: sql<string>`${financialStatements.data}->>'filingDate'`,
      acceptedDate: sql<string>`${financialStatements.data}->>'acceptedDate'`,
    })
    .from(financialStatements)
    .where(and(eq(financialStatements.statement, 'income'), eq(financialStatements.period, 'FY')))
    .orderBy(asc(financialStatements.symbol), asc(financialStatements.fiscalYear));
  const bySymbol = new Map<string, AnnualFiling[]>();
  for (const row of rows) {
    const list = bySymbol.get(row.symbol);
    if (list === undefined) bySymbol.set(row.symbol, [row]);
    else list.push(row);
  }
  return bySymbol;
}

/** A ticker of three or four letters that no listed, delisted or former security uses. */
function freshTicker(random: Random, taken: Set<string>): string {
  for (;;) {
    const length = random.int(3, 4);
    let ticker = '';
    for (let i = 0; i < length; i += 1) ticker += String.fromCharCode(65 + random.int(0, 25));
    if (!taken.has(ticker)) {
      taken.add(ticker);
      return ticker;
    }
  }
}

/** The weekday on or before a day: filings and listings change on business days. */
function businessDay(day: number): number {
  const wd = weekday(day);
  return wd === 0 ? day - 2 : wd === 6 ? day - 1 : day;
}

/**
 * A CIK no other filer of the demo world holds (listed companies, funds, delisted companies and private
 * targets draw from one range), so `search-cik` and the mergers list never name two companies for one CIK.
 */
function freshCik(random: Random, takenCiks: Set<string>): string {
  let cik = String(random.int(1_000_000, 2_099_999)).padStart(10, '0');
  while (takenCiks.has(cik)) cik = String(random.int(1_000_000, 2_099_999)).padStart(10, '0');
  takenCiks.add(cik);
  return cik;
}

/** A wall-clock time of day on a date, "YYYY-MM-DD HH:MM:SS". */
function timeOn(date: string, random: Random): string {
  const hh = String(random.int(6, 20)).padStart(2, '0');
  const mm = String(random.int(0, 59)).padStart(2, '0');
  const ss = String(random.int(0, 59)).padStart(2, '0');
  return `${date} ${hh}:${mm}:${ss}`;
}

function demoLink(kind: string, symbol: string, id: string): string {
  return `https://example.com/demo-filings/${kind}/${symbol.toLowerCase()}/${id}.htm`;
}

/** Head count per annual report: the latest equals the profile's, earlier years grow into it. */
function pushEmployeeCounts(
  out: RowBuffer,
  seed: number,
  stock: StockFacts,
  filings: readonly AnnualFiling[],
): void {
  if (stock.cik === '' || stock.employees === null || filings.length === 0) return;
  const random = createRandom(seed, 'employee-counts', stock.symbol);
  let count = stock.employees;
  for (let i = filings.length - 1; i >= 0; i -= 1) {
    const filing = filings[i];
    if (filing === undefined) continue;
    out.push([
      stock.symbol,
      filing.periodEnd,
      stock.cik,
      filing.acceptedDate,
      stock.name,
      '10-K',
      filing.filingDate,
      count,
      demoLink('10-k', stock.symbol, String(filing.fiscalYear)),
    ]);
    count = Math.max(1, Math.round(count / (1 + random.range(-0.04, 0.12))));
  }
}

/** Float shares below the outstanding shares: insiders, founders and strategic holders keep the rest. */
function pushFloat(
  out: RowBuffer,
  seed: number,
  stock: StockFacts,
  asOf: string,
  latest: AnnualFiling | undefined,
): void {
  if (stock.shares === null || stock.shares <= 0) return;
  const random = createRandom(seed, 'shares-float', stock.symbol);
  const outstanding = Math.round(stock.shares);
  const floatShares = Math.round(outstanding * random.range(0.55, 0.998));
  const day = fromDay(toDay(asOf) - random.int(0, 6));
  out.push([
    stock.symbol,
    timeOn(day, random),
    round((floatShares / outstanding) * 100, 4),
    floatShares,
    outstanding,
    demoLink('10-q', stock.symbol, latest === undefined ? 'latest' : String(latest.fiscalYear)),
  ]);
}

/** Listed notes of a US company: coupons and maturities as a treasurer would ladder them. */
function pushNotes(out: RowBuffer, seed: number, stock: StockFacts, asOf: string, always: boolean): void {
  const random = createRandom(seed, 'company-notes', stock.symbol);
  if (stock.cik === '' || (!always && !random.chance(0.35))) return;
  const count = random.int(1, 4);
  const firstYear = yearOf(toDay(asOf)) + 1;
  const titles = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const year = firstYear + random.int(0, 29);
    const coupon = (Math.round(random.range(0.5, 6.5) * 40) / 40).toFixed(3);
    const title = `${coupon}% Notes due ${year}`;
    if (titles.has(title)) continue;
    titles.add(title);
    out.push([
      stock.symbol,
      title,
      stock.exchange,
      `${year}-${String(random.int(1, 12)).padStart(2, '0')}-15`,
    ]);
  }
}

interface Executive {
  name: string;
  title: string;
  pay: number;
}

/** Summary compensation rows: the latest proxy year's total is the pay key-executives shows. */
function pushCompensation(
  out: RowBuffer,
  seed: number,
  stock: StockFacts,
  filings: readonly AnnualFiling[],
  executives: readonly Executive[],
): void {
  if (stock.cik === '' || executives.length === 0) return;
  const years = filings.slice(-PAY_YEARS).reverse();
  executives.slice(0, NAMED_EXECUTIVES).forEach((executive, order) => {
    const random = createRandom(seed, 'compensation', stock.symbol, executive.name);
    let total = executive.pay;
    for (const filing of years) {
      const salary = Math.round(total * random.range(0.06, 0.14));
      const bonus = Math.round(total * random.range(0, 0.05));
      const stockAward = Math.round(total * random.range(0.45, 0.6));
      const optionAward = Math.round(total * random.range(0, 0.08));
      const incentive = Math.round(total * random.range(0.08, 0.14));
      const other = total - salary - bonus - stockAward - optionAward - incentive;
      out.push([
        stock.symbol,
        filing.fiscalYear,
        `${executive.name}, ${executive.title}`,
        stock.cik,
        stock.name,
        stock.industry,
        filing.filingDate,
        filing.acceptedDate,
        salary,
        bonus,
        stockAward,
        optionAward,
        incentive,
        other,
        total,
        demoLink('def-14a', stock.symbol, String(filing.fiscalYear)),
        order,
      ]);
      total = Math.round(total / (1 + random.range(-0.05, 0.2)));
    }
  });
}

/** A company name of the demo world: "Summit Networks Corp.". */
function companyName(random: Random): string {
  return `${random.pick(NAME_PREFIXES)} ${random.pick(BUSINESS_WORDS)} ${random.pick(CORPORATE_SUFFIX.US ?? ['Inc.'])}`;
}

interface Delisting {
  symbol: string;
  name: string;
  exchange: string;
  cik: string;
  ipoDay: number;
  delistedDay: number;
}

/** Companies that left the exchanges, some of them bought by a listed company (see pushMergers). */
function delistings(
  seed: number,
  scale: Scale,
  asOfDay: number,
  taken: Set<string>,
  takenCiks: Set<string>,
): Delisting[] {
  const random = createRandom(seed, 'delisted');
  const count = scale === 'test' ? 40 : 3000;
  const rows: Delisting[] = [];
  for (let i = 0; i < count; i += 1) {
    const ipoDay = toDay(`${random.int(1990, 2020)}-01-01`) + random.int(0, 364);
    const delistedDay = businessDay(random.int(Math.min(ipoDay + 365, asOfDay - 1), asOfDay - 1));
    rows.push({
      symbol: freshTicker(random, taken),
      name: companyName(random),
      exchange: random.weighted([
        ['NASDAQ', 5],
        ['NYSE', 4],
        ['AMEX', 1],
      ] as const),
      cik: freshCik(random, takenCiks),
      ipoDay,
      delistedDay,
    });
  }
  return rows;
}

/** Ticker changes of listed companies: the familiar real ones and a few generated ones. */
function pushSymbolChanges(
  out: RowBuffer,
  seed: number,
  stocks: readonly StockFacts[],
  asOfDay: number,
  taken: Set<string>,
  familiar: ReadonlySet<string>,
): void {
  const listed = new Map(stocks.map((stock) => [stock.symbol, stock]));
  for (const change of KNOWN_CHANGES) {
    const stock = listed.get(change.newSymbol);
    if (stock !== undefined && toDay(change.date) <= asOfDay)
      out.push([change.date, stock.name, change.oldSymbol, change.newSymbol]);
  }
  for (const stock of stocks) {
    const random = createRandom(seed, 'symbol-change', stock.symbol);
    // The familiar companies keep their real history: only KNOWN_CHANGES rename them.
    if (familiar.has(stock.symbol) || !random.chance(0.03) || stock.ipoDate === null) continue;
    const earliest = Math.max(toDay(stock.ipoDate) + 30, asOfDay - 3650);
    if (earliest >= asOfDay - 7) continue;
    out.push([
      fromDay(businessDay(random.int(earliest, asOfDay - 7))),
      stock.name,
      freshTicker(random, taken),
      stock.symbol,
    ]);
  }
}

/** Acquisitions by listed US companies: of the delisted companies bought out, and of private companies. */
function pushMergers(
  out: RowBuffer,
  seed: number,
  stocks: readonly StockFacts[],
  gone: readonly Delisting[],
  asOfDay: number,
  takenCiks: Set<string>,
): void {
  const buyers = stocks.filter((stock) => stock.cik !== '');
  if (buyers.length === 0) return;
  const random = createRandom(seed, 'mergers');
  const push = (target: { name: string; cik: string; symbol: string }, day: number): void => {
    const buyer = random.pick(buyers);
    const id = randomUuid(random);
    out.push([
      id,
      buyer.symbol,
      buyer.name,
      buyer.cik,
      target.name,
      target.cik,
      target.symbol,
      fromDay(day),
      timeOn(fromDay(Math.min(day + random.int(0, 3), asOfDay)), random),
      demoLink('s-4', buyer.symbol, id),
    ]);
  };
  for (const company of gone) {
    if (random.chance(0.4))
      push(company, Math.max(company.ipoDay + 1, company.delistedDay - random.int(30, 180)));
  }
  for (let i = 0; i < gone.length / 2; i += 1) {
    const day = businessDay(asOfDay - random.int(0, 3650));
    push(
      {
        name: companyName(random).replace(/ (Inc\.|Corp\.|Corporation|Co\.)$/, ' LLC'),
        cik: freshCik(random, takenCiks),
        symbol: '',
      },
      day,
    );
  }
}

/** Writes the company facts of a freshly seeded universe; returns the rows written per table. */
export async function seedCompanyFacts(
  db: Db,
  options: CompanyFactsOptions,
): Promise<Record<string, number>> {
  const { seed, scale, asOf, binary } = options;
  const asOfDay = toDay(asOf);
  const stocks = await readStocks(db);
  const filings = await readAnnualFilings(db);
  const executives = new Map<string, Executive[]>();
  for (const row of await db
    .select({
      symbol: keyExecutives.symbol,
      name: keyExecutives.name,
      title: keyExecutives.title,
      pay: keyExecutives.pay,
    })
    .from(keyExecutives)
    .where(
      and(
        isNotNull(keyExecutives.pay),
        inArray(
          keyExecutives.symbol,
          stocks.map((stock) => stock.symbol),
        ),
      ),
    )
    .orderBy(asc(keyExecutives.symbol), asc(keyExecutives.sortOrder))) {
    const list = executives.get(row.symbol) ?? [];
    list.push({ name: row.name, title: row.title, pay: row.pay ?? 0 });
    executives.set(row.symbol, list);
  }
  const familiar = new Set(options.universe.filter((spec) => spec.familiar).map((spec) => spec.symbol));
  const taken = new Set<string>(options.universe.map((spec) => spec.symbol));
  for (const change of KNOWN_CHANGES) taken.add(change.oldSymbol);

  const out = {
    changes: buffer(
      symbolChanges,
      [
        [symbolChanges.date, 'date'],
        [symbolChanges.companyName, 'text'],
        [symbolChanges.oldSymbol, 'text'],
        [symbolChanges.newSymbol, 'text'],
      ],
      binary,
    ),
    delisted: buffer(
      delistedCompanies,
      [
        [delistedCompanies.symbol, 'text'],
        [delistedCompanies.companyName, 'text'],
        [delistedCompanies.exchange, 'text'],
        [delistedCompanies.ipoDate, 'date'],
        [delistedCompanies.delistedDate, 'date'],
      ],
      binary,
    ),
    float: buffer(
      sharesFloat,
      [
        [sharesFloat.symbol, 'text'],
        [sharesFloat.date, 'timestamp'],
        [sharesFloat.freeFloat, 'float'],
        [sharesFloat.floatShares, 'int'],
        [sharesFloat.outstandingShares, 'int'],
        [sharesFloat.source, 'text'],
      ],
      binary,
    ),
    employees: buffer(
      employeeCounts,
      [
        [employeeCounts.symbol, 'text'],
        [employeeCounts.periodOfReport, 'date'],
        [employeeCounts.cik, 'text'],
        [employeeCounts.acceptanceTime, 'timestamp'],
        [employeeCounts.companyName, 'text'],
        [employeeCounts.formType, 'text'],
        [employeeCounts.filingDate, 'date'],
        [employeeCounts.employeeCount, 'int'],
        [employeeCounts.source, 'text'],
      ],
      binary,
    ),
    notes: buffer(
      companyNotes,
      [
        [companyNotes.symbol, 'text'],
        [companyNotes.title, 'text'],
        [companyNotes.exchange, 'text'],
        [companyNotes.maturity, 'date'],
      ],
      binary,
    ),
    pay: buffer(
      executiveCompensation,
      [
        [executiveCompensation.symbol, 'text'],
        [executiveCompensation.year, 'int'],
        [executiveCompensation.nameAndPosition, 'text'],
        [executiveCompensation.cik, 'text'],
        [executiveCompensation.companyName, 'text'],
        [executiveCompensation.industry, 'text'],
        [executiveCompensation.filingDate, 'date'],
        [executiveCompensation.acceptedDate, 'timestamp'],
        [executiveCompensation.salary, 'int'],
        [executiveCompensation.bonus, 'int'],
        [executiveCompensation.stockAward, 'int'],
        [executiveCompensation.optionAward, 'int'],
        [executiveCompensation.incentivePlanCompensation, 'int'],
        [executiveCompensation.allOtherCompensation, 'int'],
        [executiveCompensation.total, 'int'],
        [executiveCompensation.link, 'text'],
        [executiveCompensation.sortOrder, 'int'],
      ],
      binary,
    ),
    mergers: buffer(
      mergersAcquisitions,
      [
        [mergersAcquisitions.id, 'uuid'],
        [mergersAcquisitions.symbol, 'text'],
        [mergersAcquisitions.companyName, 'text'],
        [mergersAcquisitions.cik, 'text'],
        [mergersAcquisitions.targetedCompanyName, 'text'],
        [mergersAcquisitions.targetedCik, 'text'],
        [mergersAcquisitions.targetedSymbol, 'text'],
        [mergersAcquisitions.transactionDate, 'date'],
        [mergersAcquisitions.acceptedDate, 'timestamp'],
        [mergersAcquisitions.link, 'text'],
      ],
      binary,
    ),
  };

  for (const stock of stocks) {
    const annual = filings.get(stock.symbol) ?? [];
    pushEmployeeCounts(out.employees, seed, stock, annual);
    pushFloat(out.float, seed, stock, asOf, annual[annual.length - 1]);
    pushNotes(out.notes, seed, stock, asOf, familiar.has(stock.symbol));
    pushCompensation(out.pay, seed, stock, annual, executives.get(stock.symbol) ?? []);
  }
  pushSymbolChanges(out.changes, seed, stocks, asOfDay, taken, familiar);
  const takenCiks = await readCiks(db);
  const gone = delistings(seed, scale, asOfDay, taken, takenCiks);
  for (const company of gone) {
    out.delisted.push([
      company.symbol,
      company.name,
      company.exchange,
      company.ipoDay,
      company.delistedDay,
    ] satisfies Cell[]);
  }
  pushMergers(out.mergers, seed, stocks, gone, asOfDay, takenCiks);

  const counts: Record<string, number> = {};
  await db.transaction(async (tx) => {
    for (const rows of Object.values(out)) counts[rows.shape.name] = await rows.flush(tx);
  });
  return counts;
}
