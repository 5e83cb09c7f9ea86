import { and, desc, eq, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dailyPrices,
  financialStatements,
  securities,
  type FiscalPeriod,
} from '../../src/server/db/schema.ts';
import { defaultShares, type IncomeStatement } from '../../src/server/services/market-data/formulas.ts';
import {
  BALANCE_SHEET_FIELDS,
  CASH_FLOW_FIELDS,
  INCOME_STATEMENT_FIELDS,
} from '../../src/server/services/market-data/statements.ts';
import {
  HARNESS_AS_OF,
  openDataApiHarness,
  type DataApiHarness,
  stableAnswer,
  type StableAnswer,
} from './data-api-harness.ts';

type Row = Record<string, unknown>;

let h: DataApiHarness;
let starterKey: string;
let professionalKey: string;
let commercialKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  [starterKey, professionalKey, commercialKey] = await Promise.all([
    h.keyFor('starterT1'),
    h.keyFor('monthlyT2'),
    h.keyFor('commercialEnterprise'),
  ]);
});

afterAll(async () => {
  await h.close();
});

function get(
  path: string,
  query: Record<string, string>,
  key: string = professionalKey,
): Promise<StableAnswer> {
  return stableAnswer(h, path, query, key);
}

async function rowsOf(path: string, query: Record<string, string>, key?: string): Promise<Row[]> {
  const answer = await get(path, query, key);
  expect(answer.status, answer.error).toBe(200);
  return answer.rows;
}

function num(row: Row | undefined, field: string): number {
  const value = row?.[field];
  if (typeof value !== 'number') throw new Error(`${field} is not a number: ${String(value)}`);
  return value;
}

function str(row: Row | undefined, field: string): string {
  const value = row?.[field];
  if (typeof value !== 'string') throw new Error(`${field} is not a string: ${String(value)}`);
  return value;
}

function datesOf(rows: Row[]): string[] {
  return rows.map((row) => str(row, 'date'));
}

function newestFirst(dates: string[]): boolean {
  return dates.every((date, index) => index === 0 || (dates[index - 1] ?? '') > date);
}

/**
 * The statement of a period as stored, for checking computed answers against their inputs. A fiscal
 * year and its fourth quarter end on the same day, so the period is part of the key.
 */
async function stored(
  symbol: string,
  statement: 'income' | 'balance-sheet' | 'cash-flow',
  date: string,
  period: FiscalPeriod = 'FY',
): Promise<Row> {
  const [row] = await h.db
    .select({ data: financialStatements.data })
    .from(financialStatements)
    .where(
      and(
        eq(financialStatements.symbol, symbol),
        eq(financialStatements.statement, statement),
        eq(financialStatements.date, date),
        eq(financialStatements.period, period),
      ),
    );
  if (row === undefined) throw new Error(`no ${statement} statement of ${symbol} on ${date}`);
  return row.data;
}

/** The as-traded close of the last trading day on or before a date. */
async function closeOn(symbol: string, date: string): Promise<number> {
  const [bar] = await h.db
    .select({ close: dailyPrices.close })
    .from(dailyPrices)
    .where(and(eq(dailyPrices.symbol, symbol), lte(dailyPrices.date, date)))
    .orderBy(desc(dailyPrices.date))
    .limit(1);
  if (bar === undefined) throw new Error(`no bar of ${symbol} on or before ${date}`);
  return bar.close;
}

/** The share count the formulas value a period with (see src/content/docs/formula.md). */
function sharesOf(income: Row): number {
  return defaultShares(income as unknown as IncomeStatement);
}

function relativelyClose(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.max(1e-9, Math.abs(expected) * 1e-9));
}

