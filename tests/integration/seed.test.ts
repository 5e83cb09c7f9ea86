import path from 'node:path';
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import {
  datasetInfo,
  dailyPrices,
  dividends,
  financialStatements,
  intradayPrices,
  keyExecutives,
  news,
  securities,
  splits,
} from '../../src/server/db/schema.ts';
import {
  DEMO_SEED,
  FAMILIAR_SYMBOLS,
  isMarketDataEmpty,
  seedDemoData,
  type SeedSummary,
} from '../../src/server/services/market-data/seed/index.ts';
import { databaseTargets } from './databases.ts';

const AS_OF = '2026-11-20';
const LATER_AS_OF = '2026-12-18';
const SEED = DEMO_SEED;

type Row = Record<string, string | number | null>;
type Db = Database['db'];

function rowsOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result)
    ? (result as Record<string, unknown>[])
    : (result as { rows: Record<string, unknown>[] }).rows;
}

async function statements(
  db: Db,
  kind: 'income' | 'balance-sheet' | 'cash-flow',
): Promise<{ symbol: string; period: string; fiscalYear: number; date: string; data: Row }[]> {
  return db
    .select({
      symbol: financialStatements.symbol,
      period: financialStatements.period,
      fiscalYear: financialStatements.fiscalYear,
      date: financialStatements.date,
      data: financialStatements.data,
    })
    .from(financialStatements)
    .where(eq(financialStatements.statement, kind))
    .orderBy(asc(financialStatements.symbol), asc(financialStatements.date), asc(financialStatements.period));
}

const num = (row: Row, key: string): number => {
  const value = row[key];
  if (typeof value !== 'number')
    throw new Error(`${String(row.symbol)} ${String(row.date)} ${key} is not a number`);
  return value;
};

/** Rows that determinism is judged on: a sample of every kind of table, in a stable order. */
async function snapshot(db: Db): Promise<unknown> {
  return {
    securities: await db.select().from(securities).orderBy(asc(securities.symbol)),
    prices: await db
      .select()
      .from(dailyPrices)
      .where(eq(dailyPrices.symbol, 'AAPL'))
      .orderBy(asc(dailyPrices.date)),
    statements: await db
      .select()
      .from(financialStatements)
      .where(eq(financialStatements.symbol, 'MSFT'))
      .orderBy(
        asc(financialStatements.date),
        asc(financialStatements.statement),
        asc(financialStatements.period),
      ),
    dividends: await db
      .select()
      .from(dividends)
      .where(eq(dividends.symbol, 'JPM'))
      .orderBy(asc(dividends.date)),
    executives: await db.select().from(keyExecutives).orderBy(asc(keyExecutives.id)),
    news: await db.select().from(news).orderBy(asc(news.url)),
    intraday: await db
      .select()
      .from(intradayPrices)
      .where(eq(intradayPrices.symbol, 'BTCUSD'))
      .orderBy(asc(intradayPrices.time)),
  };
}

