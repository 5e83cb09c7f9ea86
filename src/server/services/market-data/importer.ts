import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { isBlankOrHttpUrl } from '../../../lib/safe-url.ts';
import type { ImportRequiredField } from '../../../lib/statement-fields.ts';
import type { Db } from '../../db/client.ts';
import { securities, splits } from '../../db/market-schema.ts';
import { acceptsBinaryArrays, RowBuffer, type Cell, type ColumnKind, type TableShape } from './seed/bulk.ts';

/**
 * Loads a data set saved from the API's own answers: a directory of JSON files, each an array of rows exactly
 * as /stable/<endpoint> returns them. The file's path names the endpoint (`profile/AAPL.json`,
 * `historical-price-eod/full/AAPL.json`, `income-statement/AAPL-annual.json`, `stock-list.json`). Rows are
 * validated first and each file is written in one transaction, as upserts: importing the same files again
 * changes nothing, and a file with a bad row writes nothing at all.
 */

type Row = Record<string, unknown>;

export interface ImportOptions {
  /** Progress lines, one per file. */
  log?: (line: string) => void;
}

export interface ImportedFile {
  /** Path relative to the imported directory. */
  file: string;
  endpoint: string | null;
  rows: number;
  /** Why nothing of the file was written. */
  error?: string;
}

export interface ImportReport {
  directory: string;
  files: ImportedFile[];
  /** Rows written over all files. */
  rows: number;
  /** One line per failed file. */
  errors: string[];
  ok: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Row validation

const dateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date (YYYY-MM-DD)');
const dateTimeString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?/, 'expected a date and time (YYYY-MM-DD HH:MM:SS)');
const symbolString = z.string().trim().min(1, 'expected a symbol').max(40);
const finite = z.number();
const optionalNumber = finite.nullish();
const optionalString = z.string().nullish();
/** An address from data: blank, or http(s) only, so no `javascript:` link is ever stored. */
const optionalUrl = optionalString.refine(isBlankOrHttpUrl, 'must be an http or https address');
const optionalDate = z.union([dateString, z.literal('')]).nullish();
/** FMP writes some counts as strings ("164000"). */
const looseInteger = z.union([finite, z.string().regex(/^\d*$/, 'expected a whole number')]).nullish();

/**
 * How each identity field the statement catalogue requires of an imported row is checked; the other fields
 * are stored as given (answers bring them to FMP's types).
 */
const STATEMENT_IDENTITY_CHECKS = {
  date: dateString,
  symbol: symbolString,
  fiscalYear: z.union([z.string().regex(/^\d{4}$/, 'expected a year'), z.number().int()]),
  period: z.enum(['FY', 'Q1', 'Q2', 'Q3', 'Q4']),
} satisfies Record<ImportRequiredField, z.ZodType>;

const statementRow = z.looseObject(STATEMENT_IDENTITY_CHECKS);