describe('statements', () => {
  it.each([
    ['income-statement', INCOME_STATEMENT_FIELDS],
    ['balance-sheet-statement', BALANCE_SHEET_FIELDS],
    ['cash-flow-statement', CASH_FLOW_FIELDS],
  ] as const)('%s lists fiscal years newest first with FMP’s fields in FMP’s order', async (path, fields) => {
    const rows = await rowsOf(path, { symbol: 'AAPL' }, starterKey);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.length).toBeLessThanOrEqual(5);
    expect(newestFirst(datesOf(rows))).toBe(true);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(fields.map((field) => field.name));
      expect(row.period).toBe('FY');
      expect(row.symbol).toBe('AAPL');
    }
  });

  it('answers each row exactly as the stored statement of that period', async () => {
    const [first] = await rowsOf('income-statement', { symbol: 'MSFT', limit: '1' }, starterKey);
    const data = await stored('MSFT', 'income', str(first, 'date'));
    expect(first).toEqual(data);
  });

  it('keeps the statements of a period consistent: cash flow net income equals the income statement’s', async () => {
    const [income] = await rowsOf('income-statement', { symbol: 'NVDA', limit: '1' }, starterKey);
    const [cashFlow] = await rowsOf('cash-flow-statement', { symbol: 'NVDA', limit: '1' }, starterKey);
    expect(cashFlow?.date).toBe(income?.date);
    expect(num(cashFlow, 'netIncome')).toBe(num(income, 'netIncome'));
  });

  it('limits the number of periods', async () => {
    const rows = await rowsOf('balance-sheet-statement', { symbol: 'AAPL', limit: '2' }, starterKey);
    expect(rows).toHaveLength(2);
  });

  it('lists quarters newest first for period=quarter, and one fiscal quarter for period=Q2', async () => {
    const quarters = await rowsOf('income-statement', { symbol: 'AAPL', period: 'quarter', limit: '8' });
    expect(quarters).toHaveLength(8);
    expect(newestFirst(datesOf(quarters))).toBe(true);
    expect(new Set(quarters.map((row) => row.period))).toEqual(new Set(['Q1', 'Q2', 'Q3', 'Q4']));

    const q2 = await rowsOf('income-statement', { symbol: 'AAPL', period: 'Q2' });
    expect(q2.length).toBeGreaterThanOrEqual(1);
    expect(q2.every((row) => row.period === 'Q2')).toBe(true);

    const fy = await rowsOf('income-statement', { symbol: 'AAPL', period: 'FY' });
    expect(fy).toEqual(await rowsOf('income-statement', { symbol: 'AAPL', period: 'annual' }));
  });

  it('asks for the Professional plan for quarterly statements', async () => {
    const answer = await get('cash-flow-statement', { symbol: 'AAPL', period: 'Q1' }, starterKey);
    expect(answer.status).toBe(402);
    expect(answer.error).toContain('quarterly statements');
    expect(answer.error).toContain('Professional');
  });

  it('answers an unknown symbol, and a symbol without statements, with an empty list', async () => {
    expect(await rowsOf('income-statement', { symbol: 'NOSUCH' }, starterKey)).toEqual([]);
    expect(await rowsOf('income-statement', { symbol: 'BTCUSD' }, commercialKey)).toEqual([]);
  });

  it.each([
    [{ symbol: 'AAPL', period: 'monthly' }, 'period'],
    [{ symbol: 'AAPL', limit: '0' }, 'limit'],
    [{ symbol: 'AAPL', limit: '101' }, 'limit'],
    [{ symbol: 'AAPL', limit: 'five' }, 'limit'],
    [{ period: 'annual' }, 'symbol'],
  ])('refuses %o with 400 naming %s', async (query, name) => {
    const answer = await get('income-statement', query);
    expect(answer.status).toBe(400);
    expect(answer.error).toContain(`"${name}"`);
  });

  it('answers CSV with the documented columns and one line per period', async () => {
    const res = await h.request('/stable/income-statement', {
      symbol: 'AAPL',
      limit: '2',
      datatype: 'csv',
      apikey: starterKey,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(INCOME_STATEMENT_FIELDS.map((field) => field.name).join(','));
    expect(lines).toHaveLength(3);
    expect(lines[1]?.split(',')[1]).toBe('AAPL');
  });
});

