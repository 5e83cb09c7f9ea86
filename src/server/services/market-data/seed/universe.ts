import type { AssetType } from '../../../db/market-schema.ts';
import { dayOf, exchangeTradingCalendar, fromDay, toDay, type TradingCalendar } from './calendar.ts';
import { NAME_PREFIXES } from './names.ts';
import { createRandom, round, type Random } from './random.ts';
import { SECTORS, type SectorProfile } from './sectors.ts';
import {
  ANCHOR_PRICES,
  COMMODITIES,
  CORPORATE_SUFFIX,
  CRYPTO,
  ETF_ISSUERS,
  ETF_THEMES,
  EXCHANGES,
  FAMILIAR_STOCKS,
  FOREX,
  FUND_OFFICES,
  INDEXES,
  MUTUAL_FUNDS,
  TEST_EXTRA_SYMBOLS,
  USD_PER_UNIT,
  type CommodityDef,
  type CryptoDef,
  type EtfTheme,
  type FamiliarStock,
  type ForexDef,
  type IndexDef,
  type MutualFundDef,
} from './universe-data.ts';

/**
 * The demo data set's list of instruments and the character of each (how its price moves, whether it pays
 * dividends, how its business looks). Everything here is decided by the seed alone, never by the "as of" date,
 * so that regenerating later only appends data.
 */

export type Scale = 'full' | 'test';

/** core: 30 years of prices and 10 years of statements; large: statements for 5 years; tail: prices only. */
export type Tier = 'core' | 'large' | 'tail';

/** The date at which every price path passes through its anchor (the "current" price of the demo world). */
export const ANCHOR_DATE = '2026-11-20';
/** First day of the long price histories. */
export const PRICE_EPOCH = '1996-01-02';
/** First generated day of the shorter histories (they are cut to about a year when written). */
export const TAIL_EPOCH = '2024-06-03';

export const ANCHOR_DAY = toDay(ANCHOR_DATE);
export const PRICE_EPOCH_DAY = toDay(PRICE_EPOCH);
export const TAIL_EPOCH_DAY = toDay(TAIL_EPOCH);

/** Symbols every demo data set holds, with their real names, so examples and documentation work. */
export const FAMILIAR_SYMBOLS = [
  'AAPL',
  'MSFT',
  'AMZN',
  'TSLA',
  'NVDA',
  'GOOGL',
  'META',
  'JPM',
  'V',
  'JNJ',
  'XOM',
  'WMT',
  'SPY',
  'QQQ',
  'BTCUSD',
  'ETHUSD',
  'EURUSD',
  'GBPUSD',
  'USDJPY',
  'GCUSD',
  'CLUSD',
  '^GSPC',
  '^DJI',
  '^IXIC',
] as const;

export interface SplitEvent {
  day: number;
  numerator: number;
  denominator: number;
}

export interface DividendPolicy {
  /** Target yearly yield when the payout is reset. */
  yield: number;
  /** First ex-dividend date considered. */
  startDay: number;
  frequency: 'Quarterly' | 'Monthly';
  /** Month (1–3) of the first quarterly ex-date in a year. */
  firstMonth: number;
  /** Day of month around which ex-dates fall. */
  dayOfMonth: number;
}

export interface FundamentalsSpec {
  fiscalYearEndMonth: number;
  /** Yearly revenue at the anchor date, in the reporting currency. */
  revenue: number;
  /** Yearly revenue growth (log) before the anchor. */
  growth: number;
  grossMargin: number;
  netMargin: number;
  researchRatio: number;
  capexRatio: number;
  inventoryDays: number;
  taxRate: number;
  /** Yearly change of the share count (negative: buybacks). */
  shareChange: number;
  /** First fiscal year generated (statements are cut to the scale's count when written). */
  firstFiscalYear: number;
  /** Whether revenue is seasonal with a strong holiday quarter. */
  seasonal: boolean;
}

/** Facts about familiar companies that a generator would get wrong. */
export interface CompanyFacts {
  ceo: string;
  website: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  cik: string;
  isin: string;
  employees: number;
}

export type PriceModel = 'gbm' | 'volatility-index' | 'yield-index';

