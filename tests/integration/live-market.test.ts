import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import {
  LiveMarket,
  liveMarket,
  type StoredQuote,
} from '../../src/server/services/market-data/live-market.ts';
import { storedQuotes } from '../../src/server/services/market-data/quotes.ts';
import { roundPrice } from '../../src/server/services/market-data/prices.ts';
import { openDataApiHarness, stableAnswer, type DataApiHarness } from './data-api-harness.ts';

let h: DataApiHarness;
let key: string;

const AAPL = { symbol: 'AAPL', assetType: 'stock', exchange: 'NASDAQ' } as const;
const BTC = { symbol: 'BTCUSD', assetType: 'crypto', exchange: 'CRYPTO' } as const;
const EUR = { symbol: 'EURUSD', assetType: 'forex', exchange: 'FOREX' } as const;

/** 2026-11-20 is a Friday; New York is five hours behind UTC in November. */
const FRIDAY_OPEN = Date.parse('2026-11-20T14:30:00Z');
const FRIDAY_MIDDAY = Date.parse('2026-11-20T17:00:00Z');
const FRIDAY_CLOSE = Date.parse('2026-11-20T21:00:00Z');
const FRIDAY_BEFORE_OPEN = Date.parse('2026-11-20T13:00:00Z');
const SATURDAY = Date.parse('2026-11-21T15:00:00Z');
/** Sessions after the stored data, which ends that Friday: noon New York on the Tuesday and Wednesday after. */
const TUESDAY_MIDDAY = Date.parse('2026-11-24T17:00:00Z');
const WEDNESDAY_MIDDAY = Date.parse('2026-11-25T17:00:00Z');
const MONDAY_OPEN = Date.parse('2026-11-23T14:30:00Z');
const MONDAY_CLOSE = Date.parse('2026-11-23T21:00:00Z');
const TUESDAY_OPEN = Date.parse('2026-11-24T14:30:00Z');
const WEDNESDAY_CLOSE = Date.parse('2026-11-25T21:00:00Z');
/** Thanksgiving (the NYSE is closed) at 11:00 New York, and 13:00 New York on the early close the day after. */
const THANKSGIVING = Date.parse('2026-11-26T16:00:00Z');
const EARLY_CLOSE = Date.parse('2026-11-27T18:00:00Z');

async function stored(symbol: string): Promise<StoredQuote> {
  const found = (await storedQuotes(h.db, [symbol], new Date(FRIDAY_CLOSE))).get(symbol);
  if (found === undefined) throw new Error(`no stored quote for ${symbol}`);
  return found;
}

async function quotedPrice(symbol: string, at: number): Promise<number> {
  h.clock.now = at;
  const { rows } = await stableAnswer(h, 'quote', { symbol }, key);
  return rows[0]?.price as number;
}

beforeAll(async () => {
  h = await openDataApiHarness();
  key = await h.keyFor('commercialEnterprise');
});

afterAll(async () => {
  await h.close();
});