const SCHEMAS = {
  'stock-list': z.looseObject({ symbol: symbolString, companyName: optionalString, name: optionalString }),
  'etf-list': z.looseObject({ symbol: symbolString, name: optionalString, companyName: optionalString }),
  'cryptocurrency-list': z.looseObject({
    symbol: symbolString,
    name: z.string(),
    exchange: optionalString,
    icoDate: optionalDate,
    circulatingSupply: optionalNumber,
    totalSupply: optionalNumber,
  }),
  'forex-list': z.looseObject({
    symbol: symbolString,
    fromCurrency: z.string().min(1),
    toCurrency: z.string().min(1),
    fromName: optionalString,
    toName: optionalString,
  }),
  'commodities-list': z.looseObject({
    symbol: symbolString,
    name: z.string(),
    exchange: optionalString,
    tradeMonth: optionalString,
    currency: optionalString,
  }),
  'index-list': z.looseObject({
    symbol: symbolString,
    name: z.string(),
    exchange: optionalString,
    currency: optionalString,
  }),
  profile: z.looseObject({
    symbol: symbolString,
    companyName: z.string().min(1),
    price: optionalNumber,
    marketCap: optionalNumber,
    beta: optionalNumber,
    currency: optionalString,
    cik: optionalString,
    isin: optionalString,
    cusip: optionalString,
    exchange: optionalString,
    exchangeFullName: optionalString,
    industry: optionalString,
    sector: optionalString,
    country: optionalString,
    website: optionalUrl,
    description: optionalString,
    ceo: optionalString,
    fullTimeEmployees: looseInteger,
    phone: optionalString,
    address: optionalString,
    city: optionalString,
    state: optionalString,
    zip: optionalString,
    image: optionalUrl,
    ipoDate: optionalDate,
    isEtf: z.boolean().nullish(),
    isFund: z.boolean().nullish(),
    isAdr: z.boolean().nullish(),
    isActivelyTrading: z.boolean().nullish(),
  }),
  'historical-price-eod/full': z.looseObject({
    symbol: symbolString.optional(),
    date: dateString,
    open: finite,
    high: finite,
    low: finite,
    close: finite,
    volume: finite.nonnegative(),
  }),
  'historical-price-eod/dividend-adjusted': z.looseObject({
    symbol: symbolString.optional(),
    date: dateString,
    adjOpen: finite,
    adjHigh: finite,
    adjLow: finite,
    adjClose: finite,
    volume: finite.nonnegative(),
  }),
  'historical-chart/1min': z.looseObject({
    symbol: symbolString.optional(),
    date: dateTimeString,
    open: finite,
    high: finite,
    low: finite,
    close: finite,
    volume: finite.nonnegative(),
  }),
  'income-statement': statementRow,
  'balance-sheet-statement': statementRow,
  'cash-flow-statement': statementRow,
  dividends: z.looseObject({
    symbol: symbolString.optional(),
    date: dateString,
    recordDate: optionalDate,
    paymentDate: optionalDate,
    declarationDate: optionalDate,
    adjDividend: optionalNumber,
    dividend: finite,
    frequency: optionalString,
  }),
  splits: z.looseObject({
    symbol: symbolString.optional(),
    date: dateString,
    numerator: finite.positive(),
    denominator: finite.positive(),
  }),
  'key-executives': z.looseObject({
    symbol: symbolString.optional(),
    name: z.string().min(1),
    title: z.string(),
    pay: optionalNumber,
    currencyPay: optionalString,
    gender: optionalString,
    yearBorn: optionalNumber,
    active: z.boolean().nullish(),
  }),
  news: z.looseObject({
    symbol: z.string().nullish(),
    publishedDate: dateTimeString,
    publisher: optionalString,
    title: z.string().min(1),
    image: optionalUrl,
    site: optionalString,
    text: optionalString,
    url: z.string().min(1).refine(isBlankOrHttpUrl, 'must be an http or https address'),
  }),
  'earning-call-transcript': z.looseObject({
    symbol: symbolString.optional(),
    period: z.string().regex(/^Q[1-4]$/, 'expected Q1 … Q4'),
    year: z.union([finite, z.string().regex(/^\d{4}$/)]),
    date: dateString,
    content: z.string(),
  }),
  'analyst-estimates': z.looseObject({ symbol: symbolString.optional(), date: dateString }),
  'price-target-consensus': z.looseObject({
    symbol: symbolString.optional(),
    targetHigh: finite,
    targetLow: finite,
    targetConsensus: finite,
    targetMedian: finite,
  }),
  grades: z.looseObject({
    symbol: symbolString.optional(),
    date: dateString,
    gradingCompany: z.string().min(1),
    previousGrade: optionalString,
    newGrade: z.string(),
    action: z.string(),
  }),
  earnings: z.looseObject({
    symbol: symbolString.optional(),
    date: dateString,
    epsActual: optionalNumber,
    epsEstimated: optionalNumber,
    revenueActual: optionalNumber,
    revenueEstimated: optionalNumber,
    lastUpdated: optionalDate,
  }),
  'treasury-rates': z.looseObject({
    date: dateString,
    month1: finite,
    month2: finite,
    month3: finite,
    month6: finite,
    year1: finite,
    year2: finite,
    year3: finite,
    year5: finite,
    year7: finite,
    year10: finite,
    year20: finite,
    year30: finite,
  }),
  'economic-indicators': z.looseObject({ name: z.string().min(1), date: dateString, value: finite }),
  'esg-ratings': z.looseObject({
    symbol: symbolString.optional(),
    companyName: optionalString,
    industry: optionalString,
    fiscalYear: z.union([z.number().int(), z.string().regex(/^\d{4}$/)]),
    ESGRiskRating: z.string().min(1),
    industryRank: z.string(),
  }),
  'insider-trading/latest': z.looseObject({
    symbol: symbolString.optional(),
    filingDate: dateString,
    transactionDate: optionalDate,
  }),
  'senate-latest': z.looseObject({
    symbol: symbolString.optional(),
    disclosureDate: dateString,
    transactionDate: optionalDate,
  }),
  'institutional-ownership/symbol-positions-summary': z.looseObject({
    symbol: symbolString.optional(),
    date: optionalDate,
    year: z.union([z.number().int(), z.string().regex(/^\d{4}$/)]),
    quarter: z.union([z.number().int().min(1).max(4), z.string().regex(/^[1-4]$/)]),
  }),
} as const;

type SchemaName = keyof typeof SCHEMAS;

// ---------------------------------------------------------------------------------------------------------
// Endpoints

interface FileContext {
  tx: Db;
  binary: boolean;
  /** Path relative to the directory, for messages. */
  file: string;
  endpoint: string;
  /** The symbol a file's name gives (profile/AAPL.json → AAPL), for rows that do not name theirs. */
  fileSymbol: string | null;
  /** annual or quarter, from a file name ending in -annual / -quarter. */
  filePeriod: 'annual' | 'quarter' | null;
}

/**
 * For each row's symbol and date, the product of the split ratios after that date: the factor that
 * turns a split-adjusted price back into the price that traded.
 */
async function splitFactors(
  rows: readonly Row[],
  ctx: FileContext,
): Promise<(symbol: string, date: string) => number> {
  const symbols = [...new Set(rows.map((r) => rowSymbol(r, ctx)))];
  const found = await ctx.tx
    .select({
      symbol: splits.symbol,
      date: splits.date,
      numerator: splits.numerator,
      denominator: splits.denominator,
    })
    .from(splits)
    .where(inArray(splits.symbol, symbols));
  return (symbol, date) => {
    let factor = 1;
    for (const split of found) {
      if (split.symbol === symbol && split.date > date) factor *= split.numerator / split.denominator;
    }
    return factor;
  };
}

