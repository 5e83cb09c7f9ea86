import { SITE_NAME } from '../routes.ts';
import type { DataClient, DataRow } from './data-client.ts';
import { badArgument, notAvailable } from './errors.ts';

/**
 * The add-in's custom functions, defined once: each definition carries what Excel's metadata
 * (functions.json), the documentation page and the Excel entry need (name, description, parameters,
 * whether the result spills, a worked example) and the function itself, written against an injected
 * {@link DataClient} so it runs in Excel and in Node tests alike.
 */

/**
 * The functions' namespace: the brand upper-cased with anything but letters and digits removed, so
 * formulas read `=TICKERLAKE.QUOTE("AAPL")` for a brand spelled "Tickerlake".
 */
export const SPREADSHEET_NAMESPACE = SITE_NAME.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** A cell value a function may answer. */
export type CellValue = string | number | boolean;

/** An argument as Excel passes it: omitted optional ones arrive as null (or undefined). */
export type Argument = CellValue | null | undefined;

export interface SpreadsheetParameter {
  name: string;
  description: string;
  /** Excel's parameter type; `any` accepts text, numbers and dates. */
  type: 'string' | 'number' | 'any';
  optional?: boolean;
}

export interface SpreadsheetExample {
  formula: string;
  /** What the example answers, in a sentence. */
  result: string;
}

export interface SpreadsheetFunction {
  /** Upper-case name; the id and the name in functions.json. */
  name: string;
  description: string;
  parameters: readonly SpreadsheetParameter[];
  /** `scalar` fills one cell; `matrix` spills a range with a header row. */
  dimensionality: 'scalar' | 'matrix';
  example: SpreadsheetExample;
  /** The data API endpoints it calls, for the documentation. */
  endpoints: readonly string[];
  run(client: DataClient, args: readonly Argument[]): Promise<CellValue | CellValue[][]>;
}

/** The ticker rule of the data API, checked before a call is spent on a malformed one. */
const SYMBOL_PATTERN = /^[\w.^=-]{1,20}$/;
/** Endpoint paths as the data API names them ('quote', 'historical-chart/5min'). */
const PATH_PATTERN = /^[a-z0-9][a-z0-9/-]*$/;
/** The day Excel's date serial 0 stands for in the 1900 date system (serial 25569 is 1970-01-01). */
const EXCEL_EPOCH_SERIAL = 25569;
const DAY_MS = 86_400_000;

function isBlank(value: Argument): value is null | undefined | '' {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** The symbol argument, upper-cased, or a #VALUE! that says what a symbol looks like. */
export function readSymbol(value: Argument): string {
  if (isBlank(value)) throw badArgument('symbol is required, e.g. "AAPL".');
  const symbol = String(value).trim().toUpperCase();
  if (!SYMBOL_PATTERN.test(symbol)) {
    throw badArgument(`"${String(value)}" is not a ticker symbol: write one such as AAPL, BRK-B or ^GSPC.`);
  }
  return symbol;
}

/** Text of an optional argument, or the default. */
function readText(value: Argument, fallback: string): string {
  return isBlank(value) ? fallback : String(value).trim();
}

/**
 * A date argument as YYYY-MM-DD: a date cell (Excel passes its serial number) or text such as
 * "2025-01-31"; undefined when omitted.
 */
export function readDate(value: Argument, name: string): string | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 1) throw badArgument(`${name} must be a date.`);
    return new Date(Math.round((Math.floor(value) - EXCEL_EPOCH_SERIAL) * DAY_MS)).toISOString().slice(0, 10);
  }
  const text = String(value).trim();
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : undefined;
  if (day === undefined || Number.isNaN(day.getTime()) || !day.toISOString().startsWith(text)) {
    throw badArgument(`${name} must be a date cell or text written YYYY-MM-DD, e.g. "2025-01-31".`);
  }
  return text;
}

/** A whole number within bounds, or the default when omitted. */
function readCount(value: Argument, name: string, fallback: number, max: number): number {
  if (isBlank(value)) return fallback;
  const count = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(count) || count < 1 || count > max) {
    throw badArgument(`${name} must be a whole number from 1 to ${String(max)}.`);
  }
  return count;
}

