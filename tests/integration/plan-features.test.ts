import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointDefinition } from '../../src/server/data-api/endpoint.ts';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { pricePlans, type PricePlan } from '../../src/server/db/schema.ts';
import { raisedTiers } from '../../src/server/docs/reference.ts';
import { STREAM_TIERS } from '../../src/server/data-api/streams.ts';
import { SYMBOL_COVERAGE } from '../../src/server/services/market-data/directory.ts';
import { readsHistory } from '../../src/server/services/market-data/plan-access.ts';

/*
 * Every feature line of every plan in the catalogue the migrations create is a claim about what the
 * data API enforces for that plan: the tiers of the endpoint definitions and of the symbols, the
 * parameter values that raise a tier (period=quarter), the plan's years of history and its call
 * limits. Each line must match one claim below and the claim must hold for the plan; a line no claim
 * knows fails, so a new promise cannot reach the pricing data without a check of its own.
 */

const byPath = new Map(ALL_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint]));

/** The symbol tiers (SYMBOL_COVERAGE) a plan reads. */
function symbolTiers(plan: PricePlan): number[] {
  return Object.keys(SYMBOL_COVERAGE)
    .map(Number)
    .filter((tier) => tier <= plan.dataTier);
}

/** Whether the plan reads the free sample and nothing beyond it. */
const sampleOnly = (plan: PricePlan): boolean => symbolTiers(plan).every((tier) => tier === 0);

/** The tier at which an endpoint's quarterly rows open, undefined when it has no periods. */
function quarterlyTier(endpoint: EndpointDefinition): number | undefined {
  return raisedTiers(endpoint).find((raised) => raised.subject.startsWith('quarterly'))?.tier;
}

interface DataLine {
  endpoints: readonly string[];
  /** 'annual': annual rows open, quarterly not; 'quarterly': quarterly rows open. */
  period?: 'annual' | 'quarterly';
  /** 'sample': the plan reads the sample symbols only; 'us': it reads every US listing. */
  symbols?: 'sample' | 'us';
}

const STATEMENTS = ['income-statement', 'balance-sheet-statement', 'cash-flow-statement'];
const QUOTES = ['quote', 'quote-short', 'batch-quote', 'batch-quote-short'];
const DAILY_PRICES = ['historical-price-eod/light', 'historical-price-eod/full'];
const INTRADAY = ['1min', '5min', '15min', '30min', '1hour', '4hour'].map((w) => `historical-chart/${w}`);

/** Lines about endpoints: each names the endpoints it promises, and how far the plan reads them. */
const DATA_LINES: Readonly<Record<string, DataLine>> = {
  'Quotes, end-of-day prices, profiles, dividends, splits and news of the sample symbols': {
    endpoints: [...QUOTES, ...DAILY_PRICES, 'profile', 'dividends', 'splits', 'news/stock'],
    symbols: 'sample',
  },
  'Annual income statements, balance sheets and cash flow statements of the sample symbols': {
    endpoints: STATEMENTS,
    period: 'annual',
    symbols: 'sample',
  },
  'Annual key metrics, ratios and enterprise values of the sample symbols': {
    endpoints: ['key-metrics', 'ratios', 'enterprise-values'],
    period: 'annual',
    symbols: 'sample',
  },
  'Financial scores, owner earnings and DCF valuations of the sample symbols': {
    endpoints: ['financial-scores', 'owner-earnings', 'discounted-cash-flow', 'levered-discounted-cash-flow'],
    symbols: 'sample',
  },
  'Annual statements, metrics and ratios of every US listing': {
    endpoints: [...STATEMENTS, 'key-metrics', 'ratios'],
    period: 'annual',
    symbols: 'us',
  },
  'Company executives, earnings, adjusted price series and sector performance': {
    endpoints: [
      'key-executives',
      'earnings',
      'historical-price-eod/non-split-adjusted',
      'historical-price-eod/dividend-adjusted',
      'sector-performance-snapshot',
    ],
  },
  'Quarterly statements, metrics and ratios': {
    endpoints: [...STATEMENTS, 'key-metrics', 'ratios'],
    period: 'quarterly',
  },
  'Intraday bars from one minute to four hours': { endpoints: INTRADAY },
  'Analyst estimates, price targets and grades': {
    endpoints: ['analyst-estimates', 'price-target-consensus', 'grades', 'grades-consensus'],
  },
  'Earnings call transcripts and institutional ownership': {
    endpoints: ['earning-call-transcript', 'institutional-ownership/symbol-positions-summary'],
  },
  'Crypto and forex news, economic indicators and ESG ratings': {
    endpoints: ['news/crypto', 'news/forex', 'economic-indicators', 'esg-ratings'],
  },
  'Insider, Senate and House trading': {
    endpoints: ['insider-trading/latest', 'insider-trading/search', 'senate-latest', 'house-latest'],
  },
  'SEC filings and Form 13F holdings': {
    endpoints: [
      'sec-filings-8k',
      'sec-filings-financials',
      'sec-filings-search/form-type',
      'sec-filings-search/symbol',
      'sec-profile',
      'institutional-ownership/latest',
      'institutional-ownership/extract',
    ],
  },
  'ETF and mutual fund holdings, weightings and quarterly disclosures': {
    endpoints: [
      'etf/holdings',
      'etf/info',
      'etf/sector-weightings',
      'etf/country-weightings',
      'funds/disclosure',
      'funds/disclosure-dates',
      'funds/disclosure-holders-latest',
    ],
  },
  'Bulk CSV and JSON downloads': {
    endpoints: ALL_ENDPOINTS.filter((endpoint) => endpoint.bulk !== undefined).map(
      (endpoint) => endpoint.path,
    ),
  },
};