function writeDailyPrices(
  rows: readonly Row[],
  ctx: FileContext,
  factorOf: (symbol: string, date: string) => number,
): Promise<number> {
  return upsert(
    ctx,
    'daily_prices',
    PRICE_COLUMNS,
    ['symbol', 'date'],
    [
      ['open', 'excluded."open"'],
      ['high', 'excluded."high"'],
      ['low', 'excluded."low"'],
      // An adjusted close loaded from a dividend-adjusted file survives a reload of the plain prices.
      [
        'adj_close',
        'case when daily_prices."adj_close" = daily_prices."close" then excluded."adj_close" else daily_prices."adj_close" end',
      ],
      ['close', 'excluded."close"'],
      ['volume', 'excluded."volume"'],
    ],
    rows.map((r) => {
      const symbol = rowSymbol(r, ctx);
      const date = str(r.date);
      const factor = factorOf(symbol, date);
      const raw = (value: unknown): number => Number(value) * factor;
      // adj_close starts equal to close; a dividend-adjusted file replaces it.
      return [
        symbol,
        date,
        raw(r.open),
        raw(r.high),
        raw(r.low),
        raw(r.close),
        raw(r.close),
        Math.round(Number(r.volume) / factor),
      ] as Cell[];
    }),
  );
}

/**
 * Filings kept as FMP's JSON rows (insider and senate trades): an id derived from the row's content,
 * so importing the same file again updates rather than duplicates, and the date the lists sort on.
 */
function writeFilings(
  rows: Row[],
  ctx: FileContext,
  target: { table: string; dateColumn: string; dateField: string; kind: string },
): Promise<number> {
  return upsert(
    ctx,
    target.table,
    [
      ['id', 'uuid'],
      ['symbol', 'text'],
      [target.dateColumn, 'date'],
      ['data', 'json'],
    ],
    ['id'],
    'all',
    rows.map((r) => {
      const symbol = rowSymbol(r, ctx);
      return [stableUuid(target.kind, symbol, r), symbol, str(r[target.dateField]), { ...r, symbol }];
    }),
  );
}

interface Endpoint {
  /** Schema of a row. */
  schema: SchemaName;
  /** Load order: lists, then profiles, then everything that refers to them. */
  order: number;
  /** Whether rows name symbols that must exist in securities. */
  needsSymbols: boolean;
  /** A minimal security row for a symbol the file introduces, when the row carries enough for one. */
  creates?: (row: Row, ctx: FileContext) => SecurityInput | null;
  write: (rows: Row[], ctx: FileContext) => Promise<number>;
}

