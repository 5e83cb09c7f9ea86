import { and, asc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companyProfiles,
  dailyPrices,
  delistedCompanies,
  executiveCompensation,
  financialStatements,
  securities,
} from '../../src/server/db/schema.ts';
import { openDataApiHarness, stableAnswer, type DataApiHarness } from './data-api-harness.ts';

let h: DataApiHarness;
let commercialKey: string;
let professionalKey: string;
let starterKey: string;
let freeKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  [commercialKey, professionalKey, starterKey, freeKey] = await Promise.all([
    h.keyFor('commercialEnterprise'),
    h.keyFor('monthlyT2'),
    h.keyFor('starterT1'),
    h.keyFor('free'),
  ]);
});

afterAll(async () => {
  await h.close();
});

type Row = Record<string, unknown>;

/** GET /stable/<path> and its rows, failing with the body when the status is not 200. */
async function rows<T = Row>(
  path: string,
  query: Record<string, string> = {},
  key = commercialKey,
): Promise<T[]> {
  const res = await h.request(`/stable/${path}`, { ...query, apikey: key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as T[];
}

interface QuoteRow {
  symbol: string;
  price: number;
  marketCap: number;
  volume: number;
}

interface ScreenerRow {
  symbol: string;
  companyName: string;
  marketCap: number;
  sector: string;
  industry: string;
  beta: number;
  price: number;
  lastAnnualDividend: number;
  volume: number;
  exchange: string;
  exchangeShortName: string;
  country: string;
  isEtf: boolean;
  isFund: boolean;
  isActivelyTrading: boolean;
}

async function sharesOf(symbol: string): Promise<number> {
  const [row] = await h.db
    .select({ shares: securities.sharesOutstanding })
    .from(securities)
    .where(eq(securities.symbol, symbol));
  return row?.shares ?? 0;
}

function expectDescending(values: readonly number[]): void {
  for (let i = 1; i < values.length; i += 1)
    expect(values[i - 1] ?? 0).toBeGreaterThanOrEqual(values[i] ?? 0);
}

describe('search by filing identifiers', () => {
  it('finds Apple by its CIK with or without the leading zeros', async () => {
    const short = await rows('search-cik', { cik: '320193' });
    expect(short).toEqual([
      {
        symbol: 'AAPL',
        companyName: 'Apple Inc.',
        cik: '0000320193',
        exchangeFullName: expect.any(String) as unknown,
        exchange: 'NASDAQ',
        currency: 'USD',
      },
    ]);
    expect(await rows('search-cik', { cik: '0000320193' })).toEqual(short);
    expect(await rows('search-cik', { cik: '9999999999' })).toEqual([]);
  });

  it('refuses a CIK that is not digits, naming the parameter', async () => {
    const answer = await stableAnswer(h, 'search-cik', { cik: 'apple' }, commercialKey);
    expect(answer.status).toBe(400);
    expect(answer.error).toContain('"cik"');
    expect(answer.error).toContain('ten digits');
  });

  it('finds a security by CUSIP and by ISIN with the market capitalisation the quote shows', async () => {
    const [profile] = await rows<{ cusip: string; isin: string; marketCap: number }>('profile', {
      symbol: 'MSFT',
    });
    const [quote] = await rows<QuoteRow>('quote', { symbol: 'MSFT' });
    expect(await rows('search-cusip', { cusip: (profile?.cusip ?? '').toLowerCase() })).toEqual([
      {
        symbol: 'MSFT',
        companyName: 'Microsoft Corporation',
        cusip: profile?.cusip,
        marketCap: quote?.marketCap,
      },
    ]);
    expect(await rows('search-isin', { isin: profile?.isin ?? '' })).toEqual([
      { symbol: 'MSFT', name: 'Microsoft Corporation', isin: profile?.isin, marketCap: quote?.marketCap },
    ]);
    const bad = await stableAnswer(h, 'search-isin', { isin: 'US03' }, commercialKey);
    expect(bad.status).toBe(400);
    expect(bad.error).toContain('"isin"');
  });

  it('lists a company’s listings in the older profile names, with the DCF value and the price’s distance to it', async () => {
    const [variant] = await rows('search-exchange-variants', { symbol: 'aapl' });
    const [profile] = await rows('profile', { symbol: 'AAPL' });
    const [dcf] = await rows<{ dcf: number }>('discounted-cash-flow', { symbol: 'AAPL' });
    expect(variant?.symbol).toBe('AAPL');
    expect(variant?.mktCap).toBe(profile?.marketCap);
    expect(variant?.volAvg).toBe(profile?.averageVolume);
    expect(variant?.changes).toBe(profile?.change);
    expect(variant?.exchange).toBe(profile?.exchangeFullName);
    expect(variant?.exchangeShortName).toBe('NASDAQ');
    expect(variant?.dcf).toBeCloseTo(dcf?.dcf ?? Number.NaN, 3);
    expect(variant?.dcfDiff).toBeCloseTo(Number(variant?.price) - Number(variant?.dcf), 3);
  });

  it('answers the profile of every listing filed under a CIK, exactly as the profile endpoint does', async () => {
    expect(await rows('profile-cik', { cik: '320193' })).toEqual(await rows('profile', { symbol: 'AAPL' }));
  });

  it('leaves out of profile-cik the listings the plan does not cover', async () => {
    const [outside] = await h.db
      .select({ cik: companyProfiles.cik, symbol: securities.symbol })
      .from(companyProfiles)
      .innerJoin(securities, eq(securities.symbol, companyProfiles.symbol))
      .where(
        and(eq(securities.sample, false), eq(securities.assetType, 'stock'), ne(companyProfiles.cik, '')),
      )
      .orderBy(asc(securities.symbol))
      .limit(1);
    expect(outside).toBeDefined();
    const cik = outside?.cik ?? '';
    expect((await rows<{ symbol: string }>('profile-cik', { cik })).map((row) => row.symbol)).toContain(
      outside?.symbol,
    );
    expect(await rows('profile-cik', { cik }, freeKey)).toEqual([]);
  });
});

describe('the company screener', () => {
  it('lists the largest companies first with the price, volume and market capitalisation of the quote', async () => {
    const found = await rows<ScreenerRow>('company-screener', { limit: '500' });
    expectDescending(found.map((row) => row.marketCap));
    const apple = found.find((row) => row.symbol === 'AAPL');
    const [quote] = await rows<QuoteRow>('quote', { symbol: 'AAPL' });
    const [profile] = await rows<{ beta: number; lastDividend: number; sector: string }>('profile', {
      symbol: 'AAPL',
    });
    expect(apple).toMatchObject({
      companyName: 'Apple Inc.',
      price: quote?.price,
      volume: quote?.volume,
      marketCap: quote?.marketCap,
      beta: profile?.beta,
      lastAnnualDividend: profile?.lastDividend,
      sector: profile?.sector,
      exchangeShortName: 'NASDAQ',
      country: 'US',
      isEtf: false,
      isFund: false,
      isActivelyTrading: true,
    });
    expect(await rows('company-screener', { limit: '3' })).toHaveLength(3);
  });

  it('keeps only the sector and the industry asked for, in any case', async () => {
    const tech = await rows<ScreenerRow>('company-screener', { sector: 'technology' });
    expect(tech.length).toBeGreaterThan(1);
    expect(tech.every((row) => row.sector === 'Technology')).toBe(true);
    const all = await rows<ScreenerRow>('company-screener', { limit: '10000' });
    expect(tech.length).toBe(all.filter((row) => row.sector === 'Technology').length);
    const industry = all.find((row) => row.symbol === 'AAPL')?.industry ?? '';
    const same = await rows<ScreenerRow>('company-screener', { industry: industry.toUpperCase() });
    expect(same.map((row) => row.symbol).sort()).toEqual(
      all
        .filter((row) => row.industry === industry)
        .map((row) => row.symbol)
        .sort(),
    );
  });

  it('bounds market capitalisation, price, beta, volume and dividends, leaving the bounds themselves out', async () => {
    const all = await rows<ScreenerRow>('company-screener', { limit: '10000' });
    const cases: [string, string, keyof ScreenerRow][] = [
      ['marketCapMoreThan', 'marketCapLowerThan', 'marketCap'],
      ['priceMoreThan', 'priceLowerThan', 'price'],
      ['betaMoreThan', 'betaLowerThan', 'beta'],
      ['volumeMoreThan', 'volumeLowerThan', 'volume'],
      ['dividendMoreThan', 'dividendLowerThan', 'lastAnnualDividend'],
    ];
    for (const [above, below, field] of cases) {
      const values = [...new Set(all.map((row) => Number(row[field])))].sort((a, b) => a - b);
      const low = values[Math.floor(values.length / 4)] ?? 0;
      const high = values[Math.floor((values.length * 3) / 4)] ?? 0;
      const inside = await rows<ScreenerRow>('company-screener', {
        [above]: String(low),
        [below]: String(high),
        limit: '10000',
      });
      const expected = all.filter((row) => Number(row[field]) > low && Number(row[field]) < high);
      expect(
        inside.map((row) => row.symbol),
        field,
      ).toEqual(expected.map((row) => row.symbol));
      expect(expected.length, field).toBeGreaterThan(0);
      expect(inside.length, field).toBeLessThan(all.length);
    }
  });

  it('keeps only the exchanges, the country and the kinds of security asked for', async () => {
    const all = await rows<ScreenerRow>('company-screener', { limit: '10000' });
    const usBig = await rows<ScreenerRow>('company-screener', { exchange: 'nasdaq,NYSE', limit: '10000' });
    expect(usBig.map((row) => row.symbol)).toEqual(
      all.filter((row) => ['NASDAQ', 'NYSE'].includes(row.exchangeShortName)).map((row) => row.symbol),
    );
    const london = await rows<ScreenerRow>('company-screener', { country: 'gb', limit: '10000' });
    expect(london.length).toBeGreaterThan(0);
    expect(london.every((row) => row.country === 'GB')).toBe(true);
    const etfs = await rows<ScreenerRow>('company-screener', { isEtf: 'true', limit: '10000' });
    expect(etfs.map((row) => row.symbol)).toContain('SPY');
    expect(etfs.every((row) => row.isEtf)).toBe(true);
    const noEtfs = await rows<ScreenerRow>('company-screener', { isEtf: 'false', limit: '10000' });
    expect(noEtfs.length + etfs.length).toBe(all.length);
    expect(noEtfs.some((row) => row.isEtf)).toBe(false);
    const funds = await rows<ScreenerRow>('company-screener', { isFund: 'true', limit: '10000' });
    const noFunds = await rows<ScreenerRow>('company-screener', { isFund: 'false', limit: '10000' });
    expect(funds.every((row) => row.isFund)).toBe(true);
    expect(funds.length + noFunds.length).toBe(all.length);
    expect(await rows('company-screener', { isActivelyTrading: 'false' })).toEqual([]);
    expect(await rows('company-screener', { isActivelyTrading: 'true', limit: '10000' })).toHaveLength(
      all.length,
    );
  });

  it('screens only the symbols the plan covers, and needs Starter', async () => {
    const starter = await rows<ScreenerRow>('company-screener', { limit: '10000' }, starterKey);
    expect(starter.length).toBeGreaterThan(0);
    expect(starter.every((row) => ['NASDAQ', 'NYSE', 'AMEX'].includes(row.exchangeShortName))).toBe(true);
    const all = await rows<ScreenerRow>('company-screener', { limit: '10000' });
    expect(all.some((row) => !['NASDAQ', 'NYSE', 'AMEX'].includes(row.exchangeShortName))).toBe(true);
    const free = await stableAnswer(h, 'company-screener', {}, freeKey);
    expect(free.status).toBe(402);
  });

  it('refuses filters it cannot read, naming them', async () => {
    for (const [name, value] of [
      ['priceMoreThan', 'cheap'],
      ['isEtf', 'yes'],
      ['exchange', 'NAS DAQ'],
      ['country', 'USA'],
      ['limit', '0'],
    ] as const) {
      const answer = await stableAnswer(h, 'company-screener', { [name]: value }, commercialKey);
      expect(answer.status, name).toBe(400);
      expect(answer.error, name).toContain(`"${name}"`);
    }
  });
});

describe('directory lists', () => {
  it('lists Facebook’s change to META with the newest change first', async () => {
    const changes = await rows<{ date: string; companyName: string; oldSymbol: string; newSymbol: string }>(
      'symbol-change',
    );
    expect(changes).toContainEqual({
      date: '2022-06-09',
      companyName: 'Meta Platforms, Inc.',
      oldSymbol: 'FB',
      newSymbol: 'META',
    });
    const dates = changes.map((row) => row.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(await rows('symbol-change', { limit: '1' })).toHaveLength(1);
  });

  it('lists every active security of every kind', async () => {
    const active = await rows<{ symbol: string; name: string }>('actively-trading-list');
    const stored = await h.db
      .select({ symbol: securities.symbol })
      .from(securities)
      .where(eq(securities.active, true));
    expect(active).toHaveLength(stored.length);
    expect(active.map((row) => row.symbol)).toEqual(
      expect.arrayContaining(['AAPL', 'BTCUSD', 'EURUSD', '^GSPC']),
    );
  });

  it('pages through the CIKs in order', async () => {
    const first = await rows<{ cik: string; companyName: string }>('cik-list', { page: '0', limit: '3' });
    const second = await rows<{ cik: string }>('cik-list', { page: '1', limit: '3' });
    const six = await rows<{ cik: string }>('cik-list', { page: '0', limit: '6' });
    expect([...first, ...second].map((row) => row.cik)).toEqual(six.map((row) => row.cik));
    expect(six.every((row) => /^\d{10}$/.test(row.cik))).toBe(true);
    expect((await rows<{ cik: string }>('cik-list', { limit: '10000' })).map((row) => row.cik)).toContain(
      '0000320193',
    );
  });

  it('pages delisted companies, the latest delisting first, none of them still listed', async () => {
    const page0 = await rows<{ symbol: string; ipoDate: string; delistedDate: string }>(
      'delisted-companies',
      {
        limit: '10',
      },
    );
    const page1 = await rows<{ symbol: string; delistedDate: string }>('delisted-companies', {
      page: '1',
      limit: '10',
    });
    expect(page0).toHaveLength(10);
    const dates = [...page0, ...page1].map((row) => row.delistedDate);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(page0.every((row) => row.ipoDate < row.delistedDate)).toBe(true);
    const listed = await h.db
      .select({ symbol: securities.symbol })
      .from(securities)
      .innerJoin(delistedCompanies, eq(delistedCompanies.symbol, securities.symbol));
    expect(listed).toEqual([]);
    const tooMany = await stableAnswer(h, 'delisted-companies', { limit: '101' }, commercialKey);
    expect(tooMany.status).toBe(400);
    expect(tooMany.error).toContain('"limit"');
  });

  it('lists the exchanges, sectors, industries and countries the database holds', async () => {
    const exchanges = await rows<{
      exchange: string;
      countryCode: string;
      countryName: string;
      symbolSuffix: string;
    }>('available-exchanges');
    expect(exchanges.find((row) => row.exchange === 'NASDAQ')).toMatchObject({
      countryCode: 'US',
      countryName: 'United States',
      symbolSuffix: 'N/A',
    });
    expect(exchanges.find((row) => row.exchange === 'LSE')?.symbolSuffix).toBe('.L');
    const stored = await h.db.selectDistinct({ exchange: securities.exchange }).from(securities);
    expect(exchanges.map((row) => row.exchange).sort()).toEqual(stored.map((row) => row.exchange).sort());
    const sectors = (await rows<{ sector: string }>('available-sectors')).map((row) => row.sector);
    expect(sectors).toContain('Technology');
    expect([...sectors].sort()).toEqual(sectors);
    expect(new Set(sectors).size).toBe(sectors.length);
    const countries = (await rows<{ country: string }>('available-countries')).map((row) => row.country);
    expect(countries).toEqual(expect.arrayContaining(['US', 'GB', 'JP']));
    const industries = (await rows<{ industry: string }>('available-industries')).map((row) => row.industry);
    const apple = await rows<{ industry: string }>('profile', { symbol: 'AAPL' });
    expect(industries).toContain(apple[0]?.industry);
  });
});

describe('market capitalisation', () => {
  it('is the quote’s price times the shares outstanding', async () => {
    const [quote] = await rows<QuoteRow>('quote', { symbol: 'AAPL' });
    const [cap] = await rows<{ symbol: string; date: string; marketCap: number }>('market-capitalization', {
      symbol: 'AAPL',
    });
    expect(cap?.date).toBe('2026-11-20');
    expect(cap?.marketCap).toBe(Math.round((quote?.price ?? 0) * (await sharesOf('AAPL'))));
  });

  it('answers a batch in the order asked, without repeats or unknown symbols', async () => {
    const batch = await rows<{ symbol: string }>('market-capitalization-batch', {
      symbols: 'msft,AAPL,MSFT,NOPE',
    });
    expect(batch.map((row) => row.symbol)).toEqual(['MSFT', 'AAPL']);
  });

  it('is each day’s split-adjusted close times the shares outstanding, newest first, at most limit days', async () => {
    const caps = await rows<{ date: string; marketCap: number }>('historical-market-capitalization', {
      symbol: 'AAPL',
      from: '2026-10-01',
      to: '2026-10-31',
    });
    const bars = await rows<{ date: string; close: number }>('historical-price-eod/full', {
      symbol: 'AAPL',
      from: '2026-10-01',
      to: '2026-10-31',
    });
    const shares = await sharesOf('AAPL');
    expect(caps.map((row) => row.date)).toEqual(bars.map((row) => row.date));
    caps.forEach((row, i) => {
      expect(row.marketCap).toBe(Math.round((bars[i]?.close ?? 0) * shares));
    });
    expect(await rows('historical-market-capitalization', { symbol: 'AAPL', limit: '5' })).toHaveLength(5);
  });

  it('respects the plan’s years of history and refuses a range that ends before it starts', async () => {
    const old = await stableAnswer(
      h,
      'historical-market-capitalization',
      { symbol: 'AAPL', from: '2015-01-02' },
      freeKey,
    );
    expect(old.status).toBe(402);
    const backwards = await stableAnswer(
      h,
      'historical-market-capitalization',
      { symbol: 'AAPL', from: '2026-10-02', to: '2026-10-01' },
      commercialKey,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.error).toContain('"from"');
  });
});

describe('shares float and head count', () => {
  it('reports float shares no larger than the outstanding shares, and the float as their percentage', async () => {
    const [apple] = await rows<{
      freeFloat: number;
      floatShares: number;
      outstandingShares: number;
      source: string;
    }>('shares-float', { symbol: 'AAPL' }, starterKey);
    expect(apple?.outstandingShares).toBe(Math.round(await sharesOf('AAPL')));
    expect(apple?.floatShares).toBeLessThanOrEqual(apple?.outstandingShares ?? 0);
    expect(apple?.freeFloat).toBeCloseTo(
      ((apple?.floatShares ?? 0) / (apple?.outstandingShares ?? 1)) * 100,
      3,
    );
    const everyone = await rows<{ symbol: string; floatShares: number; outstandingShares: number }>(
      'shares-float-all',
      { limit: '5000' },
      professionalKey,
    );
    expect(everyone.length).toBeGreaterThan(10);
    expect(everyone.every((row) => row.floatShares <= row.outstandingShares)).toBe(true);
    expect(Object.keys(everyone[0] ?? {})).not.toContain('source');
    const symbols = everyone.map((row) => row.symbol);
    expect([...symbols].sort()).toEqual(symbols);
    expect((await stableAnswer(h, 'shares-float-all', {}, starterKey)).status).toBe(402);
  });

  it('gives the profile’s head count as the latest, and one count per annual report', async () => {
    const [profile] = await rows<{ fullTimeEmployees: string }>('profile', { symbol: 'AAPL' });
    const latest = await rows<{ employeeCount: number; formType: string; cik: string }>(
      'employee-count',
      { symbol: 'AAPL' },
      starterKey,
    );
    expect(latest).toHaveLength(1);
    expect(String(latest[0]?.employeeCount)).toBe(profile?.fullTimeEmployees);
    expect(latest[0]).toMatchObject({ formType: '10-K', cik: '0000320193' });
    const history = await rows<{ periodOfReport: string; filingDate: string }>(
      'historical-employee-count',
      { symbol: 'AAPL' },
      starterKey,
    );
    const annual = await h.db
      .select({ date: financialStatements.date })
      .from(financialStatements)
      .where(
        and(
          eq(financialStatements.symbol, 'AAPL'),
          eq(financialStatements.statement, 'income'),
          eq(financialStatements.period, 'FY'),
        ),
      );
    expect(history.map((row) => row.periodOfReport)).toEqual(
      annual
        .map((row) => row.date)
        .sort()
        .reverse(),
    );
    expect((await stableAnswer(h, 'employee-count', { symbol: 'AAPL' }, freeKey)).status).toBe(402);
  });
});

describe('notes, pay and mergers', () => {
  it('lists Apple’s notes with its CIK, the soonest maturity first', async () => {
    const notes = await rows<{ cik: string; symbol: string; title: string; exchange: string }>(
      'company-notes',
      {
        symbol: 'AAPL',
      },
    );
    expect(notes.length).toBeGreaterThan(0);
    const years = notes.map((note) => Number(/due (\d{4})$/.exec(note.title)?.[1]));
    expect([...years].sort((a, b) => a - b)).toEqual(years);
    expect(notes.every((note) => note.cik === '0000320193' && note.exchange === 'NASDAQ')).toBe(true);
  });

  it('pays each named executive the latest year’s total key-executives shows, made of its components', async () => {
    const pay = await rows<Record<string, number | string>>(
      'governance-executive-compensation',
      { symbol: 'AAPL' },
      professionalKey,
    );
    const officers = await rows<{ name: string; title: string; pay: number | null }>('key-executives', {
      symbol: 'AAPL',
    });
    const latestYear = Math.max(...pay.map((row) => Number(row.year)));
    const latest = pay.filter((row) => row.year === latestYear);
    expect(latest.length).toBeGreaterThan(0);
    for (const row of latest) {
      const officer = officers.find((o) => row.nameAndPosition === `${o.name}, ${o.title}`);
      expect(officer?.pay, String(row.nameAndPosition)).toBe(row.total);
    }
    for (const row of pay) {
      const parts =
        Number(row.salary) +
        Number(row.bonus) +
        Number(row.stockAward) +
        Number(row.optionAward) +
        Number(row.incentivePlanCompensation) +
        Number(row.allOtherCompensation);
      expect(parts).toBe(row.total);
    }
    expect(
      (await stableAnswer(h, 'governance-executive-compensation', { symbol: 'AAPL' }, starterKey)).status,
    ).toBe(402);
  });

  it('averages the named executives’ pay of each industry and year', async () => {
    const [sample] = await h.db
      .select({ industry: executiveCompensation.industry, year: executiveCompensation.year })
      .from(executiveCompensation)
      .limit(1);
    const stored = await h.db
      .select({ total: executiveCompensation.total })
      .from(executiveCompensation)
      .where(
        and(
          eq(executiveCompensation.industry, sample?.industry ?? ''),
          eq(executiveCompensation.year, sample?.year ?? 0),
        ),
      );
    const mean = stored.reduce((sum, row) => sum + row.total, 0) / stored.length;
    const benchmark = await rows<{ industryTitle: string; year: number; averageCompensation: number }>(
      'executive-compensation-benchmark',
      { year: String(sample?.year) },
      professionalKey,
    );
    expect(benchmark.every((row) => row.year === sample?.year)).toBe(true);
    const found = benchmark.find((row) => row.industryTitle === sample?.industry);
    expect(found?.averageCompensation).toBeCloseTo(mean, 2);
    const bad = await stableAnswer(h, 'executive-compensation-benchmark', { year: 'last' }, professionalKey);
    expect(bad.status).toBe(400);
    expect(bad.error).toContain('"year"');
  });

  it('pages the latest mergers and finds them by either company’s name', async () => {
    const page0 = await rows<{ companyName: string; targetedCompanyName: string; acceptedDate: string }>(
      'mergers-acquisitions-latest',
      { limit: '5' },
      professionalKey,
    );
    const page1 = await rows<{ acceptedDate: string }>(
      'mergers-acquisitions-latest',
      { page: '1', limit: '5' },
      professionalKey,
    );
    const dates = [...page0, ...page1].map((row) => row.acceptedDate);
    expect([...dates].sort().reverse()).toEqual(dates);
    const word = (page0[0]?.targetedCompanyName ?? '').split(' ')[0] ?? '';
    const found = await rows<{ companyName: string; targetedCompanyName: string }>(
      'mergers-acquisitions-search',
      { name: word.toLowerCase() },
      professionalKey,
    );
    expect(found.length).toBeGreaterThan(0);
    expect(
      found.every((row) =>
        `${row.companyName} ${row.targetedCompanyName}`.toLowerCase().includes(word.toLowerCase()),
      ),
    ).toBe(true);
    const short = await stableAnswer(h, 'mergers-acquisitions-search', { name: 'a' }, professionalKey);
    expect(short.status).toBe(400);
    expect(short.error).toContain('"name"');
  });

  it('names delisted companies as the targets they were, traded under their old ticker', async () => {
    const mergers = await rows<{ targetedSymbol: string; transactionDate: string }>(
      'mergers-acquisitions-latest',
      { limit: '1000' },
      professionalKey,
    );
    const gone = await h.db.select().from(delistedCompanies);
    const bySymbol = new Map(gone.map((row) => [row.symbol, row]));
    const listedTargets = mergers.filter((row) => row.targetedSymbol !== '');
    expect(listedTargets.length).toBeGreaterThan(0);
    for (const row of listedTargets) {
      const company = bySymbol.get(row.targetedSymbol);
      expect(company, row.targetedSymbol).toBeDefined();
      expect(row.transactionDate <= (company?.delistedDate ?? '')).toBe(true);
    }
  });

  it('gives every target company a CIK of its own, held by no listed company', async () => {
    const mergers = await rows<{ targetedCompanyName: string; targetedCik: string }>(
      'mergers-acquisitions-latest',
      { limit: '1000' },
      professionalKey,
    );
    const listed = new Set(
      (await h.db.select({ cik: companyProfiles.cik }).from(companyProfiles)).map((row) => row.cik),
    );
    const names = new Map<string, string>();
    for (const row of mergers) {
      expect(listed.has(row.targetedCik), row.targetedCik).toBe(false);
      const other = names.get(row.targetedCik);
      if (other !== undefined) expect(row.targetedCompanyName).toBe(other);
      names.set(row.targetedCik, row.targetedCompanyName);
    }
  });
});

describe('share classes', () => {
  it('screens one share class per company unless all are asked for', async () => {
    // A second class of Apple's shares, filed under the same CIK, with one day of prices.
    await h.db.insert(securities).values({
      symbol: 'AAPLB',
      name: 'Apple Inc. Class B',
      assetType: 'stock',
      exchange: 'NASDAQ',
      exchangeFullName: 'NASDAQ Global Select',
      currency: 'USD',
      country: 'US',
      sector: 'Technology',
      industry: 'Consumer Electronics',
      sharesOutstanding: 1_000_000,
      sample: true,
    });
    // And an unrelated company given the same CIK by mistake: not a share class of Apple.
    await h.db.insert(securities).values({
      symbol: 'ORCHD',
      name: 'Orchard Holdings Inc.',
      assetType: 'stock',
      exchange: 'NYSE',
      exchangeFullName: 'New York Stock Exchange',
      currency: 'USD',
      country: 'US',
      sector: 'Technology',
      industry: 'Software - Application',
      sharesOutstanding: 1_000_000,
      sample: true,
    });
    await h.db.insert(companyProfiles).values([
      { symbol: 'AAPLB', cik: '0000320193' },
      { symbol: 'ORCHD', cik: '0000320193' },
    ]);
    const bar = { date: '2026-11-20', open: 10, high: 11, low: 9, close: 10, adjClose: 10, volume: 1000 };
    await h.db.insert(dailyPrices).values([
      { symbol: 'AAPLB', ...bar },
      { symbol: 'ORCHD', ...bar },
    ]);
    const one = await rows<ScreenerRow>('company-screener', { sector: 'Technology', limit: '10000' });
    expect(one.map((row) => row.symbol)).toContain('AAPL');
    expect(one.map((row) => row.symbol)).not.toContain('AAPLB');
    expect(one.map((row) => row.symbol)).toContain('ORCHD');
    const every = await rows<ScreenerRow>('company-screener', {
      sector: 'Technology',
      includeAllShareClasses: 'true',
      limit: '10000',
    });
    expect(every.map((row) => row.symbol)).toEqual(expect.arrayContaining(['AAPL', 'AAPLB']));
    expect(every.find((row) => row.symbol === 'AAPLB')?.marketCap).toBe(10_000_000);
  });
});
