/**
 * The demo universe's data tables, read from the JSON files under ./data: exchanges, familiar companies,
 * indexes, currency pairs, cryptocurrencies, commodities, ETF themes and mutual funds. Each file's rows are asserted to
 * their shape here, once, so the generator works with typed tables (the seed tests pin their content).
 */
import anchorPrices from './data/anchor-prices.json' with { type: 'json' };
import commodities from './data/commodities.json' with { type: 'json' };
import corporateSuffixes from './data/corporate-suffixes.json' with { type: 'json' };
import cryptoAssets from './data/crypto.json' with { type: 'json' };
import currencyNames from './data/currency-names.json' with { type: 'json' };
import etfIssuers from './data/etf-issuers.json' with { type: 'json' };
import etfThemes from './data/etf-themes.json' with { type: 'json' };
import exchanges from './data/exchanges.json' with { type: 'json' };
import familiarStocks from './data/familiar-stocks.json' with { type: 'json' };
import forexPairs from './data/forex.json' with { type: 'json' };
import fundOffices from './data/fund-offices.json' with { type: 'json' };
import indexes from './data/indexes.json' with { type: 'json' };
import mutualFunds from './data/mutual-funds.json' with { type: 'json' };
import testExtraSymbols from './data/test-extra-symbols.json' with { type: 'json' };
import usdPerUnit from './data/usd-per-unit.json' with { type: 'json' };
import type { CompanyFacts, PriceModel } from './universe.ts';

/** A stock exchange of the demo world: where generated companies list, how many and how large. */
export interface ExchangeInfo {
  code: string;
  fullName: string;
  currency: string;
  country: string;
  suffix: string;
  count: number;
  /** Largest company's market cap, USD. */
  topCap: number;
  capExponent: number;
  medianPrice: number;
  priceDecimals: number;
  sectorTilt: Partial<Record<string, number>>;
}

/** US dollars per unit of each trading currency, for sizing companies consistently. */
export const USD_PER_UNIT: Readonly<Record<string, number>> = usdPerUnit;

/** The exchanges generated companies are listed on. */
export const EXCHANGES = exchanges as readonly ExchangeInfo[];

/** Legal-form suffixes of company names, by country. */
export const CORPORATE_SUFFIX: Readonly<Record<string, readonly string[]>> = corporateSuffixes;

/** A familiar company as the data file describes it: real name, price history outline and business character. */
export interface FamiliarStock {
  symbol: string;
  name: string;
  exchange: 'NASDAQ' | 'NYSE';
  sector: string;
  industry: string;
  fyEnd: number;
  ipo: string;
  shares: number;
  knots: readonly (readonly [string, number])[];
  vol: number;
  beta: number;
  splits: readonly (readonly [string, number, number])[];
  dividend: { yield: number; start: string; firstMonth: number; dayOfMonth: number } | null;
  revenue: number;
  growth: number;
  grossMargin: number;
  netMargin: number;
  research: number;
  capex: number;
  inventoryDays: number;
  shareChange: number;
  seasonal: boolean;
  facts: CompanyFacts;
}

/** The familiar companies (real names, outlines of their real price histories). */
export const FAMILIAR_STOCKS = familiarStocks as unknown as readonly FamiliarStock[];

/** Familiar stocks' prices at the anchor date. */
export const ANCHOR_PRICES: Readonly<Record<string, number>> = anchorPrices;

/** A market index: its outline from the price epoch and how it moves. */
export interface IndexDef {
  symbol: string;
  name: string;
  currency: string;
  start: number;
  anchor: number;
  beta: number;
  vol: number;
  knots?: readonly (readonly [string, number])[];
  model?: PriceModel;
  maturity?: 'month3' | 'year5' | 'year10' | 'year30';
  volume: number;
}

/** The market indexes. */
export const INDEXES = indexes as readonly IndexDef[];

/** A currency pair with its currencies' names. */
export interface ForexDef {
  from: string;
  to: string;
  fromName: string;
  toName: string;
  anchor: number;
  vol: number;
  /** Long history from this date, for the major pairs. */
  since?: string;
  start?: number;
  knots?: readonly (readonly [string, number])[];
}

/** A currency pair as the data file lists it: the pair's symbol, its anchor and character, optional history. */
interface ForexPair extends Pick<ForexDef, 'anchor' | 'vol' | 'since' | 'start' | 'knots'> {
  pair: string;
}