describe('the live market simulator', () => {
  it('gives the same price at the same instant in two independent simulators, and another with another seed', async () => {
    const btc = await stored('BTCUSD');
    const first = new LiveMarket();
    const second = new LiveMarket();
    for (const at of [FRIDAY_MIDDAY, FRIDAY_MIDDAY + 1_000, FRIDAY_CLOSE + 123_456]) {
      expect(first.facts(BTC, btc, at)).toEqual(second.facts(BTC, btc, at));
      expect(first.tick(BTC, btc, at)).toEqual(second.tick(BTC, btc, at));
    }
    expect(new LiveMarket({ seed: 7 }).facts(BTC, btc, FRIDAY_MIDDAY).price).not.toBe(
      first.facts(BTC, btc, FRIDAY_MIDDAY).price,
    );
  });

  it('moves a US stock only in the regular session, from the stored open to the stored close', async () => {
    const aapl = await stored('AAPL');
    const market = liveMarket();
    expect(aapl.latest.date).toBe('2026-11-20');
    expect(market.facts(AAPL, aapl, FRIDAY_OPEN).price).toBeCloseTo(aapl.latest.open, 9);
    const midday = market.facts(AAPL, aapl, FRIDAY_MIDDAY);
    expect(midday.price).not.toBe(aapl.latest.price);
    expect(midday.price).toBeGreaterThanOrEqual(aapl.latest.dayLow);
    expect(midday.price).toBeLessThanOrEqual(aapl.latest.dayHigh);
    expect(midday.volume).toBeLessThan(aapl.latest.volume);
    expect(market.facts(AAPL, aapl, FRIDAY_MIDDAY + 1_000).price).not.toBe(midday.price);
    // Before the open the latest session is Thursday's; after the close and over the weekend, Friday's close.
    expect(market.facts(AAPL, aapl, FRIDAY_BEFORE_OPEN)).toEqual(aapl.earlier);
    expect(market.facts(AAPL, aapl, FRIDAY_CLOSE)).toEqual(aapl.latest);
    expect(market.facts(AAPL, aapl, SATURDAY)).toEqual(aapl.latest);
    expect(market.tick(AAPL, aapl, SATURDAY).trading).toBe(false);
  });

  it('moves crypto round the clock and forex on weekdays only', async () => {
    const [btc, eur] = await Promise.all([stored('BTCUSD'), stored('EURUSD')]);
    const market = liveMarket();
    expect(market.facts(BTC, btc, SATURDAY).price).not.toBe(btc.latest.price);
    expect(market.facts(BTC, btc, SATURDAY).previousClose).toBe(btc.latest.price);
    expect(market.tick(BTC, btc, SATURDAY).trading).toBe(true);
    expect(market.facts(EUR, eur, FRIDAY_MIDDAY).price).not.toBe(eur.latest.price);
    // Forex closes Friday 17:00 New York (22:00 UTC): from then on Friday's stored close holds.
    expect(market.facts(EUR, eur, Date.parse('2026-11-20T22:00:00Z'))).toEqual(eur.latest);
    expect(market.facts(EUR, eur, SATURDAY)).toEqual(eur.latest);
  });

  it('continues the walk after the stored data: each session opens at the close before it, which holds between sessions', async () => {
    const aapl = await stored('AAPL');
    const market = liveMarket();
    // Monday opens at Friday's stored close, walks, and closes on a price of its own, kept overnight.
    const mondayOpen = market.facts(AAPL, aapl, MONDAY_OPEN);
    expect(mondayOpen.price).toBeCloseTo(aapl.latest.price, 9);
    expect(mondayOpen.previousClose).toBe(aapl.latest.price);
    const mondayClose = market.facts(AAPL, aapl, MONDAY_CLOSE);
    expect(mondayClose.date).toBe('2026-11-23');
    expect(mondayClose.price).not.toBe(aapl.latest.price);
    expect(mondayClose.previousClose).toBe(aapl.latest.price);
    expect(mondayClose.dayHigh).toBeGreaterThanOrEqual(Math.max(mondayClose.price, mondayClose.open));
    expect(mondayClose.dayLow).toBeLessThanOrEqual(Math.min(mondayClose.price, mondayClose.open));
    expect(market.tick(AAPL, aapl, MONDAY_CLOSE).trading).toBe(false);
    // The last second of the session is within a step of the close it ends on.
    expect(market.facts(AAPL, aapl, MONDAY_CLOSE - 1).price).toBeCloseTo(mondayClose.price, 0);
    expect(market.facts(AAPL, aapl, TUESDAY_OPEN - 60_000)).toEqual(mondayClose);
    // Tuesday starts from Monday's close, not from the stored one.
    const tuesdayOpen = market.facts(AAPL, aapl, TUESDAY_OPEN);
    expect(tuesdayOpen.price).toBeCloseTo(mondayClose.price, 9);
    expect(tuesdayOpen.previousClose).toBeCloseTo(mondayClose.price, 9);
    expect(market.facts(AAPL, aapl, TUESDAY_MIDDAY).previousClose).toBeCloseTo(mondayClose.price, 9);
    // Pre-market before Tuesday's open ends at that open; after-hours start from Monday's close.
    const lastPre = market.extendedTick(AAPL, aapl, TUESDAY_OPEN - 1);
    expect(lastPre?.window).toBe('pre');
    expect(lastPre?.price).toBeCloseTo(roundPrice(mondayClose.price, 'stock'), 0);
    const firstPost = market.extendedTick(AAPL, aapl, MONDAY_CLOSE);
    expect(firstPost).toMatchObject({ window: 'post', price: roundPrice(mondayClose.price, 'stock') });
    // A fresh simulator (another process) tells the same closes.
    expect(new LiveMarket().facts(AAPL, aapl, TUESDAY_OPEN - 60_000)).toEqual(mondayClose);
    // However long a process has run: one asked about a day 300 days on, then 500 days on, agrees with a
    // process that starts at the later day.
    const longRunning = new LiveMarket();
    longRunning.facts(AAPL, aapl, Date.parse('2027-09-16T17:00:00Z'));
    const muchLater = Date.parse('2028-04-04T17:00:00Z');
    expect(longRunning.facts(AAPL, aapl, muchLater)).toEqual(new LiveMarket().facts(AAPL, aapl, muchLater));
  });

  it('quotes a spread around the price: bid below, ask above, the last trade at the price', async () => {
    const btc = await stored('BTCUSD');
    const tick = liveMarket().tick(BTC, btc, FRIDAY_MIDDAY);
    expect(tick.bidPrice).toBeLessThan(tick.price);
    expect(tick.askPrice).toBeGreaterThan(tick.price);
    expect(tick.lastPrice).toBe(tick.price);
    expect(tick.bidSize).toBeGreaterThan(0);
    expect(tick.askSize).toBeGreaterThan(0);
    expect(tick.at).toBe(FRIDAY_MIDDAY);
  });
});