export interface SecuritySpec {
  symbol: string;
  name: string;
  assetType: AssetType;
  exchange: string;
  exchangeFullName: string;
  currency: string;
  country: string;
  sector: string;
  industry: string;
  sharesOutstanding: number | null;
  sample: boolean;
  details: Record<string, string | number | null>;
  familiar: boolean;
  tier: Tier;
  calendar: TradingCalendar;
  /** First generated trading day. */
  startDay: number;
  /** (day, price) points the path passes through, in anchor-date share terms; the last is at ANCHOR_DAY. */
  knots: readonly (readonly [number, number])[];
  /** Yearly idiosyncratic volatility. */
  vol: number;
  /** Loading on the common factor. */
  beta: number;
  factor: 'equity' | 'crypto' | 'none';
  model: PriceModel;
  /** For yield indexes: the treasury maturity they follow. */
  yieldMaturity?: 'month3' | 'year5' | 'year10' | 'year30';
  /** Real splits (familiar symbols); others get generated splits at splitRate per day. */
  fixedSplits: readonly SplitEvent[] | null;
  splitRate: number;
  dividend: DividendPolicy | null;
  fundamentals: FundamentalsSpec | null;
  ipoDate: string | null;
  /** Average daily volume at the anchor date, in shares (or contracts, coins, index units). */
  volume: number;
  /** Market capitalisation at the anchor date, in the trading currency. */
  marketCap: number | null;
  facts: CompanyFacts | null;
}

const yearsBetween = (from: number, to: number): number => (to - from) / 365.25;

function knotList(
  startDay: number,
  startPrice: number,
  knots: readonly (readonly [string, number])[] | undefined,
  anchor: number,
): (readonly [number, number])[] {
  const list: (readonly [number, number])[] = [[startDay, startPrice]];
  for (const [iso, price] of knots ?? []) {
    const day = toDay(iso);
    if (day > startDay && day < ANCHOR_DAY) list.push([day, price]);
  }
  list.push([ANCHOR_DAY, anchor]);
  return list;
}

/** Luhn check digit over an ISIN's characters (letters count as two digits). */
function isinCheckDigit(body: string): number {
  const digits = body
    .split('')
    .map((ch) => (/\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55)))
    .join('');
  let sum = 0;
  let double = true;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let v = Number(digits.charAt(i));
    if (double) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
    double = !double;
  }
  return (10 - (sum % 10)) % 10;
}

/** A plausible ISIN for a generated company (country prefix, nine characters, check digit). */
export function makeIsin(country: string, random: Random): string {
  const chars = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';
  let body = country;
  for (let i = 0; i < 9; i += 1) body += chars.charAt(random.int(0, i < 6 ? 9 : chars.length - 1));
  return `${body}${isinCheckDigit(body)}`;
}

function pickSector(random: Random, tilt: Partial<Record<string, number>>): SectorProfile {
  return random.weighted(SECTORS.map((s) => [s, s.weight * (tilt[s.name] ?? 1)] as const));
}

function lettersOf(text: string): string {
  return text.toUpperCase().replace(/[^A-Z]/g, '');
}

/** Ticker candidates built from a company's name, like exchanges' listing staff would choose them. */
function tickerFor(
  words: readonly string[],
  length: number,
  random: Random,
  taken: (candidate: string) => boolean,
): string {
  const first = lettersOf(words[0] ?? 'X');
  const second = lettersOf(words[1] ?? '');
  const all = first + second;
  const candidates = [
    first.slice(0, length),
    (first.slice(0, 1) + second.slice(0, length - 1)).slice(0, length),
    (first.slice(0, 2) + second.slice(0, length - 2)).slice(0, length),
    (first.slice(0, length - 1) + second.slice(0, 1)).slice(0, length),
  ];
  for (let i = 0; i < 6; i += 1) {
    let t = first.charAt(0);
    let pos = 1;
    while (t.length < length && pos < all.length) {
      if (random.chance(0.5)) t += all.charAt(pos);
      pos += 1;
    }
    candidates.push(t);
  }
  for (const candidate of candidates) {
    if (candidate.length === length && !taken(candidate)) return candidate;
  }
  for (let attempt = 0; ; attempt += 1) {
    const size = length + Math.floor(attempt / 40);
    let t = attempt < 20 ? first.charAt(0) || 'X' : '';
    while (t.length < size) t += String.fromCharCode(65 + random.int(0, 25));
    if (!taken(t)) return t;
  }
}

