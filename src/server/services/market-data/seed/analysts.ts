import { addMonths, addWeekdays, dayOf, fromDay, monthEnd, monthOf, yearOf } from './calendar.ts';
import { fiscalQuarterEnd, type CompanyFundamentals, type PeriodStatements } from './fundamentals.ts';
import { RESEARCH_FIRMS } from './names.ts';
import { createRandom, randomUuid, round } from './random.ts';
import type { SecuritySpec } from './universe.ts';

/**
 * What analysts say about a company: earnings surprises against consensus, forward estimates, price targets
 * and rating changes. Estimates are drawn around the generated actuals, so surprises stay plausible.
 */

export interface EarningsRow {
  symbol: string;
  date: string;
  epsActual: number | null;
  epsEstimated: number | null;
  revenueActual: number | null;
  revenueEstimated: number | null;
  lastUpdated: string;
}

/** Reported quarters (announced by the "as of" date, newest `count`) and the next expected report. */
export function earningsRows(
  seed: number,
  spec: SecuritySpec,
  fundamentals: CompanyFundamentals,
  asOfDay: number,
  count: number,
): EarningsRow[] {
  const announced = fundamentals.quarters.filter((q) => q.announcementDay <= asOfDay).slice(-count);
  const rows: EarningsRow[] = announced.map((q) => {
    const random = createRandom(seed, 'earnings', spec.symbol, q.fiscalYear, q.quarter);
    const eps = q.income.eps;
    const surprise = Math.abs(eps) * (0.04 + 0.06 * random.normal()) + 0.01 * random.normal();
    return {
      symbol: spec.symbol,
      date: fromDay(q.announcementDay),
      epsActual: eps,
      epsEstimated: round(eps - surprise, 2),
      revenueActual: q.income.revenue,
      revenueEstimated: Math.round(q.income.revenue * (1 - 0.01 - 0.015 * random.normal())),
      lastUpdated: fromDay(q.announcementDay),
    };
  });
  const next = nextQuarter(seed, spec, fundamentals, asOfDay);
  if (next) {
    rows.push({
      symbol: spec.symbol,
      date: fromDay(next.announcementDay),
      epsActual: null,
      epsEstimated: round(next.eps, 2),
      revenueActual: null,
      revenueEstimated: Math.round(next.revenue),
      lastUpdated: fromDay(asOfDay),
    });
  }
  return rows;
}

interface Forecast {
  fiscalYear: number;
  quarter: number;
  endDay: number;
  announcementDay: number;
  revenue: number;
  eps: number;
}

function growthOf(fundamentals: CompanyFundamentals, asOfDay: number): number {
  const years = fundamentals.years.filter((y) => y.filingDay <= asOfDay);
  const last = years[years.length - 1];
  const previous = years[years.length - 2];
  if (!last || !previous || previous.income.revenue <= 0) return 0.05;
  return Math.min(0.6, Math.max(-0.2, last.income.revenue / previous.income.revenue - 1));
}

/** The quarter after the last one announced by the "as of" date, with a consensus forecast. */
function nextQuarter(
  seed: number,
  spec: SecuritySpec,
  fundamentals: CompanyFundamentals,
  asOfDay: number,
): Forecast | null {
  const announced = fundamentals.quarters.filter((q) => q.announcementDay <= asOfDay);
  const last = announced[announced.length - 1];
  const m = spec.fundamentals?.fiscalYearEndMonth ?? 12;
  if (!last) return null;
  const fiscalYear = last.quarter === 4 ? last.fiscalYear + 1 : last.fiscalYear;
  const quarter = last.quarter === 4 ? 1 : last.quarter + 1;
  const generated = fundamentals.quarters.find((q) => q.fiscalYear === fiscalYear && q.quarter === quarter);
  const endDay = fiscalQuarterEnd(fiscalYear, quarter, m);
  let announcementDay = generated?.announcementDay ?? addWeekdays(endDay, 24);
  if (announcementDay <= asOfDay) announcementDay = addWeekdays(asOfDay, 3);
  const yearAgo = announced.find((q) => q.fiscalYear === fiscalYear - 1 && q.quarter === quarter) ?? last;
  const g = growthOf(fundamentals, asOfDay);
  const random = createRandom(seed, 'next-quarter', spec.symbol, fiscalYear, quarter);
  return {
    fiscalYear,
    quarter,
    endDay,
    announcementDay,
    revenue: yearAgo.income.revenue * (1 + g) * (1 + 0.01 * random.normal()),
    eps: yearAgo.income.eps * (1 + g) * (1 + 0.03 * random.normal()),
  };
}

