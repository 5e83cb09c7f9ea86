/**
 * What analysts think of a stock (analysis): the rating changes of the brokers with the consensus
 * of their latest ratings, the price target range against the current price, and the consensus
 * estimates of the coming fiscal years.
 */
import { formatDate, formatNumber, formatPercent, formatPrice, priceDigits } from '../../lib/format.ts';
import {
  analystEstimateRows,
  gradeRows,
  gradesConsensusOf,
  priceTargetConsensus,
  RECOMMENDATION_LABELS,
  RECOMMENDATIONS,
} from '../services/market-data/analysts.ts';
import { isoDay } from '../../lib/iso-date.ts';
import type { ApiRow } from '../services/market-data/statements.ts';
import { calendarDate, upsidePercent } from './company-view.ts';
import type { SymbolPageContext } from './resolver.ts';
import type { Stat } from './view.ts';

/** What the analysis page of a stock shows. */
export interface CompanyAnalysisView {
  symbol: string;
  currency: string;
  /** Empty when no firm rates the stock. */
  consensusStats: Stat[];
  /** Date, firm, action, rating. */
  gradeTableRows: string[][];
  /** Empty without price targets. */
  targetStats: Stat[];
  /** Fiscal year, revenue low/avg/high, EPS low/avg/high, analysts of each. */
  estimateRows: string[][];
}

/** Rating changes shown (two years of coverage fit easily). */
const GRADES_SHOWN = 50;
/** Rating changes read for the consensus: enough to find each firm's latest grade of the past year. */
const GRADES_READ = 1000;
const ESTIMATE_YEARS = 10;

/** Reads the analysis page of a stock. */
export async function loadCompanyAnalysis(context: SymbolPageContext): Promise<CompanyAnalysisView> {
  const { db, now, quote } = context;
  const symbol = context.security.symbol;

  const [grades, targets, estimates] = await Promise.all([
    gradeRows(db, symbol, GRADES_READ),
    priceTargetConsensus(db, symbol),
    analystEstimateRows(db, { symbol, period: 'annual', page: 0, limit: ESTIMATE_YEARS }),
  ]);
  const target = targets[0];

  function price(value: number | null | undefined): string {
    return formatPrice(value, undefined, priceDigits(value));
  }

  function numberField(row: ApiRow, field: string): number | null {
    const value = row[field];
    return typeof value === 'number' ? value : null;
  }

  const ACTIONS: Readonly<Record<string, string>> = {
    upgrade: 'Upgrade',
    downgrade: 'Downgrade',
    maintain: 'Maintain',
    initialise: 'Initiate',
    initialize: 'Initiate',
    init: 'Initiate',
    reiterate: 'Reiterate',
  };

  // The same consensus /stable/grades-consensus answers: each firm once, by its latest rating of the past year.
  const [consensus] = gradesConsensusOf(symbol, grades, isoDay(now));
  const consensusStats: Stat[] =
    consensus === undefined
      ? []
      : [
          { term: 'Consensus rating', value: consensus.consensus },
          {
            term: 'Firms rating',
            value: formatNumber(RECOMMENDATIONS.reduce((sum, bucket) => sum + consensus[bucket], 0)),
          },
          ...RECOMMENDATIONS.map((bucket) => ({
            term: RECOMMENDATION_LABELS[bucket],
            value: formatNumber(consensus[bucket]),
          })),
        ];

  const gradeTableRows = grades
    .slice(0, GRADES_SHOWN)
    .map((grade) => [
      formatDate(calendarDate(grade.date), now),
      grade.gradingCompany,
      ACTIONS[grade.action.toLowerCase()] ?? grade.action,
      grade.previousGrade === '' ? grade.newGrade : `${grade.previousGrade} → ${grade.newGrade}`,
    ]);

  const upside = upsidePercent(target?.targetConsensus, quote?.price);
  const targetStats: Stat[] =
    target === undefined
      ? []
      : [
          { term: 'Current price', value: price(quote?.price) },
          { term: 'Consensus target', value: price(target.targetConsensus) },
          { term: 'Upside to consensus', value: formatPercent(upside) },
          { term: 'Median target', value: price(target.targetMedian) },
          { term: 'High target', value: price(target.targetHigh) },
          { term: 'Low target', value: price(target.targetLow) },
        ];

  // Nearest fiscal year first: the service answers the furthest first.
  const estimateRows = [...estimates].reverse().map((row) => {
    const date = String(row.date ?? '');
    return [
      `FY ${date.slice(0, 4)}`,
      formatNumber(numberField(row, 'revenueLow')),
      formatNumber(numberField(row, 'revenueAvg')),
      formatNumber(numberField(row, 'revenueHigh')),
      formatPrice(numberField(row, 'epsLow')),
      formatPrice(numberField(row, 'epsAvg')),
      formatPrice(numberField(row, 'epsHigh')),
      formatNumber(numberField(row, 'numAnalystsRevenue')),
      formatNumber(numberField(row, 'numAnalystsEps')),
    ];
  });
  return {
    symbol,
    currency: context.header.currency,
    consensusStats,
    gradeTableRows,
    targetStats,
    estimateRows,
  };
}