function generatedStocks(seed: number, used: Set<string>): SecuritySpec[] {
  const random = createRandom(seed, 'universe', 'stocks');
  const names = new Set<string>();
  const out: SecuritySpec[] = [];
  for (const ex of EXCHANGES) {
    const usdPerUnit = USD_PER_UNIT[ex.currency] ?? 1;
    for (let rank = 1; rank <= ex.count; rank += 1) {
      const sector = pickSector(random, ex.sectorTilt);
      const industry = random.pick(sector.industries);
      let name = '';
      let words: string[] = [];
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const prefix = random.pick(NAME_PREFIXES);
        const noun = random.pick(industry.nouns);
        const suffix = random.pick(CORPORATE_SUFFIX[ex.country] ?? ['Inc.']);
        const candidate =
          attempt < 25
            ? `${prefix} ${noun} ${suffix}`
            : `${prefix} ${random.pick(NAME_PREFIXES)} ${noun} ${suffix}`;
        if (!names.has(candidate)) {
          name = candidate;
          words = [prefix, noun];
          break;
        }
      }
      names.add(name);
      let symbol: string;
      if (ex.code === 'JPX' || ex.code === 'HKSE') {
        do {
          symbol = `${String(random.int(ex.code === 'JPX' ? 1300 : 1, 9999)).padStart(4, '0')}${ex.suffix}`;
        } while (used.has(symbol));
      } else {
        const length = ex.country !== 'US' ? random.int(3, 4) : ex.code === 'NASDAQ' ? 4 : random.int(2, 4);
        const base = tickerFor(words, length, random, (t) => used.has(`${t}${ex.suffix}`));
        symbol = `${base}${ex.suffix}`;
      }
      used.add(symbol);
      const capUsd = ex.topCap * rank ** -ex.capExponent * random.logNormal(1, 0.3);
      const capLocal = capUsd / usdPerUnit;
      const priceMedian = ex.medianPrice * (capUsd / 1e10) ** 0.12;
      const anchor = round(
        Math.min(Math.max(random.logNormal(priceMedian, 0.6), ex.medianPrice / 30), ex.medianPrice * 40),
        ex.priceDecimals,
      );
      const shares = Math.round(capLocal / anchor / 1000) * 1000;
      const ipoYear = random.chance(0.35) ? random.int(1960, 1995) : random.int(1996, 2022);
      const ipo = dayOf(ipoYear, random.int(1, 12), random.int(1, 28));
      const dividend = random.chance(sector.dividendProbability)
        ? {
            yield: random.range(sector.dividendYield[0], sector.dividendYield[1]),
            startDay: Math.max(ipo + 365, PRICE_EPOCH_DAY + random.int(0, 365 * 15)),
            frequency: 'Quarterly' as const,
            firstMonth: random.int(1, 3),
            dayOfMonth: random.int(3, 24),
          }
        : null;
      out.push({
        symbol,
        name,
        assetType: 'stock',
        exchange: ex.code,
        exchangeFullName: ex.fullName,
        currency: ex.currency,
        country: ex.country,
        sector: sector.name,
        industry: industry.name,
        sharesOutstanding: shares,
        sample: false,
        details: {},
        familiar: false,
        tier: 'tail',
        calendar: exchangeTradingCalendar(ex.code),
        startDay: TAIL_EPOCH_DAY,
        knots: [],
        vol: sector.vol * random.range(0.8, 1.25),
        beta: random.range(sector.beta[0], sector.beta[1]) * (ex.country === 'US' ? 1 : 0.6),
        factor: 'equity',
        model: 'gbm',
        fixedSplits: null,
        splitRate: 0.00005,
        dividend,
        fundamentals: null,
        ipoDate: fromDay(ipo),
        volume: shares * random.logNormal(0.006, 0.5),
        marketCap: capLocal,
        facts: null,
      });
    }
  }
  return out;
}

function fundamentalsFor(spec: SecuritySpec, random: Random, firstFiscalYear: number): FundamentalsSpec {
  const sector = SECTORS.find((s) => s.name === spec.sector) ?? SECTORS[0];
  if (!sector) throw new Error('no sectors');
  const ps = random.range(sector.priceToSales[0], sector.priceToSales[1]);
  const cap = spec.marketCap ?? 1e9;
  const fyEnd = random.weighted<number>([
    [12, 80],
    [3, 6],
    [6, 5],
    [9, 5],
    [1, 4],
  ]);
  return {
    fiscalYearEndMonth:
      spec.country === 'JP' ? 3 : spec.country === 'US' || spec.country === 'CA' ? fyEnd : 12,
    revenue: cap / ps,
    growth: Math.max(-0.05, sector.drift * random.range(0.3, 1.4) + random.normal() * 0.03),
    grossMargin: random.range(sector.grossMargin[0], sector.grossMargin[1]),
    netMargin: random.chance(spec.tier === 'tail' ? 0.3 : 0.1)
      ? -random.range(0.02, 0.2)
      : random.range(sector.netMargin[0], sector.netMargin[1]),
    researchRatio: random.range(sector.researchRatio[0], sector.researchRatio[1]),
    capexRatio: random.range(sector.capexRatio[0], sector.capexRatio[1]),
    inventoryDays: random.range(sector.inventoryDays[0], sector.inventoryDays[1]),
    taxRate: random.range(0.15, 0.26),
    shareChange: random.range(-0.03, 0.02),
    firstFiscalYear,
    seasonal: sector.name === 'Consumer Cyclical' || sector.name === 'Consumer Defensive',
  };
}