export interface EstimateRow {
  symbol: string;
  period: 'annual' | 'quarter';
  date: string;
  data: Record<string, string | number | null>;
}

function estimate(
  spec: SecuritySpec,
  base: PeriodStatements,
  growth: number,
  date: number,
  spread: number,
  analysts: number,
): Record<string, string | number | null> {
  const i = base.income;
  const scale = 1 + growth;
  const ni = i.netIncome >= 0 ? i.netIncome * scale : i.netIncome * (1 - Math.min(0.5, growth + 0.2));
  const band = (v: number, width: number): [number, number, number] => {
    const avg = Math.round(v);
    return [Math.round(avg - Math.abs(avg) * width), Math.round(avg + Math.abs(avg) * width), avg];
  };
  const [revenueLow, revenueHigh, revenueAvg] = band(i.revenue * scale, spread);
  const [ebitdaLow, ebitdaHigh, ebitdaAvg] = band(i.ebitda * scale, spread * 1.4);
  const [ebitLow, ebitHigh, ebitAvg] = band(i.ebit * scale, spread * 1.5);
  const [netIncomeLow, netIncomeHigh, netIncomeAvg] = band(ni, spread * 1.8);
  const [sgaLow, sgaHigh, sgaAvg] = band(i.sellingGeneralAndAdministrativeExpenses * scale, spread);
  const shares = i.weightedAverageShsOutDil || 1;
  const epsAvg = round(netIncomeAvg / shares, 2);
  return {
    symbol: spec.symbol,
    date: fromDay(date),
    revenueLow,
    revenueHigh,
    revenueAvg,
    ebitdaLow,
    ebitdaHigh,
    ebitdaAvg,
    ebitLow,
    ebitHigh,
    ebitAvg,
    netIncomeLow,
    netIncomeHigh,
    netIncomeAvg,
    sgaExpenseLow: sgaLow,
    sgaExpenseHigh: sgaHigh,
    sgaExpenseAvg: sgaAvg,
    epsAvg,
    epsHigh: round(netIncomeHigh / shares, 2),
    epsLow: round(netIncomeLow / shares, 2),
    numAnalystsRevenue: analysts,
    numAnalystsEps: Math.max(1, analysts - 2),
  };
}