interface SecurityInput {
  symbol: string;
  name: string;
  assetType: 'stock' | 'etf' | 'fund' | 'crypto' | 'forex' | 'commodity' | 'index';
  exchange: string;
  exchangeFullName: string;
  currency: string;
  details: Record<string, string | number | null>;
  sharesOutstanding: number | null;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const numOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const dateOrNull = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** A UUID made from a row's identity, so re-importing the same row hits the same primary key. */
function stableUuid(...parts: readonly unknown[]): string {
  const hex = createHash('sha1').update(JSON.stringify(parts)).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Upserts rows through the bulk writer; rows with the same key keep the last one (as a re-import would). */
async function upsert(
  ctx: FileContext,
  table: string,
  columns: readonly (readonly [string, ColumnKind])[],
  target: readonly string[],
  update: readonly (readonly [string, string])[] | 'all',
  rows: readonly (readonly Cell[])[],
): Promise<number> {
  const keyIndexes = target.map((t) => columns.findIndex(([c]) => c === t));
  const unique = new Map<string, readonly Cell[]>();
  for (const row of rows) unique.set(JSON.stringify(keyIndexes.map((i) => row[i] ?? null)), row);
  const updates =
    update === 'all'
      ? columns.filter(([c]) => !target.includes(c)).map(([c]) => [c, `excluded."${c}"`] as const)
      : update;
  const shape: TableShape = { name: table, columns, conflict: { target, update: updates } };
  const buffer = new RowBuffer(shape, ctx.binary);
  for (const row of unique.values()) buffer.push(row);
  return buffer.flush(ctx.tx);
}

const SECURITY_COLUMNS = [
  ['symbol', 'text'],
  ['name', 'text'],
  ['asset_type', 'text'],
  ['exchange', 'text'],
  ['exchange_full_name', 'text'],
  ['currency', 'text'],
  ['details', 'json'],
  ['shares_outstanding', 'float'],
  ['source', 'text'],
] as const;

/** Upserts securities from a list; on conflict only what the list knows is updated. */
async function upsertSecurities(
  ctx: FileContext,
  rows: readonly SecurityInput[],
  update: readonly string[],
): Promise<number> {
  const sets: [string, string][] = update.map((c) => [c, `excluded."${c}"`]);
  sets.push(['source', `'imported'`]);
  return upsert(
    ctx,
    'securities',
    SECURITY_COLUMNS,
    ['symbol'],
    sets,
    rows.map((s) => [
      s.symbol,
      s.name,
      s.assetType,
      s.exchange,
      s.exchangeFullName,
      s.currency,
      s.details,
      s.sharesOutstanding,
      'imported',
    ]),
  );
}

function listSecurity(assetType: SecurityInput['assetType'], row: Row): SecurityInput {
  const symbol = str(row.symbol);
  return {
    symbol,
    name: str(row.name) || str(row.companyName) || symbol,
    assetType,
    exchange: str(row.exchange),
    exchangeFullName: str(row.exchangeFullName),
    currency: str(row.currency),
    details: {},
    sharesOutstanding: null,
  };
}

function cryptoSecurity(row: Row): SecurityInput {
  return {
    ...listSecurity('crypto', row),
    exchange: str(row.exchange) || 'CRYPTO',
    currency: 'USD',
    details: {
      icoDate: dateOrNull(row.icoDate),
      circulatingSupply: numOrNull(row.circulatingSupply),
      totalSupply: numOrNull(row.totalSupply),
    },
    sharesOutstanding: numOrNull(row.circulatingSupply),
  };
}

function forexSecurity(row: Row): SecurityInput {
  const from = str(row.fromCurrency);
  const to = str(row.toCurrency);
  return {
    symbol: str(row.symbol),
    name: `${from}/${to}`,
    assetType: 'forex',
    exchange: 'FOREX',
    exchangeFullName: 'Foreign Exchange',
    currency: to,
    details: { fromCurrency: from, toCurrency: to, fromName: str(row.fromName), toName: str(row.toName) },
    sharesOutstanding: null,
  };
}

function commoditySecurity(row: Row): SecurityInput {
  return {
    ...listSecurity('commodity', row),
    exchange: str(row.exchange) || 'COMMODITY',
    currency: str(row.currency) || 'USD',
    details: { tradeMonth: str(row.tradeMonth), currency: str(row.currency) || 'USD' },
  };
}

function indexSecurity(row: Row): SecurityInput {
  return { ...listSecurity('index', row), exchange: str(row.exchange) || 'INDEX' };
}

function profileSecurity(row: Row): SecurityInput {
  const price = numOrNull(row.price);
  const cap = numOrNull(row.marketCap);
  return {
    symbol: str(row.symbol),
    name: str(row.companyName),
    assetType: row.isEtf === true ? 'etf' : row.isFund === true ? 'fund' : 'stock',
    exchange: str(row.exchange),
    exchangeFullName: str(row.exchangeFullName),
    currency: str(row.currency),
    details: {},
    sharesOutstanding: price && cap ? Math.round(cap / price) : null,
  };
}

const rowSymbol = (row: Row, ctx: FileContext): string => {
  const own = str(row.symbol);
  return own === '' ? (ctx.fileSymbol ?? '') : own;
};

const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  'stock-list': {
    schema: 'stock-list',
    order: 0,
    needsSymbols: false,
    write: (rows, ctx) =>
      upsertSecurities(
        ctx,
        rows.map((r) => listSecurity('stock', r)),
        ['name'],
      ),
  },
  'etf-list': {
    schema: 'etf-list',
    order: 0,
    needsSymbols: false,
    write: (rows, ctx) =>
      upsertSecurities(
        ctx,
        rows.map((r) => listSecurity('etf', r)),
        ['name', 'asset_type'],
      ),
  },
  'cryptocurrency-list': {
    schema: 'cryptocurrency-list',
    order: 0,
    needsSymbols: false,
    write: (rows, ctx) =>
      upsertSecurities(ctx, rows.map(cryptoSecurity), [
        'name',
        'asset_type',
        'exchange',
        'currency',
        'details',
        'shares_outstanding',
      ]),
  },
  'forex-list': {
    schema: 'forex-list',
    order: 0,
    needsSymbols: false,
    write: (rows, ctx) =>
      upsertSecurities(ctx, rows.map(forexSecurity), [
        'name',
        'asset_type',
        'exchange',
        'exchange_full_name',
        'currency',
        'details',
      ]),
  },
  'commodities-list': {
    schema: 'commodities-list',
    order: 0,
    needsSymbols: false,
    write: (rows, ctx) =>
      upsertSecurities(ctx, rows.map(commoditySecurity), [
        'name',
        'asset_type',
        'exchange',
        'currency',
        'details',
      ]),
  },
  'index-list': {
    schema: 'index-list',
    order: 0,
    needsSymbols: false,
    write: (rows, ctx) =>
      upsertSecurities(ctx, rows.map(indexSecurity), ['name', 'asset_type', 'exchange', 'currency']),
  },
  profile: {
    schema: 'profile',
    order: 1,
    needsSymbols: false,
    write: async (rows, ctx) => {
      await upsert(
        ctx,
        'securities',
        [
          ...SECURITY_COLUMNS,
          ['country', 'text'],
          ['sector', 'text'],
          ['industry', 'text'],
          ['active', 'bool'],
        ],
        ['symbol'],
        [
          ['name', 'excluded."name"'],
          // A profile knows funds apart from companies; it does not demote a listed fund or index.
          [
            'asset_type',
            `case when excluded."asset_type" in ('etf', 'fund') or securities."asset_type" = 'stock' then excluded."asset_type" else securities."asset_type" end`,
          ],
          ['exchange', 'excluded."exchange"'],
          ['exchange_full_name', 'excluded."exchange_full_name"'],
          ['currency', 'excluded."currency"'],
          ['shares_outstanding', 'coalesce(excluded."shares_outstanding", securities."shares_outstanding")'],
          ['country', 'excluded."country"'],
          ['sector', 'excluded."sector"'],
          ['industry', 'excluded."industry"'],
          ['active', 'excluded."active"'],
          ['source', `'imported'`],
        ],
        rows.map((r) => {
          const s = profileSecurity(r);
          return [
            s.symbol,
            s.name,
            s.assetType,
            s.exchange,
            s.exchangeFullName,
            s.currency,
            s.details,
            s.sharesOutstanding,
            'imported',
            str(r.country),
            str(r.sector),
            str(r.industry),
            r.isActivelyTrading !== false,
          ];
        }),
      );
      return upsert(
        ctx,
        'company_profiles',
        [
          ['symbol', 'text'],
          ['description', 'text'],
          ['ceo', 'text'],
          ['website', 'text'],
          ['phone', 'text'],
          ['address', 'text'],
          ['city', 'text'],
          ['state', 'text'],
          ['zip', 'text'],
          ['cik', 'text'],
          ['isin', 'text'],
          ['cusip', 'text'],
          ['full_time_employees', 'int'],
          ['ipo_date', 'date'],
          ['image', 'text'],
          ['beta', 'float'],
          ['is_adr', 'bool'],
        ],
        ['symbol'],
        'all',
        rows.map((r) => {
          const employees = r.fullTimeEmployees;
          const count =
            typeof employees === 'number'
              ? employees
              : typeof employees === 'string' && employees !== ''
                ? Number(employees)
                : null;
          return [
            str(r.symbol),
            str(r.description),
            str(r.ceo),
            str(r.website),
            str(r.phone),
            str(r.address),
            str(r.city),
            str(r.state),
            str(r.zip),
            str(r.cik),
            str(r.isin),
            str(r.cusip),
            count,
            dateOrNull(r.ipoDate),
            str(r.image),
            numOrNull(r.beta) ?? 1,
            r.isAdr === true,
          ];
        }),
      );
    },
  },
  // FMP's full prices are split-adjusted; the table holds as-traded prices (the API adjusts them with
  // the splits table), so each row is multiplied back by the splits after its date. Split files load
  // first for that reason.
  'historical-price-eod/full': {
    schema: 'historical-price-eod/full',
    order: 3,
    needsSymbols: true,
    write: async (rows, ctx) => writeDailyPrices(rows, ctx, await splitFactors(rows, ctx)),
  },
  'historical-price-eod/non-split-adjusted': {
    schema: 'historical-price-eod/full',
    order: 3,
    needsSymbols: true,
    write: (rows, ctx) => writeDailyPrices(rows, ctx, () => 1),
  },
  'historical-price-eod/dividend-adjusted': {
    schema: 'historical-price-eod/dividend-adjusted',
    order: 4,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'daily_prices',
        PRICE_COLUMNS,
        ['symbol', 'date'],
        [['adj_close', 'excluded."adj_close"']],
        rows.map(
          (r) =>
            [
              rowSymbol(r, ctx),
              str(r.date),
              r.adjOpen,
              r.adjHigh,
              r.adjLow,
              r.adjClose,
              r.adjClose,
              r.volume,
            ] as Cell[],
        ),
      ),
  },
  'historical-chart/1min': {
    schema: 'historical-chart/1min',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'intraday_prices',
        [
          ['symbol', 'text'],
          ['time', 'timestamp'],
          ['open', 'float'],
          ['high', 'float'],
          ['low', 'float'],
          ['close', 'float'],
          ['volume', 'int'],
        ],
        ['symbol', 'time'],
        'all',
        rows.map(
          (r) =>
            [
              rowSymbol(r, ctx),
              str(r.date).replace('T', ' ').slice(0, 19).padEnd(19, ':00').slice(0, 19),
              r.open,
              r.high,
              r.low,
              r.close,
              r.volume,
            ] as Cell[],
        ),
      ),
  },
  'income-statement': statementEndpoint('income'),
  'balance-sheet-statement': statementEndpoint('balance-sheet'),
  'cash-flow-statement': statementEndpoint('cash-flow'),
  dividends: {
    schema: 'dividends',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'dividends',
        [
          ['symbol', 'text'],
          ['date', 'date'],
          ['record_date', 'date'],
          ['payment_date', 'date'],
          ['declaration_date', 'date'],
          ['dividend', 'float'],
          ['adj_dividend', 'float'],
          ['frequency', 'text'],
        ],
        ['symbol', 'date'],
        'all',
        rows.map((r) => [
          rowSymbol(r, ctx),
          str(r.date),
          dateOrNull(r.recordDate),
          dateOrNull(r.paymentDate),
          dateOrNull(r.declarationDate),
          numOrNull(r.dividend),
          numOrNull(r.adjDividend) ?? numOrNull(r.dividend),
          str(r.frequency) || 'Quarterly',
        ]),
      ),
  },
  splits: {
    schema: 'splits',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'splits',
        [
          ['symbol', 'text'],
          ['date', 'date'],
          ['numerator', 'float'],
          ['denominator', 'float'],
        ],
        ['symbol', 'date'],
        'all',
        rows.map((r) => [rowSymbol(r, ctx), str(r.date), numOrNull(r.numerator), numOrNull(r.denominator)]),
      ),
  },
  'key-executives': {
    schema: 'key-executives',
    order: 2,
    needsSymbols: true,
    write: async (rows, ctx) => {
      const people = rows.map((r, i) => {
        const symbol = rowSymbol(r, ctx);
        return {
          id: stableUuid('key-executives', symbol, str(r.name), str(r.title)),
          symbol,
          row: r,
          order: i,
        };
      });
      const values = people.map(({ id, symbol, row: r, order }) => [
        id,
        symbol,
        str(r.name),
        str(r.title),
        numOrNull(r.pay),
        str(r.currencyPay) || 'USD',
        str(r.gender),
        numOrNull(r.yearBorn),
        r.active !== false,
        order,
      ]);
      // The file is the company's whole list: executives it no longer names are removed.
      const symbols = [...new Set(people.map((p) => p.symbol))];
      const ids = people.map((p) => p.id);
      await ctx.tx.execute(
        sql`delete from key_executives where symbol in ${symbols} and not (id::text in ${ids.length > 0 ? ids : ['']})`,
      );
      return upsert(
        ctx,
        'key_executives',
        [
          ['id', 'uuid'],
          ['symbol', 'text'],
          ['name', 'text'],
          ['title', 'text'],
          ['pay', 'int'],
          ['currency_pay', 'text'],
          ['gender', 'text'],
          ['year_born', 'int'],
          ['active', 'bool'],
          ['sort_order', 'int'],
        ],
        ['id'],
        'all',
        values,
      );
    },
  },
  news: {
    schema: 'news',
    order: 2,
    needsSymbols: false,
    write: (rows, ctx) => {
      const kind = ctx.endpoint.split('/')[1] ?? 'general';
      const category = kind.startsWith('crypto')
        ? 'crypto'
        : kind.startsWith('forex')
          ? 'forex'
          : kind.startsWith('stock')
            ? 'stock'
            : 'general';
      return upsert(
        ctx,
        'news',
        [
          ['id', 'uuid'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['published_at', 'timestamp'],
          ['publisher', 'text'],
          ['title', 'text'],
          ['image', 'text'],
          ['site', 'text'],
          ['text', 'text'],
          ['url', 'text'],
        ],
        ['url'],
        [
          ['category', 'excluded."category"'],
          ['symbol', 'excluded."symbol"'],
          ['published_at', 'excluded."published_at"'],
          ['publisher', 'excluded."publisher"'],
          ['title', 'excluded."title"'],
          ['image', 'excluded."image"'],
          ['site', 'excluded."site"'],
          ['text', 'excluded."text"'],
        ],
        rows.map((r) => [
          stableUuid('news', str(r.url)),
          category,
          str(r.symbol) === '' ? null : str(r.symbol),
          str(r.publishedDate).replace('T', ' ').slice(0, 19),
          str(r.publisher),
          str(r.title),
          str(r.image),
          str(r.site),
          str(r.text),
          str(r.url),
        ]),
      );
    },
  },
  'earning-call-transcript': {
    schema: 'earning-call-transcript',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'earning_call_transcripts',
        [
          ['symbol', 'text'],
          ['fiscal_year', 'int'],
          ['quarter', 'int'],
          ['date', 'date'],
          ['content', 'text'],
        ],
        ['symbol', 'fiscal_year', 'quarter'],
        'all',
        rows.map((r) => [
          rowSymbol(r, ctx),
          Number(r.year),
          Number(str(r.period).slice(1)),
          str(r.date),
          str(r.content),
        ]),
      ),
  },
  'analyst-estimates': {
    schema: 'analyst-estimates',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'analyst_estimates',
        [
          ['symbol', 'text'],
          ['period', 'text'],
          ['date', 'date'],
          ['data', 'json'],
        ],
        ['symbol', 'period', 'date'],
        'all',
        rows.map((r) => [rowSymbol(r, ctx), ctx.filePeriod ?? 'annual', str(r.date), r as Cell]),
      ),
  },
  'price-target-consensus': {
    schema: 'price-target-consensus',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'price_targets',
        [
          ['symbol', 'text'],
          ['target_high', 'float'],
          ['target_low', 'float'],
          ['target_consensus', 'float'],
          ['target_median', 'float'],
        ],
        ['symbol'],
        'all',
        rows.map(
          (r) => [rowSymbol(r, ctx), r.targetHigh, r.targetLow, r.targetConsensus, r.targetMedian] as Cell[],
        ),
      ),
  },
  grades: {
    schema: 'grades',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'grades',
        [
          ['id', 'uuid'],
          ['symbol', 'text'],
          ['date', 'date'],
          ['grading_company', 'text'],
          ['previous_grade', 'text'],
          ['new_grade', 'text'],
          ['action', 'text'],
        ],
        ['id'],
        'all',
        rows.map((r) => {
          const symbol = rowSymbol(r, ctx);
          return [
            stableUuid(
              'grades',
              symbol,
              str(r.date),
              str(r.gradingCompany),
              str(r.previousGrade),
              str(r.newGrade),
              str(r.action),
            ),
            symbol,
            str(r.date),
            str(r.gradingCompany),
            str(r.previousGrade),
            str(r.newGrade),
            str(r.action),
          ];
        }),
      ),
  },
  earnings: {
    schema: 'earnings',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'earnings',
        [
          ['symbol', 'text'],
          ['date', 'date'],
          ['eps_actual', 'float'],
          ['eps_estimated', 'float'],
          ['revenue_actual', 'float'],
          ['revenue_estimated', 'float'],
          ['last_updated', 'date'],
        ],
        ['symbol', 'date'],
        'all',
        rows.map((r) => [
          rowSymbol(r, ctx),
          str(r.date),
          numOrNull(r.epsActual),
          numOrNull(r.epsEstimated),
          numOrNull(r.revenueActual),
          numOrNull(r.revenueEstimated),
          dateOrNull(r.lastUpdated) ?? str(r.date),
        ]),
      ),
  },
  'treasury-rates': {
    schema: 'treasury-rates',
    order: 2,
    needsSymbols: false,
    write: (rows, ctx) => {
      const keys = [
        'month1',
        'month2',
        'month3',
        'month6',
        'year1',
        'year2',
        'year3',
        'year5',
        'year7',
        'year10',
        'year20',
        'year30',
      ];
      return upsert(
        ctx,
        'treasury_rates',
        [['date', 'date'], ...keys.map((k) => [k, 'float'] as const)],
        ['date'],
        'all',
        rows.map((r) => [str(r.date), ...keys.map((k) => numOrNull(r[k]))]),
      );
    },
  },
  'economic-indicators': {
    schema: 'economic-indicators',
    order: 2,
    needsSymbols: false,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'economic_indicators',
        [
          ['name', 'text'],
          ['date', 'date'],
          ['value', 'float'],
        ],
        ['name', 'date'],
        'all',
        rows.map((r) => [str(r.name), str(r.date), numOrNull(r.value)]),
      ),
  },
  'esg-ratings': {
    schema: 'esg-ratings',
    order: 2,
    needsSymbols: true,
    creates: (row, ctx) => {
      const name = str(row.companyName);
      return name === '' ? null : { ...listSecurity('stock', { ...row, symbol: rowSymbol(row, ctx) }), name };
    },
    write: (rows, ctx) =>
      upsert(
        ctx,
        'esg_ratings',
        [
          ['symbol', 'text'],
          ['fiscal_year', 'int'],
          ['esg_risk_rating', 'text'],
          ['industry_rank', 'text'],
        ],
        ['symbol', 'fiscal_year'],
        'all',
        rows.map((r) => [rowSymbol(r, ctx), Number(r.fiscalYear), str(r.ESGRiskRating), str(r.industryRank)]),
      ),
  },
  'insider-trading/latest': {
    schema: 'insider-trading/latest',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      writeFilings(rows, ctx, {
        table: 'insider_trades',
        dateColumn: 'filing_date',
        dateField: 'filingDate',
        kind: 'insider',
      }),
  },
  'senate-latest': {
    schema: 'senate-latest',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      writeFilings(rows, ctx, {
        table: 'senate_trades',
        dateColumn: 'disclosure_date',
        dateField: 'disclosureDate',
        kind: 'senate',
      }),
  },
  'institutional-ownership/symbol-positions-summary': {
    schema: 'institutional-ownership/symbol-positions-summary',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'institutional_ownership',
        [
          ['symbol', 'text'],
          ['year', 'int'],
          ['quarter', 'int'],
          ['data', 'json'],
        ],
        ['symbol', 'year', 'quarter'],
        'all',
        rows.map((r) => {
          const symbol = rowSymbol(r, ctx);
          return [symbol, Number(r.year), Number(r.quarter), { ...r, symbol }];
        }),
      ),
  },
};

