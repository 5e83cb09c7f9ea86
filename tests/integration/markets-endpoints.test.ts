import { and, desc, eq, inArray, lt, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyPrices, securities } from '../../src/server/db/schema.ts';
import { easterSunday } from '../../src/server/services/market-data/market-hours.ts';
import { HARNESS_AS_OF, openDataApiHarness, stableAnswer, type DataApiHarness } from './data-api-harness.ts';

let h: DataApiHarness;
let commercialKey: string;
let starterKey: string;
let professionalKey: string;
let freeKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  [commercialKey, starterKey, professionalKey, freeKey] = await Promise.all([
    h.keyFor('commercialEnterprise'),
    h.keyFor('starterT1'),
    h.keyFor('monthlyT2'),
    h.keyFor('free'),
  ]);
});

afterAll(async () => {
  await h.close();
});

type Row = Record<string, unknown>;

/** GET /stable/<path> with a key: the rows, failing with the message when refused. */
async function rows<T = Row>(
  path: string,
  query: Record<string, string> = {},
  key = commercialKey,
): Promise<T[]> {
  const answer = await stableAnswer(h, path, query, key);
  expect(answer.status, answer.error).toBe(200);
  return answer.rows as T[];
}

/** Percent change as the API rounds it (five decimals). */
function percent(price: number, base: number): number {
  return Math.round(((price - base) / base) * 100 * 1e5) / 1e5;
}

describe('market hours', () => {
  it('lists every exchange with its session in local time and the zone’s offset at the request', async () => {
    const all = await rows('all-exchange-market-hours');
    expect(all.map((row) => row.exchange)).toEqual([
      'NASDAQ',
      'NYSE',
      'AMEX',
      'TSX',
      'LSE',
      'XETRA',
      'EURONEXT',
      'JPX',
      'HKSE',
    ]);
    expect(all.find((row) => row.exchange === 'NYSE')).toMatchObject({
      openingHour: '09:30 AM -05:00',
      closingHour: '04:00 PM -05:00',
      timezone: 'America/New_York',
    });
    expect(all.find((row) => row.exchange === 'JPX')).toMatchObject({
      openingHour: '09:00 AM +09:00',
      closingHour: '03:30 PM +09:00',
    });
  });

  it('tells whether a market is open at the request’s clock: after the close, during the session, at the weekend', async () => {
    // The harness clock starts on Friday 2026-11-20 at 21:00 UTC, 16:00 in New York: the close.
    expect((await rows('exchange-market-hours', { exchange: 'nasdaq' }))[0]?.isMarketOpen).toBe(false);
    h.clock.now = Date.parse('2026-11-20T19:00:00Z');
    expect((await rows('exchange-market-hours', { exchange: 'NASDAQ' }))[0]?.isMarketOpen).toBe(true);
    h.clock.now = Date.parse('2026-11-21T15:00:00Z');
    const saturday = await rows('all-exchange-market-hours');
    expect(saturday.every((row) => row.isMarketOpen === false)).toBe(true);
    h.clock.now = Date.parse(`${HARNESS_AS_OF}T21:00:00Z`);
  });

  it('keeps US markets closed on Thanksgiving and shuts them at 13:00 the day after', async () => {
    h.clock.now = Date.parse('2026-11-26T16:00:00Z');
    expect((await rows('exchange-market-hours', { exchange: 'NYSE' }))[0]?.isMarketOpen).toBe(false);
    h.clock.now = Date.parse('2026-11-27T17:30:00Z');
    expect((await rows('exchange-market-hours', { exchange: 'NYSE' }))[0]?.isMarketOpen).toBe(true);
    h.clock.now = Date.parse('2026-11-27T18:30:00Z');
    expect((await rows('exchange-market-hours', { exchange: 'NYSE' }))[0]?.isMarketOpen).toBe(false);
    h.clock.now = Date.parse(`${HARNESS_AS_OF}T21:00:00Z`);
  });

  it('lists the NYSE holidays of 2026 on their days, Saturday’s Independence Day on the Friday before', async () => {
    const holidays = await rows('holidays-by-exchange', {
      exchange: 'NYSE',
      from: '2026-01-01',
      to: '2026-12-31',
    });
    expect(holidays.filter((row) => row.isClosed === true).map((row) => row.date)).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-04-03',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03',
      '2026-09-07',
      '2026-11-26',
      '2026-12-25',
    ]);
    expect(holidays.find((row) => row.date === '2026-11-26')).toEqual({
      exchange: 'NYSE',
      date: '2026-11-26',
      name: 'Thanksgiving Day',
      isClosed: true,
      adjOpenTime: null,
      adjCloseTime: null,
    });
    expect(
      holidays.filter((row) => row.isClosed === false).map((row) => [row.date, row.adjCloseTime]),
    ).toEqual([
      ['2026-11-27', '13:00'],
      ['2026-12-24', '13:00'],
    ]);
  });

  it('computes holidays by rule in other years: a Saturday New Year is not made up, a Sunday Christmas moves to Monday', async () => {
    const year2022 = await rows('holidays-by-exchange', {
      exchange: 'NASDAQ',
      from: '2021-12-30',
      to: '2022-12-31',
    });
    const dates = year2022.filter((row) => row.isClosed === true).map((row) => row.date);
    expect(dates).not.toContain('2021-12-31');
    expect(dates).toContain('2022-06-20');
    expect(dates).toContain('2022-12-26');
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2027)).toBe('2027-03-28');
    const london = await rows('holidays-by-exchange', {
      exchange: 'LSE',
      from: '2027-03-01',
      to: '2027-04-30',
    });
    expect(london.map((row) => [row.date, row.name])).toEqual([
      ['2027-03-26', 'Good Friday'],
      ['2027-03-29', 'Easter Monday'],
    ]);
  });

  it('moves 2027’s weekend holidays to the nearest weekday and keeps no early close on a holiday', async () => {
    const year = await rows('holidays-by-exchange', {
      exchange: 'NYSE',
      from: '2027-01-01',
      to: '2027-12-31',
    });
    expect(year.map((row) => [row.date, row.isClosed])).toEqual([
      ['2027-01-01', true],
      ['2027-01-18', true],
      ['2027-02-15', true],
      ['2027-03-26', true],
      ['2027-05-31', true],
      ['2027-06-18', true],
      ['2027-07-05', true],
      ['2027-09-06', true],
      ['2027-11-25', true],
      ['2027-11-26', false],
      ['2027-12-24', true],
    ]);
    const hongKong = await rows('holidays-by-exchange', {
      exchange: 'HKSE',
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(hongKong.map((row) => [row.date, row.name])).toEqual([
      ['2026-02-17', 'Lunar New Year'],
      ['2026-02-18', 'Lunar New Year'],
      ['2026-02-19', 'Lunar New Year'],
    ]);
  });

  it('refuses an exchange without a calendar and a range that ends before it starts', async () => {
    const unknown = await stableAnswer(h, 'exchange-market-hours', { exchange: 'MOON' }, commercialKey);
    expect(unknown.status).toBe(400);
    expect(unknown.error).toContain('exchange');
    expect(unknown.error).toContain('NASDAQ');
    const backwards = await stableAnswer(
      h,
      'holidays-by-exchange',
      { exchange: 'NYSE', from: '2026-12-31', to: '2026-01-01' },
      commercialKey,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.error).toContain('"from"');
  });
});