/** Names of the currencies the pairs trade. */
const CURRENCY_NAMES: Readonly<Record<string, string>> = currencyNames;

/** A pair's definition from its symbol (base currency first), with the currencies' names. */
const fx = (pair: string, anchor: number, vol: number, extra: Partial<ForexDef> = {}): ForexDef => {
  const from = pair.slice(0, 3);
  const to = pair.slice(3, 6);
  return {
    from,
    to,
    fromName: CURRENCY_NAMES[from] ?? from,
    toName: CURRENCY_NAMES[to] ?? to,
    anchor,
    vol,
    ...extra,
  };
};

/** The currency pairs. */
export const FOREX: readonly ForexDef[] = (forexPairs as readonly ForexPair[]).map(
  ({ pair, anchor, vol, ...extra }) => fx(pair, anchor, vol, extra),
);

/** A cryptocurrency: price and supply at the anchor date, first trading day, outline of its history. */
export interface CryptoDef {
  base: string;
  name: string;
  price: number;
  circulating: number;
  total: number | null;
  ico: string;
  knots?: readonly (readonly [string, number])[];
}

/** The cryptocurrencies, largest first. */
export const CRYPTO = cryptoAssets as readonly CryptoDef[];

/** A commodity future: anchor price, character and trading month. */
export interface CommodityDef {
  symbol: string;
  name: string;
  anchor: number;
  vol: number;
  currency: string;
  month: string;
  volume: number;
  start?: number;
  knots?: readonly (readonly [string, number])[];
}

/** The commodity futures. */
export const COMMODITIES = commodities as readonly CommodityDef[];

/** What a generated ETF invests in, and how such a fund moves and pays. */
export interface EtfTheme {
  label: string;
  assetClass: 'Equity' | 'Fixed Income' | 'Commodity';
  beta: number;
  vol: number;
  yield: number;
  monthly: boolean;
  expense: number;
}

/** The ETF themes; the first is US large caps (SPY's), the thirteenth technology (QQQ's). */
export const ETF_THEMES = etfThemes as readonly EtfTheme[];

/** Invented fund companies that issue the generated ETFs. */
export const ETF_ISSUERS: readonly string[] = etfIssuers;

/** How a mutual fund chooses what it holds (see seed/markets.ts). */
export type FundStrategy =
  'sp500' | 'mid-cap' | 'growth' | 'international' | 'bond' | 'active-growth' | 'active-value';

/**
 * A mutual fund of the demo: a well-known fund's name, ticker and fund family, with its registrant (the
 * trust that files for it), series and share class as the SEC lists funds. The CIKs, series, class and
 * file numbers, prices and sizes are made up for the demo.
 */
export interface MutualFundDef {
  symbol: string;
  name: string;
  /** The fund company, answered as the fund's issuer. */
  family: string;
  /** The registrant: the trust or company that files for the fund (N-PORT's entity name). */
  entity: string;
  series: string;
  className: string;
  cik: string;
  fileNumber: string;
  seriesId: string;
  classId: string;
  strategy: FundStrategy;
  /** Positions the fund holds (0: nothing the universe lists, as bond funds). */
  positions: number;
  assetClass: 'Equity' | 'Fixed Income';
  /** Yearly costs, in percent of assets. */
  expenseRatio: number;
  inception: string;
  /** Net asset value per share at the anchor date. */
  anchor: number;
  /** Assets under management at the anchor date, in US dollars. */
  aum: number;
  beta: number;
  vol: number;
  /** Yearly distribution yield (0: the fund pays none the demo models). */
  yield: number;
  monthly: boolean;
  /** Key of the fund company's office in FUND_OFFICES. */
  office: string;
}

/** The mutual funds of the demo universe. */
export const MUTUAL_FUNDS = mutualFunds as readonly MutualFundDef[];

/** Where a fund company is, for its funds' profiles. */
export interface FundOffice {
  website: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

/** The fund companies' offices, by key. */
export const FUND_OFFICES: Readonly<Record<string, FundOffice>> = fundOffices;

/** Symbols the test scale keeps besides the familiar ones, so every asset type has a few. */
export const TEST_EXTRA_SYMBOLS: readonly string[] = testExtraSymbols;