const PRICE_COLUMNS = [
  ['symbol', 'text'],
  ['date', 'date'],
  ['open', 'float'],
  ['high', 'float'],
  ['low', 'float'],
  ['close', 'float'],
  ['adj_close', 'float'],
  ['volume', 'int'],
] as const;

function statementEndpoint(statement: 'income' | 'balance-sheet' | 'cash-flow'): Endpoint {
  return {
    schema:
      statement === 'income'
        ? 'income-statement'
        : statement === 'balance-sheet'
          ? 'balance-sheet-statement'
          : 'cash-flow-statement',
    order: 2,
    needsSymbols: true,
    write: (rows, ctx) =>
      upsert(
        ctx,
        'financial_statements',
        [
          ['symbol', 'text'],
          ['statement', 'text'],
          ['fiscal_year', 'int'],
          ['period', 'text'],
          ['date', 'date'],
          ['data', 'json'],
        ],
        ['symbol', 'statement', 'fiscal_year', 'period'],
        'all',
        rows.map((r) => [
          rowSymbol(r, ctx),
          statement,
          Number(r.fiscalYear),
          str(r.period),
          str(r.date),
          r as Cell,
        ]),
      ),
  };
}

/** News endpoints: news/stock, news/crypto, news/forex, news/general-latest and their -latest forms. */
const NEWS_ENDPOINTS = [
  'news/stock',
  'news/crypto',
  'news/forex',
  'news/general',
  'news/stock-latest',
  'news/crypto-latest',
  'news/forex-latest',
  'news/general-latest',
];