/** A familiar company: its real name, the outline of its real price history and its business character. */
function familiarStockSpec(f: FamiliarStock): SecuritySpec {
  const anchor = ANCHOR_PRICES[f.symbol] ?? 100;
  const ipoDay = toDay(f.ipo);
  const startDay = Math.max(PRICE_EPOCH_DAY, ipoDay);
  const [firstIso, firstPrice] = f.knots[0] ?? [f.ipo, anchor];
  const ex = EXCHANGES.find((e) => e.code === f.exchange);
  return {
    symbol: f.symbol,
    name: f.name,
    assetType: 'stock',
    exchange: f.exchange,
    exchangeFullName: ex?.fullName ?? f.exchange,
    currency: 'USD',
    country: 'US',
    sector: f.sector,
    industry: f.industry,
    sharesOutstanding: f.shares,
    sample: true,
    details: {},
    familiar: true,
    tier: 'core',
    calendar: exchangeTradingCalendar(f.exchange),
    startDay,
    knots: knotList(Math.max(startDay, toDay(firstIso)), firstPrice, f.knots.slice(1), anchor),
    vol: f.vol,
    beta: f.beta,
    factor: 'equity',
    model: 'gbm',
    fixedSplits: f.splits.map(([iso, numerator, denominator]) => ({
      day: toDay(iso),
      numerator,
      denominator,
    })),
    splitRate: 0,
    dividend: f.dividend
      ? {
          yield: f.dividend.yield,
          startDay: toDay(f.dividend.start),
          frequency: 'Quarterly',
          firstMonth: f.dividend.firstMonth,
          dayOfMonth: f.dividend.dayOfMonth,
        }
      : null,
    fundamentals: {
      fiscalYearEndMonth: f.fyEnd,
      revenue: f.revenue,
      growth: f.growth,
      grossMargin: f.grossMargin,
      netMargin: f.netMargin,
      researchRatio: f.research,
      capexRatio: f.capex,
      inventoryDays: f.inventoryDays,
      taxRate: 0.16,
      shareChange: f.shareChange,
      firstFiscalYear: Math.max(2012, Number(f.ipo.slice(0, 4)) + 1),
      seasonal: f.seasonal,
    },
    ipoDate: f.ipo,
    volume: f.shares * (f.symbol === 'TSLA' ? 0.03 : 0.006),
    marketCap: f.shares * anchor,
    facts: f.facts,
  };
}

/** Generated companies: sized, then tiered by size (the largest US names get the long history). */
function tieredGeneratedStocks(seed: number, used: Set<string>): SecuritySpec[] {
  const generated = generatedStocks(seed, used);
  const usByCap = generated
    .filter((s) => s.country === 'US')
    .sort((a, b) => (b.marketCap ?? 0) - (a.marketCap ?? 0));
  const core = new Set(usByCap.slice(0, 40).map((s) => s.symbol));
  const sample = new Set(usByCap.slice(0, 80).map((s) => s.symbol));
  const byUsdCap = [...generated].sort(
    (a, b) =>
      (b.marketCap ?? 0) * (USD_PER_UNIT[b.currency] ?? 1) -
      (a.marketCap ?? 0) * (USD_PER_UNIT[a.currency] ?? 1),
  );
  const large = new Set(
    byUsdCap
      .filter((s) => !core.has(s.symbol))
      .slice(0, 1000)
      .map((s) => s.symbol),
  );
  for (const spec of generated) {
    const random = createRandom(seed, 'character', spec.symbol);
    const sector = SECTORS.find((s) => s.name === spec.sector);
    const drift = sector?.drift ?? 0.06;
    const anchor = (spec.marketCap ?? 0) / (spec.sharesOutstanding ?? 1);
    spec.sample = sample.has(spec.symbol);
    if (core.has(spec.symbol)) {
      spec.tier = 'core';
      spec.splitRate = 0.0003;
      const ipoDay = toDay(spec.ipoDate ?? PRICE_EPOCH);
      spec.startDay = Math.max(PRICE_EPOCH_DAY, ipoDay);
    } else {
      spec.tier = large.has(spec.symbol) ? 'large' : 'tail';
      spec.vol *= spec.tier === 'tail' ? 1.4 : 1.1;
    }
    const years = yearsBetween(spec.startDay, ANCHOR_DAY);
    const startPrice =
      anchor * Math.exp(-drift * years + random.normal() * 0.35 * Math.sqrt(Math.min(years, 10)));
    spec.knots = knotList(spec.startDay, startPrice, undefined, anchor);
    if (spec.tier !== 'tail') {
      spec.fundamentals = fundamentalsFor(spec, random, spec.tier === 'core' ? 2012 : 2018);
    }
  }
  return generated;
}

