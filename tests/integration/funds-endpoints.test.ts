import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFilingPage } from '../../src/server/filings/filing-page.ts';
import { HARNESS_AS_OF, openDataApiHarness, stableAnswer, type DataApiHarness } from './data-api-harness.ts';

let h: DataApiHarness;
let professionalKey: string;
let starterKey: string;
let freeKey: string;
let commercialKey: string;

/** The demo universe's mutual funds. */
const MUTUAL_FUNDS = [
  'AGTHX',
  'DODGX',
  'FCNTX',
  'FXAIX',
  'PRGFX',
  'SWPPX',
  'VBTLX',
  'VFIAX',
  'VIGAX',
  'VIMAX',
  'VTIAX',
];

beforeAll(async () => {
  h = await openDataApiHarness();
  [professionalKey, starterKey, freeKey, commercialKey] = await Promise.all([
    h.keyFor('monthlyT2'),
    h.keyFor('starterT1'),
    h.keyFor('free'),
    h.keyFor('commercialEnterprise'),
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
  key = professionalKey,
): Promise<T[]> {
  const answer = await stableAnswer(h, path, query, key);
  expect(answer.status, answer.error).toBe(200);
  return answer.rows as T[];
}

/** The close of a symbol on a day, or on the last trading day before it, as traded then. */
async function closeOn(symbol: string, date: string): Promise<number> {
  const from = new Date(Date.parse(`${date}T00:00:00Z`) - 10 * 86_400_000).toISOString().slice(0, 10);
  const bars = await rows<{ date: string; adjClose: number }>(
    'historical-price-eod/non-split-adjusted',
    { symbol, from, to: date },
    commercialKey,
  );
  const [latest] = [...bars].sort((a, b) => b.date.localeCompare(a.date));
  if (latest === undefined) throw new Error(`no close of ${symbol} by ${date}`);
  return latest.adjClose;
}

interface QuoteRow {
  symbol: string;
  price: number;
  volume: number;
  open: number;
  dayHigh: number;
  dayLow: number;
  previousClose: number;
}

interface DisclosureRow {
  cik: string;
  date: string;
  acceptedDate: string;
  symbol: string;
  balance: number;
  valUsd: number;
  pctVal: number;
  cur_cd: string;
  isin: string;
}

interface DateRow {
  date: string;
  year: number;
  quarter: number;
}

interface HolderRow {
  cik: string;
  holder: string;
  shares: number;
  dateReported: string;
  change: number;
  weightPercent: number;
}

describe('mutual funds in the universe', () => {
  it('quotes every mutual fund at its net asset value, in symbol order, the same as the single quote', async () => {
    const all = await rows<QuoteRow>('batch-mutualfund-quotes', {}, starterKey);
    expect(all.map((row) => row.symbol)).toEqual(MUTUAL_FUNDS);
    const [vfiax] = await rows<QuoteRow>('quote', { symbol: 'VFIAX' }, starterKey);
    expect(all.find((row) => row.symbol === 'VFIAX')).toEqual(vfiax);
    // Nothing trades: the day's bar is the net asset value, open to close.
    expect(vfiax).toMatchObject({
      volume: 0,
      open: vfiax?.price,
      dayHigh: vfiax?.price,
      dayLow: vfiax?.price,
    });
    const short = await rows('batch-mutualfund-quotes', { short: 'true' }, starterKey);
    expect(Object.keys(short[0] ?? {})).toEqual(['symbol', 'price', 'change', 'volume']);
    expect((await stableAnswer(h, 'batch-mutualfund-quotes', {}, freeKey)).status).toBe(402);
  });

  it('keeps a mutual fund’s price still through the session, at the NAV struck after the previous close', async () => {
    const [today, before] = (
      await rows<{ date: string; adjClose: number }>('historical-price-eod/non-split-adjusted', {
        symbol: 'VFIAX',
        from: '2026-11-18',
        to: HARNESS_AS_OF,
      })
    ).sort((a, b) => b.date.localeCompare(a.date));
    expect(today?.date).toBe(HARNESS_AS_OF);
    try {
      for (const instant of ['2026-11-20T15:00:00Z', '2026-11-20T18:30:00Z']) {
        h.clock.now = Date.parse(instant);
        const [quote] = await rows<QuoteRow>('quote', { symbol: 'VFIAX' });
        expect(quote?.price, instant).toBe(before?.adjClose);
      }
      h.clock.now = Date.parse('2026-11-20T21:30:00Z');
      const [closed] = await rows<QuoteRow>('quote', { symbol: 'VFIAX' });
      expect(closed?.price).toBe(today?.adjClose);
      expect(closed?.previousClose).toBe(before?.adjClose);
    } finally {
      h.clock.now = Date.parse(`${HARNESS_AS_OF}T21:00:00Z`);
    }
  });

  it('profiles a mutual fund as a fund and finds it by name and in the screener, each fund of a trust on its own', async () => {
    const [profile] = await rows('profile', { symbol: 'VFIAX' });
    expect(profile).toMatchObject({
      symbol: 'VFIAX',
      companyName: 'Vanguard 500 Index Fund Admiral Shares',
      isFund: true,
      isEtf: false,
      exchange: 'NASDAQ',
      city: 'Malvern',
      fullTimeEmployees: null,
    });
    const found = await rows<{ symbol: string }>('search-name', { query: 'Vanguard 500' });
    expect(found.map((row) => row.symbol)).toContain('VFIAX');
    const screened = await rows<{ symbol: string; isFund: boolean }>('company-screener', {
      isFund: 'true',
      limit: '1000',
    });
    // VFIAX, VIMAX and VIGAX share their trust's CIK and are still three funds.
    expect(screened.map((row) => row.symbol).sort()).toEqual(MUTUAL_FUNDS);
  });

  it('describes a mutual fund with etf/info and lists its holdings with etf/holdings, weights summing to 100', async () => {
    const holdings = await rows<{ asset: string; weightPercentage: number }>('etf/holdings', {
      symbol: 'VFIAX',
    });
    const members = await rows<{ symbol: string }>('sp500-constituent');
    expect(holdings.map((row) => row.asset).sort()).toEqual(members.map((row) => row.symbol).sort());
    expect(holdings.reduce((sum, row) => sum + row.weightPercentage, 0)).toBeCloseTo(100, 2);
    const [info] = await rows('etf/info', { symbol: 'VFIAX' });
    const [quote] = await rows<QuoteRow & { marketCap: number }>('quote', { symbol: 'VFIAX' });
    expect(info).toMatchObject({
      symbol: 'VFIAX',
      etfCompany: 'Vanguard',
      assetClass: 'Equity',
      nav: quote?.price,
      assetsUnderManagement: quote?.marketCap,
      holdingsCount: holdings.length,
    });
    expect(await rows('etf/holdings', { symbol: 'VBTLX' })).toEqual([]);
  });

  it('counts mutual funds among the funds holding a stock', async () => {
    const exposure = await rows<{ symbol: string }>('etf/asset-exposure', { symbol: 'AAPL' });
    expect(exposure.map((row) => row.symbol)).toEqual(
      expect.arrayContaining(['SPY', 'QQQ', 'VFIAX', 'FXAIX']),
    );
  });
});

describe('fund disclosures', () => {
  it('lists a fund’s filed quarters, newest first, each answered by funds/disclosure as filed', async () => {
    const dates = await rows<DateRow>('funds/disclosure-dates', { symbol: 'VFIAX' });
    expect(dates).toHaveLength(3);
    expect(dates.map((row) => row.date)).toEqual([...dates.map((row) => row.date)].sort().reverse());
    for (const { date, year, quarter } of dates) {
      expect(date.slice(0, 4)).toBe(String(year));
      // Filings are for calendar quarters: the period end is the quarter's last day.
      expect(date.slice(5)).toBe(['03-31', '06-30', '09-30', '12-31'][quarter - 1]);
      const positions = await rows<DisclosureRow>('funds/disclosure', {
        symbol: 'VFIAX',
        year: String(year),
        quarter: String(quarter),
      });
      expect(positions.length).toBeGreaterThan(5);
      expect(positions.every((row) => row.date === date && row.cik === '0000736015')).toBe(true);
      expect(positions.reduce((sum, row) => sum + row.pctVal, 0)).toBeCloseTo(100, 3);
      const values = positions.map((row) => row.valUsd);
      expect(values).toEqual([...values].sort((a, b) => b - a));
    }
  });

  it('values a filing at the closes of its period end, which later prices never change', async () => {
    const [latest] = await rows<DateRow>('funds/disclosure-dates', { symbol: 'VFIAX' });
    if (latest === undefined) throw new Error('VFIAX filed nothing');
    const query = { symbol: 'VFIAX', year: String(latest.year), quarter: String(latest.quarter) };
    const positions = await rows<DisclosureRow>('funds/disclosure', query);
    const apple = positions.find((row) => row.symbol === 'AAPL');
    expect(apple).toMatchObject({ cur_cd: 'USD', isin: expect.stringMatching(/^US/) as unknown });
    expect(apple?.valUsd).toBeCloseTo((apple?.balance ?? 0) * (await closeOn('AAPL', latest.date)), 1);
    h.clock.now = Date.parse('2026-11-23T21:00:00Z');
    try {
      expect(await rows<DisclosureRow>('funds/disclosure', query)).toEqual(positions);
    } finally {
      h.clock.now = Date.parse(`${HARNESS_AS_OF}T21:00:00Z`);
    }
  });

  it('converts a foreign holding to US dollars at the period end’s currency rate', async () => {
    const [latest] = await rows<DateRow>('funds/disclosure-dates', { symbol: 'VTIAX' });
    if (latest === undefined) throw new Error('VTIAX filed nothing');
    const positions = await rows<DisclosureRow>('funds/disclosure', {
      symbol: 'VTIAX',
      year: String(latest.year),
      quarter: String(latest.quarter),
    });
    const pound = positions.find((row) => row.cur_cd === 'GBP');
    if (pound === undefined) throw new Error('VTIAX holds nothing priced in pounds');
    const local = pound.balance * (await closeOn(pound.symbol, latest.date));
    const rate = await closeOn('GBPUSD', latest.date);
    expect(pound.valUsd).toBeCloseTo(local * rate, -1);
  });

  it('stamps a filing with the acceptance the SEC filings index has for it, and shows its holdings on its page', async () => {
    const [latest] = await rows<DateRow>('funds/disclosure-dates', { symbol: 'VFIAX' });
    const [position] = await rows<DisclosureRow>('funds/disclosure', {
      symbol: 'VFIAX',
      year: String(latest?.year),
      quarter: String(latest?.quarter),
    });
    const filings = await rows<{ formType: string; acceptedDate: string; link: string }>(
      'sec-filings-search/symbol',
      { symbol: 'VFIAX', from: '2025-01-01', to: HARNESS_AS_OF },
    );
    const nport = filings.filter((filing) => filing.formType === 'NPORT-P');
    expect(nport).toHaveLength(3);
    const filing = nport.find((candidate) => candidate.acceptedDate === position?.acceptedDate);
    expect(filing).toBeDefined();
    const page = await loadFilingPage(h.db, filing?.link.split('/').pop() ?? '');
    expect(page).toMatchObject({
      formType: 'NPORT-P',
      companyName: 'Vanguard Index Funds',
      periodEnd: latest?.date,
    });
    expect(page?.holdings[0]).toMatchObject({ symbol: position?.symbol, shares: position?.balance });
  });

  it('answers [] for a quarter without a filing, another registrant’s CIK, a fund holding nothing listed and a stock', async () => {
    const [latest] = await rows<DateRow>('funds/disclosure-dates', { symbol: 'VFIAX' });
    const quarter = { year: String(latest?.year), quarter: String(latest?.quarter) };
    expect(await rows('funds/disclosure', { symbol: 'VFIAX', year: '2020', quarter: '1' })).toEqual([]);
    expect(await rows('funds/disclosure', { symbol: 'VFIAX', ...quarter, cik: '320193' })).toEqual([]);
    expect(
      (await rows('funds/disclosure', { symbol: 'VFIAX', ...quarter, cik: '736015' })).length,
    ).toBeGreaterThan(0);
    expect(await rows('funds/disclosure-dates', { symbol: 'VFIAX', cik: '0000320193' })).toEqual([]);
    expect(await rows('funds/disclosure-dates', { symbol: 'VBTLX' })).toEqual([]);
    expect(await rows('funds/disclosure-dates', { symbol: 'AAPL' })).toEqual([]);
    expect(await rows('funds/disclosure', { symbol: 'AAPL', ...quarter })).toEqual([]);
  });

  it('names every fund whose latest filing holds a stock, with that filing’s shares and weight and the change since the one before', async () => {
    const holders = await rows<HolderRow>('funds/disclosure-holders-latest', { symbol: 'AAPL' });
    expect(holders.map((row) => row.holder)).toEqual(
      expect.arrayContaining([
        'Vanguard 500 Index Fund',
        'Fidelity 500 Index Fund',
        'SPDR S&P 500 ETF Trust',
      ]),
    );
    const shares = holders.map((row) => row.shares);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    const vanguard = holders.find((row) => row.holder === 'Vanguard 500 Index Fund');
    const [latest, previous] = await rows<DateRow>('funds/disclosure-dates', { symbol: 'VFIAX' });
    const positionIn = async (when: DateRow | undefined): Promise<DisclosureRow | undefined> =>
      (
        await rows<DisclosureRow>('funds/disclosure', {
          symbol: 'VFIAX',
          year: String(when?.year),
          quarter: String(when?.quarter),
        })
      ).find((row) => row.symbol === 'AAPL');
    const now = await positionIn(latest);
    const before = await positionIn(previous);
    expect(vanguard).toEqual({
      cik: '0000736015',
      holder: 'Vanguard 500 Index Fund',
      shares: now?.balance,
      dateReported: latest?.date,
      change: (now?.balance ?? 0) - (before?.balance ?? 0),
      weightPercent: now?.pctVal,
    });
    expect(await rows('funds/disclosure-holders-latest', { symbol: 'BTCUSD' })).toEqual([]);
  });

  it('finds funds by registrant, series or name, with their registration and the registrant’s address', async () => {
    const trust = await rows('funds/disclosure-holders-search', { name: 'vanguard index funds' });
    expect(trust.map((row) => row.symbol)).toEqual(['VFIAX', 'VIGAX', 'VIMAX']);
    expect(trust[0]).toEqual({
      symbol: 'VFIAX',
      cik: '0000736015',
      classId: 'C000007773',
      seriesId: 'S000002839',
      entityName: 'Vanguard Index Funds',
      entityOrgType: '30',
      seriesName: 'Vanguard 500 Index Fund',
      className: 'Admiral Shares',
      reportingFileNumber: '811-02652',
      address: '100 Vanguard Boulevard',
      city: 'Malvern',
      zipCode: '19355',
      state: 'PA',
    });
    const [spy] = await rows('funds/disclosure-holders-search', { name: 'SPDR S&P 500' });
    expect(spy).toMatchObject({ symbol: 'SPY', entityName: 'SPDR S&P 500 ETF Trust' });
    expect(await rows('funds/disclosure-holders-search', { name: 'no such fund' })).toEqual([]);
  });

  it('refuses a quarter outside 1 to 4, a missing year and a one-letter name', async () => {
    const quarter = await stableAnswer(
      h,
      'funds/disclosure',
      { symbol: 'VFIAX', year: '2026', quarter: '5' },
      professionalKey,
    );
    expect(quarter.status).toBe(400);
    expect(quarter.error).toContain('quarter');
    const year = await stableAnswer(
      h,
      'funds/disclosure',
      { symbol: 'VFIAX', quarter: '2' },
      professionalKey,
    );
    expect(year.status).toBe(400);
    expect(year.error).toContain('year');
    expect(
      (await stableAnswer(h, 'funds/disclosure-holders-search', { name: 'v' }, professionalKey)).status,
    ).toBe(400);
  });

  it('is sold with Professional, like the funds’ holdings: Starter is refused', async () => {
    const refused = await stableAnswer(h, 'funds/disclosure-holders-latest', { symbol: 'AAPL' }, starterKey);
    expect(refused.status).toBe(402);
    expect(refused.error).toContain('Professional');
  });
});
