import { and, eq, gt, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyPrices, dividends, securities, splits } from '../../src/server/db/schema.ts';
import type { QuoteRow } from '../../src/server/services/market-data/quotes.ts';
import {
  HARNESS_AS_OF,
  HARNESS_SECRET,
  openDataApiHarness,
  type DataApiHarness,
} from './data-api-harness.ts';
import { accessTokenKey, signPublicToken } from '../../src/server/auth/tokens.ts';

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

interface FullRow {
  symbol: string;
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  change: number;
  changePercent: number;
  vwap: number;
}

interface AdjustedRow {
  symbol: string;
  date: string;
  adjOpen: number;
  adjHigh: number;
  adjLow: number;
  adjClose: number;
  volume: number;
}

interface BarRow {
  date: string;
  open: number;
  low: number;
  high: number;
  close: number;
  volume: number;
}

interface MoverRow {
  symbol: string;
  price: number;
  name: string;
  change: number;
  changesPercentage: number;
  exchange: string;
}

/** GET /stable/<path> and the parsed JSON rows, failing with the body when the status is not 200. */
async function rows<T = Row>(
  path: string,
  query: Record<string, string> = {},
  key = commercialKey,
): Promise<T[]> {
  const res = await h.request(`/stable/${path}`, { ...query, apikey: key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T[];
}

/** The status and error message of a refused request. */
async function refusal(
  path: string,
  query: Record<string, string>,
  key = commercialKey,
): Promise<{ status: number; message: string }> {
  const res = await h.request(`/stable/${path}`, { ...query, apikey: key });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, message: String(body['Error Message']) };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function expectNewestFirst(dates: readonly string[]): void {
  for (let index = 1; index < dates.length; index += 1) {
    expect(
      (dates[index - 1] ?? '') > (dates[index] ?? ''),
      `${dates[index - 1]} before ${dates[index]}`,
    ).toBe(true);
  }
}

describe('search', () => {
  it('finds a ticker by symbol, the exact match first', async () => {
    const found = await rows('search-symbol', { query: 'aapl' });
    expect(found[0]).toEqual({
      symbol: 'AAPL',
      name: 'Apple Inc.',
      currency: 'USD',
      exchangeFullName: expect.any(String) as unknown,
      exchange: 'NASDAQ',
    });
  });

  it('finds a company by the start of its name', async () => {
    const found = await rows<{ symbol: string; name: string }>('search-name', { query: 'Micro' });
    expect(found[0]?.name.toLowerCase().startsWith('micro')).toBe(true);
    expect(found.map((row) => row.symbol)).toContain('MSFT');
  });

  it('answers at most `limit` rows, and only from the exchange asked', async () => {
    const all = await rows<{ exchange: string }>('search-name', { query: 'a', limit: '100' });
    expect(new Set(all.map((row) => row.exchange)).size).toBeGreaterThan(1);
    expect(await rows('search-symbol', { query: 'a', limit: '2' })).toHaveLength(2);
    const nasdaq = await rows<{ exchange: string }>('search-name', { query: 'a', exchange: 'nasdaq' });
    expect(nasdaq.length).toBeGreaterThan(0);
    expect(nasdaq.every((row) => row.exchange === 'NASDAQ')).toBe(true);
  });

  it('answers [] when nothing matches', async () => {
    expect(await rows('search-symbol', { query: 'QQQZZZXX' })).toEqual([]);
  });

  it('refuses a missing query and a limit above 100, naming the parameter', async () => {
    expect(await refusal('search-symbol', {})).toEqual({
      status: 400,
      message: 'Missing required parameter "query".',
    });
    const tooMany = await refusal('search-name', { query: 'a', limit: '101' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.message).toContain('"limit"');
  });
});

describe('lists', () => {
  it('lists stocks only, in ticker order', async () => {
    const stocks = await rows<{ symbol: string; companyName: string }>('stock-list');
    const symbols = stocks.map((row) => row.symbol);
    expect(symbols).toEqual(expect.arrayContaining(['AAPL', 'MSFT', 'NVDA']));
    expect(symbols).not.toContain('SPY');
    expect(symbols).not.toContain('BTCUSD');
    expect([...symbols].sort()).toEqual(symbols);
    expect(stocks.find((row) => row.symbol === 'AAPL')?.companyName).toBe('Apple Inc.');
  });

  it('lists ETFs, coins with their supply, currency pairs, commodities and indexes', async () => {
    expect((await rows<{ symbol: string }>('etf-list')).map((row) => row.symbol)).toContain('SPY');
    const bitcoin = (
      await rows<{ symbol: string; icoDate: unknown; circulatingSupply: unknown }>('cryptocurrency-list')
    ).find((row) => row.symbol === 'BTCUSD');
    expect(bitcoin?.icoDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(bitcoin?.circulatingSupply).toBeGreaterThan(0);
    const euro = (await rows<{ symbol: string }>('forex-list')).find((row) => row.symbol === 'EURUSD');
    expect(euro).toMatchObject({ fromCurrency: 'EUR', toCurrency: 'USD' });
    expect((await rows<{ symbol: string }>('commodities-list')).map((row) => row.symbol)).toEqual(
      expect.arrayContaining(['GCUSD', 'CLUSD']),
    );
    expect((await rows<{ symbol: string }>('index-list')).map((row) => row.symbol)).toEqual(
      expect.arrayContaining(['^GSPC', '^DJI', '^IXIC']),
    );
  });

  it('answers a list as CSV with a header row', async () => {
    const res = await h.request('/stable/forex-list', { datatype: 'csv', apikey: commercialKey });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('symbol,fromCurrency,toCurrency,fromName,toName');
    expect(lines.some((line) => line.startsWith('EURUSD,EUR,USD,'))).toBe(true);
  });
});

describe('quotes', () => {
  it('derives the quote from the daily bars: price, previous close, change, averages and ranges', async () => {
    const [quote] = await rows<QuoteRow>('quote', { symbol: 'AAPL' });
    const history = await rows<FullRow>('historical-price-eod/full', { symbol: 'AAPL', from: '2025-11-01' });
    expect(quote).toBeDefined();
    if (quote === undefined) return;
    expect(quote.symbol).toBe('AAPL');
    expect(quote.price).toBe(history[0]?.close);
    expect(quote.open).toBe(history[0]?.open);
    expect(quote.dayHigh).toBe(history[0]?.high);
    expect(quote.dayLow).toBe(history[0]?.low);
    expect(quote.volume).toBe(history[0]?.volume);
    expect(quote.previousClose).toBe(history[1]?.close);
    expect(quote.change).toBeCloseTo(quote.price - quote.previousClose, 4);
    expect(quote.changePercentage).toBeCloseTo((quote.change / quote.previousClose) * 100, 3);
    expect(quote.priceAvg50).toBeCloseTo(mean(history.slice(0, 50).map((row) => row.close)), 3);
    expect(quote.priceAvg200).toBeCloseTo(mean(history.slice(0, 200).map((row) => row.close)), 3);
    const year = history.filter((row) => row.date > '2025-11-20');
    expect(quote.yearHigh).toBe(Math.max(...year.map((row) => row.high)));
    expect(quote.yearLow).toBe(Math.min(...year.map((row) => row.low)));
  });

  it('values the company at price times shares outstanding and stamps the New York close', async () => {
    const [quote] = await rows<QuoteRow>('quote', { symbol: 'MSFT' });
    const [security] = await h.db
      .select({ shares: securities.sharesOutstanding })
      .from(securities)
      .where(eq(securities.symbol, 'MSFT'));
    expect(quote?.marketCap).toBeCloseTo((quote?.price ?? 0) * (security?.shares ?? 0), -1);
    // 16:00 in New York on the latest trading day (EST in November).
    expect(quote?.timestamp).toBe(Date.parse(`${HARNESS_AS_OF}T21:00:00Z`) / 1000);
  });

  it('answers [] for an unknown symbol', async () => {
    expect(await rows('quote', { symbol: 'NOSUCH' })).toEqual([]);
    expect(await rows('quote-short', { symbol: 'NOSUCH' })).toEqual([]);
  });

  it('gives the short quote the same price, change and volume as the full one', async () => {
    const [quote] = await rows<QuoteRow>('quote', { symbol: 'TSLA' });
    expect(await rows('quote-short', { symbol: 'TSLA' })).toEqual([
      { symbol: 'TSLA', price: quote?.price, change: quote?.change, volume: quote?.volume },
    ]);
  });

  it('answers batches in the order asked and leaves unknown symbols out', async () => {
    const batch = await rows<QuoteRow>('batch-quote', { symbols: 'msft,AAPL,NOSUCH,EURUSD' });
    expect(batch.map((row) => row.symbol)).toEqual(['MSFT', 'AAPL', 'EURUSD']);
    const [single] = await rows<QuoteRow>('quote', { symbol: 'EURUSD' });
    expect(batch[2]).toEqual(single);
    const short = await rows<{ symbol: string }>('batch-quote-short', { symbols: 'NVDA,BTCUSD' });
    expect(short.map((row) => row.symbol)).toEqual(['NVDA', 'BTCUSD']);
  });

  it('refuses a batch without symbols, naming the parameter', async () => {
    expect((await refusal('batch-quote', { symbols: ' , ' })).message).toContain('"symbols"');
  });
});

describe('daily charts', () => {
  it('answers newest first within from and to, with FMP’s change, changePercent and vwap', async () => {
    const history = await rows<FullRow>('historical-price-eod/full', {
      symbol: 'MSFT',
      from: '2026-10-01',
      to: '2026-10-31',
    });
    expect(history.length).toBeGreaterThan(15);
    expect(history.every((row) => row.date >= '2026-10-01' && row.date <= '2026-10-31')).toBe(true);
    expectNewestFirst(history.map((row) => row.date));
    for (const row of history) {
      expect(row.change).toBeCloseTo(row.close - row.open, 4);
      expect(row.changePercent).toBeCloseTo(((row.close - row.open) / row.open) * 100, 4);
      expect(row.vwap).toBeCloseTo((row.high + row.low + row.close) / 3, 4);
      expect(row.low).toBeLessThanOrEqual(Math.min(row.open, row.close));
      expect(row.high).toBeGreaterThanOrEqual(Math.max(row.open, row.close));
    }
  });

  it('gives the light chart the full chart’s closes and volumes', async () => {
    const range = { symbol: 'AMZN', from: '2026-09-01', to: '2026-09-30' };
    const full = await rows<FullRow>('historical-price-eod/full', range);
    const light = await rows('historical-price-eod/light', range);
    expect(light).toEqual(
      full.map((row) => ({ symbol: 'AMZN', date: row.date, price: row.close, volume: row.volume })),
    );
  });

  it('adjusts prices before a split by its ratio and shows them as traded without adjustment', async () => {
    const [split] = await h.db
      .select()
      .from(splits)
      .where(and(gt(splits.date, '2024-01-10'), lte(splits.date, '2026-11-01')))
      .limit(1);
    expect(split, 'the demo data holds a split within the familiar symbols’ history').toBeDefined();
    if (split === undefined) return;
    const ratio = split.numerator / split.denominator;
    const range = { symbol: split.symbol, from: shiftDays(split.date, -7), to: shiftDays(split.date, 7) };
    const full = await rows<FullRow>('historical-price-eod/full', range);
    const raw = await rows<AdjustedRow>('historical-price-eod/non-split-adjusted', range);
    const before = full.find((row) => row.date < split.date);
    const rawBefore = raw.find((row) => row.date === before?.date);
    expect(rawBefore?.adjClose).toBeCloseTo((before?.close ?? 0) * ratio, 1);
    expect(before?.volume).toBeCloseTo((rawBefore?.volume ?? 0) * ratio, -1);
    const after = full.find((row) => row.date >= split.date);
    expect(raw.find((row) => row.date === after?.date)?.adjClose).toBe(after?.close);
  });

  it('scales the dividend-adjusted prices by the stored adjusted close', async () => {
    const range = { symbol: 'AAPL', from: '2025-01-01', to: '2025-03-31' };
    const adjusted = await rows<AdjustedRow>('historical-price-eod/dividend-adjusted', range);
    const stored = await h.db
      .select({ date: dailyPrices.date, adjClose: dailyPrices.adjClose })
      .from(dailyPrices)
      .where(
        and(
          eq(dailyPrices.symbol, 'AAPL'),
          gt(dailyPrices.date, '2024-12-31'),
          lte(dailyPrices.date, '2025-03-31'),
        ),
      );
    const full = await rows<FullRow>('historical-price-eod/full', range);
    expect(adjusted.map((row) => row.date)).toEqual(full.map((row) => row.date));
    for (const row of adjusted) {
      const day = full.find((candidate) => candidate.date === row.date);
      expect(row.adjClose).toBeCloseTo(
        stored.find((candidate) => candidate.date === row.date)?.adjClose ?? NaN,
        3,
      );
      expect(row.adjOpen / row.adjClose).toBeCloseTo((day?.open ?? 0) / (day?.close ?? 1), 3);
      expect(row.volume).toBe(day?.volume);
    }
  });

  it('defaults to the plan’s history and refuses an earlier start with 402 naming a plan', async () => {
    // The signed-out visitor's token reads one year: its default window starts after 2025-11-20.
    const guest = await signPublicToken(accessTokenKey(HARNESS_SECRET), { now: new Date(h.clock.now) });
    const year = await rows<FullRow>('historical-price-eod/full', { symbol: 'AAPL' }, guest);
    expect(year.at(-1)?.date).toMatch(/^2025-11-2[0-6]$/);
    expect(year[0]?.date).toBe(HARNESS_AS_OF);
    // The Free plan reads five years, as much as the default window: the same rows as any plan's.
    const free = await rows<FullRow>('historical-price-eod/full', { symbol: 'AAPL' }, freeKey);
    const all = await rows<FullRow>('historical-price-eod/full', { symbol: 'AAPL' });
    expect(free.length).toBeGreaterThan(year.length);
    expect(free).toEqual(all);
    const withinFive = await rows<FullRow>(
      'historical-price-eod/full',
      { symbol: 'AAPL', from: '2022-01-03' },
      freeKey,
    );
    expect(withinFive.length).toBeGreaterThan(year.length);
    const refused = await refusal(
      'historical-price-eod/full',
      { symbol: 'AAPL', from: '2019-01-02' },
      freeKey,
    );
    expect(refused.status).toBe(402);
    expect(refused.message).toContain('It is included in the Starter plan');
  });

  it('refuses from after to, and answers [] for an unknown symbol', async () => {
    expect(
      await refusal('historical-price-eod/light', { symbol: 'AAPL', from: '2026-02-01', to: '2026-01-01' }),
    ).toEqual({ status: 400, message: 'Parameter "from" must be on or before "to".' });
    expect(await rows('historical-price-eod/full', { symbol: 'NOSUCH' })).toEqual([]);
  });

  it('answers CSV with FMP’s columns', async () => {
    const res = await h.request('/stable/historical-price-eod/full', {
      symbol: 'AAPL',
      from: '2026-11-16',
      to: '2026-11-20',
      datatype: 'csv',
      apikey: commercialKey,
    });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('symbol,date,open,high,low,close,volume,change,changePercent,vwap');
    expect(lines[1]).toMatch(/^AAPL,2026-11-20,/);
  });

  it('keeps the non-split-adjusted and dividend-adjusted charts for paid plans', async () => {
    expect(
      (await refusal('historical-price-eod/dividend-adjusted', { symbol: 'AAPL' }, freeKey)).status,
    ).toBe(402);
    expect(
      (await rows('historical-price-eod/non-split-adjusted', { symbol: 'AAPL' }, starterKey)).length,
    ).toBeGreaterThan(0);
  });
});

describe('intraday charts', () => {
  it('aggregates one-minute bars into buckets from the session open, newest first', async () => {
    const minutes = await rows<BarRow>('historical-chart/1min', { symbol: 'AAPL', from: HARNESS_AS_OF });
    const fives = await rows<BarRow>('historical-chart/5min', { symbol: 'AAPL', from: HARNESS_AS_OF });
    expect(minutes.length).toBeGreaterThan(300);
    expectNewestFirst(fives.map((row) => row.date));
    expect(fives.at(-1)?.date).toBe(`${HARNESS_AS_OF} 09:30:00`);
    expect(Object.keys(fives[0] ?? {})).toEqual(['date', 'open', 'low', 'high', 'close', 'volume']);
    for (const bar of fives) {
      const start = Date.parse(bar.date.replace(' ', 'T') + 'Z');
      const inside = minutes.filter((minute) => {
        const at = Date.parse(minute.date.replace(' ', 'T') + 'Z');
        return at >= start && at < start + 5 * 60_000;
      });
      expect(inside.length).toBeGreaterThan(0);
      expect(bar.open).toBe(inside.at(-1)?.open);
      expect(bar.close).toBe(inside[0]?.close);
      expect(bar.high).toBe(Math.max(...inside.map((minute) => minute.high)));
      expect(bar.low).toBe(Math.min(...inside.map((minute) => minute.low)));
      expect(bar.volume).toBe(inside.reduce((sum, minute) => sum + minute.volume, 0));
    }
  });

  it('starts hourly bars at 09:30 and ends the day with the last minute’s close', async () => {
    const hours = await rows<BarRow>('historical-chart/1hour', {
      symbol: 'AAPL',
      from: HARNESS_AS_OF,
      to: HARNESS_AS_OF,
    });
    const [quote] = await rows<QuoteRow>('quote', { symbol: 'AAPL' });
    expect(hours.map((row) => row.date.slice(11))).toEqual([
      '15:30:00',
      '14:30:00',
      '13:30:00',
      '12:30:00',
      '11:30:00',
      '10:30:00',
      '09:30:00',
    ]);
    expect(hours[0]?.close).toBe(quote?.price);
  });

  it('shows the last week by default and needs the Professional plan', async () => {
    const days = new Set(
      (await rows<BarRow>('historical-chart/4hour', { symbol: 'AAPL' })).map((row) => row.date.slice(0, 10)),
    );
    expect(days.size).toBeGreaterThan(1);
    expect([...days].every((day) => day >= '2026-11-14')).toBe(true);
    const refused = await refusal('historical-chart/1min', { symbol: 'AAPL' }, starterKey);
    expect(refused.status).toBe(402);
    expect(refused.message).toContain('Professional');
  });
});

describe('company', () => {
  it('profiles a company with the quote’s price and 52-week range', async () => {
    const [profile] = await rows('profile', { symbol: 'AAPL' });
    const [quote] = await rows<QuoteRow>('quote', { symbol: 'AAPL' });
    expect(profile).toMatchObject({
      symbol: 'AAPL',
      price: quote?.price,
      marketCap: quote?.marketCap,
      change: quote?.change,
      changePercentage: quote?.changePercentage,
      volume: quote?.volume,
      range: `${quote?.yearLow}-${quote?.yearHigh}`,
      companyName: 'Apple Inc.',
      exchange: 'NASDAQ',
      isEtf: false,
      isFund: false,
      isActivelyTrading: true,
    });
    expect(typeof profile?.fullTimeEmployees).toBe('string');
  });

  it('sums the trailing year’s dividends per share into lastDividend', async () => {
    const paid = await h.db
      .select({ amount: dividends.adjDividend })
      .from(dividends)
      .where(
        and(
          eq(dividends.symbol, 'MSFT'),
          gt(dividends.date, '2025-11-20'),
          lte(dividends.date, HARNESS_AS_OF),
        ),
      );
    expect(paid.length).toBeGreaterThan(0);
    const [profile] = await rows<{ lastDividend: number }>('profile', { symbol: 'MSFT' });
    expect(profile?.lastDividend).toBeCloseTo(
      paid.reduce((sum, row) => sum + row.amount, 0),
      4,
    );
  });

  it('marks funds as ETFs and answers [] for an unknown symbol', async () => {
    const [spy] = await rows<{ isEtf: boolean }>('profile', { symbol: 'SPY' });
    expect(spy?.isEtf).toBe(true);
    expect(await rows('profile', { symbol: 'NOSUCH' })).toEqual([]);
  });

  it('lists the key executives for paid plans', async () => {
    const executives = await rows<{ name: string; title: string; active: boolean }>('key-executives', {
      symbol: 'AAPL',
    });
    expect(executives.length).toBeGreaterThan(0);
    expect(executives.every((row) => row.name !== '' && row.title !== '')).toBe(true);
    expect((await refusal('key-executives', { symbol: 'AAPL' }, freeKey)).status).toBe(402);
  });

  it('finds up to ten peers in the same sector and currency, never the company itself', async () => {
    const peers = await rows<{ symbol: string; price: number; mktCap: number }>('stock-peers', {
      symbol: 'MSFT',
    });
    expect(peers.length).toBeGreaterThan(0);
    expect(peers.length).toBeLessThanOrEqual(10);
    const listed = await h.db
      .select({ symbol: securities.symbol, sector: securities.sector, currency: securities.currency })
      .from(securities);
    const market = new Map(listed.map((row) => [row.symbol, `${row.sector} in ${row.currency}`]));
    expect(peers.map((peer) => peer.symbol)).not.toContain('MSFT');
    for (const peer of peers) {
      expect(market.get(peer.symbol)).toBe(market.get('MSFT'));
      const [quote] = await rows<QuoteRow>('quote', { symbol: peer.symbol });
      expect(peer.price).toBe(quote?.price);
      expect(peer.mktCap).toBe(quote?.marketCap);
    }
    expect(await rows('stock-peers', { symbol: 'BTCUSD' })).toEqual([]);
  });
});

describe('market performance', () => {
  it('ranks the gainers by percentage up, consistent with their quotes', async () => {
    const gainers = await rows<MoverRow>('biggest-gainers');
    expect(gainers.length).toBeGreaterThan(0);
    expect(gainers.length).toBeLessThanOrEqual(50);
    for (let index = 0; index < gainers.length; index += 1) {
      const row = gainers[index];
      expect(row?.change).toBeGreaterThan(0);
      expect(row?.price).toBeGreaterThanOrEqual(1);
      if (index > 0)
        expect(row?.changesPercentage).toBeLessThanOrEqual(gainers[index - 1]?.changesPercentage ?? 0);
    }
    const top = gainers[0];
    const [quote] = await rows<QuoteRow>('quote', { symbol: top?.symbol ?? '' });
    expect(top).toEqual({
      symbol: quote?.symbol,
      price: quote?.price,
      name: quote?.name,
      change: quote?.change,
      changesPercentage: quote?.changePercentage,
      exchange: quote?.exchange,
    });
  });

  it('ranks the losers by percentage down', async () => {
    const losers = await rows<MoverRow>('biggest-losers');
    expect(losers.length).toBeGreaterThan(0);
    expect(losers.every((row) => row.change < 0)).toBe(true);
    const percentages = losers.map((row) => row.changesPercentage);
    expect([...percentages].sort((a, b) => a - b)).toEqual(percentages);
  });

  it('ranks the most active stocks by volume', async () => {
    const actives = await rows<MoverRow>('most-actives');
    expect(actives.length).toBeGreaterThan(1);
    const volumes = await Promise.all(
      actives
        .slice(0, 5)
        .map(async (row) => (await rows<QuoteRow>('quote', { symbol: row.symbol }))[0]?.volume ?? 0),
    );
    expect([...volumes].sort((a, b) => b - a)).toEqual(volumes);
  });

  it('averages the day’s change of each sector’s stocks per exchange', async () => {
    const snapshot = await rows<{ date: string; sector: string; exchange: string; averageChange: number }>(
      'sector-performance-snapshot',
      { date: HARNESS_AS_OF },
    );
    expect(snapshot.length).toBeGreaterThan(0);
    const listed = await h.db
      .select({ symbol: securities.symbol, sector: securities.sector, exchange: securities.exchange })
      .from(securities)
      .where(eq(securities.assetType, 'stock'));
    const group = snapshot[0];
    const members = listed.filter((row) => row.sector === group?.sector && row.exchange === group.exchange);
    const quotes = await rows<QuoteRow>('batch-quote', {
      symbols: members.map((row) => row.symbol).join(','),
    });
    expect(group?.date).toBe(HARNESS_AS_OF);
    expect(group?.averageChange).toBeCloseTo(mean(quotes.map((quote) => quote.changePercentage)), 2);
    const filtered = await rows<{ sector: string; exchange: string }>('sector-performance-snapshot', {
      date: HARNESS_AS_OF,
      exchange: 'nyse',
    });
    expect(filtered.every((row) => row.exchange === 'NYSE')).toBe(true);
  });

  it('answers [] for a day without trading and refuses a missing date', async () => {
    expect(await rows('sector-performance-snapshot', { date: '2026-11-21' })).toEqual([]);
    expect(await refusal('sector-performance-snapshot', {})).toEqual({
      status: 400,
      message: 'Missing required parameter "date".',
    });
  });
});

function shiftDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