/** Exchange-traded funds: SPY and QQQ, then generated funds of every theme and issuer. */
function etfSpecs(seed: number, used: Set<string>): SecuritySpec[] {
  const etfRandom = createRandom(seed, 'universe', 'etfs');
  const specs: SecuritySpec[] = [
    etfSpec({
      symbol: 'SPY',
      name: 'SPDR S&P 500 ETF Trust',
      exchange: 'AMEX',
      theme: ETF_THEMES[0],
      inception: '1993-01-22',
      start: 61,
      anchor: 590,
      volume: 45e6,
      shares: 1.0e9,
      knots: [],
      issuer: 'SPDR',
    }),
    etfSpec({
      symbol: 'QQQ',
      name: 'Invesco QQQ Trust, Series 1',
      exchange: 'NASDAQ',
      theme: ETF_THEMES[12],
      inception: '1999-03-10',
      start: 51,
      anchor: 515,
      volume: 35e6,
      shares: 6.1e8,
      issuer: 'Invesco',
      knots: [
        ['2000-03-10', 115],
        ['2002-10-07', 20],
        ['2007-10-31', 55],
        ['2009-03-09', 26],
        ['2020-02-19', 237],
        ['2021-11-19', 408],
        ['2022-12-28', 261],
      ],
      splits: [{ day: toDay('2000-03-20'), numerator: 2, denominator: 1 }],
    }),
  ];
  const etfNames = new Set<string>();
  let etfCount = 0;
  while (etfCount < 298) {
    const theme = etfRandom.pick(ETF_THEMES);
    const issuer = etfRandom.pick(ETF_ISSUERS);
    const name = `${issuer} ${theme.label} ETF`;
    if (etfNames.has(name)) {
      if (etfNames.size >= ETF_THEMES.length * ETF_ISSUERS.length) break;
      continue;
    }
    etfNames.add(name);
    const words = [issuer, theme.label];
    const symbol = tickerFor(words, etfRandom.int(3, 4), etfRandom, (t) => used.has(t));
    used.add(symbol);
    const anchor = round(etfRandom.logNormal(theme.assetClass === 'Fixed Income' ? 60 : 80, 0.7), 2);
    const inception = dayOf(etfRandom.int(2000, 2021), etfRandom.int(1, 12), etfRandom.int(1, 28));
    const aum = 1e10 * (etfCount + 1) ** -1.1 * etfRandom.logNormal(1, 0.5) + 5e7;
    specs.push(
      etfSpec({
        symbol,
        name,
        exchange: etfRandom.chance(0.8) ? 'AMEX' : 'NASDAQ',
        theme,
        inception: fromDay(inception),
        start: anchor * etfRandom.logNormal(0.85, 0.15),
        anchor,
        volume: (aum / anchor) * etfRandom.logNormal(0.01, 0.4),
        shares: Math.round(aum / anchor),
        issuer,
        sample: etfCount < 18,
        knots: [],
      }),
    );
    etfCount += 1;
  }
  return specs;
}

/**
 * What the SEC knows of each ETF as a fund (N-PORT's registrant, series and class), so ETFs are found
 * among the fund filers like mutual funds: each generated ETF is its own trust. Drawn from a stream of
 * its own per symbol, so nothing else in the universe moves.
 */
function registerEtfs(seed: number, specs: readonly SecuritySpec[]): void {
  for (const spec of specs) {
    if (spec.assetType !== 'etf') continue;
    const random = createRandom(seed, 'fund-registration', spec.symbol);
    spec.details = {
      ...spec.details,
      entityName: spec.name,
      seriesName: spec.name,
      className: spec.name,
      seriesId: `S${String(random.int(1, 89_999)).padStart(9, '0')}`,
      classId: `C${String(random.int(1, 299_999)).padStart(9, '0')}`,
      reportingFileNumber: `811-${String(random.int(20_000, 24_999))}`,
    };
  }
}

/**
 * A mutual fund: priced once a day at its net asset value (the daily bar's open, high, low and close are
 * the NAV, and nothing trades on the exchange), with its family's office and its registration as facts.
 */