describe('ratios and key metrics', () => {
  it('computes each period’s ratios from that period’s statements', async () => {
    const rows = await rowsOf('ratios', { symbol: 'AAPL' }, starterKey);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(newestFirst(datesOf(rows))).toBe(true);
    for (const row of rows) {
      const date = str(row, 'date');
      const balance = await stored('AAPL', 'balance-sheet', date);
      const income = await stored('AAPL', 'income', date);
      relativelyClose(
        num(row, 'currentRatio'),
        num(balance, 'totalCurrentAssets') / num(balance, 'totalCurrentLiabilities'),
      );
      relativelyClose(num(row, 'grossProfitMargin'), num(income, 'grossProfit') / num(income, 'revenue'));
      relativelyClose(
        num(row, 'debtToEquityRatio'),
        num(balance, 'totalDebt') / num(balance, 'totalStockholdersEquity'),
      );
      expect(row.period).toBe('FY');
    }
  });

  it('values the ratios at the close of the period end: P/E = close × shares / net income', async () => {
    const [row] = await rowsOf('ratios', { symbol: 'MSFT', limit: '1' }, starterKey);
    const date = str(row, 'date');
    const income = await stored('MSFT', 'income', date);
    const close = await closeOn('MSFT', date);
    relativelyClose(num(row, 'priceToEarningsRatio'), (close * sharesOf(income)) / num(income, 'netIncome'));
  });

  it('states market value and enterprise value in key metrics consistently with the balance sheet', async () => {
    const rows = await rowsOf('key-metrics', { symbol: 'AAPL', limit: '2' }, starterKey);
    expect(rows).toHaveLength(2);
    const [row] = rows;
    const date = str(row, 'date');
    const balance = await stored('AAPL', 'balance-sheet', date);
    const income = await stored('AAPL', 'income', date);
    const close = await closeOn('AAPL', date);
    relativelyClose(num(row, 'marketCap'), close * sharesOf(income));
    relativelyClose(
      num(row, 'enterpriseValue'),
      num(row, 'marketCap') + num(balance, 'totalDebt') - num(balance, 'cashAndCashEquivalents'),
    );
    relativelyClose(
      num(row, 'workingCapital'),
      num(balance, 'totalCurrentAssets') - num(balance, 'totalCurrentLiabilities'),
    );
  });

  it('computes quarterly ratios for the Professional plan and refuses them on Starter', async () => {
    const rows = await rowsOf('ratios', { symbol: 'AAPL', period: 'quarter', limit: '4' });
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => /^Q[1-4]$/.test(str(row, 'period')))).toBe(true);
    const answer = await get('key-metrics', { symbol: 'AAPL', period: 'quarter' }, starterKey);
    expect(answer.status).toBe(402);
  });

  it('answers an unknown symbol with an empty list', async () => {
    expect(await rowsOf('ratios', { symbol: 'NOSUCH' }, starterKey)).toEqual([]);
    expect(await rowsOf('key-metrics', { symbol: 'NOSUCH' }, starterKey)).toEqual([]);
  });
});

describe('enterprise values', () => {
  it('is market capitalisation at the period-end close, less cash, plus debt', async () => {
    const rows = await rowsOf('enterprise-values', { symbol: 'MSFT' }, starterKey);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(newestFirst(datesOf(rows))).toBe(true);
    for (const row of rows.slice(0, 2)) {
      const date = str(row, 'date');
      const balance = await stored('MSFT', 'balance-sheet', date);
      const income = await stored('MSFT', 'income', date);
      expect(num(row, 'stockPrice')).toBe(await closeOn('MSFT', date));
      expect(num(row, 'numberOfShares')).toBe(sharesOf(income));
      expect(num(row, 'minusCashAndCashEquivalents')).toBe(num(balance, 'cashAndCashEquivalents'));
      expect(num(row, 'addTotalDebt')).toBe(num(balance, 'totalDebt'));
      relativelyClose(num(row, 'marketCapitalization'), num(row, 'stockPrice') * num(row, 'numberOfShares'));
      relativelyClose(
        num(row, 'enterpriseValue'),
        num(row, 'marketCapitalization') - num(row, 'minusCashAndCashEquivalents') + num(row, 'addTotalDebt'),
      );
    }
  });
});