/** A comma list of field names, each checked against the fields the answer has. */
function readFields(value: Argument, available: readonly string[], fallback: readonly string[]): string[] {
  if (isBlank(value)) return [...fallback];
  const asked = String(value)
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '');
  const byLowerCase = new Map(available.map((field) => [field.toLowerCase(), field]));
  return asked.map((field) => {
    const known = byLowerCase.get(field.toLowerCase());
    if (known === undefined) {
      throw badArgument(`Unknown field "${field}". Fields: ${available.join(', ')}.`);
    }
    return known;
  });
}

/** A value as a cell holds it: numbers, text and booleans as they are, null as an empty cell. */
export function cellOf(value: unknown): CellValue {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

/** The #N/A for an answer without rows, which is how the API answers a symbol it does not know. */
function noRows(symbol: string): Error {
  return notAvailable(`Unknown symbol ${symbol}: the data API has no data for it.`);
}

/** One row's field as a single cell. */
function pickField(row: DataRow, asked: Argument, fallback: string | undefined): CellValue {
  const fields = Object.keys(row);
  if (fallback === undefined && isBlank(asked)) {
    throw badArgument(`field is required. Fields: ${fields.join(', ')}.`);
  }
  const [field] = readFields(asked, fields, fallback === undefined ? [] : [fallback]);
  if (field === undefined) throw badArgument(`field is required. Fields: ${fields.join(', ')}.`);
  return cellOf(row[field]);
}

/** Rows as a range: a header row of the fields, then one row per answer row. */
export function tableOf(rows: readonly DataRow[], fields: readonly string[]): CellValue[][] {
  return [[...fields], ...rows.map((row) => fields.map((field) => cellOf(row[field])))];
}

/** Which statement endpoint each STATEMENT type reads. */
export const STATEMENT_ENDPOINTS = {
  income: 'income-statement',
  balance: 'balance-sheet-statement',
  cashflow: 'cash-flow-statement',
} as const;

/** Longer names readers also write for a statement (compared without spaces, dashes and case). */
const STATEMENT_ALIASES: Readonly<Record<string, keyof typeof STATEMENT_ENDPOINTS>> = {
  incomestatement: 'income',
  balancesheet: 'balance',
  balancesheetstatement: 'balance',
  cashflowstatement: 'cashflow',
};

/** Statement fields that identify the filing rather than report a line; kept out of the lines. */
const STATEMENT_IDENTITY_FIELDS = new Set(['symbol', 'cik', 'acceptedDate', 'fiscalYear', 'period', 'date']);

/**
 * Statement rows (newest period first, as the API answers) turned so that each line is a row and each
 * period a column, as statements are printed: the header row names the periods ("FY 2025", "Q3 2025"),
 * the first rows give each period's end date and filing details, then every line.
 */
export function statementTable(rows: readonly DataRow[]): CellValue[][] {
  const header: CellValue[] = [
    'Line',
    ...rows.map((row) => `${cellOf(row.period)} ${cellOf(row.fiscalYear)}`.trim()),
  ];
  const fields = Object.keys(rows[0] ?? {}).filter((field) => !STATEMENT_IDENTITY_FIELDS.has(field));
  return [
    header,
    ['date', ...rows.map((row) => cellOf(row.date))],
    ...fields.map((field) => [field, ...rows.map((row) => cellOf(row[field]))]),
  ];
}

const HISTORY_PATH = 'historical-price-eod/full';
const HISTORY_FIELDS = ['open', 'high', 'low', 'close', 'volume', 'change', 'changePercent', 'vwap'] as const;

/** Every function of the add-in, in the order the documentation lists them. */
export const SPREADSHEET_FUNCTIONS: readonly SpreadsheetFunction[] = [
  {
    name: 'QUOTE',
    description: 'The latest quote of a security: its price, or another field of the quote.',
    parameters: [
      { name: 'symbol', description: 'Ticker symbol, e.g. "AAPL".', type: 'string' },
      {
        name: 'field',
        description:
          'Field of the quote (default price): price, change, changePercentage, volume, dayLow, dayHigh, yearLow, yearHigh, marketCap, priceAvg50, priceAvg200, open, previousClose, name, exchange.',
        type: 'string',
        optional: true,
      },
    ],
    dimensionality: 'scalar',
    example: {
      formula: `=${SPREADSHEET_NAMESPACE}.QUOTE("AAPL", "changePercentage")`,
      result: 'The change of Apple’s latest close from the previous one, in percent.',
    },
    endpoints: ['quote'],
    async run(client, [symbol, field]) {
      const ticker = readSymbol(symbol);
      const [row] = await client.rows('quote', { symbol: ticker });
      if (row === undefined) throw noRows(ticker);
      return pickField(row, field, 'price');
    },
  },
  {
    name: 'HISTORY',
    description:
      'Daily prices of a security as a range, oldest day first, with a header row: the date and the fields asked for (default close).',
    parameters: [
      { name: 'symbol', description: 'Ticker symbol, e.g. "AAPL".', type: 'string' },
      {
        name: 'from',
        description:
          'First day: a date cell or "YYYY-MM-DD" (default: as far back as your plan reads, up to five years).',
        type: 'any',
        optional: true,
      },
      {
        name: 'to',
        description: 'Last day: a date cell or "YYYY-MM-DD" (default: the latest trading day).',
        type: 'any',
        optional: true,
      },
      {
        name: 'fields',
        description: `Comma-separated fields (default close): ${HISTORY_FIELDS.join(', ')}.`,
        type: 'string',
        optional: true,
      },
    ],
    dimensionality: 'matrix',
    example: {
      formula: `=${SPREADSHEET_NAMESPACE}.HISTORY("MSFT", "2025-01-01", "2025-03-31", "close,volume")`,
      result:
        'Three columns (date, close, volume) with one row per trading day of Microsoft in the first quarter of 2025, oldest first.',
    },
    endpoints: [HISTORY_PATH],
    async run(client, [symbol, from, to, fields]) {
      const ticker = readSymbol(symbol);
      const params: Record<string, string> = { symbol: ticker };
      const first = readDate(from, 'from');
      const last = readDate(to, 'to');
      if (first !== undefined) params.from = first;
      if (last !== undefined) params.to = last;
      if (first !== undefined && last !== undefined && first > last) {
        throw badArgument('from must be on or before to.');
      }
      // The date always leads; a reader who lists it too gets it once.
      const columns = readFields(fields, ['date', ...HISTORY_FIELDS], ['close']).filter(
        (field) => field !== 'date',
      );
      const rows = await client.rows(HISTORY_PATH, params);
      if (rows.length === 0) {
        if (first !== undefined || last !== undefined) {
          throw notAvailable(`No trading days of ${ticker} between the dates given.`);
        }
        throw noRows(ticker);
      }
      // The API answers newest first; a sheet reads (and charts) time downwards.
      return tableOf(rows.toReversed(), ['date', ...columns]);
    },
  },
  {
    name: 'STATEMENT',
    description:
      'A financial statement as filed, laid out as printed: one row per line, one column per period (newest first), with a header row naming the periods.',
    parameters: [
      { name: 'symbol', description: 'Ticker symbol, e.g. "AAPL".', type: 'string' },
      {
        name: 'statement',
        description: 'Which statement: "income", "balance" or "cashflow".',
        type: 'string',
      },
      {
        name: 'period',
        description: '"annual" (default) or "quarter"; quarterly statements need the Professional plan.',
        type: 'string',
        optional: true,
      },
      {
        name: 'limit',
        description: 'How many periods, from 1 to 100 (default 5).',
        type: 'number',
        optional: true,
      },
    ],
    dimensionality: 'matrix',
    example: {
      formula: `=${SPREADSHEET_NAMESPACE}.STATEMENT("AAPL", "income", "annual", 3)`,
      result:
        'Apple’s last three annual income statements: revenue, costs, profit and earnings per share in rows, one fiscal year per column.',
    },
    endpoints: Object.values(STATEMENT_ENDPOINTS),
    async run(client, [symbol, statement, period, limit]) {
      const ticker = readSymbol(symbol);
      const written = readText(statement, '')
        .toLowerCase()
        .replace(/[\s_-]/g, '');
      const kind = Object.hasOwn(STATEMENT_ENDPOINTS, written) ? written : STATEMENT_ALIASES[written];
      if (kind === undefined) {
        throw badArgument('statement must be "income", "balance" or "cashflow".');
      }
      const path = STATEMENT_ENDPOINTS[kind as keyof typeof STATEMENT_ENDPOINTS];
      const periodText = readText(period, 'annual').toLowerCase();
      if (periodText !== 'annual' && periodText !== 'quarter') {
        throw badArgument('period must be "annual" or "quarter".');
      }
      const count = readCount(limit, 'limit', 5, 100);
      const rows = await client.rows(path, { symbol: ticker, period: periodText, limit: String(count) });
      if (rows.length === 0) throw noRows(ticker);
      return statementTable(rows);
    },
  },
  {
    name: 'PROFILE',
    description:
      'One fact of a company profile: its name, sector, industry, country, CEO, website and so on.',
    parameters: [
      { name: 'symbol', description: 'Ticker symbol, e.g. "AAPL".', type: 'string' },
      {
        name: 'field',
        description:
          'Field of the profile, e.g. companyName, sector, industry, country, ceo, website, exchange, currency, ipoDate, fullTimeEmployees, beta, marketCap.',
        type: 'string',
      },
    ],
    dimensionality: 'scalar',
    example: {
      formula: `=${SPREADSHEET_NAMESPACE}.PROFILE("NVDA", "sector")`,
      result: 'The sector NVIDIA is classified in.',
    },
    endpoints: ['profile'],
    async run(client, [symbol, field]) {
      const ticker = readSymbol(symbol);
      const [row] = await client.rows('profile', { symbol: ticker });
      if (row === undefined) throw noRows(ticker);
      return pickField(row, field, undefined);
    },
  },
  {
    name: 'DATA',
    description:
      'Any endpoint of the data API as a range: a header row of the fields, then one row per record, in the order the API answers.',
    parameters: [
      {
        name: 'endpoint',
        description: 'Endpoint path as in the API reference, e.g. "key-metrics" or "historical-chart/1hour".',
        type: 'string',
      },
      {
        name: 'parameters',
        description: 'Query parameters as text, e.g. "symbol=AAPL&limit=4" (never the API key).',
        type: 'string',
        optional: true,
      },
      {
        name: 'fields',
        description: 'Comma-separated fields to keep, in that order (default: all of them).',
        type: 'string',
        optional: true,
      },
    ],
    dimensionality: 'matrix',
    example: {
      formula: `=${SPREADSHEET_NAMESPACE}.DATA("key-metrics", "symbol=AAPL&limit=4", "date,marketCap,enterpriseValue")`,
      result: 'Apple’s market capitalisation and enterprise value at the end of its last four fiscal years.',
    },
    endpoints: [],
    async run(client, [endpoint, parameters, fields]) {
      const path = readText(endpoint, '')
        .replace(/^\/?(stable\/)?/, '')
        .replace(/\/+$/, '');
      if (!PATH_PATTERN.test(path)) {
        throw badArgument('endpoint must be a path of the API reference, e.g. "quote" or "key-metrics".');
      }
      const query = new URLSearchParams(readText(parameters, '').replace(/^\?/, ''));
      if ([...query.keys()].some((name) => name.toLowerCase() === 'apikey')) {
        throw badArgument('Leave apikey out of parameters: the connected account’s key is sent for you.');
      }
      if (query.get('datatype') !== null) query.delete('datatype');
      const rows = await client.rows(path, Object.fromEntries(query));
      const [first] = rows;
      if (first === undefined) throw notAvailable(`No rows: ${path} answered nothing for these parameters.`);
      return tableOf(rows, readFields(fields, Object.keys(first), Object.keys(first)));
    },
  },
];

/** The function with this name (case-insensitive). */
export function spreadsheetFunction(name: string): SpreadsheetFunction | undefined {
  return SPREADSHEET_FUNCTIONS.find((fn) => fn.name === name.toUpperCase());
}
