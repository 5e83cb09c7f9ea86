import { and, desc, eq, gte, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftIsoDays } from '../../src/lib/iso-date.ts';
import { dailyPrices, dividends, economicIndicators, securities } from '../../src/server/db/schema.ts';
import { ratingOf } from '../../src/server/services/market-data/ratings.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

let h: DataApiHarness;
let commercialKey: string;
let starterKey: string;
let freeKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  [commercialKey, starterKey, freeKey] = await Promise.all([
    h.keyFor('commercialEnterprise'),
    h.keyFor('starterT1'),
    h.keyFor('free'),
  ]);
});

afterAll(async () => {
  await h.close();
});

type Row = Record<string, unknown>;

async function rows(path: string, query: Record<string, string>, key = commercialKey): Promise<Row[]> {
  const res = await h.request(`/stable/${path}`, { ...query, apikey: key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Row[];
}

async function refusal(
  path: string,
  query: Record<string, string>,
  key = commercialKey,
): Promise<{ status: number; message: string }> {
  const res = await h.request(`/stable/${path}`, { ...query, apikey: key });
  const body = (await res.json()) as Row;
  return { status: res.status, message: String(body['Error Message']) };
}

describe('calendars', () => {
  it('refuses a range longer than 90 days with a 400 naming from and to, and accepts exactly 90', async () => {
    for (const path of ['dividends-calendar', 'splits-calendar', 'earnings-calendar', 'economic-calendar']) {
      const refused = await refusal(path, { from: '2026-01-01', to: '2026-04-02' });
      expect(refused.status, path).toBe(400);
      expect(refused.message).toContain('"from"');
      expect(refused.message).toContain('90 days');
      await rows(path, { from: '2026-01-01', to: '2026-04-01' });
    }
  });

  it('refuses a range that ends before it starts and a date that does not exist', async () => {
    expect((await refusal('dividends-calendar', { from: '2026-05-01', to: '2026-04-01' })).status).toBe(400);
    const bad = await refusal('earnings-calendar', { from: '2026-02-30' });
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('from');
  });

  it('lists every company’s dividends of the range by ex-date, the same rows the per-symbol endpoint gives', async () => {
    const calendar = await rows('dividends-calendar', { from: '2026-08-01', to: '2026-10-29' });
    expect(calendar.length).toBeGreaterThan(1);
    const dates = calendar.map((row) => String(row.date));
    expect(dates).toEqual([...dates].sort());
    expect(dates.every((date) => date >= '2026-08-01' && date <= '2026-10-29')).toBe(true);
    const first: Row = calendar[0] ?? {};
    const own = await rows('dividends', { symbol: String(first.symbol) });
    expect(own).toContainEqual(first);
  });

  it('lists the splits of the range and nothing outside it', async () => {
    const calendar = await rows('splits-calendar', { from: '2025-01-01', to: '2025-03-31' });
    expect(calendar.map((row) => row.symbol)).toEqual(['SAE', 'KEY']);
    expect(await rows('splits-calendar', { from: '2025-04-01', to: '2025-06-30' })).toEqual([]);
  });

  it('shows expected earnings without actuals and published ones with them', async () => {
    const calendar = await rows('earnings-calendar', { from: '2026-10-01', to: '2026-12-15' });
    const published = calendar.filter((row) => String(row.date) <= '2026-11-20');
    const expected = calendar.filter((row) => String(row.date) > '2026-11-20');
    expect(published.length).toBeGreaterThan(0);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.every((row) => row.epsActual === null && row.epsEstimated !== null)).toBe(true);
    expect(published.every((row) => typeof row.epsActual === 'number')).toBe(true);
  });

  it('needs the Starter plan for the company calendars and Power for the economic one', async () => {
    expect((await refusal('dividends-calendar', {}, freeKey)).status).toBe(402);
    await rows('dividends-calendar', {}, starterKey);
    expect((await refusal('economic-calendar', {}, starterKey)).status).toBe(402);
  });
});

describe('economic calendar', () => {
  it('puts each stored reading on its release day with the reading before, the mean of three before and the change', async () => {
    const stored = await h.db
      .select({ date: economicIndicators.date, value: economicIndicators.value })
      .from(economicIndicators)
      .where(eq(economicIndicators.name, 'unemploymentRate'))
      .orderBy(desc(economicIndicators.date))
      .limit(4);
    const [latest, before, second, third] = stored as [Stored, Stored, Stored, Stored];
    // A month's reading comes out 35 days after the month starts (moved past a weekend).
    const calendar = await rows('economic-calendar', { from: '2026-10-02', to: '2026-12-31' });
    const released = calendar.filter((row) => row.event === 'Unemployment Rate' && row.actual !== null);
    const row: Row = released.at(-1) ?? {};
    expect(row.actual).toBe(latest.value);
    expect(row.previous).toBe(before.value);
    expect(row.estimate).toBeCloseTo((before.value + second.value + third.value) / 3, 4);
    expect(row.change).toBeCloseTo(latest.value - before.value, 4);
    expect(row.impact).toBe('High');
    expect(String(row.date).slice(0, 10) >= shiftIsoDays(latest.date, 35)).toBe(true);
    // The next month's release follows, not yet out: no actual, the latest reading as previous.
    const upcoming = calendar.find((item) => item.event === 'Unemployment Rate' && item.actual === null);
    expect(upcoming?.previous).toBe(latest.value);
    expect(String(upcoming?.date) > '2026-11-20').toBe(true);
  });
});

interface Stored {
  date: string;
  value: number;
}

describe('feeds and transcripts', () => {
  it('lists the latest transcripts of every company newest first, and a company’s quarters', async () => {
    const latest = await rows('earning-call-transcript-latest', { limit: '5' });
    expect(latest).toHaveLength(5);
    const dates = latest.map((row) => String(row.date));
    expect(dates).toEqual([...dates].sort().reverse());
    const quarters = await rows('earning-call-transcript-dates', { symbol: 'AAPL' });
    expect(quarters).toHaveLength(4);
    const [newest] = quarters as [Row];
    const text = await rows('earning-call-transcript', {
      symbol: 'AAPL',
      year: String(newest.fiscalYear),
      quarter: String(newest.quarter),
    });
    expect(text[0]?.date).toBe(newest.date);
    const list = await rows('earnings-transcript-list', {});
    expect(list.find((row) => row.symbol === 'AAPL')).toEqual({
      symbol: 'AAPL',
      companyName: 'Apple Inc.',
      noOfTranscripts: '4',
    });
  });

  it('serves the latest news of each kind, the market-wide kind with no symbol', async () => {
    const general = await rows('news/general-latest', { limit: '3' });
    expect(general.length).toBeGreaterThan(0);
    expect(general.every((row) => row.symbol === '')).toBe(true);
    const stock = await rows('news/stock-latest', { limit: '50', from: '2026-11-01', to: '2026-11-20' });
    expect(new Set(stock.map((row) => row.symbol)).size).toBeGreaterThan(1);
    expect(stock.every((row) => String(row.publishedDate) >= '2026-11-01')).toBe(true);
    expect((await refusal('news/crypto-latest', {}, starterKey)).status).toBe(402);
  });

  it('writes press releases from the stored dividend declarations and results', async () => {
    const releases = await rows('news/press-releases', { symbols: 'AAPL', limit: '100' });
    const [dividend] = await h.db
      .select()
      .from(dividends)
      .where(and(eq(dividends.symbol, 'AAPL'), lte(dividends.declarationDate, '2026-11-20')))
      .orderBy(desc(dividends.declarationDate))
      .limit(1);
    const declared = releases.find((row) =>
      String(row.publishedDate).startsWith(`${dividend?.declarationDate} `),
    );
    expect(declared?.title).toContain('Dividend');
    expect(String(declared?.text)).toContain(`$${dividend?.dividend} per share`);
    expect(String(declared?.text)).toContain('demo');
    expect(releases.every((row) => row.symbol === 'AAPL')).toBe(true);
    const pageTwo = await rows('news/press-releases-latest', { page: '1', limit: '5' });
    const both = await rows('news/press-releases-latest', { page: '0', limit: '10' });
    expect(pageTwo).toEqual(both.slice(5));
  });
});

describe('market risk premium', () => {
  it('adds the mature-market premium of 4.72 % to each country’s own', async () => {
    const table = await rows('market-risk-premium', {});
    expect(table.find((row) => row.country === 'United States')).toEqual({
      country: 'United States',
      continent: 'North America',
      countryRiskPremium: 0,
      totalEquityRiskPremium: 4.72,
    });
    expect(table.find((row) => row.country === 'Brazil')?.totalEquityRiskPremium).toBe(8.36);
  });
});

describe('ratings', () => {
  it('scores hand-picked measures by the documented thresholds and turns their mean into a letter', () => {
    // DCF +20 % → 4, ROE 30 % → 5, ROA 5 % → 3, D/E 1.0 → 3, P/E 25 → 3, P/B 2 → 4: mean 22/6 = 3.67.
    expect(
      ratingOf({
        dcfUpside: 0.2,
        returnOnEquity: 0.3,
        returnOnAssets: 0.05,
        debtToEquity: 1,
        priceToEarnings: 25,
        priceToBook: 2,
      }),
    ).toEqual({
      rating: 'B+',
      overallScore: 4,
      discountedCashFlowScore: 4,
      returnOnEquityScore: 5,
      returnOnAssetsScore: 3,
      debtToEquityScore: 3,
      priceToEarningsScore: 3,
      priceToBookScore: 4,
    });
    // Losses and negative equity score 1 whatever their size: mean (1+1+1+1+1+1)/6 = 1 → D−.
    const poor = ratingOf({
      dcfUpside: -0.9,
      returnOnEquity: -0.1,
      returnOnAssets: -0.02,
      debtToEquity: -4,
      priceToEarnings: -8,
      priceToBook: -1,
    });
    expect([poor.rating, poor.overallScore]).toEqual(['D-', 1]);
  });

  it('rates a fiscal year from the ratios and key metrics the API serves for it', async () => {
    const [history] = await rows('ratings-historical', { symbol: 'MSFT', limit: '1' });
    const [ratio] = await rows('ratios', { symbol: 'MSFT', limit: '1' });
    const [metrics] = await rows('key-metrics', { symbol: 'MSFT', limit: '1' });
    expect(history?.date).toBe(ratio?.date);
    const expected = ratingOf({
      dcfUpside: 0,
      returnOnEquity: Number(metrics?.returnOnEquity),
      returnOnAssets: Number(metrics?.returnOnAssets),
      debtToEquity: Number(ratio?.debtToEquityRatio),
      priceToEarnings: Number(ratio?.priceToEarningsRatio),
      priceToBook: Number(ratio?.priceToBookRatio),
    });
    for (const field of [
      'returnOnEquityScore',
      'returnOnAssetsScore',
      'debtToEquityScore',
      'priceToEarningsScore',
      'priceToBookScore',
    ] as const) {
      expect(history?.[field], field).toBe(expected[field]);
    }
  });

  it('rates today from the discounted cash flow against the latest close', async () => {
    const [snapshot] = await rows('ratings-snapshot', { symbol: 'AAPL' });
    const [dcf] = await rows('discounted-cash-flow', { symbol: 'AAPL' });
    const upside = Number(dcf?.dcf) / Number(dcf?.['Stock Price']) - 1;
    const score = upside >= 0.5 ? 5 : upside >= 0.15 ? 4 : upside >= -0.15 ? 3 : upside >= -0.5 ? 2 : 1;
    expect(snapshot?.discountedCashFlowScore).toBe(score);
    expect(['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-']).toContain(snapshot?.rating);
    expect((await refusal('ratings-snapshot', { symbol: 'AAPL' }, freeKey)).status).toBe(402);
  });
});

describe('analyst notes and recommendation history', () => {
  it('counts this month’s recommendations as the consensus of its first day does', async () => {
    const [month] = await rows('grades-historical', { symbol: 'NVDA', limit: '1' });
    expect(month?.date).toBe('2026-11-01');
    const grades = await rows('grades', { symbol: 'NVDA' });
    const dated = grades.filter((row) => String(row.date) <= '2026-11-01' && String(row.date) > '2025-11-01');
    const latestPerBroker = new Map<string, Row>();
    for (const row of dated)
      if (!latestPerBroker.has(String(row.gradingCompany)))
        latestPerBroker.set(String(row.gradingCompany), row);
    const total =
      Number(month?.analystRatingsStrongBuy) +
      Number(month?.analystRatingsBuy) +
      Number(month?.analystRatingsHold) +
      Number(month?.analystRatingsSell) +
      Number(month?.analystRatingsStrongSell);
    expect(total).toBe(latestPerBroker.size);
  });

  it('posts a note per rating action with the close of the day before', async () => {
    const notes = await rows('grades-news', { symbol: 'AAPL', limit: '100' });
    const grades = await rows('grades', { symbol: 'AAPL' });
    expect(notes).toHaveLength(grades.length);
    const [note] = notes as [Row];
    expect(note.gradingCompany).toBe(grades[0]?.gradingCompany);
    const bars = await rows('historical-price-eod/light', {
      symbol: 'AAPL',
      from: shiftIsoDays(String(note.publishedDate).slice(0, 10), -10),
      to: shiftIsoDays(String(note.publishedDate).slice(0, 10), -1),
    });
    expect(note.priceWhenPosted).toBe(bars[0]?.price);
    const latest = await rows('grades-latest-news', { limit: '3' });
    expect(latest.map((row) => String(row.publishedDate))).toEqual(
      latest
        .map((row) => String(row.publishedDate))
        .sort()
        .reverse(),
    );
  });
});

describe('custom discounted cash flow', () => {
  async function value(path: string, query: Record<string, string> = {}): Promise<number> {
    const answer = await rows(path, { symbol: 'AAPL', ...query });
    expect(answer).toHaveLength(5);
    return Number(answer[0]?.equityValuePerShare);
  }

  it('equals the discounted-cash-flow answers with the stored assumptions', async () => {
    const [dcf] = await rows('discounted-cash-flow', { symbol: 'AAPL' });
    const [levered] = await rows('levered-discounted-cash-flow', { symbol: 'AAPL' });
    expect(await value('custom-discounted-cash-flow')).toBeCloseTo(Number(dcf?.dcf), 6);
    expect(await value('custom-levered-discounted-cash-flow')).toBeCloseTo(Number(levered?.dcf), 6);
  });

  it('values more with faster growth and fatter cash margins, less with dearer capital', async () => {
    const base = await value('custom-discounted-cash-flow');
    const [stored] = await rows('custom-discounted-cash-flow', { symbol: 'AAPL' });
    const growth = Number(stored?.revenuePercentage) / 100;
    expect(
      await value('custom-discounted-cash-flow', { revenueGrowthPct: String(growth + 0.05) }),
    ).toBeGreaterThan(base);
    expect(await value('custom-discounted-cash-flow', { capitalExpenditurePct: '0.5' })).toBeLessThan(base);
    expect(await value('custom-discounted-cash-flow', { costOfEquity: '20' })).toBeLessThan(base);
    expect(await value('custom-discounted-cash-flow', { longTermGrowthRate: '1' })).toBeLessThan(base);
    const levered = await value('custom-levered-discounted-cash-flow');
    expect(await value('custom-levered-discounted-cash-flow', { beta: '2' })).toBeLessThan(levered);
    expect(await value('custom-levered-discounted-cash-flow', { riskFreeRate: '1' })).toBeGreaterThan(
      levered,
    );
  });

  it('discounts at the cost of equity given, weighted with the cost of debt into the WACC', async () => {
    const [row] = await rows('custom-discounted-cash-flow', { symbol: 'AAPL', costOfEquity: '10' });
    const equity = Number(row?.equityWeighting) / 100;
    const debt = Number(row?.debtWeighting) / 100;
    expect(row?.costOfEquity).toBe(10);
    expect(Number(row?.wacc)).toBeCloseTo(equity * 10 + debt * Number(row?.afterTaxCostOfDebt), 8);
    const [levered] = await rows('custom-levered-discounted-cash-flow', {
      symbol: 'AAPL',
      costOfEquity: '10',
    });
    expect(levered?.wacc).toBeCloseTo(10, 10);
  });

  it('refuses an assumption out of range, naming it', async () => {
    const refused = await refusal('custom-discounted-cash-flow', { symbol: 'AAPL', taxRate: '1.5' });
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('taxRate');
  });
});

describe('price targets', () => {
  it('counts and averages the published targets over the last month, quarter, year and all time', async () => {
    const notes = await rows('price-target-news', { symbol: 'NVDA', limit: '100' });
    expect(notes.length).toBeGreaterThan(3);
    const [summary] = await rows('price-target-summary', { symbol: 'NVDA' });
    const since = (day: string): number[] =>
      notes
        .filter((note) => String(note.publishedDate).slice(0, 10) > day)
        .map((note) => Number(note.adjPriceTarget));
    const mean = (values: number[]): number =>
      values.length === 0 ? 0 : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
    const year = since('2025-11-20');
    const quarter = since('2026-08-20');
    expect(summary?.allTimeCount).toBe(notes.length);
    expect(summary?.allTimeAvgPriceTarget).toBe(mean(since('0000-00-00')));
    expect(summary?.lastYearCount).toBe(year.length);
    expect(summary?.lastYearAvgPriceTarget).toBe(mean(year));
    expect(summary?.lastQuarterCount).toBe(quarter.length);
    expect(summary?.lastQuarterAvgPriceTarget).toBe(mean(quarter));
    const publishers = JSON.parse(String(summary?.publishers)) as string[];
    expect(publishers).toEqual([...new Set(notes.map((note) => String(note.newsPublisher)))].sort());
  });

  it('sets each target within the stored low and high targets, scaled to the price of the day', async () => {
    const [consensus] = await rows('price-target-consensus', { symbol: 'AAPL' });
    const [quote] = await rows('quote', { symbol: 'AAPL' });
    const notes = await rows('price-target-news', { symbol: 'AAPL', limit: '100' });
    for (const note of notes) {
      const scale = Number(note.priceWhenPosted) / Number(quote?.price);
      expect(Number(note.priceTarget)).toBeGreaterThanOrEqual(Number(consensus?.targetLow) * scale - 0.01);
      expect(Number(note.priceTarget)).toBeLessThanOrEqual(Number(consensus?.targetHigh) * scale + 0.01);
    }
    const latest = await rows('price-target-latest-news', { limit: '5' });
    expect(latest).toHaveLength(5);
  });
});

describe('commitment of traders', () => {
  it('lists the commodities and reports positions whose two sides add up to the open interest', async () => {
    const list = await rows('commitment-of-traders-list', {});
    expect(list.map((row) => row.symbol)).toContain('GCUSD');
    const reports = await rows('commitment-of-traders-report', {
      symbol: 'GCUSD',
      from: '2026-09-01',
      to: '2026-11-20',
    });
    expect(reports.length).toBeGreaterThan(8);
    for (const report of reports) {
      const spread = Number(report.noncommPositionsSpreadAll);
      expect(
        Number(report.noncommPositionsLongAll) +
          spread +
          Number(report.commPositionsLongAll) +
          Number(report.nonreptPositionsLongAll),
      ).toBe(report.openInterestAll);
      expect(
        Number(report.noncommPositionsShortAll) +
          spread +
          Number(report.commPositionsShortAll) +
          Number(report.nonreptPositionsShortAll),
      ).toBe(report.openInterestAll);
    }
    expect(
      (
        await refusal('commitment-of-traders-report', {
          symbol: 'GCUSD',
          from: '2026-01-01',
          to: '2026-06-01',
        })
      ).status,
    ).toBe(400);
  });

  it('reads each report against the week before', async () => {
    const reports = await rows('commitment-of-traders-report', {
      symbol: 'CLUSD',
      from: '2026-10-01',
      to: '2026-11-20',
    });
    const [analysis] = await rows('commitment-of-traders-analysis', {
      symbol: 'CLUSD',
      from: '2026-10-01',
      to: '2026-11-20',
    });
    const [latest, before] = reports as [Row, Row];
    const long = Number(latest.noncommPositionsLongAll);
    const short = Number(latest.noncommPositionsShortAll);
    expect(analysis?.date).toBe(latest.date);
    expect(analysis?.currentLongMarketSituation).toBe(Math.round((long / (long + short)) * 10_000) / 100);
    expect(analysis?.marketSituation).toBe(long > short ? 'Bullish' : 'Bearish');
    expect(analysis?.netPostion).toBe(long - short);
    expect(analysis?.previousNetPosition).toBe(
      Number(before.noncommPositionsLongAll) - Number(before.noncommPositionsShortAll),
    );
  });
});

describe('ESG', () => {
  it('discloses scores whose mean is the ESG score, and benchmarks each sector by the mean of its companies', async () => {
    const disclosures = await rows('esg-disclosures', { symbol: 'AAPL' });
    expect(disclosures.length).toBeGreaterThan(0);
    const [latest] = disclosures as [Row];
    expect(Number(latest.ESGScore)).toBeCloseTo(
      (Number(latest.environmentalScore) + Number(latest.socialScore) + Number(latest.governanceScore)) / 3,
      1,
    );
    const fiscalYear = Number(String(latest.date).slice(0, 4)) - 1;
    const benchmark = await rows('esg-benchmark', { year: String(fiscalYear) });
    const technology = benchmark.find((row) => row.sector === 'Technology');
    const members = await h.db
      .select({ symbol: securities.symbol })
      .from(securities)
      .where(eq(securities.sector, 'Technology'));
    const scores: number[] = [];
    for (const { symbol } of members) {
      const own = await rows('esg-disclosures', { symbol });
      const ofYear = own.find((row) => Number(String(row.date).slice(0, 4)) === fiscalYear + 1);
      if (ofYear !== undefined) scores.push(Number(ofYear.ESGScore));
    }
    expect(scores.length).toBeGreaterThan(1);
    expect(technology?.ESGScore).toBe(
      Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100,
    );
    expect((await refusal('esg-benchmark', {})).message).toContain('year');
  });
});

describe('IPOs', () => {
  it('files the S-1 60 days before the listing and prices the offering at the first open less a 7 % spread', async () => {
    const [listing] = await rows('ipos-calendar', { from: '2022-08-15', to: '2022-10-31' });
    expect(listing?.symbol).toBe('SAE');
    const [disclosure] = await rows('ipos-disclosure', { from: '2022-06-01', to: '2022-08-15' });
    expect(disclosure?.symbol).toBe('SAE');
    expect(disclosure?.filingDate).toBe(shiftIsoDays(String(listing?.date), -60));
    expect(disclosure?.effectivenessDate).toBe(shiftIsoDays(String(listing?.date), -1));
    const [prospectus] = await rows('ipos-prospectus', { from: '2022-08-15', to: '2022-10-31' });
    const price = Number(prospectus?.pricePublicPerShare);
    const [firstBar] = await h.db
      .select({ open: dailyPrices.open })
      .from(dailyPrices)
      .where(and(eq(dailyPrices.symbol, 'SAE'), gte(dailyPrices.date, String(listing?.date))))
      .orderBy(dailyPrices.date)
      .limit(1);
    expect(price).toBe(Math.round((firstBar?.open ?? 0) * 100) / 100);
    expect(prospectus?.discountsAndCommissionsPerShare).toBe(Math.round(price * 0.07 * 100) / 100);
    expect(prospectus?.proceedsBeforeExpensesPerShare).toBeCloseTo(
      price - Number(prospectus?.discountsAndCommissionsPerShare),
      2,
    );
  });
});