describe('financial scores', () => {
  it('scores the latest fiscal year at today’s market value', async () => {
    const [row, ...rest] = await rowsOf('financial-scores', { symbol: 'AAPL' }, starterKey);
    expect(rest).toEqual([]);
    const [latest] = await rowsOf('balance-sheet-statement', { symbol: 'AAPL', limit: '1' }, starterKey);
    const [income] = await rowsOf('income-statement', { symbol: 'AAPL', limit: '1' }, starterKey);
    expect(num(row, 'totalAssets')).toBe(num(latest, 'totalAssets'));
    expect(num(row, 'totalLiabilities')).toBe(num(latest, 'totalLiabilities'));
    expect(num(row, 'retainedEarnings')).toBe(num(latest, 'retainedEarnings'));
    expect(num(row, 'revenue')).toBe(num(income, 'revenue'));
    expect(num(row, 'ebit')).toBe(num(income, 'ebit'));
    const piotroski = num(row, 'piotroskiScore');
    expect(Number.isInteger(piotroski) && piotroski >= 0 && piotroski <= 9).toBe(true);
    const [security] = await h.db
      .select({ shares: securities.sharesOutstanding })
      .from(securities)
      .where(eq(securities.symbol, 'AAPL'));
    relativelyClose(
      num(row, 'marketCap'),
      (await closeOn('AAPL', HARNESS_AS_OF)) * (security?.shares ?? Number.NaN),
    );
  });
});

describe('owner earnings', () => {
  it('is operating cash flow less maintenance capital expenditure, per fiscal year', async () => {
    const rows = await rowsOf('owner-earnings', { symbol: 'MSFT', limit: '2' }, starterKey);
    expect(rows).toHaveLength(2);
    expect(newestFirst(datesOf(rows))).toBe(true);
    for (const row of rows) {
      const cashFlow = await stored('MSFT', 'cash-flow', str(row, 'date'));
      expect(row.period).toBe('FY');
      relativelyClose(
        num(row, 'ownersEarnings'),
        num(cashFlow, 'operatingCashFlow') + num(row, 'maintenanceCapex'),
      );
      relativelyClose(
        num(row, 'maintenanceCapex') + num(row, 'growthCapex'),
        -Math.abs(num(cashFlow, 'capitalExpenditure')),
      );
    }
  });
});

describe('discounted cash flow', () => {
  it('values a share by the unlevered and the levered model beside the latest close', async () => {
    const [unlevered] = await rowsOf('discounted-cash-flow', { symbol: 'AAPL' }, starterKey);
    const [levered] = await rowsOf('levered-discounted-cash-flow', { symbol: 'AAPL' }, starterKey);
    const close = await closeOn('AAPL', HARNESS_AS_OF);
    for (const row of [unlevered, levered]) {
      expect(row?.symbol).toBe('AAPL');
      expect(row?.date).toBe(HARNESS_AS_OF);
      expect(num(row, 'Stock Price')).toBe(close);
      expect(Number.isFinite(num(row, 'dcf'))).toBe(true);
    }
    expect(num(unlevered, 'dcf')).not.toBe(num(levered, 'dcf'));
  });

  it('answers a symbol without statements with an empty list', async () => {
    expect(await rowsOf('discounted-cash-flow', { symbol: 'NOSUCH' }, starterKey)).toEqual([]);
    expect(await rowsOf('levered-discounted-cash-flow', { symbol: 'SPY' }, starterKey)).toEqual([]);
  });
});