/** The endpoint a file belongs to, from its path relative to the directory (without .json). */
export function endpointOf(relative: string): string | null {
  const known = [...Object.keys(ENDPOINTS).filter((e) => e !== 'news'), ...NEWS_ENDPOINTS].sort(
    (a, b) => b.length - a.length,
  );
  for (const endpoint of known) {
    if (relative === endpoint || relative.startsWith(`${endpoint}/`)) return endpoint;
  }
  return null;
}

function endpointSpec(endpoint: string): Endpoint | undefined {
  return endpoint.startsWith('news/') ? ENDPOINTS.news : ENDPOINTS[endpoint];
}

function fileFacts(
  relative: string,
  endpoint: string,
): { fileSymbol: string | null; filePeriod: 'annual' | 'quarter' | null } {
  if (relative === endpoint) return { fileSymbol: null, filePeriod: null };
  let base = path.posix.basename(relative);
  let filePeriod: 'annual' | 'quarter' | null = null;
  const suffix = /-(annual|quarter|FY|Q[1-4])$/i.exec(base);
  if (suffix) {
    const word = (suffix[1] ?? '').toLowerCase();
    filePeriod = word === 'quarter' || word.startsWith('q') ? 'quarter' : 'annual';
    base = base.slice(0, base.length - suffix[0].length);
  }
  return { fileSymbol: base === '' ? null : base, filePeriod };
}

