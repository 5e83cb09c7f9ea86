import { DATASETS, type DatasetId } from '../../lib/routes.ts';
import {
  countCoverage,
  fiscalYearCoverage,
  priceCoverage,
  quarterCoverage,
  type CoverageReader,
} from './coverage.ts';

/*
 * What each dataset of the header's Datasets menu is, in one place: its category on the index, a
 * sentence for lists and link previews, the paragraph its page opens with, the request whose live
 * answer the page shows, and how its coverage is counted in the database. Which endpoints belong to
 * a dataset is not here: every endpoint definition names its dataset (`dataset` in endpoint.ts).
 */

/** The index's sections, in the order it shows them. */
export const DATASET_CATEGORIES = [
  'Prices and markets',
  'Company fundamentals',
  'Events, ownership and filings',
  'Reference and research',
] as const;

export type DatasetCategory = (typeof DATASET_CATEGORIES)[number];

/**
 * The request a dataset page answers live: one of the dataset's own endpoints, asked with `query`
 * (its documented example when left out), shown as the first rows of the answer in these fields.
 */
export interface DatasetSample {
  path: string;
  query?: string;
  /** Fields of the endpoint's rows, in the order the table shows them. */
  columns: readonly string[];
}

export interface DatasetInfo {
  id: DatasetId;
  /** The name the header's menu gives it. */
  label: string;
  category: DatasetCategory;
  /** One sentence: the index's line and the page's meta description. */
  summary: string;
  /** What the dataset is, for someone deciding whether it answers their question. */
  about: string;
  sample: DatasetSample;
  /** Counts what the database holds of it (securities, dates, records). */
  coverage: CoverageReader;
}

type DatasetText = Omit<DatasetInfo, 'id' | 'label'>;