interface PriceChange {
  symbol: string;
  '1D': number;
  '5D': number;
  '1M': number;
  ytd: number;
  '1Y': number;
}

describe('quotes of groups and price changes', () => {
  it('measures price changes from the right closes: the previous, the fifth before, a month, a year and the year end', async () => {
    const [quote] = await rows<{ price: number; changePercentage: number }>('quote', { symbol: 'AAPL' });
    const [change] = await rows<PriceChange>('stock-price-change', { symbol: 'aapl' });
    if (quote === undefined || change === undefined) throw new Error('no AAPL rows');
    const closeBefore = async (date: string, inclusive: boolean): Promise<number> => {
      const [bar] = await h.db
        .select({ close: dailyPrices.close })
        .from(dailyPrices)
        .where(
          and(
            eq(dailyPrices.symbol, 'AAPL'),
            inclusive ? lte(dailyPrices.date, date) : lt(dailyPrices.date, date),
          ),
        )
        .orderBy(desc(dailyPrices.date))
        .limit(1);
      return Math.round((bar?.close ?? 0) * 100) / 100;
    };
    const earlier = await h.db
      .select({ close: dailyPrices.close })
      .from(dailyPrices)
      .where(and(eq(dailyPrices.symbol, 'AAPL'), lt(dailyPrices.date, HARNESS_AS_OF)))
      .orderBy(desc(dailyPrices.date))
      .limit(5);
    const fifth = Math.round((earlier[4]?.close ?? 0) * 100) / 100;
    expect(change.symbol).toBe('AAPL');
    expect(change['1D']).toBe(quote.changePercentage);
    expect(change['5D']).toBe(percent(quote.price, fifth));
    expect(change['1M']).toBe(percent(quote.price, await closeBefore('2026-10-20', true)));
    expect(change['1Y']).toBe(percent(quote.price, await closeBefore('2025-11-20', true)));
    expect(change.ytd).toBe(percent(quote.price, await closeBefore('2026-01-01', false)));
  });

  it('answers [] for price changes of an unknown symbol', async () => {
    expect(await rows('stock-price-change', { symbol: 'NOPE' })).toEqual([]);
  });

  it('quotes every cryptocurrency, in symbol order, the same as the single quote', async () => {
    const all = await rows<{ symbol: string; price: number }>('batch-crypto-quotes');
    const symbols = all.map((row) => row.symbol);
    expect(symbols).toContain('BTCUSD');
    expect(symbols).toEqual([...symbols].sort());
    const [btc] = await rows<{ price: number }>('quote', { symbol: 'BTCUSD' });
    expect(all.find((row) => row.symbol === 'BTCUSD')?.price).toBe(btc?.price);
  });

  it('answers only symbol, price, change and volume with short=true', async () => {
    const short = await rows('batch-index-quotes', { short: 'true' });
    expect(short.length).toBeGreaterThan(0);
    for (const row of short) expect(Object.keys(row)).toEqual(['symbol', 'price', 'change', 'volume']);
    const refused = await stableAnswer(h, 'batch-index-quotes', { short: 'yes' }, commercialKey);
    expect(refused.status).toBe(400);
    expect(refused.error).toContain('short');
  });

  it('quotes an exchange’s listings only, and keeps foreign exchanges and crypto for Power', async () => {
    const nasdaq = await rows<{ exchange: string }>(
      'batch-exchange-quote',
      { exchange: 'nasdaq' },
      starterKey,
    );
    expect(nasdaq.length).toBeGreaterThan(3);
    expect(nasdaq.every((row) => row.exchange === 'NASDAQ')).toBe(true);
    const london = await stableAnswer(h, 'batch-exchange-quote', { exchange: 'LSE' }, professionalKey);
    expect(london.status).toBe(402);
    expect(london.error).toContain('LSE');
    expect((await stableAnswer(h, 'batch-crypto-quotes', {}, professionalKey)).status).toBe(402);
    expect((await stableAnswer(h, 'batch-etf-quotes', {}, freeKey)).status).toBe(402);
    expect((await stableAnswer(h, 'batch-etf-quotes', {}, starterKey)).status).toBe(200);
  });
});