function describeIssue(file: string, index: number, issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(row)';
  return `${file}: row ${index}: field ${field}: ${issue.message}`;
}

async function listJsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

async function importFile(
  db: Db,
  binary: boolean,
  dir: string,
  file: string,
  endpoint: string,
  spec: Endpoint,
): Promise<number> {
  const relative = file.slice(0, -'.json'.length);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path.join(dir, file), 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of rows, as the API answers`);
  const schema = SCHEMAS[spec.schema];
  const rows: Row[] = [];
  const issues: string[] = [];
  parsed.forEach((value: unknown, index) => {
    const result = schema.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) issues.push(describeIssue(file, index, issue));
    } else rows.push(value as Row);
  });
  if (issues.length > 0) {
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more problems)` : '';
    throw new Error(`${issues.slice(0, 5).join('; ')}${more}`);
  }
  const ctx: FileContext = { tx: db, binary, file, endpoint, ...fileFacts(relative, endpoint) };
  if (spec.needsSymbols) {
    rows.forEach((row, index) => {
      if (rowSymbol(row, ctx) === '') {
        throw new Error(`${file}: row ${index}: field symbol: no symbol in the row or the file name`);
      }
    });
  }
  return db.transaction(async (tx) => {
    const fileCtx: FileContext = { ...ctx, tx };
    const symbols = [...new Set(rows.map((r) => rowSymbol(r, fileCtx)).filter((s) => s !== ''))];
    if (spec.needsSymbols && symbols.length > 0) {
      const known = new Set<string>();
      for (let i = 0; i < symbols.length; i += 5000) {
        const part = symbols.slice(i, i + 5000);
        for (const row of await tx
          .select({ symbol: securities.symbol })
          .from(securities)
          .where(inArray(securities.symbol, part))) {
          known.add(row.symbol);
        }
      }
      const missing = symbols.filter((s) => !known.has(s));
      if (missing.length > 0) {
        const created: SecurityInput[] = [];
        for (const symbol of missing) {
          const row = rows.find((r) => rowSymbol(r, fileCtx) === symbol);
          const security = row && spec.creates ? spec.creates(row, fileCtx) : null;
          if (!security) {
            const shown = missing.slice(0, 5).join(', ');
            throw new Error(
              `${file}: unknown symbol ${shown}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}; import its list or profile file first (this file does not carry enough to create it)`,
            );
          }
          created.push(security);
        }
        await upsertSecurities(fileCtx, created, []);
      }
    }
    const written = await spec.write(rows, fileCtx);
    if (symbols.length > 0 && endpoint !== 'stock-list' && !endpoint.startsWith('news/')) {
      await tx.execute(
        sql`update securities set source = 'imported' where source <> 'imported' and symbol in ${symbols}`,
      );
    }
    return written;
  });
}