/** Consensus for the next three fiscal years and the next four quarters. */
export function estimateRows(
  seed: number,
  spec: SecuritySpec,
  fundamentals: CompanyFundamentals,
  asOfDay: number,
): EstimateRow[] {
  const m = spec.fundamentals?.fiscalYearEndMonth ?? 12;
  const years = fundamentals.years.filter((y) => y.filingDay <= asOfDay);
  const quarters = fundamentals.quarters.filter((q) => q.filingDay <= asOfDay);
  const lastYear = years[years.length - 1];
  const lastQuarter = quarters[quarters.length - 1];
  if (!lastYear || !lastQuarter) return [];
  const random = createRandom(seed, 'estimates', spec.symbol);
  const g = growthOf(fundamentals, asOfDay) * 0.8 + 0.01;
  const coverage = spec.tier === 'core' ? random.int(25, 45) : random.int(3, 18);
  const rows: EstimateRow[] = [];
  for (let k = 1; k <= 3; k += 1) {
    const date = fiscalQuarterEnd(lastYear.fiscalYear + k, 4, m);
    rows.push({
      symbol: spec.symbol,
      period: 'annual',
      date: fromDay(date),
      data: estimate(
        spec,
        lastYear,
        (1 + g) ** k - 1,
        date,
        0.03 + 0.03 * k,
        Math.max(1, coverage - 4 * (k - 1)),
      ),
    });
  }
  for (let k = 1; k <= 4; k += 1) {
    let fy = lastQuarter.fiscalYear;
    let q = lastQuarter.quarter + k;
    while (q > 4) {
      q -= 4;
      fy += 1;
    }
    const base = quarters.find((p) => p.fiscalYear === fy - 1 && p.quarter === q) ?? lastQuarter;
    const date = fiscalQuarterEnd(fy, q, m);
    rows.push({
      symbol: spec.symbol,
      period: 'quarter',
      date: fromDay(date),
      data: estimate(spec, base, g, date, 0.025 + 0.01 * k, Math.max(1, coverage - 2 * k)),
    });
  }
  return rows;
}

export interface PriceTargetRow {
  symbol: string;
  targetHigh: number;
  targetLow: number;
  targetConsensus: number;
  targetMedian: number;
}

export function priceTargetRow(seed: number, spec: SecuritySpec, lastClose: number): PriceTargetRow {
  const random = createRandom(seed, 'price-target', spec.symbol);
  const consensus = lastClose * (1 + 0.08 + 0.1 * random.normal());
  return {
    symbol: spec.symbol,
    targetHigh: round(consensus * random.range(1.18, 1.45), 2),
    targetLow: round(consensus * random.range(0.55, 0.85), 2),
    targetConsensus: round(consensus, 2),
    targetMedian: round(consensus * (1 + 0.02 * random.normal()), 2),
  };
}

export interface GradeRow {
  id: string;
  symbol: string;
  date: string;
  gradingCompany: string;
  previousGrade: string;
  newGrade: string;
  action: string;
}

const GRADE_SCALE = [
  'Sell',
  'Underweight',
  'Hold',
  'Neutral',
  'Equal Weight',
  'Overweight',
  'Outperform',
  'Buy',
  'Strong Buy',
];

/** Rating changes over the two years before the "as of" date, about one every four months per firm set. */
export function gradeRows(seed: number, spec: SecuritySpec, asOfDay: number): GradeRow[] {
  const random = createRandom(seed, 'grades', spec.symbol);
  const lastGrade = new Map<string, number>();
  const rows: GradeRow[] = [];
  const bias = random.range(3, 7);
  for (let month = dayOf(2020, 1, 1); month <= asOfDay; month = addMonths(month, 1)) {
    const happens = random.chance(0.3);
    const firm = random.pick(RESEARCH_FIRMS);
    const day = Math.min(monthEnd(yearOf(month), monthOf(month)), month + random.int(0, 27));
    const drift = random.normal();
    const id = randomUuid(random);
    if (!happens) continue;
    const previous = lastGrade.get(firm);
    const next = Math.min(8, Math.max(0, Math.round((previous ?? bias) + drift * 1.2)));
    lastGrade.set(firm, next);
    if (day > asOfDay || day < asOfDay - 730) continue;
    const previousName = previous === undefined ? '' : (GRADE_SCALE[previous] ?? 'Hold');
    const nextName = GRADE_SCALE[next] ?? 'Hold';
    const action =
      previous === undefined
        ? 'initialise'
        : next > previous
          ? 'upgrade'
          : next < previous
            ? 'downgrade'
            : 'maintain';
    rows.push({
      id,
      symbol: spec.symbol,
      date: fromDay(day),
      gradingCompany: firm,
      previousGrade: previousName,
      newGrade: nextName,
      action,
    });
  }
  return rows;
}