const TEXTS: Readonly<Record<DatasetId, DatasetText>> = {
  'market-data-real-time': {
    category: 'Prices and markets',
    summary:
      'Live quotes of US stocks, ETFs and mutual funds, with extended-hours trades and the day’s movers.',
    about:
      'Quotes of stocks, ETFs and mutual funds as they trade: the latest price with its change from the previous close, the day’s open, high, low and volume, the 52-week range, the 50- and 200-day average prices and the market capitalisation, one symbol at a time, up to 100 in a batch, or every listing of an exchange at once. Outside the regular session the aftermarket endpoints give the latest pre-market and after-hours trade and the best bid and ask of US stocks. The dataset also holds what is worked out from those prices across the market: a security’s change over eleven periods from one day to ten years, the biggest gainers, losers and most traded US stocks of the session, and the performance and price-to-earnings ratio of each sector and industry. Quotes move by the second during each market’s session and hold the latest close outside it.',
    sample: {
      path: 'batch-quote',
      query: 'symbols=AAPL,MSFT,NVDA,AMZN,GOOGL',
      columns: ['symbol', 'name', 'price', 'change', 'changePercentage', 'volume'],
    },
    coverage: priceCoverage({ assetTypes: ['stock', 'etf', 'fund'], unit: 'securities', history: false }),
  },
  'market-data-historic': {
    category: 'Prices and markets',
    summary: 'Daily and intraday price history, split- and dividend-adjusted, for every security we quote.',
    about:
      'The price history behind every chart: one bar per trading day with open, high, low, close and volume, adjusted for later splits, as traded on the day, or adjusted for splits and dividends (total-return prices), and intraday bars from one minute to four hours built from one-minute bars, in exchange-local time. Daily history reaches back as far as your plan reads (5 years on Free, 10 on Starter, all of it from Professional up), and a whole market’s bars of one day come as a single bulk file. Sector and industry performance and P/E ratios are kept as daily series too, for comparing a stock with its group over time. A day’s bar is complete once its market has closed.',
    sample: {
      path: 'historical-price-eod/full',
      columns: ['date', 'open', 'high', 'low', 'close', 'volume'],
    },
    coverage: priceCoverage({ assetTypes: 'all', unit: 'securities', history: true }),
  },
  'fundamental-financial-statements': {
    category: 'Company fundamentals',
    summary:
      'Income statements, balance sheets and cash flows as filed, with the ratios and metrics built on them.',
    about:
      'Companies’ income statements, balance sheets and cash flow statements for each fiscal year and quarter, standardised into the same fields for every filer, and the same figures as reported, under the XBRL concepts of the filing. From them come the trailing-twelve-month statements, growth rates period over period, key metrics and more than fifty financial ratios, enterprise values, owner earnings, the Altman Z-score and Piotroski F-score, and revenue split by product and by region. Annual rows come with every plan, the Free plan included; quarterly rows need Professional. A new period appears within a day of the company’s 10-K or 10-Q filing, and whole years of statements download as bulk files.',
    sample: {
      path: 'income-statement',
      columns: ['date', 'fiscalYear', 'period', 'revenue', 'grossProfit', 'netIncome', 'eps'],
    },
    coverage: countCoverage({
      table: 'financial_statements',
      key: 'symbol',
      unit: 'companies',
      date: 'date',
      records: 'statements filed',
    }),
  },
  indexes: {
    category: 'Prices and markets',
    summary:
      'Index levels and quotes, the members of the S&P 500, Nasdaq 100 and Dow Jones, and what funds hold.',
    about:
      'Stock market indexes as instruments, with their quotes and daily history under caret symbols such as ^GSPC, and as lists of companies: today’s members of the S&P 500, the Nasdaq 100 and the Dow Jones Industrial Average, each with the date it joined, and every change of membership with the company added, the one removed and the reason. Because most index investing happens through funds, the dataset also covers what ETFs and mutual funds hold: their positions with shares and weights, their sector and country weightings, the funds that hold a given stock, and each fund’s facts such as its expense ratio, assets and holdings count.',
    sample: {
      path: 'sp500-constituent',
      columns: ['symbol', 'name', 'sector', 'headQuarter', 'dateFirstAdded'],
    },
    coverage: priceCoverage({ assetTypes: ['index'], unit: 'indexes', history: true }),
  },
  economics: {
    category: 'Reference and research',
    summary: 'US Treasury yields, economic indicators, the release calendar and the market risk premium.',
    about:
      'The economy a market trades in: the US Treasury par yield curve for every trading day, from the one-month bill to the thirty-year bond, and the main US indicators as time series, among them GDP in nominal and real terms, CPI and inflation, the federal funds rate, unemployment, nonfarm payrolls, initial claims, retail sales, industrial production, housing starts, consumer sentiment and mortgage rates. An economic calendar lists each release with its previous figure, the estimate and the actual once published, and the market risk premium of each country, with its country risk premium, is ready for discounting cash flows.',
    sample: {
      path: 'treasury-rates',
      columns: ['date', 'month3', 'year2', 'year5', 'year10', 'year30'],
    },
    coverage: countCoverage({
      table: 'economic_indicators',
      key: 'name',
      unit: 'indicators',
      date: 'date',
      records: 'observations',
    }),
  },
  'company-profile': {
    category: 'Company fundamentals',
    summary:
      'Who a company is: profile, identifiers, executives and their pay, peers, float, staff and deals.',
    about:
      'The facts that describe a listed company rather than its trading: name, sector and industry, exchange, country, address and website, a description of the business, its CEO, identifiers (CIK, ISIN and CUSIP) and IPO date, with the latest price and market capitalisation beside them. The dataset goes on with the key executives and what they were paid, pay compared across an industry, market capitalisation today and over time, the shares outstanding and freely floating, the number of employees as reported year by year, notes the company has listed, the peers it is usually compared with, and mergers and acquisitions as filed with the SEC.',
    sample: {
      path: 'key-executives',
      columns: ['name', 'title', 'pay', 'currencyPay', 'yearBorn'],
    },
    coverage: countCoverage({ table: 'company_profiles', key: 'symbol', unit: 'companies' }),
  },
  'analyst-estimates-targets': {
    category: 'Company fundamentals',
    summary:
      'Consensus estimates, price targets, broker rating changes and ratings computed from fundamentals.',
    about:
      'What analysts expect of a company and how they rate it: consensus estimates of revenue, EBITDA, net income and earnings per share for the coming years and quarters, with the low, high and average and the number of analysts; price targets as a consensus and as a summary over the last month, quarter and year; every upgrade, downgrade and initiation by broker, with the counts behind the Strong Buy to Strong Sell consensus, and the notes that announced them. Alongside the brokers’ views, a rating from A+ to D− is computed for each company from six scores of its own statements and price: discounted cash flow, return on equity and on assets, debt to equity, and price to earnings and to book.',
    sample: {
      path: 'grades',
      columns: ['date', 'gradingCompany', 'previousGrade', 'newGrade', 'action'],
    },
    coverage: countCoverage({
      table: 'grades',
      key: 'symbol',
      unit: 'companies',
      date: 'date',
      records: 'rating changes',
    }),
  },
  'earnings-call-transcripts': {
    category: 'Company fundamentals',
    summary: 'The full text of companies’ quarterly earnings calls, by fiscal year and quarter.',
    about:
      'What management said when it presented the quarter: the complete transcript of each earnings call, the prepared remarks and the questions and answers with each speaker named, found by symbol, fiscal year and quarter. Companion endpoints list the companies with transcripts and how many calls each has, the dates and periods of a company’s calls, and the latest calls across the market, so a client can check what is new before it downloads any text. A transcript is added once the call has taken place and its text has been published.',
    sample: {
      path: 'earning-call-transcript-dates',
      columns: ['quarter', 'fiscalYear', 'date'],
    },
    coverage: countCoverage({
      table: 'earning_call_transcripts',
      key: 'symbol',
      unit: 'companies',
      date: 'date',
      records: 'transcripts',
    }),
  },
  'search-directory': {
    category: 'Reference and research',
    summary:
      'Find any security by ticker, name or identifier, and list the market by exchange, sector and country.',
    about:
      'The directory the rest of the API is keyed by: search by ticker or company name, look a company up by its CIK, CUSIP or ISIN, and find every exchange it is listed on. Complete lists give every stock and ETF, the securities trading today, the SEC filers with their CIKs, ticker changes and delisted companies, and the exchanges, sectors, industries and countries used throughout the data; the company screener filters the market by market capitalisation, price, beta, volume, dividend, sector, industry, country and exchange. New listings and delistings are taken in once a day, before the US session opens.',
    sample: {
      path: 'company-screener',
      query: 'sector=Technology&limit=5',
      columns: ['symbol', 'companyName', 'marketCap', 'price', 'exchangeShortName', 'country'],
    },
    coverage: countCoverage({ table: 'securities', key: 'symbol', unit: 'symbols', groups: 'exchange' }),
  },
  calendars: {
    category: 'Events, ownership and filings',
    summary: 'Dividends, splits, earnings dates and IPOs, per company and market-wide, with exchange hours.',
    about:
      'The dates that move a stock, for one company or the whole market between two dates: dividends with their declaration, ex-dividend, record and payment dates and the amount adjusted for splits; stock splits with their ratio; earnings reports with the expected and, once published, the reported earnings per share and revenue; and initial public offerings with their proposed terms, disclosures and prospectuses. The trading hours of each exchange, whether it is open now, and its holidays and early closes complete the calendar.',
    sample: {
      path: 'dividends',
      columns: ['date', 'recordDate', 'paymentDate', 'dividend', 'yield', 'frequency'],
    },
    coverage: countCoverage({
      table: 'earnings',
      key: 'symbol',
      unit: 'companies',
      date: 'date',
      records: 'earnings reports',
    }),
  },
  'form-13f': {
    category: 'Events, ownership and filings',
    summary: 'Institutional investors’ quarterly 13F holdings, by filer and by stock, with analytics.',
    about:
      'Investment managers with more than $100 million in US equities report their positions to the SEC each quarter on Form 13F-HR, within 45 days of the quarter’s end. This dataset reads those reports both ways: every position of a filer in a quarter, with the change from the quarter before, its performance and its split by industry; and every institution holding a stock, with the number of holders, the shares and value they hold and how those changed. The latest filings, each filer’s report dates and an industry summary of all holdings complete it.',
    sample: {
      path: 'institutional-ownership/latest',
      query: 'page=0&limit=5',
      columns: ['name', 'cik', 'date', 'filingDate', 'formType'],
    },
    coverage: quarterCoverage({
      table: 'institutional_holdings',
      key: 'cik',
      unit: 'filers',
      records: 'positions',
    }),
  },
  advanced: {
    category: 'Reference and research',
    summary: 'Valuation models, technical indicators, SEC filings, private offerings and company news.',
    about:
      'The data for deeper research. Valuation: a discounted cash flow value per share, unlevered and levered, and the same models with your own assumptions for growth, margins, tax and the cost of capital. Technical indicators computed on daily or intraday bars: simple, exponential, weighted, double and triple exponential moving averages, RSI, standard deviation, Williams %R and ADX. SEC filings by form, company or CIK, the latest 8-Ks and financial reports, companies’ SEC profiles and their industry classification codes, and private offerings filed on Form C (crowdfunding) and Form D. Company news, press releases and market news articles arrive as they are published.',
    sample: {
      path: 'technical-indicators/sma',
      columns: ['date', 'close', 'sma'],
    },
    coverage: countCoverage({
      table: 'sec_filings',
      key: 'cik',
      unit: 'filers',
      date: 'filing_date',
      records: 'filings',
    }),
  },
  crypto: {
    category: 'Prices and markets',
    summary: 'Cryptocurrency quotes around the clock, daily and intraday history, and crypto news.',
    about:
      'Cryptocurrencies priced in US dollars, traded around the clock every day of the year: the list of coins with their supply and launch dates, live quotes with the day’s change, range, volume and market capitalisation, daily history and intraday bars, which for crypto run without a session break, and news about the coins as it is published. A day’s bar closes at midnight UTC. The same prices stream over a websocket for clients that want every tick.',
    sample: {
      path: 'batch-crypto-quotes',
      columns: ['symbol', 'name', 'price', 'changePercentage', 'volume', 'marketCap'],
    },
    coverage: priceCoverage({ assetTypes: ['crypto'], unit: 'cryptocurrencies', history: true }),
  },
  forex: {
    category: 'Prices and markets',
    summary: 'Currency pair quotes through the trading week, daily and intraday history, and forex news.',
    about:
      'Exchange rates of the major and minor currency pairs, quoted as the price of one unit of the base currency in the quote currency: the list of pairs, live quotes with the day’s change and range, daily history and intraday bars, and news about currencies. The foreign exchange market trades around the clock from Sunday 17:00 to Friday 17:00 New York time; a day’s bar closes at midnight UTC. The same prices stream over a websocket.',
    sample: {
      path: 'batch-forex-quotes',
      columns: ['symbol', 'name', 'price', 'change', 'changePercentage', 'dayLow', 'dayHigh'],
    },
    coverage: priceCoverage({ assetTypes: ['forex'], unit: 'currency pairs', history: true }),
  },
  commodity: {
    category: 'Prices and markets',
    summary:
      'Futures prices of energy, metals, farm goods and financial futures, with the CFTC’s Commitment of Traders reports.',
    about:
      'Commodities as traded on futures exchanges, priced in US dollars: crude oil and natural gas, gold, silver and copper, grains, softs and livestock, and the stock index, Treasury and currency futures, with the list of contracts, live quotes, daily history and intraday bars. For the same markets the Commitment of Traders reports of the US Commodity Futures Trading Commission show each week who holds the open interest, commercial hedgers against non-commercial speculators, long and short, and the analysis endpoint turns them into net positions and their change, a common read of market sentiment.',
    sample: {
      path: 'batch-commodity-quotes',
      columns: ['symbol', 'name', 'price', 'change', 'changePercentage', 'volume'],
    },
    coverage: priceCoverage({ assetTypes: ['commodity'], unit: 'commodities', history: true }),
  },
  'ownership-senate-insider': {
    category: 'Events, ownership and filings',
    summary: 'Insider trades, members of Congress’ trades, 13D/13G stakes and funds’ disclosed holdings.',
    about:
      'Who is buying and selling a company from the inside or with influence: officers’, directors’ and large holders’ transactions reported on SEC Form 4, searchable by company, insider and transaction type, with quarterly buy and sell statistics; the periodic transaction reports of US senators and representatives under the STOCK Act; Schedule 13D and 13G filings of investors who pass 5% of a company’s shares; and the holdings mutual funds disclose each quarter on Form N-PORT, with the funds holding a stock and how their positions changed.',
    sample: {
      path: 'insider-trading/latest',
      query: 'page=0&limit=5',
      columns: ['symbol', 'filingDate', 'reportingName', 'transactionType', 'securitiesTransacted', 'price'],
    },
    coverage: countCoverage({
      table: 'insider_trades',
      key: 'symbol',
      unit: 'companies',
      date: 'filing_date',
      records: 'insider trades',
    }),
  },
  esg: {
    category: 'Company fundamentals',
    summary:
      'Environmental, social and governance scores from company disclosures, ratings and sector benchmarks.',
    about:
      'How companies do on environmental, social and governance matters: scores from 0 to 100 for each pillar and overall, taken from each fiscal year’s disclosures with a link to the filing; a letter rating of ESG risk from AAA to CCC with the company’s rank within its industry; and each sector’s average scores for the year, to tell whether a company leads or trails its peers. Scores are updated as companies publish their yearly reports.',
    sample: {
      path: 'esg-ratings',
      columns: ['fiscalYear', 'companyName', 'industry', 'ESGRiskRating', 'industryRank'],
    },
    coverage: fiscalYearCoverage({ table: 'esg_ratings', unit: 'companies', records: 'yearly ratings' }),
  },
};

/** Every dataset in the header menu's order, with its texts. */
export const DATASET_INFO: readonly DatasetInfo[] = DATASETS.map((dataset) => ({
  id: dataset.id,
  label: dataset.label,
  ...TEXTS[dataset.id],
}));

const BY_ID = new Map<string, DatasetInfo>(DATASET_INFO.map((info) => [info.id, info]));

/** A dataset by its address's id, or undefined for an id that names none (the page answers 404). */
export function datasetInfo(id: string): DatasetInfo | undefined {
  return BY_ID.get(id);
}