function mutualFundSpec(seed: number, fund: MutualFundDef): SecuritySpec {
  const random = createRandom(seed, 'universe', 'mutual-fund', fund.symbol);
  const office = FUND_OFFICES[fund.office];
  if (office === undefined) throw new Error(`no office ${fund.office} for ${fund.symbol}`);
  const startDay = Math.max(TAIL_EPOCH_DAY, toDay(fund.inception));
  const start =
    fund.anchor *
    (fund.assetClass === 'Equity' ? random.logNormal(0.82, 0.04) : random.logNormal(0.97, 0.02));
  return {
    symbol: fund.symbol,
    name: fund.name,
    assetType: 'fund',
    exchange: 'NASDAQ',
    exchangeFullName: 'NASDAQ',
    currency: 'USD',
    country: 'US',
    sector: '',
    industry: fund.assetClass === 'Equity' ? 'Asset Management' : 'Asset Management - Bonds',
    sharesOutstanding: Math.round(fund.aum / fund.anchor),
    sample: false,
    details: {
      etfCompany: fund.family,
      assetClass: fund.assetClass,
      expenseRatio: fund.expenseRatio,
      inceptionDate: fund.inception,
      entityName: fund.entity,
      seriesName: fund.series,
      className: fund.className,
      seriesId: fund.seriesId,
      classId: fund.classId,
      reportingFileNumber: fund.fileNumber,
    },
    familiar: false,
    tier: 'tail',
    calendar: 'exchange',
    startDay,
    knots: knotList(startDay, start, undefined, fund.anchor),
    vol: fund.vol,
    beta: fund.beta,
    factor: fund.beta === 0 ? 'none' : 'equity',
    model: 'gbm',
    fixedSplits: [],
    splitRate: 0,
    dividend:
      fund.yield > 0
        ? {
            yield: fund.yield,
            startDay,
            frequency: fund.monthly ? 'Monthly' : 'Quarterly',
            firstMonth: 3,
            dayOfMonth: 24,
          }
        : null,
    fundamentals: null,
    ipoDate: fund.inception,
    volume: 0,
    marketCap: fund.aum,
    facts: {
      ceo: '',
      website: office.website,
      phone: '',
      address: office.address,
      city: office.city,
      state: office.state,
      zip: office.zip,
      cik: fund.cik,
      isin: makeIsin('US', random),
      employees: 0,
    },
  };
}

/** A cryptocurrency; the first ten are in the sample. */
function cryptoSpec(seed: number, cd: CryptoDef, index: number): SecuritySpec {
  const symbol = `${cd.base}USD`;
  const core = cd.base === 'BTC' || cd.base === 'ETH';
  const ico = toDay(cd.ico);
  const startDay = core ? ico : Math.max(TAIL_EPOCH_DAY, ico);
  const random = createRandom(seed, 'character', symbol);
  const startPrice = core
    ? cd.base === 'BTC'
      ? 0.08
      : 2.8
    : cd.price * random.logNormal(ico > TAIL_EPOCH_DAY ? 0.8 : 0.35, 0.6);
  return {
    symbol,
    name: `${cd.name} USD`,
    assetType: 'crypto',
    exchange: 'CRYPTO',
    exchangeFullName: 'Cryptocurrency',
    currency: 'USD',
    country: '',
    sector: '',
    industry: '',
    sharesOutstanding: cd.circulating,
    sample: index < 10,
    details: { icoDate: cd.ico, circulatingSupply: cd.circulating, totalSupply: cd.total },
    familiar: core,
    tier: core ? 'core' : 'tail',
    calendar: 'crypto',
    startDay,
    knots: knotList(startDay, startPrice, cd.knots, cd.price),
    vol: cd.base === 'BTC' ? 0 : core ? 0.45 : random.range(0.5, 0.9),
    beta: cd.base === 'BTC' ? 1 : core ? 1.1 : random.range(0.9, 1.4),
    factor: 'crypto',
    model: 'gbm',
    fixedSplits: [],
    splitRate: 0,
    dividend: null,
    fundamentals: null,
    ipoDate: null,
    volume: (cd.circulating * cd.price * (core ? 0.03 : random.range(0.01, 0.08))) / cd.price,
    marketCap: cd.circulating * cd.price,
    facts: null,
  };
}

/** A currency pair; the pairs with a long history are in the sample. */
function forexSpec(seed: number, f: ForexDef): SecuritySpec {
  const symbol = `${f.from}${f.to}`;
  const random = createRandom(seed, 'character', symbol);
  const since = f.since ? toDay(f.since) : TAIL_EPOCH_DAY;
  const startPrice = f.start ?? f.anchor * random.logNormal(1, 0.06);
  const decimals = f.anchor > 20 ? 3 : 5;
  return {
    symbol,
    name: `${f.from}/${f.to}`,
    assetType: 'forex',
    exchange: 'FOREX',
    exchangeFullName: 'Foreign Exchange',
    currency: f.to,
    country: '',
    sector: '',
    industry: '',
    sharesOutstanding: null,
    sample: f.since !== undefined,
    details: { fromCurrency: f.from, toCurrency: f.to, fromName: f.fromName, toName: f.toName, decimals },
    familiar: symbol === 'EURUSD' || symbol === 'GBPUSD' || symbol === 'USDJPY',
    tier: f.since ? 'core' : 'tail',
    calendar: 'forex',
    startDay: since,
    knots: knotList(since, startPrice, f.knots, f.anchor),
    vol: f.vol,
    beta: 0,
    factor: 'none',
    model: 'gbm',
    fixedSplits: [],
    splitRate: 0,
    dividend: null,
    fundamentals: null,
    ipoDate: null,
    volume: random.range(60_000, 250_000),
    marketCap: null,
    facts: null,
  };
}

