import { and, desc, eq, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dailyPrices,
  earningCallTranscripts,
  economicIndicators,
  institutionalOwnership,
  securities,
  splits,
} from '../../src/server/db/schema.ts';
import { paymentsPerYear } from '../../src/server/services/market-data/events.ts';
import { latestTranscripts } from '../../src/server/services/market-data/news.ts';
import {
  HARNESS_AS_OF,
  openDataApiHarness,
  type DataApiHarness,
  stableAnswer,
  type StableAnswer,
} from './data-api-harness.ts';

type Row = Record<string, unknown>;

let h: DataApiHarness;
let freeKey: string;
let starterKey: string;
let professionalKey: string;
let powerKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  [freeKey, starterKey, professionalKey, powerKey] = await Promise.all([
    h.keyFor('free'),
    h.keyFor('starterT1'),
    h.keyFor('monthlyT2'),
    h.keyFor('monthlyT3'),
  ]);
});

afterAll(async () => {
  await h.close();
});

function get(path: string, query: Record<string, string>, key: string = powerKey): Promise<StableAnswer> {
  return stableAnswer(h, path, query, key);
}

async function rowsOf(path: string, query: Record<string, string>, key?: string): Promise<Row[]> {
  const answer = await get(path, query, key);
  expect(answer.status, answer.error).toBe(200);
  return answer.rows;
}

async function refusal(path: string, query: Record<string, string>, key?: string): Promise<string> {
  const answer = await get(path, query, key);
  expect(answer.status).toBe(400);
  return answer.error;
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

/** Whether the values never increase: newest first (ties allowed where several rows share a day). */
function descending(values: string[]): boolean {
  return values.every((value, index) => index === 0 || (values[index - 1] ?? '') >= value);
}

function strictlyDescending(values: string[]): boolean {
  return values.every((value, index) => index === 0 || (values[index - 1] ?? '') > value);
}

describe('analyst estimates', () => {
  it('lists future fiscal years furthest first, paged by page and limit', async () => {
    const rows = await rowsOf('analyst-estimates', { symbol: 'AAPL', period: 'annual' }, professionalKey);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(strictlyDescending(rows.map((row) => str(row, 'date')))).toBe(true);
    for (const row of rows) {
      expect(num(row, 'revenueLow')).toBeLessThanOrEqual(num(row, 'revenueAvg'));
      expect(num(row, 'revenueAvg')).toBeLessThanOrEqual(num(row, 'revenueHigh'));
    }
    const second = await rowsOf(
      'analyst-estimates',
      { symbol: 'AAPL', period: 'annual', page: '1', limit: '1' },
      professionalKey,
    );
    expect(second).toEqual([rows[1]]);
    const quarters = await rowsOf(
      'analyst-estimates',
      { symbol: 'AAPL', period: 'quarter' },
      professionalKey,
    );
    expect(quarters.length).toBeGreaterThanOrEqual(1);
    expect(quarters).not.toEqual(rows);
  });

  it('requires the period, as FMP does', async () => {
    expect(await refusal('analyst-estimates', { symbol: 'AAPL' })).toBe(
      'Missing required parameter "period": annual or quarter.',
    );
    expect(await refusal('analyst-estimates', { symbol: 'AAPL', period: 'FY' })).toContain('"period"');
  });

  it('is a Professional feature', async () => {
    expect((await get('analyst-estimates', { symbol: 'AAPL', period: 'annual' }, starterKey)).status).toBe(
      402,
    );
  });
});

describe('price target consensus and grades', () => {
  it('answers one consensus row with the consensus inside the range', async () => {
    const rows = await rowsOf('price-target-consensus', { symbol: 'MSFT' }, professionalKey);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.symbol).toBe('MSFT');
    expect(num(row, 'targetLow')).toBeLessThanOrEqual(num(row, 'targetConsensus'));
    expect(num(row, 'targetConsensus')).toBeLessThanOrEqual(num(row, 'targetHigh'));
    expect(await rowsOf('price-target-consensus', { symbol: 'NOSUCH' }, professionalKey)).toEqual([]);
  });

  it('lists grades newest first and honours limit', async () => {
    const rows = await rowsOf('grades', { symbol: 'AAPL' }, professionalKey);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(descending(rows.map((row) => str(row, 'date')))).toBe(true);
    expect(await rowsOf('grades', { symbol: 'AAPL', limit: '1' }, professionalKey)).toEqual([rows[0]]);
  });
});