interface ChangeRow {
  date: string;
  sector?: string;
  industry?: string;
  exchange: string;
  averageChange: number;
}

interface PeRow {
  date: string;
  sector?: string;
  industry?: string;
  exchange: string;
  pe: number;
}

describe('sector and industry performance', () => {
  it('gives an industry the mean change of its stocks, the same arithmetic as the sector snapshot', async () => {
    const industries = await rows<ChangeRow>('industry-performance-snapshot', {
      date: HARNESS_AS_OF,
      industry: 'semiconductors',
      exchange: 'NASDAQ',
    });
    expect(industries).toHaveLength(1);
    const stocks = (await rows<{ symbol: string }>('stock-list')).map((row) => row.symbol);
    const members: { price: number; previousClose: number }[] = [];
    for (const symbol of stocks) {
      const [profile] = await rows<{ industry: string; exchange: string }>('profile', { symbol });
      if (profile?.industry !== 'Semiconductors' || profile.exchange !== 'NASDAQ') continue;
      const [quote] = await rows<{ price: number; previousClose: number }>('quote', { symbol });
      if (quote !== undefined) members.push(quote);
    }
    expect(members.length).toBeGreaterThan(0);
    const mean =
      members.reduce(
        (sum, quote) => sum + ((quote.price - quote.previousClose) / quote.previousClose) * 100,
        0,
      ) / members.length;
    expect(industries[0]?.averageChange).toBeCloseTo(mean, 1);
  });

  it('keeps the history of a sector day by day, each day equal to that day’s snapshot', async () => {
    const history = await rows<ChangeRow>('historical-sector-performance', {
      sector: 'Technology',
      from: '2026-11-16',
      to: '2026-11-20',
    });
    expect([...new Set(history.map((row) => row.date))]).toEqual([
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
    ]);
    const snapshot = await rows<ChangeRow>('sector-performance-snapshot', {
      date: '2026-11-18',
      sector: 'Technology',
    });
    for (const row of snapshot) {
      const same = history.find((entry) => entry.date === '2026-11-18' && entry.exchange === row.exchange);
      expect(same?.averageChange).toBeCloseTo(row.averageChange, 4);
    }
  });

  it('computes an industry’s P/E as its total market cap over its four latest quarters’ net income', async () => {
    const [row] = await rows<PeRow>('industry-pe-snapshot', {
      date: HARNESS_AS_OF,
      industry: 'Semiconductors',
      exchange: 'NASDAQ',
    });
    let cap = 0;
    let earnings = 0;
    for (const { symbol } of await rows<{ symbol: string }>('stock-list')) {
      const [profile] = await rows<{ industry: string; exchange: string }>('profile', { symbol });
      if (profile?.industry !== 'Semiconductors' || profile.exchange !== 'NASDAQ') continue;
      const [quote] = await rows<{ marketCap: number }>('quote', { symbol });
      const quarters = await rows<{ netIncome: number }>('income-statement', {
        symbol,
        period: 'quarter',
        limit: '4',
      });
      cap += quote?.marketCap ?? 0;
      earnings += quarters.reduce((sum, quarter) => sum + quarter.netIncome, 0);
    }
    expect(row?.industry).toBe('Semiconductors');
    expect(row?.pe).toBeCloseTo(cap / earnings, 2);
    const history = await rows<PeRow>('historical-industry-pe', {
      industry: 'Semiconductors',
      exchange: 'NASDAQ',
      from: HARNESS_AS_OF,
      to: HARNESS_AS_OF,
    });
    expect(history).toEqual([row]);
  });

  it('refuses a history without its sector and a range that ends before it starts', async () => {
    const missing = await stableAnswer(h, 'historical-sector-pe', {}, commercialKey);
    expect(missing.status).toBe(400);
    expect(missing.error).toContain('sector');
    const backwards = await stableAnswer(
      h,
      'historical-industry-performance',
      { industry: 'Semiconductors', from: '2026-11-20', to: '2026-11-01' },
      commercialKey,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.error).toContain('"from"');
    expect((await stableAnswer(h, 'industry-pe-snapshot', { date: HARNESS_AS_OF }, freeKey)).status).toBe(
      402,
    );
  });
});