/** A commodity future; equity index futures follow the market. */
function commoditySpec(seed: number, cm: CommodityDef): SecuritySpec {
  const random = createRandom(seed, 'character', cm.symbol);
  const core = cm.symbol === 'GCUSD' || cm.symbol === 'CLUSD';
  const startDay = core ? PRICE_EPOCH_DAY : TAIL_EPOCH_DAY;
  return {
    symbol: cm.symbol,
    name: cm.name,
    assetType: 'commodity',
    exchange: 'COMMODITY',
    exchangeFullName: 'Commodity',
    currency: cm.currency,
    country: '',
    sector: '',
    industry: '',
    sharesOutstanding: null,
    sample: core || cm.symbol === 'SIUSD' || cm.symbol === 'NGUSD' || cm.symbol === 'HGUSD',
    details: { tradeMonth: cm.month, currency: cm.currency },
    familiar: core,
    tier: core ? 'core' : 'tail',
    calendar: 'exchange',
    startDay,
    knots: knotList(startDay, cm.start ?? cm.anchor * random.logNormal(0.9, 0.15), cm.knots, cm.anchor),
    vol: cm.vol,
    beta:
      cm.symbol.startsWith('ES') ||
      cm.symbol.startsWith('NQ') ||
      cm.symbol.startsWith('YM') ||
      cm.symbol.startsWith('RTY')
        ? 1
        : 0,
    factor:
      cm.symbol.startsWith('ES') ||
      cm.symbol.startsWith('NQ') ||
      cm.symbol.startsWith('YM') ||
      cm.symbol.startsWith('RTY')
        ? 'equity'
        : 'none',
    model: 'gbm',
    fixedSplits: [],
    splitRate: 0,
    dividend: null,
    fundamentals: null,
    ipoDate: null,
    volume: cm.volume,
    marketCap: null,
    facts: null,
  };
}

/** A market index, with the long history. */
function indexSpec(ix: IndexDef): SecuritySpec {
  const familiar = ix.symbol === '^GSPC' || ix.symbol === '^DJI' || ix.symbol === '^IXIC';
  return {
    symbol: ix.symbol,
    name: ix.name,
    assetType: 'index',
    exchange: 'INDEX',
    exchangeFullName: 'Index',
    currency: ix.currency,
    country: '',
    sector: '',
    industry: '',
    sharesOutstanding: null,
    sample: familiar || ix.symbol === '^RUT' || ix.symbol === '^VIX' || ix.symbol === '^NDX',
    details: {},
    familiar,
    tier: 'core',
    calendar: 'exchange',
    startDay: PRICE_EPOCH_DAY,
    knots: knotList(PRICE_EPOCH_DAY, ix.start, ix.knots, ix.anchor),
    vol: ix.vol,
    beta: ix.beta,
    factor: ix.beta === 0 ? 'none' : 'equity',
    model: ix.model ?? 'gbm',
    ...(ix.maturity ? { yieldMaturity: ix.maturity } : {}),
    fixedSplits: [],
    splitRate: 0,
    dividend: null,
    fundamentals: null,
    ipoDate: null,
    volume: ix.volume,
    marketCap: null,
    facts: null,
  };
}

/** Anchors are nudged so "current" prices are not suspiciously round. */
function jitterAnchors(seed: number, specs: readonly SecuritySpec[]): void {
  for (const spec of specs) {
    const last = spec.knots[spec.knots.length - 1];
    if (!last || spec.model !== 'gbm') continue;
    const jitter = createRandom(seed, 'anchor', spec.symbol).logNormal(1, 0.015);
    spec.knots = [...spec.knots.slice(0, -1), [last[0], last[1] * jitter] as const];
  }
}

/** The full universe, before any cut for the test scale. Pure function of the seed. */
function fullUniverse(seed: number): SecuritySpec[] {
  // The mutual funds' tickers are taken first, so no generated listing can be given one of them.
  const used = new Set<string>([...FAMILIAR_SYMBOLS, ...MUTUAL_FUNDS.map((fund) => fund.symbol)]);
  const specs: SecuritySpec[] = [
    ...FAMILIAR_STOCKS.map(familiarStockSpec),
    ...tieredGeneratedStocks(seed, used),
    ...etfSpecs(seed, used),
    ...MUTUAL_FUNDS.map((fund) => mutualFundSpec(seed, fund)),
    ...CRYPTO.map((cd, index) => cryptoSpec(seed, cd, index)),
    ...FOREX.map((f) => forexSpec(seed, f)),
    ...COMMODITIES.map((cm) => commoditySpec(seed, cm)),
    ...INDEXES.map(indexSpec),
  ];
  registerEtfs(seed, specs);
  jitterAnchors(seed, specs);
  return specs;
}