describe.each(databaseTargets())('the demo data set on $name', (target) => {
  let database: Database;
  let summary: SeedSummary;
  const db = (): Db => database.db;

  beforeAll(async () => {
    database = await target.open();
    summary = await seedDemoData(database.db, { scale: 'test', seed: SEED, asOf: AS_OF });
  });

  afterAll(async () => {
    await database.close();
  });

  it('holds every familiar symbol with its real name and asset type', async () => {
    const rows = await db().select().from(securities);
    const bySymbol = new Map(rows.map((r) => [r.symbol, r]));
    for (const symbol of FAMILIAR_SYMBOLS) expect(bySymbol.has(symbol), symbol).toBe(true);
    expect(bySymbol.get('AAPL')).toMatchObject({
      name: 'Apple Inc.',
      assetType: 'stock',
      exchange: 'NASDAQ',
      sample: true,
    });
    expect(bySymbol.get('JPM')).toMatchObject({
      name: 'JPMorgan Chase & Co.',
      assetType: 'stock',
      exchange: 'NYSE',
    });
    expect(bySymbol.get('SPY')).toMatchObject({ assetType: 'etf' });
    expect(bySymbol.get('BTCUSD')).toMatchObject({ assetType: 'crypto' });
    const crypto = bySymbol.get('BTCUSD')?.details ?? {};
    expect(typeof crypto.icoDate).toBe('string');
    expect(typeof crypto.circulatingSupply).toBe('number');
    expect(bySymbol.get('EURUSD')?.details).toMatchObject({ fromCurrency: 'EUR', toCurrency: 'USD' });
    expect(bySymbol.get('GCUSD')).toMatchObject({ assetType: 'commodity' });
    expect(bySymbol.get('^GSPC')).toMatchObject({ name: 'S&P 500', assetType: 'index' });
    expect(bySymbol.get('VFIAX')).toMatchObject({
      name: 'Vanguard 500 Index Fund Admiral Shares',
      assetType: 'fund',
      exchange: 'NASDAQ',
    });
    const types = new Set(rows.map((r) => r.assetType));
    expect([...types].sort()).toEqual(['commodity', 'crypto', 'etf', 'forex', 'fund', 'index', 'stock']);
    expect(rows.length).toBeGreaterThan(FAMILIAR_SYMBOLS.length + 30);
    expect(summary.counts.securities).toBe(rows.length);
  });

  it('ends familiar prices near their present-day levels', async () => {
    const last = async (symbol: string): Promise<number> => {
      const [row] = await db()
        .select({ close: dailyPrices.close })
        .from(dailyPrices)
        .where(and(eq(dailyPrices.symbol, symbol), lte(dailyPrices.date, AS_OF)))
        .orderBy(sql`${dailyPrices.date} desc`)
        .limit(1);
      return row?.close ?? 0;
    };
    expect(await last('AAPL')).toBeGreaterThan(170);
    expect(await last('AAPL')).toBeLessThan(300);
    expect(await last('EURUSD')).toBeGreaterThan(0.9);
    expect(await last('EURUSD')).toBeLessThan(1.3);
    expect(await last('BTCUSD')).toBeGreaterThan(60_000);
  });

  it('records which demo data set the database holds', async () => {
    const [row] = await db().select().from(datasetInfo).where(eq(datasetInfo.key, 'source'));
    expect(row?.value).toMatchObject({ kind: 'demo', seed: SEED, scale: 'test', asOf: AS_OF });
    expect(await isMarketDataEmpty(db())).toBe(false);
  });

  it('refuses to seed over existing market data unless told to replace it', async () => {
    await expect(seedDemoData(db(), { scale: 'test', seed: SEED, asOf: AS_OF })).rejects.toThrow(/--replace/);
  });

  it('reproduces identical rows when regenerated with the same seed and date', async () => {
    const before = await snapshot(db());
    await seedDemoData(db(), { scale: 'test', seed: SEED, asOf: AS_OF, replace: true });
    expect(await snapshot(db())).toEqual(before);
  });

  it('writes only rows whose symbols exist', async () => {
    for (const table of [
      'daily_prices',
      'intraday_prices',
      'financial_statements',
      'dividends',
      'splits',
      'earnings',
      'insider_trades',
      'senate_trades',
    ]) {
      const result = await db().execute(
        sql.raw(
          `select count(*)::int as n from "${table}" t where not exists (select 1 from securities s where s.symbol = t.symbol)`,
        ),
      );
      expect(rowsOf(result)[0]?.n, table).toBe(0);
    }
  });

  it('keeps every daily and minute bar between its low and high', async () => {
    const daily = await db().execute(
      sql`select count(*)::int as n from daily_prices where not (low <= open and open <= high and low <= close and close <= high and volume >= 0)`,
    );
    expect(rowsOf(daily)[0]?.n).toBe(0);
    const minute = await db().execute(sql`
      select count(*)::int as n from intraday_prices m
      join daily_prices d on d.symbol = m.symbol and d.date = m.time::date
      where not (m.low <= m.open and m.open <= m.high and m.low <= m.close and m.close <= m.high and m.low >= d.low and m.high <= d.high)`);
    expect(rowsOf(minute)[0]?.n).toBe(0);
  });

  it('trades on its own exchange’s days: no bar on a holiday, one on a shortened day', async () => {
    const datesOf = async (symbol: string): Promise<Set<string>> =>
      new Set(
        (
          await db()
            .select({ date: dailyPrices.date })
            .from(dailyPrices)
            .where(eq(dailyPrices.symbol, symbol))
        ).map((row) => row.date),
      );
    const apple = await datesOf('AAPL');
    // Thanksgiving and Good Friday close New York; the day after Thanksgiving closes early at 13:00.
    expect(apple.has('2025-11-27')).toBe(false);
    expect(apple.has('2026-04-03')).toBe(false);
    expect(apple.has('2025-11-28')).toBe(true);
    const [london] = await db()
      .select({ symbol: securities.symbol })
      .from(securities)
      .where(eq(securities.exchange, 'LSE'))
      .limit(1);
    expect(london, 'a London listing in the demo data').toBeDefined();
    const londonDays = await datesOf(london?.symbol ?? '');
    // Easter Monday closes London but not New York; the Fourth of July (a Saturday, kept on Friday 3 July) closes New York only.
    expect(londonDays.has('2026-04-06')).toBe(false);
    expect(apple.has('2026-04-06')).toBe(true);
    expect(londonDays.has('2026-07-03')).toBe(true);
    expect(apple.has('2026-07-03')).toBe(false);
  });

  it('ends each day of minute bars at the daily close, touching the day high and low', async () => {
    const result = await db().execute(sql`
      select m.symbol, m.time::date as day, max(m.high) as hi, min(m.low) as lo,
        (array_agg(m.close order by m.time desc))[1] as last_close, d.close, d.high, d.low
      from intraday_prices m join daily_prices d on d.symbol = m.symbol and d.date = m.time::date
      group by m.symbol, m.time::date, d.close, d.high, d.low`);
    const days = rowsOf(result);
    expect(days.length).toBe(14 * 5);
    for (const day of days) {
      expect(day.last_close).toBe(day.close);
      expect(day.hi).toBe(day.high);
      expect(day.lo).toBe(day.low);
    }
  });

  it('prices mutual funds once a day: each bar is the net asset value, with nothing traded', async () => {
    const result = await db().execute(sql`
      select count(*)::int as bars,
        count(*) filter (where d.open <> d.close or d.high <> d.close or d.low <> d.close or d.volume <> 0)::int as traded
      from daily_prices d join securities s on s.symbol = d.symbol where s.asset_type = 'fund'`);
    const [row] = rowsOf(result);
    expect(row?.bars).toBeGreaterThan(11 * 200);
    expect(row?.traded).toBe(0);
  });

  it('files every fund report but the latest on an NPORT-P of the fund, for a quarter end, 50 to 60 days later', async () => {
    const result = await db().execute(sql`
      select h.etf_symbol as fund, h.report_date::text as report_date, f.id, f.symbol, f.form_type,
        f.period_end::text as period_end, f.filing_date::text as filing_date, count(*)::int as positions
      from etf_holdings h left join sec_filings f on f.id = h.filing_id
      group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2`);
    const reports = rowsOf(result);
    const funds = new Set(reports.map((report) => report.fund));
    expect([...funds]).toEqual(expect.arrayContaining(['SPY', 'QQQ', 'VFIAX', 'FCNTX']));
    expect(funds.has('VBTLX')).toBe(false);
    for (const fund of funds) {
      const own = reports.filter((report) => report.fund === fund);
      const [latest, ...filed] = [...own].sort((a, b) =>
        String(b.report_date).localeCompare(String(a.report_date)),
      );
      expect(latest).toMatchObject({ report_date: '2026-11-19', id: null });
      expect(filed, String(fund)).toHaveLength(3);
      for (const report of filed) {
        expect(report).toMatchObject({ symbol: fund, form_type: 'NPORT-P', period_end: report.report_date });
        expect(String(report.report_date).slice(5)).toMatch(/^(03-31|06-30|09-30|12-31)$/);
        const lag =
          (Date.parse(String(report.filing_date)) - Date.parse(String(report.report_date))) / 86_400_000;
        expect(lag).toBeGreaterThanOrEqual(50);
        expect(lag).toBeLessThanOrEqual(60);
        expect(Number(report.positions)).toBeGreaterThan(0);
      }
    }
  });

  it('back-adjusts closes for splits and dividends', async () => {
    const [split] = await db()
      .select()
      .from(splits)
      .where(eq(splits.symbol, 'NVDA'))
      .orderBy(sql`${splits.date} desc`)
      .limit(1);
    expect(split).toMatchObject({ date: '2024-06-10', numerator: 10, denominator: 1 });
    const around = await db()
      .select()
      .from(dailyPrices)
      .where(
        and(
          eq(dailyPrices.symbol, 'NVDA'),
          gt(dailyPrices.date, '2024-06-01'),
          lte(dailyPrices.date, '2024-06-10'),
        ),
      )
      .orderBy(asc(dailyPrices.date));
    const after = around[around.length - 1];
    const before = around[around.length - 2];
    if (!after || !before) throw new Error('no NVDA prices around the split');
    expect(before.close / after.close).toBeGreaterThan(5);
    // Across the split the raw ratio is the split ratio times the adjusted ratio (no dividend that day).
    expect(before.close / after.close / (before.adjClose / after.adjClose)).toBeCloseTo(10, 3);

    const [dividend] = await db()
      .select()
      .from(dividends)
      .where(and(eq(dividends.symbol, 'JNJ'), lte(dividends.date, AS_OF), gt(dividends.date, '2025-01-01')))
      .orderBy(asc(dividends.date))
      .limit(1);
    if (!dividend) throw new Error('no JNJ dividend');
    const pair = await db()
      .select()
      .from(dailyPrices)
      .where(and(eq(dailyPrices.symbol, 'JNJ'), lte(dailyPrices.date, dividend.date)))
      .orderBy(sql`${dailyPrices.date} desc`)
      .limit(2);
    const [exDay, dayBefore] = pair;
    if (!exDay || !dayBefore) throw new Error('no JNJ prices around the dividend');
    expect(exDay.date).toBe(dividend.date);
    const expected = (dayBefore.close / exDay.close) * (1 - dividend.dividend / dayBefore.close);
    expect(dayBefore.adjClose / exDay.adjClose).toBeCloseTo(expected, 5);
    expect(dividend.adjDividend).toBeCloseTo(dividend.dividend, 6);

    const [latest] = await db()
      .select()
      .from(dailyPrices)
      .where(eq(dailyPrices.symbol, 'JNJ'))
      .orderBy(sql`${dailyPrices.date} desc`)
      .limit(1);
    expect(latest?.adjClose).toBe(latest?.close);
  });

  it('balances every balance sheet and adds up its subtotals', async () => {
    const rows = await statements(db(), 'balance-sheet');
    expect(rows.length).toBeGreaterThan(100);
    for (const { data: b } of rows) {
      const at = `${String(b.symbol)} ${String(b.date)} ${String(b.period)}`;
      expect(num(b, 'totalAssets'), at).toBe(num(b, 'totalLiabilities') + num(b, 'totalEquity'));
      expect(num(b, 'totalLiabilitiesAndTotalEquity'), at).toBe(num(b, 'totalAssets'));
      expect(num(b, 'totalAssets'), at).toBe(
        num(b, 'totalCurrentAssets') + num(b, 'totalNonCurrentAssets') + num(b, 'otherAssets'),
      );
      expect(num(b, 'totalCurrentAssets'), at).toBe(
        num(b, 'cashAndShortTermInvestments') +
          num(b, 'netReceivables') +
          num(b, 'inventory') +
          num(b, 'prepaids') +
          num(b, 'otherCurrentAssets'),
      );
      expect(num(b, 'totalLiabilities'), at).toBe(
        num(b, 'totalCurrentLiabilities') + num(b, 'totalNonCurrentLiabilities') + num(b, 'otherLiabilities'),
      );
      expect(num(b, 'totalEquity'), at).toBe(num(b, 'totalStockholdersEquity') + num(b, 'minorityInterest'));
      expect(num(b, 'totalDebt'), at).toBe(num(b, 'shortTermDebt') + num(b, 'longTermDebt'));
      expect(num(b, 'netDebt'), at).toBe(num(b, 'totalDebt') - num(b, 'cashAndCashEquivalents'));
      expect(num(b, 'cashAndCashEquivalents'), at).toBeGreaterThan(0);
    }
  });

  it('ties every cash flow statement to its income statement and balance sheets', async () => {
    const income = await statements(db(), 'income');
    const balance = await statements(db(), 'balance-sheet');
    const cash = await statements(db(), 'cash-flow');
    const key = (r: { symbol: string; fiscalYear: number; period: string }): string =>
      `${r.symbol}|${r.fiscalYear}|${r.period}`;
    const incomeBy = new Map(income.map((r) => [key(r), r.data]));
    const balanceBy = new Map(balance.map((r) => [key(r), r.data]));
    const quarters = cash.filter((r) => r.period !== 'FY');
    expect(cash.length).toBe(income.length);
    for (const r of cash) {
      const c = r.data;
      const i = incomeBy.get(key(r));
      const b = balanceBy.get(key(r));
      if (!i || !b) throw new Error(`missing statements for ${key(r)}`);
      const at = key(r);
      expect(num(c, 'netIncome'), at).toBe(num(i, 'netIncome'));
      expect(num(c, 'cashAtEndOfPeriod'), at).toBe(num(b, 'cashAndCashEquivalents'));
      expect(num(c, 'netChangeInCash'), at).toBe(
        num(c, 'cashAtEndOfPeriod') - num(c, 'cashAtBeginningOfPeriod'),
      );
      expect(num(c, 'netChangeInCash'), at).toBe(
        num(c, 'netCashProvidedByOperatingActivities') +
          num(c, 'netCashProvidedByInvestingActivities') +
          num(c, 'netCashProvidedByFinancingActivities') +
          num(c, 'effectOfForexChangesOnCash'),
      );
      expect(num(c, 'freeCashFlow'), at).toBe(num(c, 'operatingCashFlow') + num(c, 'capitalExpenditure'));
      expect(num(c, 'capitalExpenditure'), at).toBeLessThanOrEqual(0);
      expect(num(i, 'eps'), at).toBeCloseTo(num(i, 'netIncome') / num(i, 'weightedAverageShsOut'), 2);
      expect(num(i, 'grossProfit'), at).toBe(num(i, 'revenue') - num(i, 'costOfRevenue'));
      expect(num(i, 'netIncome'), at).toBe(num(i, 'incomeBeforeTax') - num(i, 'incomeTaxExpense'));
    }
    // A quarter starts with the cash the previous quarter ended with.
    for (let k = 1; k < quarters.length; k += 1) {
      const previous = quarters[k - 1];
      const current = quarters[k];
      if (!current || previous?.symbol !== current.symbol) continue;
      expect(num(current.data, 'cashAtBeginningOfPeriod'), key(current)).toBe(
        num(previous.data, 'cashAtEndOfPeriod'),
      );
    }
  });

  it('makes every fiscal year the sum of its quarters, with the fourth quarter balance sheet', async () => {
    let checked = 0;
    for (const kind of ['income', 'cash-flow', 'balance-sheet'] as const) {
      const rows = await statements(db(), kind);
      const by = new Map(rows.map((r) => [`${r.symbol}|${r.fiscalYear}|${r.period}`, r.data]));
      for (const year of rows.filter((r) => r.period === 'FY')) {
        const q = ['Q1', 'Q2', 'Q3', 'Q4'].map((p) => by.get(`${year.symbol}|${year.fiscalYear}|${p}`));
        if (q.some((p) => p === undefined)) continue;
        const quarters = q as Row[];
        checked += 1;
        const fields =
          kind === 'income'
            ? ['revenue', 'netIncome', 'operatingIncome', 'incomeTaxExpense']
            : kind === 'cash-flow'
              ? [
                  'netCashProvidedByOperatingActivities',
                  'capitalExpenditure',
                  'commonDividendsPaid',
                  'netChangeInCash',
                ]
              : ['totalAssets', 'cashAndCashEquivalents', 'totalEquity'];
        for (const field of fields) {
          const expected =
            kind === 'balance-sheet'
              ? num(quarters[3] ?? {}, field)
              : quarters.reduce((s, p) => s + num(p, field), 0);
          expect(num(year.data, field), `${year.symbol} ${year.fiscalYear} ${field}`).toBe(expected);
        }
        if (kind === 'cash-flow') {
          expect(num(year.data, 'cashAtBeginningOfPeriod')).toBe(
            num(quarters[0] ?? {}, 'cashAtBeginningOfPeriod'),
          );
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('pays out in cash flow what the dividend history and share count say', async () => {
    const income = await statements(db(), 'income');
    const cash = await statements(db(), 'cash-flow');
    const allDividends = await db()
      .select()
      .from(dividends)
      .orderBy(asc(dividends.symbol), asc(dividends.date));
    const allSplits = await db().select().from(splits);
    const sharesBy = new Map(
      income.map((r) => [`${r.symbol}|${r.fiscalYear}|${r.period}`, num(r.data, 'weightedAverageShsOut')]),
    );
    const quarters = cash.filter((r) => r.period !== 'FY');
    let payers = 0;
    for (let k = 1; k < quarters.length; k += 1) {
      const previous = quarters[k - 1];
      const current = quarters[k];
      if (!current || previous?.symbol !== current.symbol) continue;
      const inQuarter = (date: string): boolean => date > previous.date && date <= current.date;
      if (allSplits.some((s) => s.symbol === current.symbol && inQuarter(s.date))) continue;
      const perShare = allDividends
        .filter((d) => d.symbol === current.symbol && inQuarter(d.date))
        .reduce((s, d) => s + d.dividend, 0);
      const shares = sharesBy.get(`${current.symbol}|${current.fiscalYear}|${current.period}`) ?? 0;
      const paid = num(current.data, 'commonDividendsPaid');
      expect(paid, `${current.symbol} ${current.date}`).toBeCloseTo(-perShare * shares, -1);
      if (perShare > 0) payers += 1;
    }
    expect(payers).toBeGreaterThan(20);
  });
});

describe('the demo data set over time', () => {
  const migrationsDir = path.resolve('db/migrations');
  let earlier: Database;
  let later: Database;

  beforeAll(async () => {
    earlier = openDatabase({ dataDir: 'memory://', migrationsDir });
    later = openDatabase({ dataDir: 'memory://', migrationsDir });
    await Promise.all([earlier.migrate(), later.migrate()]);
    await seedDemoData(earlier.db, { scale: 'test', seed: SEED, asOf: AS_OF });
    await seedDemoData(later.db, { scale: 'test', seed: SEED, asOf: LATER_AS_OF });
  });

  afterAll(async () => {
    await Promise.all([earlier.close(), later.close()]);
  });

  it('keeps every earlier day of prices when generated at a later date', async () => {
    const bars = (db: Db): Promise<unknown[]> =>
      db
        .select({
          symbol: dailyPrices.symbol,
          date: dailyPrices.date,
          open: dailyPrices.open,
          high: dailyPrices.high,
          low: dailyPrices.low,
          close: dailyPrices.close,
          volume: dailyPrices.volume,
        })
        .from(dailyPrices)
        .where(and(gt(dailyPrices.date, '2026-01-01'), lte(dailyPrices.date, AS_OF)))
        .orderBy(asc(dailyPrices.symbol), asc(dailyPrices.date));
    const before = await bars(earlier.db);
    expect(before.length).toBeGreaterThan(5000);
    expect(await bars(later.db)).toEqual(before);
    const [newest] = await later.db
      .select({ date: dailyPrices.date })
      .from(dailyPrices)
      .orderBy(sql`${dailyPrices.date} desc`)
      .limit(1);
    expect(newest?.date).toBe(LATER_AS_OF);
  });

  it('keeps every statement filed by the earlier date', async () => {
    const filed = async (db: Db): Promise<unknown[]> =>
      (
        await db
          .select()
          .from(financialStatements)
          .orderBy(
            asc(financialStatements.symbol),
            asc(financialStatements.statement),
            asc(financialStatements.date),
            asc(financialStatements.period),
          )
      ).filter((r) => String(r.data.filingDate) <= AS_OF && r.date >= '2025-01-01');
    const before = await filed(earlier.db);
    expect(before.length).toBeGreaterThan(100);
    expect(await filed(later.db)).toEqual(before);
  });
});