interface MemberRow {
  symbol: string;
  sector: string;
  dateFirstAdded: string;
}

interface ChangeEntry {
  dateAdded: string;
  addedSecurity: string;
  removedTicker: string;
  date: string;
  symbol: string;
}

describe('index constituents', () => {
  it('holds the largest three quarters of US companies in the S&P 500 (at most 500), thirty or fewer of them in the Dow', async () => {
    const us = await h.db
      .select({ symbol: securities.symbol })
      .from(securities)
      .where(
        and(
          eq(securities.assetType, 'stock'),
          eq(securities.country, 'US'),
          inArray(securities.exchange, ['NYSE', 'NASDAQ']),
        ),
      );
    const sp500 = await rows<MemberRow>('sp500-constituent');
    expect(sp500).toHaveLength(Math.min(500, Math.floor(us.length * 0.75)));
    expect(sp500.map((row) => row.symbol)).toEqual(expect.arrayContaining(['AAPL', 'MSFT']));
    const dow = await rows<MemberRow>('dowjones-constituent');
    expect(dow).toHaveLength(Math.min(30, Math.floor(sp500.length * 0.75)));
    const inSp500 = new Set(sp500.map((row) => row.symbol));
    expect(dow.every((row) => inSp500.has(row.symbol))).toBe(true);
    const nasdaq = await rows<{ symbol: string }>('nasdaq-constituent');
    for (const row of nasdaq) {
      const [profile] = await rows<{ exchange: string }>('profile', { symbol: row.symbol });
      expect(profile?.exchange).toBe('NASDAQ');
    }
  });

  it('keeps a history of changes, newest first: each added company a member since, each removed one gone', async () => {
    const members = new Set((await rows<MemberRow>('sp500-constituent')).map((row) => row.symbol));
    const changes = await rows<ChangeEntry>('historical-sp500-constituent');
    expect(changes.length).toBeGreaterThan(0);
    const dates = changes.map((row) => row.date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const change of changes) {
      expect(members.has(change.symbol)).toBe(true);
      expect(members.has(change.removedTicker)).toBe(false);
      expect(new Date(`${change.dateAdded} UTC`).toISOString().slice(0, 10)).toBe(change.date);
    }
    const [latest] = changes;
    const joined = (await rows<MemberRow>('sp500-constituent')).find((row) => row.symbol === latest?.symbol);
    expect(joined?.dateFirstAdded).toBe(latest?.date);
  });

  it('is for Starter and above', async () => {
    const free = await stableAnswer(h, 'sp500-constituent', {}, freeKey);
    expect(free.status).toBe(402);
    expect((await stableAnswer(h, 'sp500-constituent', {}, starterKey)).status).toBe(200);
  });
});