/**
 * Imports every JSON file under `dir`. Files are loaded lists first, then profiles, then the rest, each in
 * its own transaction; a failing file is reported and skipped, and the others are still imported.
 */
export async function importDirectory(
  db: Db,
  dir: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const log = options.log ?? ((): void => undefined);
  const files = await listJsonFiles(dir);
  const binary = await acceptsBinaryArrays(db);
  const planned = files.map((file) => {
    const endpoint = endpointOf(file.slice(0, -'.json'.length));
    const spec = endpoint ? endpointSpec(endpoint) : undefined;
    return { file, endpoint, spec };
  });
  planned.sort((a, b) => (a.spec?.order ?? 9) - (b.spec?.order ?? 9) || a.file.localeCompare(b.file));
  const report: ImportReport = { directory: dir, files: [], rows: 0, errors: [], ok: true };
  for (const { file, endpoint, spec } of planned) {
    if (!endpoint || !spec) {
      const error = `${file}: no supported endpoint matches this path (expected <endpoint>.json or <endpoint>/<name>.json)`;
      report.files.push({ file, endpoint: null, rows: 0, error });
      report.errors.push(error);
      log(`skipped ${error}`);
      continue;
    }
    try {
      const rows = await importFile(db, binary, dir, file, endpoint, spec);
      report.files.push({ file, endpoint, rows });
      report.rows += rows;
      log(`${file}: ${rows} rows (${endpoint})`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      report.files.push({ file, endpoint, rows: 0, error: message });
      report.errors.push(message);
      log(`failed ${message}`);
    }
  }
  report.ok = report.errors.length === 0;
  return report;
}