interface EtfInput {
  symbol: string;
  name: string;
  exchange: 'AMEX' | 'NASDAQ';
  theme: EtfTheme | undefined;
  inception: string;
  start: number;
  anchor: number;
  volume: number;
  shares: number;
  issuer: string;
  knots: readonly (readonly [string, number])[];
  splits?: readonly SplitEvent[];
  sample?: boolean;
}

function etfSpec(input: EtfInput): SecuritySpec {
  const theme = input.theme ?? ETF_THEMES[0];
  if (!theme) throw new Error('no ETF themes');
  const familiar = input.symbol === 'SPY' || input.symbol === 'QQQ';
  const inceptionDay = toDay(input.inception);
  const startDay = familiar
    ? Math.max(PRICE_EPOCH_DAY, inceptionDay)
    : Math.max(TAIL_EPOCH_DAY, inceptionDay);
  return {
    symbol: input.symbol,
    name: input.name,
    assetType: 'etf',
    exchange: input.exchange,
    exchangeFullName: input.exchange === 'AMEX' ? 'New York Stock Exchange Arca' : 'NASDAQ Global Market',
    currency: 'USD',
    country: 'US',
    sector: '',
    industry:
      theme.assetClass === 'Equity'
        ? 'Asset Management'
        : theme.assetClass === 'Fixed Income'
          ? 'Asset Management - Bonds'
          : 'Asset Management - Commodities',
    sharesOutstanding: input.shares,
    sample: familiar || input.sample === true,
    details: {
      etfCompany: input.issuer,
      assetClass: theme.assetClass,
      expenseRatio: familiar ? (input.symbol === 'SPY' ? 0.0945 : 0.2) : round(theme.expense * 100, 4),
      inceptionDate: input.inception,
    },
    familiar,
    tier: familiar ? 'core' : 'tail',
    calendar: 'exchange',
    startDay,
    knots: knotList(startDay, input.start, input.knots, input.anchor),
    vol: theme.vol,
    beta: theme.beta,
    factor: theme.beta === 0 && theme.assetClass !== 'Equity' ? 'none' : 'equity',
    model: 'gbm',
    fixedSplits: input.splits ?? [],
    splitRate: 0,
    dividend:
      theme.yield > 0
        ? {
            yield: input.symbol === 'QQQ' ? 0.006 : theme.yield,
            startDay,
            frequency: theme.monthly ? 'Monthly' : 'Quarterly',
            firstMonth: 3,
            dayOfMonth: 18,
          }
        : null,
    fundamentals: null,
    ipoDate: input.inception,
    volume: input.volume,
    marketCap: input.shares * input.anchor,
    facts: null,
  };
}

/**
 * The instruments of a data set. The test scale keeps the familiar symbols, about forty others of every
 * asset type and every mutual fund, taken from the full universe so that a symbol's data is the same at
 * both scales.
 */
export function buildUniverse(seed: number, scale: Scale): SecuritySpec[] {
  const all = fullUniverse(seed);
  if (scale === 'full') return all;
  const keep = new Set<string>([...FAMILIAR_SYMBOLS, ...TEST_EXTRA_SYMBOLS]);
  const stocks = all.filter((s) => s.assetType === 'stock' && !s.familiar);
  const byCap = (list: SecuritySpec[]): SecuritySpec[] =>
    [...list].sort(
      (a, b) =>
        (b.marketCap ?? 0) * (USD_PER_UNIT[b.currency] ?? 1) -
        (a.marketCap ?? 0) * (USD_PER_UNIT[a.currency] ?? 1),
    );
  const usCore = stocks.filter((s) => s.tier === 'core');
  const usLarge = byCap(stocks.filter((s) => s.tier === 'large' && s.country === 'US'));
  for (const s of usCore.slice(0, 4)) keep.add(s.symbol);
  for (let i = 0; i < 8; i += 1) {
    const s = usLarge[Math.floor((i * usLarge.length) / 8)];
    if (s) keep.add(s.symbol);
  }
  for (const ex of ['LSE', 'XETRA', 'TSX', 'JPX', 'HKSE', 'EURONEXT']) {
    const s = byCap(stocks.filter((x) => x.exchange === ex && x.tier === 'large'))[0];
    if (s) keep.add(s.symbol);
  }
  const tail = stocks.filter((s) => s.tier === 'tail');
  for (let i = 0; i < 4; i += 1) {
    const s = tail[Math.floor((i * tail.length) / 4) + 7];
    if (s) keep.add(s.symbol);
  }
  const etfs = all.filter((s) => s.assetType === 'etf' && !s.familiar && s.sample);
  for (const s of etfs.slice(0, 5)) keep.add(s.symbol);
  for (const s of all) if (s.assetType === 'fund') keep.add(s.symbol);
  return all.filter((s) => keep.has(s.symbol));
}
