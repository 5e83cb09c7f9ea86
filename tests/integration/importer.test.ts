import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import {
  analystEstimates,
  companyProfiles,
  dailyPrices,
  dividends,
  earningCallTranscripts,
  earnings,
  economicIndicators,
  esgRatings,
  financialStatements,
  grades,
  insiderTrades,
  institutionalOwnership,
  intradayPrices,
  keyExecutives,
  news,
  priceTargets,
  securities,
  senateTrades,
  splits,
  treasuryRates,
} from '../../src/server/db/schema.ts';
import {
  endpointOf,
  importDirectory,
  type ImportReport,
} from '../../src/server/services/market-data/importer.ts';
import { databaseTargets } from './databases.ts';

const FIXTURE = path.resolve('tests/fixtures/import');

type Row = Record<string, unknown>;

async function fixture(file: string): Promise<Row[]> {
  return JSON.parse(await readFile(path.join(FIXTURE, file), 'utf8')) as Row[];
}

/** Every imported table in a stable order, ids included, for "nothing changed" comparisons. */
async function snapshot(db: Database['db']): Promise<unknown> {
  return {
    securities: await db.select().from(securities).orderBy(asc(securities.symbol)),
    profiles: await db.select().from(companyProfiles).orderBy(asc(companyProfiles.symbol)),
    prices: await db.select().from(dailyPrices).orderBy(asc(dailyPrices.symbol), asc(dailyPrices.date)),
    minutes: await db.select().from(intradayPrices).orderBy(asc(intradayPrices.time)),
    statements: await db
      .select()
      .from(financialStatements)
      .orderBy(asc(financialStatements.statement), asc(financialStatements.date)),
    dividends: await db.select().from(dividends).orderBy(asc(dividends.date)),
    executives: await db.select().from(keyExecutives).orderBy(asc(keyExecutives.id)),
    news: await db.select().from(news).orderBy(asc(news.url)),
    grades: await db.select().from(grades).orderBy(asc(grades.id)),
    insiders: await db.select().from(insiderTrades).orderBy(asc(insiderTrades.id)),
    senate: await db.select().from(senateTrades).orderBy(asc(senateTrades.id)),
  };
}

async function scratchDir(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'import-'));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

describe('the endpoint named by an imported file', () => {
  it('is the file name, or the folder for files inside an endpoint folder', () => {
    expect(endpointOf('stock-list')).toBe('stock-list');
    expect(endpointOf('profile/AAPL')).toBe('profile');
    expect(endpointOf('historical-price-eod/full/AAPL')).toBe('historical-price-eod/full');
    expect(endpointOf('historical-price-eod/dividend-adjusted/AAPL')).toBe(
      'historical-price-eod/dividend-adjusted',
    );
    expect(endpointOf('income-statement/AAPL-annual')).toBe('income-statement');
    expect(endpointOf('news/general-latest')).toBe('news/general-latest');
    expect(endpointOf('institutional-ownership/symbol-positions-summary/AAPL')).toBe(
      'institutional-ownership/symbol-positions-summary',
    );
    expect(endpointOf('quotes/AAPL')).toBeNull();
    expect(endpointOf('profiles/AAPL')).toBeNull();
  });
});