describe('quotes follow the live market', () => {
  it('answers a stock quote at the stored close after the session and the simulated price within it', async () => {
    const aapl = await stored('AAPL');
    const expected = liveMarket().tick(AAPL, aapl, FRIDAY_MIDDAY + 30_000).lastPrice;
    expect(await quotedPrice('AAPL', FRIDAY_MIDDAY + 30_000)).toBe(expected);
    expect(expected).not.toBe(roundPrice(aapl.latest.price, 'stock'));
    expect(await quotedPrice('AAPL', FRIDAY_CLOSE)).toBe(roundPrice(aapl.latest.price, 'stock'));
  });

  it('answers a crypto quote that moves after the US close, equal to the tick of the same instant', async () => {
    const btc = await stored('BTCUSD');
    const at = FRIDAY_CLOSE + 60_000;
    const price = await quotedPrice('BTCUSD', at);
    expect(price).toBe(liveMarket().tick(BTC, btc, at).lastPrice);
    expect(price).not.toBe(roundPrice(btc.latest.price, 'crypto'));
    expect(await quotedPrice('BTCUSD', at + 20_000)).not.toBe(price);
  });

  it('answers profiles with the live price of the quote, labelled intraday as a profile is kept a minute', async () => {
    h.clock.now = TUESDAY_MIDDAY;
    const [quote] = (await stableAnswer(h, 'quote', { symbol: 'AAPL' }, key)).rows;
    const [profile] = (await stableAnswer(h, 'profile', { symbol: 'AAPL' }, key)).rows;
    const [byCik] = (await stableAnswer(h, 'profile-cik', { cik: '320193' }, key)).rows;
    expect(quote?.price).not.toBe(roundPrice((await stored('AAPL')).latest.price, 'stock'));
    expect(profile?.price).toBe(quote?.price);
    expect(byCik?.price).toBe(quote?.price);
    for (const path of ['profile', 'profile-cik'])
      expect(ALL_ENDPOINTS.find((endpoint) => endpoint.path === path)?.cadence.frequency).toBe('intraday');
  });

  it('labels real-time every endpoint whose answer moves with the live price during the session', async () => {
    const live = [
      'quote',
      'quote-short',
      'batch-quote',
      'batch-quote-short',
      'stock-price-change',
      'batch-exchange-quote',
      'batch-etf-quotes',
      'batch-commodity-quotes',
      'batch-crypto-quotes',
      'batch-forex-quotes',
      'batch-index-quotes',
      'market-capitalization',
      'market-capitalization-batch',
    ];
    for (const path of live) {
      const definition = ALL_ENDPOINTS.find((endpoint) => endpoint.path === path);
      const query = Object.fromEntries(new URLSearchParams(definition?.example ?? ''));
      // A session after the stored data (and after every instant asked above, whose answers may be cached).
      h.clock.now = WEDNESDAY_MIDDAY - 3_600_000;
      const earlier = await stableAnswer(h, path, query, key);
      h.clock.now = WEDNESDAY_MIDDAY;
      const later = await stableAnswer(h, path, query, key);
      expect(earlier.rows.length, path).toBeGreaterThan(0);
      expect(later.rows, path).not.toEqual(earlier.rows);
      expect(definition?.cadence.frequency, path).toBe('real-time');
    }
  });
});