describe('dividends, splits and earnings', () => {
  it('lists dividends newest first with the yield annualised over the close of the ex-date', async () => {
    const rows = await rowsOf('dividends', { symbol: 'AAPL' }, starterKey);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(strictlyDescending(rows.map((row) => str(row, 'date')))).toBe(true);
    for (const row of rows.slice(0, 4)) {
      const [bar] = await h.db
        .select({ close: dailyPrices.close })
        .from(dailyPrices)
        .where(and(eq(dailyPrices.symbol, 'AAPL'), lte(dailyPrices.date, str(row, 'date'))))
        .orderBy(desc(dailyPrices.date))
        .limit(1);
      const expected =
        ((num(row, 'dividend') * paymentsPerYear(str(row, 'frequency'))) / (bar?.close ?? 0)) * 100;
      expect(num(row, 'yield')).toBeCloseTo(expected, 5);
      expect(num(row, 'adjDividend')).toBeLessThanOrEqual(num(row, 'dividend'));
    }
    expect(await rowsOf('dividends', { symbol: 'AAPL', limit: '2' }, starterKey)).toEqual(rows.slice(0, 2));
  });

  it('answers a symbol that pays no dividends with an empty list', async () => {
    expect(await rowsOf('dividends', { symbol: 'TSLA' }, starterKey)).toEqual([]);
  });

  it('lists splits newest first as numerator for denominator, on every plan', async () => {
    const stored = await h.db
      .select()
      .from(splits)
      .where(eq(splits.symbol, 'NVDA'))
      .orderBy(desc(splits.date));
    const rows = await rowsOf('splits', { symbol: 'NVDA' }, freeKey);
    expect(rows).toEqual(
      stored.map((split) => ({
        symbol: 'NVDA',
        date: split.date,
        numerator: split.numerator,
        denominator: split.denominator,
      })),
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
  });

  it('lists earnings newest first, the upcoming report without actuals', async () => {
    const rows = await rowsOf('earnings', { symbol: 'MSFT' }, starterKey);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(strictlyDescending(rows.map((row) => str(row, 'date')))).toBe(true);
    const [upcoming, reported] = rows;
    expect(str(upcoming, 'date') > HARNESS_AS_OF).toBe(true);
    expect(upcoming?.epsActual).toBeNull();
    expect(upcoming?.revenueActual).toBeNull();
    expect(typeof upcoming?.epsEstimated).toBe('number');
    expect(typeof reported?.epsActual).toBe('number');
    expect((await get('earnings', { symbol: 'MSFT' }, freeKey)).status).toBe(402);
  });
});

describe('news', () => {
  it('lists a stock’s articles newest first in FMP’s timestamp format, on every plan', async () => {
    const rows = await rowsOf('news/stock', { symbols: 'AAPL' }, freeKey);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(20);
    expect(rows.every((row) => row.symbol === 'AAPL')).toBe(true);
    const stamps = rows.map((row) => str(row, 'publishedDate'));
    expect(stamps.every((stamp) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(stamp))).toBe(true);
    expect(descending(stamps)).toBe(true);
  });

  it('combines several symbols, pages and filters by publication day', async () => {
    const both = await rowsOf('news/stock', { symbols: 'AAPL,MSFT', limit: '250' }, starterKey);
    expect(new Set(both.map((row) => row.symbol))).toEqual(new Set(['AAPL', 'MSFT']));
    const page1 = await rowsOf('news/stock', { symbols: 'AAPL,MSFT', limit: '2', page: '1' }, starterKey);
    expect(page1).toEqual(both.slice(2, 4));
    const day = str(both[0], 'publishedDate').slice(0, 10);
    const sameDay = await rowsOf(
      'news/stock',
      { symbols: 'AAPL,MSFT', from: day, to: day, limit: '250' },
      starterKey,
    );
    expect(sameDay.length).toBeGreaterThanOrEqual(1);
    expect(sameDay).toEqual(both.filter((row) => str(row, 'publishedDate').startsWith(day)));
  });

  it('refuses bad parameters with 400 naming them', async () => {
    expect(await refusal('news/stock', {}, starterKey)).toBe('Missing required parameter "symbols".');
    expect(await refusal('news/stock', { symbols: 'AAPL', limit: '251' }, starterKey)).toContain('"limit"');
    expect(await refusal('news/stock', { symbols: 'AAPL', from: '2026-13-01' }, starterKey)).toContain(
      '"from"',
    );
    expect(
      await refusal('news/stock', { symbols: 'AAPL', from: '2026-11-20', to: '2026-11-01' }, starterKey),
    ).toBe('Parameter "from" must be on or before "to".');
  });

  it('lists the latest crypto and forex news without symbols, and narrows them with symbols', async () => {
    const crypto = await rowsOf('news/crypto', {});
    expect(crypto.length).toBeGreaterThanOrEqual(1);
    const [first] = crypto;
    const narrowed = await rowsOf('news/crypto', { symbols: str(first, 'symbol') });
    expect(narrowed.every((row) => row.symbol === first?.symbol)).toBe(true);
    expect((await rowsOf('news/forex', {})).length).toBeGreaterThanOrEqual(1);
    expect((await get('news/crypto', {}, professionalKey)).status).toBe(402);
  });
});

describe('earnings call transcripts', () => {
  it('answers the transcript of the fiscal quarter asked for', async () => {
    const [stored] = await h.db
      .select()
      .from(earningCallTranscripts)
      .where(eq(earningCallTranscripts.symbol, 'AAPL'))
      .orderBy(desc(earningCallTranscripts.date))
      .limit(1);
    if (stored === undefined) throw new Error('no transcript seeded');
    const rows = await rowsOf(
      'earning-call-transcript',
      { symbol: 'AAPL', year: String(stored.fiscalYear), quarter: String(stored.quarter) },
      professionalKey,
    );
    expect(rows).toEqual([
      {
        symbol: 'AAPL',
        period: `Q${stored.quarter}`,
        year: stored.fiscalYear,
        date: stored.date,
        content: stored.content,
      },
    ]);
    expect(
      await rowsOf(
        'earning-call-transcript',
        { symbol: 'AAPL', year: '1990', quarter: '1' },
        professionalKey,
      ),
    ).toEqual([]);
  });

  it('lists a symbol’s latest calls newest first for the site, up to the number asked for', async () => {
    const stored = await h.db
      .select()
      .from(earningCallTranscripts)
      .where(eq(earningCallTranscripts.symbol, 'AAPL'))
      .orderBy(desc(earningCallTranscripts.date));
    expect(stored.length).toBeGreaterThan(2);
    const listed = await latestTranscripts(h.db, 'AAPL', 2);
    expect(listed.map((row) => [row.year, row.period, row.date])).toEqual(
      stored.slice(0, 2).map((row) => [row.fiscalYear, `Q${row.quarter}`, row.date]),
    );
    expect(await latestTranscripts(h.db, 'NO-SUCH-SYMBOL', 5)).toEqual([]);
  });

  it('requires year and quarter', async () => {
    expect(await refusal('earning-call-transcript', { symbol: 'AAPL', year: '2025' })).toContain('"quarter"');
    expect(
      await refusal('earning-call-transcript', { symbol: 'AAPL', year: '2025', quarter: '5' }),
    ).toContain('"quarter"');
    expect(await refusal('earning-call-transcript', { symbol: 'AAPL', quarter: '1' })).toContain('"year"');
  });
});

describe('treasury rates and economic indicators', () => {
  it('lists the last three months of yield curves by default, newest first, on every plan', async () => {
    const rows = await rowsOf('treasury-rates', {}, freeKey);
    const dates = rows.map((row) => str(row, 'date'));
    expect(rows.length).toBeGreaterThanOrEqual(55);
    expect(strictlyDescending(dates)).toBe(true);
    expect(dates[0]).toBe(HARNESS_AS_OF);
    expect((dates.at(-1) ?? '') >= '2026-08-20').toBe(true);
  });

  it('filters yield curves by from and to', async () => {
    const rows = await rowsOf('treasury-rates', { from: '2026-01-05', to: '2026-01-09' }, starterKey);
    expect(rows.map((row) => row.date)).toEqual([
      '2026-01-09',
      '2026-01-08',
      '2026-01-07',
      '2026-01-06',
      '2026-01-05',
    ]);
    expect(num(rows[0], 'year30')).toBeGreaterThan(0);
  });

  it('lists an indicator’s observations newest first within dates', async () => {
    const all = await rowsOf('economic-indicators', { name: 'GDP' });
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.every((row) => row.name === 'GDP')).toBe(true);
    expect(strictlyDescending(all.map((row) => str(row, 'date')))).toBe(true);
    const [stored] = await h.db
      .select()
      .from(economicIndicators)
      .where(eq(economicIndicators.name, 'GDP'))
      .orderBy(desc(economicIndicators.date))
      .limit(1);
    expect(all[0]).toEqual({ name: 'GDP', date: stored?.date, value: stored?.value });
    const from = str(all[3], 'date');
    const to = str(all[1], 'date');
    expect(await rowsOf('economic-indicators', { name: 'GDP', from, to })).toEqual(all.slice(1, 4));
  });

  it('refuses an unknown indicator with 400 listing the valid names', async () => {
    const message = await refusal('economic-indicators', { name: 'happiness' });
    expect(message).toContain('"name": is not an indicator we know');
    expect(message).toContain('GDP');
    expect(message).toContain('unemploymentRate');
    expect(await refusal('economic-indicators', {})).toMatch(
      /^Missing required parameter "name": use one of GDP, /,
    );
  });
});