describe.each(databaseTargets())('importing saved API answers on $name', (target) => {
  let database: Database;
  let report: ImportReport;
  const db = (): Database['db'] => database.db;

  beforeAll(async () => {
    database = await target.open();
    report = await importDirectory(database.db, FIXTURE);
  });

  afterAll(async () => {
    await database.close();
  });

  it('imports every file of the fixture', () => {
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.files.length).toBe(34);
    for (const file of report.files) expect(file.rows, file.file).toBeGreaterThan(0);
  });

  it('creates securities from lists and profiles and marks them imported', async () => {
    const rows = await db().select().from(securities).orderBy(asc(securities.symbol));
    const by = new Map(rows.map((r) => [r.symbol, r]));
    expect(by.get('AAPL')).toMatchObject({
      name: 'Apple Inc.',
      assetType: 'stock',
      exchange: 'NASDAQ',
      currency: 'USD',
      sector: 'Technology',
      source: 'imported',
    });
    expect(by.get('AAPL')?.sharesOutstanding).toBe(Math.round(3480550000000 / 230.5));
    expect(by.get('SPY')).toMatchObject({ assetType: 'etf', exchange: 'AMEX' });
    expect(by.get('BTCUSD')).toMatchObject({ assetType: 'crypto', sharesOutstanding: 19800000 });
    expect(by.get('BTCUSD')?.details).toEqual({
      icoDate: '2010-07-17',
      circulatingSupply: 19800000,
      totalSupply: 21000000,
    });
    expect(by.get('EURUSD')).toMatchObject({ assetType: 'forex', name: 'EUR/USD', currency: 'USD' });
    expect(by.get('EURUSD')?.details).toMatchObject({
      fromCurrency: 'EUR',
      toCurrency: 'USD',
      fromName: 'Euro',
    });
    expect(by.get('GCUSD')).toMatchObject({ assetType: 'commodity', exchange: 'COMEX' });
    expect(by.get('^GSPC')).toMatchObject({ assetType: 'index', name: 'S&P 500' });
    // An ESG file carries the company's name, enough to introduce a symbol no list named.
    expect(by.get('LKSD')).toMatchObject({
      name: 'Lakeshore Data Inc.',
      assetType: 'stock',
      source: 'imported',
    });
    for (const row of rows) expect(row.source, row.symbol).toBe('imported');
    const [profile] = await db().select().from(companyProfiles).where(eq(companyProfiles.symbol, 'AAPL'));
    expect(profile).toMatchObject({
      ceo: 'Timothy D. Cook',
      fullTimeEmployees: 164000,
      ipoDate: '1980-12-12',
      beta: 1.2,
    });
  });

  it('reads back prices as given, with the adjusted close from the dividend-adjusted file', async () => {
    const file = await fixture('historical-price-eod/full/AAPL.json');
    const adjusted = await fixture('historical-price-eod/dividend-adjusted/AAPL.json');
    const rows = await db()
      .select()
      .from(dailyPrices)
      .where(eq(dailyPrices.symbol, 'AAPL'))
      .orderBy(asc(dailyPrices.date));
    expect(rows.length).toBe(file.length);
    for (const row of rows) {
      const given = file.find((f) => f.date === row.date);
      const adj = adjusted.find((f) => f.date === row.date);
      expect(row).toEqual({
        symbol: 'AAPL',
        date: given?.date,
        open: given?.open,
        high: given?.high,
        low: given?.low,
        close: given?.close,
        adjClose: adj?.adjClose,
        volume: given?.volume,
      });
    }
    const nwsc = await db().select().from(dailyPrices).where(eq(dailyPrices.symbol, 'NWSC'));
    for (const row of nwsc) expect(row.adjClose).toBe(row.close);
    const minutes = await db().select().from(intradayPrices).orderBy(asc(intradayPrices.time));
    expect(minutes.map((m) => [m.symbol, m.time, m.close])).toEqual([
      ['AAPL', '2026-11-20 15:57:00', 230.35],
      ['AAPL', '2026-11-20 15:58:00', 230.41],
      ['AAPL', '2026-11-20 15:59:00', 230.5],
    ]);
  });

  it('stores statements, estimates and filings as the rows given', async () => {
    for (const [file, statement] of [
      ['income-statement/AAPL-annual.json', 'income'],
      ['balance-sheet-statement/AAPL-annual.json', 'balance-sheet'],
      ['cash-flow-statement/AAPL-quarter.json', 'cash-flow'],
    ] as const) {
      const given = await fixture(file);
      const rows = await db()
        .select()
        .from(financialStatements)
        .where(eq(financialStatements.statement, statement))
        .orderBy(asc(financialStatements.date));
      expect(rows.map((r) => r.data)).toEqual(
        [...given].sort((a, b) => String(a.date).localeCompare(String(b.date))),
      );
      for (const row of rows) {
        expect(row.fiscalYear).toBe(Number(row.data.fiscalYear));
        expect(row.period).toBe(row.data.period);
      }
    }
    const estimates = await db().select().from(analystEstimates).orderBy(asc(analystEstimates.date));
    expect(estimates.map((e) => e.period)).toEqual(['annual', 'annual']);
    expect(estimates.map((e) => e.data)).toEqual(await fixture('analyst-estimates/AAPL-annual.json'));
    const insiders = await db().select().from(insiderTrades);
    expect(insiders.map((r) => r.data).sort((a, b) => String(a.url).localeCompare(String(b.url)))).toEqual(
      (await fixture('insider-trading/latest.json')).sort((a, b) =>
        String(a.url).localeCompare(String(b.url)),
      ),
    );
    expect((await db().select().from(senateTrades)).length).toBe(2);
    const ownership = await db()
      .select()
      .from(institutionalOwnership)
      .orderBy(asc(institutionalOwnership.quarter));
    expect(ownership.map((o) => o.data)).toEqual(
      (await fixture('institutional-ownership/symbol-positions-summary/AAPL.json')).sort(
        (a, b) => Number(a.quarter) - Number(b.quarter),
      ),
    );
  });

  it('reads back events, people, news and macro series as given', async () => {
    expect(await db().select().from(dividends).orderBy(asc(dividends.date))).toEqual([
      expect.objectContaining({
        date: '2026-08-11',
        dividend: 0.26,
        adjDividend: 0.26,
        paymentDate: '2026-08-14',
      }),
      expect.objectContaining({
        date: '2026-11-10',
        dividend: 0.26,
        declarationDate: '2026-10-30',
        frequency: 'Quarterly',
      }),
    ]);
    expect(await db().select().from(splits).orderBy(asc(splits.date))).toEqual([
      { symbol: 'AAPL', date: '2014-06-09', numerator: 7, denominator: 1 },
      { symbol: 'AAPL', date: '2020-08-31', numerator: 4, denominator: 1 },
    ]);
    const executives = await db().select().from(keyExecutives).orderBy(asc(keyExecutives.sortOrder));
    expect(executives.map((e) => [e.symbol, e.name, e.title, e.pay])).toEqual([
      ['AAPL', 'Timothy D. Cook', 'Chief Executive Officer & Director', 16520856],
      ['AAPL', 'Alex J. Example', 'Chief Financial Officer', 4600000],
    ]);
    const articles = await db().select().from(news).orderBy(asc(news.url));
    expect(articles.map((a) => [a.category, a.symbol, a.publishedAt])).toEqual([
      ['stock', 'AAPL', '2026-11-20 16:32:10'],
      ['crypto', 'BTCUSD', '2026-11-20 08:00:00'],
      ['forex', 'EURUSD', '2026-11-20 07:30:00'],
      ['stock', 'NWSC', '2026-11-19 09:05:00'],
    ]);
    expect(await db().select().from(earningCallTranscripts)).toEqual([
      expect.objectContaining({ symbol: 'AAPL', fiscalYear: 2026, quarter: 4, date: '2026-10-30' }),
    ]);
    expect(await db().select().from(priceTargets)).toEqual([
      { symbol: 'AAPL', targetHigh: 325, targetLow: 190, targetConsensus: 262.5, targetMedian: 265 },
    ]);
    expect((await db().select().from(grades)).map((g) => g.action).sort()).toEqual(['maintain', 'upgrade']);
    expect(await db().select().from(earnings).orderBy(asc(earnings.date))).toEqual([
      expect.objectContaining({ date: '2026-10-30', epsActual: 1.64, revenueActual: 94930000000 }),
      expect.objectContaining({ date: '2027-01-29', epsActual: null, epsEstimated: 2.35 }),
    ]);
    expect(await db().select().from(treasuryRates).orderBy(asc(treasuryRates.date))).toEqual([
      expect.objectContaining({ date: '2026-11-19', year10: 4.14 }),
      expect.objectContaining({ date: '2026-11-20', month1: 4.01, year30: 4.38 }),
    ]);
    expect(await db().select().from(economicIndicators).orderBy(asc(economicIndicators.date))).toEqual([
      { name: 'GDP', date: '2026-04-01', value: 30911.8 },
      { name: 'GDP', date: '2026-07-01', value: 31250.4 },
    ]);
    expect(await db().select().from(esgRatings).orderBy(asc(esgRatings.symbol))).toEqual([
      { symbol: 'LKSD', fiscalYear: 2025, esgRiskRating: 'BBB', industryRank: '12 out of 60' },
      { symbol: 'NWSC', fiscalYear: 2025, esgRiskRating: 'A', industryRank: '7 out of 41' },
    ]);
  });

  it('changes nothing when the same files are imported again', async () => {
    const before = await snapshot(db());
    const again = await importDirectory(db(), FIXTURE);
    expect(again.ok).toBe(true);
    expect(await snapshot(db())).toEqual(before);
  });

  it('writes nothing of a file with a bad row, names its file, row and field, and imports the other files', async () => {
    const dir = await scratchDir({
      'historical-price-eod/full/AAPL.json': [
        { symbol: 'AAPL', date: '2026-11-23', open: 231, high: 232, low: 230, close: 231.5, volume: 1000 },
        { symbol: 'AAPL', date: '2026-11-24', open: 231, high: 232, low: 230, close: 'n/a', volume: 1000 },
      ],
      'splits/AAPL.json': [{ symbol: 'AAPL', date: '2005-02-28', numerator: 2, denominator: 1 }],
      'quotes/AAPL.json': [{ symbol: 'AAPL' }],
      'dividends/AAPL.json': '{"not": "an array"}',
    });
    try {
      const result = await importDirectory(db(), dir);
      expect(result.ok).toBe(false);
      expect(result.errors).toHaveLength(3);
      expect(result.errors.join('\n')).toMatch(/historical-price-eod\/full\/AAPL\.json: row 1: field close/);
      expect(result.errors.join('\n')).toMatch(/quotes\/AAPL\.json: no supported endpoint/);
      expect(result.errors.join('\n')).toMatch(/dividends\/AAPL\.json: expected a JSON array/);
      const late = await db().select().from(dailyPrices).where(eq(dailyPrices.date, '2026-11-23'));
      expect(late).toEqual([]);
      const [split] = await db().select().from(splits).where(eq(splits.date, '2005-02-28'));
      expect(split).toMatchObject({ numerator: 2 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a news file whose link or image is not an http(s) address, naming the row and field', async () => {
    const article = {
      symbol: 'AAPL',
      publishedDate: '2026-11-20 10:00:00',
      publisher: 'Wire',
      title: 'A link that would run code',
      image: '',
      site: 'example.com',
      text: 'Text.',
      url: 'https://example.com/fine',
    };
    const dir = await scratchDir({
      'news/stock.json': [article, { ...article, url: 'javascript:alert(1)' }],
      'news/crypto.json': [{ ...article, url: 'https://example.com/ok', image: 'data:text/html,<b>x</b>' }],
    });
    try {
      const result = await importDirectory(db(), dir);
      expect(result.ok).toBe(false);
      expect(result.errors.join('\n')).toMatch(
        /news\/stock\.json: row 1: field url: must be an http or https address/,
      );
      expect(result.errors.join('\n')).toMatch(
        /news\/crypto\.json: row 0: field image: must be an http or https address/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses rows for an unknown symbol when the file cannot introduce it', async () => {
    const dir = await scratchDir({
      'historical-price-eod/full/ZZZQ.json': [
        { symbol: 'ZZZQ', date: '2026-11-20', open: 1, high: 1, low: 1, close: 1, volume: 10 },
      ],
    });
    try {
      const result = await importDirectory(db(), dir);
      expect(result.ok).toBe(false);
      expect(result.errors[0]).toMatch(/historical-price-eod\/full\/ZZZQ\.json: unknown symbol ZZZQ/);
      expect(await db().select().from(securities).where(eq(securities.symbol, 'ZZZQ'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