// Later days than the tests above, whose cached answers would otherwise answer them.
describe('the live market keeps the exchange calendar', () => {
  it('rests US stocks on a NYSE holiday, when the market hours say the exchange is closed', async () => {
    const [aapl, btc] = await Promise.all([stored('AAPL'), stored('BTCUSD')]);
    const market = liveMarket();
    expect(market.tick(AAPL, aapl, WEDNESDAY_MIDDAY).trading).toBe(true);
    expect(market.facts(AAPL, aapl, WEDNESDAY_MIDDAY + 1_000).price).not.toBe(
      market.facts(AAPL, aapl, WEDNESDAY_MIDDAY).price,
    );
    // The holiday keeps Wednesday's close (a session after the stored data, continued by the walk).
    const wednesdayClose = market.facts(AAPL, aapl, WEDNESDAY_CLOSE);
    expect(wednesdayClose.date).toBe('2026-11-25');
    for (const at of [THANKSGIVING, THANKSGIVING + 3_600_000]) {
      expect(market.tick(AAPL, aapl, at).trading).toBe(false);
      expect(market.facts(AAPL, aapl, at)).toEqual(wednesdayClose);
      expect(await quotedPrice('AAPL', at)).toBe(roundPrice(wednesdayClose.price, 'stock'));
      const { rows } = await stableAnswer(h, 'exchange-market-hours', { exchange: 'NASDAQ' }, key);
      expect(rows[0]?.isMarketOpen).toBe(false);
    }
    expect(market.tick(BTC, btc, THANKSGIVING).trading).toBe(true);
  });

  it('stops US stocks at 13:00 New York on an early close, when the market hours close, with after-hours to 17:00', async () => {
    const aapl = await stored('AAPL');
    const market = liveMarket();
    const before = EARLY_CLOSE - 60_000;
    h.clock.now = before;
    const open = await stableAnswer(h, 'exchange-market-hours', { exchange: 'NYSE' }, key);
    expect(open.rows[0]?.isMarketOpen).toBe(true);
    expect(market.tick(AAPL, aapl, before).trading).toBe(true);
    expect(market.facts(AAPL, aapl, before + 1_000).price).not.toBe(market.facts(AAPL, aapl, before).price);
    h.clock.now = EARLY_CLOSE;
    const closed = await stableAnswer(h, 'exchange-market-hours', { exchange: 'NYSE' }, key);
    expect(closed.rows[0]?.isMarketOpen).toBe(false);
    expect(market.tick(AAPL, aapl, EARLY_CLOSE).trading).toBe(false);
    expect(await quotedPrice('AAPL', EARLY_CLOSE + 60_000)).toBe(
      await quotedPrice('AAPL', EARLY_CLOSE + 3 * 3_600_000),
    );
    const afterHours = market.extendedTick(AAPL, aapl, EARLY_CLOSE + 60_000);
    expect(afterHours).toMatchObject({ window: 'post', at: EARLY_CLOSE + 60_000 });
    // After-hours end at 17:00 New York (22:00 UTC): later, the last tick of the window holds.
    expect(market.extendedTick(AAPL, aapl, EARLY_CLOSE + 5 * 3_600_000)?.at).toBe(
      EARLY_CLOSE + 4 * 3_600_000 - 1_000,
    );
  });
});
