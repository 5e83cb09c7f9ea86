/**
 * The Overview tab of a stock (financial-summary): the quote's key statistics, valuation of the
 * latest fiscal year, a profile excerpt, four years of results, the analysts' price targets and
 * the latest headlines, each linking on to the tab that has the full story.
 */
import { formatDate, formatNumber, formatPercent, formatPrice, priceDigits } from '../../lib/format.ts';
import { priceTargetConsensus } from '../services/market-data/analysts.ts';
import { profiles } from '../services/market-data/company.ts';
import { keyMetricRows, ratioRows } from '../services/market-data/fundamentals.ts';
import { newsRows } from '../services/market-data/news.ts';
import { statementRows, type ApiRow } from '../services/market-data/statements.ts';
import { excerpt, upsidePercent } from './company-view.ts';
import type { SymbolPageContext } from './resolver.ts';
import type { Stat, TableColumn } from './view.ts';

/** One of the latest headlines, linking to the news tab. */
export interface Headline {
  title: string;
  /** Publisher, else site. */
  source: string;
  /** ISO-like time for the time element. */
  datetime: string;
  when: string;
}

/** What the Overview tab of a stock shows. */
export interface CompanySummaryView {
  symbol: string;
  name: string;
  currency: string;
  /** Empty without prices. */
  keyStats: Stat[];
  /** Period end of the fiscal year the valuation is from; undefined without annual statements. */
  valuationDate: string | undefined;
  valuationStats: Stat[];
  profileStats: Stat[];
  /** The opening of the company description; '' without one. */
  description: string;
  resultColumns: TableColumn[];
  /** Empty without annual statements. */
  resultRows: string[][];
  reportedCurrency: string;
  /** Empty without price targets. */
  targetStats: Stat[];
  /** The latest price, formatted. */
  latestPrice: string;
  headlines: Headline[];
}

/** Fiscal years of results shown in the overview's table. */
const RESULT_YEARS = 4;
const HEADLINES = 3;

/** Reads the Overview tab of a stock. */
export async function loadCompanySummary(context: SymbolPageContext): Promise<CompanySummaryView> {
  const { db, directory, now, quote } = context;
  const symbol = context.security.symbol;

  const [profileList, ratioList, metricList, income, cashFlow, targets, headlines] = await Promise.all([
    profiles(db, directory, [symbol], now),
    ratioRows(db, symbol, 'annual', 1),
    keyMetricRows(db, symbol, 'annual', 1),
    statementRows(db, 'income', { symbol, period: 'annual', limit: RESULT_YEARS }),
    statementRows(db, 'cash-flow', { symbol, period: 'annual', limit: RESULT_YEARS }),
    priceTargetConsensus(db, symbol),
    newsRows(db, { category: 'stock', symbols: [symbol], page: 0, limit: HEADLINES }),
  ]);
  const profile = profileList[0];
  const ratio = ratioList[0];
  const metric = metricList[0];
  const target = targets[0];

  function price(value: number | null | undefined): string {
    return formatPrice(value, undefined, priceDigits(value));
  }

  function numberField(row: ApiRow | undefined, field: string): number | null {
    const value = row?.[field];
    return typeof value === 'number' ? value : null;
  }

  /** A ratio is meaningless when its denominator was zero or negative (the formulas answer 0 then). */
  function multiple(value: number | undefined): string {
    return value === undefined || value <= 0 ? formatNumber(null) : formatNumber(value);
  }

  const keyStats: Stat[] =
    quote === undefined
      ? []
      : [
          { term: 'Open', value: price(quote.open) },
          { term: 'Previous close', value: price(quote.previousClose) },
          { term: 'Day range', value: `${price(quote.dayLow)} – ${price(quote.dayHigh)}` },
          { term: '52-week range', value: `${price(quote.yearLow)} – ${price(quote.yearHigh)}` },
          { term: 'Volume', value: formatNumber(quote.volume) },
          { term: 'Average volume (3 months)', value: formatNumber(profile?.averageVolume) },
          {
            term: 'Market cap',
            value: quote.marketCap > 0 ? formatNumber(quote.marketCap) : formatNumber(null),
          },
          { term: '50-day average', value: price(quote.priceAvg50) },
          { term: '200-day average', value: price(quote.priceAvg200) },
          ...(profile !== undefined && profile.beta !== 0
            ? [{ term: 'Beta', value: formatNumber(profile.beta) }]
            : []),
        ];

  const latestIncome = income[0];
  const valuationStats: Stat[] =
    ratio === undefined
      ? []
      : [
          { term: 'P/E ratio', value: multiple(ratio.priceToEarningsRatio) },
          {
            term: 'EPS (diluted)',
            value: formatPrice(numberField(latestIncome, 'epsDiluted') ?? ratio.netIncomePerShare),
          },
          { term: 'Price to sales', value: multiple(ratio.priceToSalesRatio) },
          { term: 'Price to book', value: multiple(ratio.priceToBookRatio) },
          { term: 'EV / EBITDA', value: multiple(metric?.evToEBITDA) },
          { term: 'Dividend yield', value: `${formatNumber(ratio.dividendYieldPercentage)}%` },
        ];

  // Results by fiscal year, oldest on the left as statements read; cash flow matched by period end.
  const years = [...income].reverse();
  const freeCashFlowByDate = new Map(cashFlow.map((row) => [row.date, numberField(row, 'freeCashFlow')]));
  const resultColumns = [
    { label: 'Item' },
    ...years.map((row) => ({ label: `FY ${String(row.fiscalYear ?? '')}`, numeric: true })),
  ];
  const resultRows =
    years.length === 0
      ? []
      : [
          ['Revenue', ...years.map((row) => formatNumber(numberField(row, 'revenue')))],
          ['Net income', ...years.map((row) => formatNumber(numberField(row, 'netIncome')))],
          [
            'Free cash flow',
            ...years.map((row) => formatNumber(freeCashFlowByDate.get(String(row.date ?? '')) ?? null)),
          ],
        ];
  const reportedCurrency = String(latestIncome?.reportedCurrency ?? '') || context.header.currency;

  const upside = upsidePercent(target?.targetConsensus, quote?.price);
  const targetStats: Stat[] =
    target === undefined
      ? []
      : [
          { term: 'Consensus target', value: price(target.targetConsensus) },
          { term: 'Upside to consensus', value: formatPercent(upside) },
          { term: 'High target', value: price(target.targetHigh) },
          { term: 'Low target', value: price(target.targetLow) },
          { term: 'Median target', value: price(target.targetMedian) },
        ];

  const description = profile === undefined ? '' : excerpt(profile.description);
  const profileStats: Stat[] = [
    { term: 'Sector', value: context.security.sector || formatNumber(null) },
    { term: 'Industry', value: context.security.industry || formatNumber(null) },
  ];
  return {
    symbol,
    name: context.header.name,
    currency: context.header.currency,
    keyStats,
    valuationDate: ratio?.date,
    valuationStats,
    profileStats,
    description,
    resultColumns,
    resultRows,
    reportedCurrency,
    targetStats,
    latestPrice: price(quote?.price),
    headlines: headlines.map((article) => ({
      title: article.title,
      source: article.publisher || article.site,
      datetime: article.publishedDate.replace(' ', 'T'),
      when: formatDate(article.publishedDate.replace(' ', 'T'), now),
    })),
  };
}