describe('ESG, insider, senate and institutional data', () => {
  it('lists a company’s ESG ratings newest fiscal year first with its name and industry', async () => {
    const rows = await rowsOf('esg-ratings', { symbol: 'MSFT' });
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const [security] = await h.db.select().from(securities).where(eq(securities.symbol, 'MSFT'));
    for (const row of rows) {
      expect(row.companyName).toBe(security?.name);
      expect(row.industry).toBe(security?.industry);
      expect(str(row, 'ESGRiskRating')).toMatch(/^(AAA|AA|A|BBB|BB|B|CCC)$/);
    }
    const years = rows.map((row) => num(row, 'fiscalYear'));
    expect([...years].sort((a, b) => b - a)).toEqual(years);
    expect((await get('esg-ratings', { symbol: 'MSFT' }, professionalKey)).status).toBe(402);
  });

  it('lists the latest insider filings newest first, one filing day with date, paged', async () => {
    const rows = await rowsOf('insider-trading/latest', { limit: '50' });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(descending(rows.map((row) => str(row, 'filingDate')))).toBe(true);
    const page1 = await rowsOf('insider-trading/latest', { limit: '5', page: '1' });
    expect(page1).toEqual(rows.slice(5, 10));
    const day = str(rows[0], 'filingDate');
    const thatDay = await rowsOf('insider-trading/latest', { date: day });
    expect(thatDay.length).toBeGreaterThanOrEqual(1);
    expect(thatDay.every((row) => row.filingDate === day)).toBe(true);
  });

  it('lists the latest Senate disclosures newest first, paged', async () => {
    const rows = await rowsOf('senate-latest', { limit: '20' });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(descending(rows.map((row) => str(row, 'disclosureDate')))).toBe(true);
    expect(await rowsOf('senate-latest', { limit: '3', page: '2' })).toEqual(rows.slice(6, 9));
  });

  it('answers the institutional ownership summary of the quarter asked for', async () => {
    const [stored] = await h.db
      .select()
      .from(institutionalOwnership)
      .where(eq(institutionalOwnership.symbol, 'AAPL'))
      .orderBy(desc(institutionalOwnership.year), desc(institutionalOwnership.quarter))
      .limit(1);
    if (stored === undefined) throw new Error('no ownership seeded');
    const rows = await rowsOf(
      'institutional-ownership/symbol-positions-summary',
      { symbol: 'AAPL', year: String(stored.year), quarter: String(stored.quarter) },
      professionalKey,
    );
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ symbol: 'AAPL', year: stored.year, quarter: stored.quarter });
    expect(num(row, 'investorsHoldingChange')).toBeCloseTo(
      num(row, 'investorsHolding') - num(row, 'lastInvestorsHolding'),
      6,
    );
    expect(
      await refusal('institutional-ownership/symbol-positions-summary', { symbol: 'AAPL', year: '2025' }),
    ).toContain('"quarter"');
  });
});