interface HoldingRow {
  symbol: string;
  asset: string;
  sharesNumber: number;
  weightPercentage: number;
  marketValue: number;
}

describe('ETF holdings', () => {
  it('values SPY’s holdings at the current prices, the S&P 500’s members, weights summing to 100', async () => {
    const holdings = await rows<HoldingRow>('etf/holdings', { symbol: 'SPY' }, professionalKey);
    const members = (await rows<MemberRow>('sp500-constituent')).map((row) => row.symbol);
    expect(holdings.map((row) => row.asset).sort()).toEqual([...members].sort());
    const total = holdings.reduce((sum, row) => sum + row.weightPercentage, 0);
    expect(total).toBeCloseTo(100, 2);
    const [apple] = await rows<{ price: number }>('quote', { symbol: 'AAPL' });
    const held = holdings.find((row) => row.asset === 'AAPL');
    expect(held?.marketValue).toBeCloseTo((held?.sharesNumber ?? 0) * (apple?.price ?? 0), 0);
    const values = holdings.map((row) => row.marketValue);
    expect(values).toEqual([...values].sort((a, b) => b - a));
  });

  it('sums sector and country weightings from the holdings', async () => {
    const holdings = await rows<HoldingRow>('etf/holdings', { symbol: 'QQQ' });
    const sectors = await rows<{ sector: string; weightPercentage: number }>('etf/sector-weightings', {
      symbol: 'QQQ',
    });
    expect(sectors.reduce((sum, row) => sum + row.weightPercentage, 0)).toBeCloseTo(100, 1);
    const [profile] = await rows<{ sector: string }>('profile', { symbol: holdings[0]?.asset ?? '' });
    const bySector = holdings.filter((row) => row.asset === holdings[0]?.asset);
    expect(sectors.find((row) => row.sector === profile?.sector)?.weightPercentage).toBeGreaterThanOrEqual(
      Math.round((bySector[0]?.weightPercentage ?? 0) * 100) / 100 - 0.01,
    );
    const countries = await rows<{ country: string; weightPercentage: string }>('etf/country-weightings', {
      symbol: 'QQQ',
    });
    expect(countries[0]).toEqual({ country: 'United States', weightPercentage: '100.00%' });
  });

  it('lists the ETFs holding a stock with the same position their holdings show', async () => {
    const exposure = await rows<HoldingRow>('etf/asset-exposure', { symbol: 'AAPL' });
    expect(exposure.map((row) => row.symbol)).toEqual(expect.arrayContaining(['SPY', 'QQQ']));
    const spy = (await rows<HoldingRow>('etf/holdings', { symbol: 'SPY' })).find(
      (row) => row.asset === 'AAPL',
    );
    expect(exposure.find((row) => row.symbol === 'SPY')).toEqual({
      symbol: 'SPY',
      asset: 'AAPL',
      sharesNumber: spy?.sharesNumber,
      weightPercentage: spy?.weightPercentage,
      marketValue: spy?.marketValue,
    });
  });

  it('describes an ETF with its size from its quote and its holdings count', async () => {
    const [info] = await rows('etf/info', { symbol: 'SPY' });
    const [quote] = await rows<{ price: number; marketCap: number }>('quote', { symbol: 'SPY' });
    const holdings = await rows<HoldingRow>('etf/holdings', { symbol: 'SPY' });
    expect(info).toMatchObject({
      symbol: 'SPY',
      nav: quote?.price,
      assetsUnderManagement: quote?.marketCap,
      holdingsCount: holdings.length,
      assetClass: 'Equity',
    });
    expect(await rows('etf/info', { symbol: 'AAPL' })).toEqual([]);
  });

  it('is sold with Professional: Starter is refused', async () => {
    const starter = await stableAnswer(h, 'etf/holdings', { symbol: 'SPY' }, starterKey);
    expect(starter.status).toBe(402);
  });
});
