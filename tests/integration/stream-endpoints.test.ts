import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveMarket, type StoredQuote } from '../../src/server/services/market-data/live-market.ts';
import { storedQuotes } from '../../src/server/services/market-data/quotes.ts';
import { openDataApiHarness, stableAnswer, type DataApiHarness } from './data-api-harness.ts';

let h: DataApiHarness;
let professionalKey: string;
let starterKey: string;

const AAPL = { symbol: 'AAPL', assetType: 'stock', exchange: 'NASDAQ' } as const;
/** Friday 2026-11-20, 16:00 New York: after-hours begin. */
const FRIDAY_CLOSE = Date.parse('2026-11-20T21:00:00Z');

beforeAll(async () => {
  h = await openDataApiHarness();
  [professionalKey, starterKey] = await Promise.all([h.keyFor('monthlyT2'), h.keyFor('starterT1')]);
});

afterAll(async () => {
  await h.close();
});

async function storedAapl(): Promise<StoredQuote> {
  const found = (await storedQuotes(h.db, ['AAPL'], new Date(FRIDAY_CLOSE))).get('AAPL');
  if (found === undefined) throw new Error('no AAPL');
  return found;
}

describe('aftermarket endpoints', () => {
  it('answers the close as the first after-hours trade at 16:00 New York, stamped in milliseconds', async () => {
    h.clock.now = FRIDAY_CLOSE;
    const stored = await storedAapl();
    const { status, rows } = await stableAnswer(h, 'aftermarket-trade', { symbol: 'AAPL' }, professionalKey);
    expect(status).toBe(200);
    expect(rows).toEqual([
      { symbol: 'AAPL', price: stored.latest.price, tradeSize: rows[0]?.tradeSize, timestamp: FRIDAY_CLOSE },
    ]);
    expect(rows[0]?.tradeSize).toBeGreaterThan(0);
  });

  it('moves during after-hours and keeps the last tick of 19:59:59 over the weekend', async () => {
    const stored = await storedAapl();
    const evening = FRIDAY_CLOSE + 2 * 3_600_000;
    h.clock.now = evening;
    const { rows } = await stableAnswer(h, 'aftermarket-trade', { symbol: 'AAPL' }, professionalKey);
    const expected = liveMarket().extendedTick(AAPL, stored, evening);
    expect(rows[0]).toMatchObject({ price: expected?.price, timestamp: evening });
    expect(rows[0]?.price).not.toBe(stored.latest.price);
    h.clock.now = Date.parse('2026-11-21T15:00:00Z');
    const weekend = await stableAnswer(h, 'aftermarket-trade', { symbol: 'AAPL' }, professionalKey);
    expect(weekend.rows[0]?.timestamp).toBe(Date.parse('2026-11-21T00:59:59Z'));
  });

  it('quotes the extended-hours book with the bid below the ask and the day volume', async () => {
    h.clock.now = FRIDAY_CLOSE + 60_000;
    const stored = await storedAapl();
    const { rows } = await stableAnswer(h, 'aftermarket-quote', { symbol: 'AAPL' }, professionalKey);
    const row = rows[0] ?? {};
    expect(Object.keys(row)).toEqual([
      'symbol',
      'bidSize',
      'bidPrice',
      'askSize',
      'askPrice',
      'volume',
      'timestamp',
    ]);
    expect(row.bidPrice as number).toBeLessThan(row.askPrice as number);
    expect(row.volume).toBe(stored.latest.volume);
    expect(row.timestamp).toBe(FRIDAY_CLOSE + 60_000);
  });

  it('answers batches in the order asked and leaves out symbols without extended hours', async () => {
    h.clock.now = FRIDAY_CLOSE + 120_000;
    const trades = await stableAnswer(
      h,
      'batch-aftermarket-trade',
      { symbols: 'MSFT,BTCUSD,AAPL,NOSUCH' },
      professionalKey,
    );
    expect(trades.rows.map((row) => row.symbol)).toEqual(['MSFT', 'AAPL']);
    const quotes = await stableAnswer(
      h,
      'batch-aftermarket-quote',
      { symbols: 'AAPL,MSFT' },
      professionalKey,
    );
    expect(quotes.rows.map((row) => row.symbol)).toEqual(['AAPL', 'MSFT']);
  });

  it('refuses plans below Professional with a 402', async () => {
    const { status, error } = await stableAnswer(h, 'aftermarket-trade', { symbol: 'AAPL' }, starterKey);
    expect(status).toBe(402);
    expect(error).toMatch(
      /^Your Starter plan does not cover the aftermarket-trade endpoint\. It is included in the Professional plan and above/,
    );
  });
});