/** Why a data line is false for the plan; empty when it holds. */
function dataLineFailures(plan: PricePlan, line: DataLine): string[] {
  const failures: string[] = [];
  for (const path of line.endpoints) {
    const endpoint = byPath.get(path);
    if (endpoint === undefined) {
      failures.push(`names ${path}, which the data API does not serve`);
      continue;
    }
    if (endpoint.tier > plan.dataTier) failures.push(`${path} needs tier ${String(endpoint.tier)}`);
    if (line.period === undefined) continue;
    const quarterly = quarterlyTier(endpoint);
    if (quarterly === undefined) failures.push(`${path} has no reporting periods`);
    else if (line.period === 'annual' && quarterly <= plan.dataTier)
      failures.push(`says annual, but the plan reads ${path} quarterly too`);
    else if (line.period === 'quarterly' && quarterly > plan.dataTier)
      failures.push(`${path} quarterly needs tier ${String(quarterly)}`);
  }
  if (line.symbols === 'sample' && !sampleOnly(plan))
    failures.push('says the sample symbols, but the plan reads more');
  if (line.symbols === 'us' && !symbolTiers(plan).includes(1))
    failures.push('says every US listing, which the plan does not read');
  return failures;
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const NUMBER_WORDS: Readonly<Record<string, number>> = { One: 1, Two: 2, Three: 3, Five: 5, Ten: 10 };
const count = (text: string): number => Number(text.replaceAll(',', ''));

/** Whether plan `a` has at least the call limits of plan `b` (null: no limit). */
const limitAtLeast = (a: number | null, b: number | null): boolean => a === null || (b !== null && a >= b);

/**
 * A feature line's failures against the plan: empty when a claim knows the line and it holds, one
 * failure when no claim knows it.
 */
function lineFailures(plan: PricePlan, line: string, catalogue: readonly PricePlan[]): string[] {
  const data = DATA_LINES[line];
  if (data !== undefined) return dataLineFailures(plan, data);

  for (const [tier, text] of Object.entries(SYMBOL_COVERAGE)) {
    if (line !== capitalized(text)) continue;
    if (Number(tier) > plan.dataTier) return [`the plan does not read symbols of tier ${tier}`];
    // The sample as a plan's whole coverage would understate a plan that reads more.
    return Number(tier) === 0 && !sampleOnly(plan) ? ['the plan reads more than the sample'] : [];
  }

  const everything = /^Everything in (.+)$/.exec(line);
  if (everything !== null) {
    const other = catalogue.find((candidate) => candidate.name === everything[1] && candidate.active);
    if (other === undefined) return [`no plan on sale is called ${everything[1] ?? ''}`];
    const failures: string[] = [];
    if (plan.dataTier < other.dataTier) failures.push(`tier below ${other.name}'s`);
    if (!readsHistory(plan.historyYears, other.historyYears ?? Number.POSITIVE_INFINITY))
      failures.push(`less history than ${other.name}`);
    if (!limitAtLeast(plan.callsPerMinute, other.callsPerMinute))
      failures.push(`fewer calls a minute than ${other.name}`);
    if (!limitAtLeast(plan.callsPerDay, other.callsPerDay))
      failures.push(`fewer calls a day than ${other.name}`);
    return failures;
  }

  const history = /^(\w+) years of daily history$/.exec(line);
  if (history !== null) {
    const years = NUMBER_WORDS[history[1] ?? ''];
    return years === plan.historyYears ? [] : [`the plan reads ${String(plan.historyYears ?? 'all')} years`];
  }
  if (line === 'Full daily history')
    return plan.historyYears === null ? [] : ['the plan reads less than all'];

  const limits = /^([\d,]+) calls a minute and (?:([\d,]+) a day|no daily limit)$/.exec(line);
  if (limits !== null) {
    const perDay = limits[2] === undefined ? null : count(limits[2]);
    return plan.callsPerMinute === count(limits[1] ?? '') && plan.callsPerDay === perDay
      ? []
      : [`the plan allows ${String(plan.callsPerMinute)} a minute and ${String(plan.callsPerDay)} a day`];
  }

  // The websocket streams are not endpoints: their plan gate is the streams' own table.
  if (line === 'Real-time US stock prices over a websocket stream')
    return STREAM_TIERS.stocks <= plan.dataTier ? [] : ['the plan does not open the stocks stream'];
  if (line === 'Live crypto and forex prices over websocket streams')
    return STREAM_TIERS.crypto <= plan.dataTier && STREAM_TIERS.forex <= plan.dataTier
      ? []
      : ['the plan does not open the crypto and forex streams'];

  if (line === 'Personal, non-commercial use')
    return plan.planType === 'personal' ? [] : ['the plan is commercial'];
  if (line === 'Use in commercial products and internal business tools')
    return plan.planType === 'commercial' ? [] : ['the plan is for personal use'];
  // Licence terms: what a commercial buyer may do with the data. The data API cannot enforce them;
  // they may only be promised by a commercial plan.
  if (line === 'Display to up to 10,000 end users' || line === 'Redistribution and unlimited end users')
    return plan.planType === 'commercial' ? [] : ['a licence term on a personal plan'];

  if (line === 'Two months free compared with monthly billing') {
    const monthly = catalogue.find(
      (candidate) =>
        candidate.billingInterval === 'month' &&
        candidate.active &&
        candidate.planType === plan.planType &&
        candidate.dataTier === plan.dataTier &&
        candidate.callsPerMinute === plan.callsPerMinute &&
        candidate.callsPerDay === plan.callsPerDay &&
        candidate.historyYears === plan.historyYears,
    );
    if (plan.billingInterval !== 'year' || monthly === undefined)
      return ['no monthly billing of the same plan'];
    return plan.priceCents === monthly.priceCents * 10 ? [] : ['the year does not cost ten months'];
  }

  return ['no claim knows this line'];
}

describe('the plans’ feature lines', () => {
  let database: Database;
  let catalogue: PricePlan[];

  beforeAll(async () => {
    database = openDatabase({ dataDir: 'memory://', migrationsDir: path.resolve('db/migrations') });
    await database.migrate();
    catalogue = await database.db.select().from(pricePlans).orderBy(asc(pricePlans.sortOrder));
  });

  afterAll(async () => {
    await database.close();
  });

  it('are each a claim the data API enforces for that plan', () => {
    expect(catalogue.length).toBeGreaterThan(0);
    const failures = catalogue.flatMap((plan) =>
      plan.features.flatMap((line) =>
        lineFailures(plan, line, catalogue).map((failure) => `${plan.code}: "${line}": ${failure}`),
      ),
    );
    expect(failures).toEqual([]);
  });

  it('give every plan its call limits and its history', () => {
    for (const plan of catalogue) {
      const checked = plan.features.filter(
        (line) =>
          line.includes(' calls a minute ') ||
          line.endsWith('daily history') ||
          line.startsWith('Everything in '),
      );
      expect(checked.length, plan.code).toBeGreaterThan(0);
    }
  });

  it('refuse a line that promises more than the plan opens, and a line nobody checks', () => {
    const free = catalogue.find((plan) => plan.code === 'free');
    const starter = catalogue.find((plan) => plan.code === 'starterT1');
    if (free === undefined || starter === undefined) throw new Error('the catalogue lacks Free or Starter');
    expect(lineFailures(free, 'Quarterly statements, metrics and ratios', catalogue)).not.toEqual([]);
    expect(
      lineFailures(
        free,
        'Company executives, earnings, adjusted price series and sector performance',
        catalogue,
      ),
    ).not.toEqual([]);
    expect(lineFailures(free, 'Full daily history', catalogue)).not.toEqual([]);
    expect(lineFailures(free, 'Everything in Starter', catalogue)).not.toEqual([]);
    expect(lineFailures(free, 'End-of-day prices for US stocks and ETFs', catalogue)).toEqual([
      'no claim knows this line',
    ]);
    expect(
      lineFailures(
        starter,
        'Annual income statements, balance sheets and cash flow statements of the sample symbols',
        catalogue,
      ),
    ).toEqual(['says the sample symbols, but the plan reads more']);
    expect(lineFailures(starter, 'Display to up to 10,000 end users', catalogue)).not.toEqual([]);
    expect(lineFailures(starter, 'Real-time US stock prices over a websocket stream', catalogue)).toEqual([
      'the plan does not open the stocks stream',
    ]);
    expect(lineFailures(starter, 'Bulk CSV and JSON downloads', catalogue)).not.toEqual([]);
    expect(lineFailures(starter, 'SEC filings and Form 13F holdings', catalogue)).not.toEqual([]);
  });

  it('open annual statements and what is computed from them on the Free plan, and quarterly rows not', () => {
    const free = catalogue.find((plan) => plan.code === 'free');
    expect(free?.features).toEqual(
      expect.arrayContaining([
        'Annual income statements, balance sheets and cash flow statements of the sample symbols',
        'Annual key metrics, ratios and enterprise values of the sample symbols',
        'Financial scores, owner earnings and DCF valuations of the sample symbols',
        'Five years of daily history',
        '30 calls a minute and 250 a day',
      ]),
    );
    expect(free).toMatchObject({ dataTier: 0, historyYears: 5, callsPerMinute: 30, callsPerDay: 250 });
  });
});
