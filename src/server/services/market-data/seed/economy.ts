import { addMonths, dayOf, fromDay, monthOf, toDay, tradingDays, weekday, yearOf } from './calendar.ts';
import { createRandom, round } from './random.ts';
import { PRICE_EPOCH_DAY } from './universe.ts';
import longRate from './data/long-rate.json' with { type: 'json' };
import monthlyIndicators from './data/monthly-indicators.json' with { type: 'json' };
import shortRate from './data/short-rate.json' with { type: 'json' };

/**
 * US rates and macro series for the demo data set: knots follow the broad shape of the last thirty years
 * (so charts look familiar), with seeded noise between them. Generated forward from a fixed start, so an
 * earlier date's value never depends on the "as of" date.
 */

type Knots = readonly (readonly [string, number])[];

/** The outline of the yield curve's short end, in percent. */
const SHORT_RATE = shortRate as unknown as Knots;

/** The outline of the yield curve's long end, in percent. */
const LONG_RATE = longRate as unknown as Knots;

function interpolator(knots: Knots): (day: number) => number {
  const points = knots.map(([iso, v]) => [toDay(iso), v] as const);
  return (day) => {
    const first = points[0];
    if (!first) return 0;
    if (day <= first[0]) return first[1];
    for (let i = 1; i < points.length; i += 1) {
      const [d1, v1] = points[i] ?? first;
      const [d0, v0] = points[i - 1] ?? first;
      if (day <= d1) return v0 + ((v1 - v0) * (day - d0)) / (d1 - d0);
    }
    return points[points.length - 1]?.[1] ?? 0;
  };
}

export const TREASURY_MATURITIES = [
  ['month1', 1 / 12],
  ['month2', 2 / 12],
  ['month3', 0.25],
  ['month6', 0.5],
  ['year1', 1],
  ['year2', 2],
  ['year3', 3],
  ['year5', 5],
  ['year7', 7],
  ['year10', 10],
  ['year20', 20],
  ['year30', 30],
] as const;

export type TreasuryMaturity = (typeof TREASURY_MATURITIES)[number][0];

export interface TreasuryCurve {
  days: number[];
  rates: Record<TreasuryMaturity, Float64Array>;
}

/** Nelson–Siegel slope loading with a two-year decay. */
const loading = (t: number): number => (1 - Math.exp(-t / 2)) / (t / 2);

/** The daily par yield curve from the long-history epoch to `endDay`. */
export function treasuryCurve(seed: number, endDay: number): TreasuryCurve {
  const random = createRandom(seed, 'treasury');
  const short = interpolator(SHORT_RATE);
  const long = interpolator(LONG_RATE);
  const days = tradingDays(PRICE_EPOCH_DAY, endDay, 'exchange');
  const rates = Object.fromEntries(
    TREASURY_MATURITIES.map(([k]) => [k, new Float64Array(days.length)]),
  ) as Record<TreasuryMaturity, Float64Array>;
  let devShort = 0;
  let devLong = 0;
  const f3 = loading(0.25);
  const f10 = loading(10);
  days.forEach((day, i) => {
    devShort += -0.03 * devShort + 0.025 * random.normal();
    devLong += -0.02 * devLong + 0.05 * random.normal();
    const s = Math.max(0.02, short(day) + devShort);
    const l = Math.max(0.3, long(day) + devLong);
    const slope = (s - l) / (f3 - f10);
    const level = l - slope * f10;
    for (const [key, t] of TREASURY_MATURITIES) {
      const premium = t > 10 ? (0.3 * (t - 10)) / 20 : 0;
      const noise = 0.01 * random.normal();
      rates[key][i] = round(Math.max(0.01, level + slope * loading(t) + premium + noise), 2);
    }
  });
  return { days, rates };
}

export interface IndicatorRow {
  name: string;
  date: string;
  value: number;
}

interface MonthlySeries {
  name: string;
  knots: Knots;
  noise: number;
  decimals: number;
}

/** The monthly indicators: outline, noise and precision of each. */
const MONTHLY = monthlyIndicators as unknown as readonly MonthlySeries[];

/** Monthly, quarterly and weekly macro indicators, as FMP names them, released by `asOfDay`. */
export function economicIndicatorRows(seed: number, asOfDay: number, curve: TreasuryCurve): IndicatorRow[] {
  const rows: IndicatorRow[] = [];
  const months: number[] = [];
  for (let m = dayOf(1996, 1, 1); m <= asOfDay; m = addMonths(m, 1)) months.push(m);
  const released = (date: number, lagDays: number): boolean => date + lagDays <= asOfDay;
  const monthlyAverage = (key: 'month3' | 'year10', month: number): number => {
    const next = addMonths(month, 1);
    let sum = 0;
    let n = 0;
    curve.days.forEach((day, i) => {
      if (day >= month && day < next) {
        sum += curve.rates[key][i] ?? 0;
        n += 1;
      }
    });
    return n === 0 ? 0 : sum / n;
  };

  for (const series of MONTHLY) {
    const random = createRandom(seed, 'economy', series.name);
    const base = interpolator(series.knots);
    let dev = 0;
    for (const month of months) {
      dev = 0.6 * dev + series.noise * random.normal();
      const raw = base(month) + dev;
      const value =
        series.name === 'smoothedUSRecessionProbabilities'
          ? Math.min(100, Math.max(0, raw))
          : Math.max(0, raw);
      if (released(month, 35))
        rows.push({ name: series.name, date: fromDay(month), value: round(value, series.decimals) });
    }
  }

  // Rates: monthly averages of the daily curve.
  const rateRandom = createRandom(seed, 'economy', 'rates');
  for (const month of months) {
    if (!released(month, 35)) continue;
    const m3 = monthlyAverage('month3', month);
    const y10 = monthlyAverage('year10', month);
    rows.push({ name: 'federalFunds', date: fromDay(month), value: round(Math.max(0.05, m3 + 0.08), 2) });
    rows.push({
      name: '3MonthOr90DayRatesAndYieldsCertificatesOfDeposit',
      date: fromDay(month),
      value: round(Math.max(0.02, m3 + 0.12), 2),
    });
    const mortgage = y10 + 1.75 + 0.1 * rateRandom.normal();
    rows.push({ name: '30YearFixedRateMortgageAverage', date: fromDay(month), value: round(mortgage, 2) });
    rows.push({
      name: '15YearFixedRateMortgageAverage',
      date: fromDay(month),
      value: round(mortgage - 0.7, 2),
    });
  }

  // Prices and activity: CPI compounding from yearly inflation knots, then nominal series from real growth.
  const inflation = interpolator([
    ['1996-01-01', 2.8],
    ['1998-06-01', 1.6],
    ['2000-06-01', 3.6],
    ['2002-06-01', 1.2],
    ['2005-09-01', 4.6],
    ['2007-06-01', 2.7],
    ['2008-07-01', 5.6],
    ['2009-07-01', -2.0],
    ['2011-09-01', 3.9],
    ['2015-04-01', -0.1],
    ['2018-07-01', 2.9],
    ['2020-05-01', 0.1],
    ['2022-06-01', 9.0],
    ['2023-06-01', 3.0],
    ['2024-09-01', 2.4],
    ['2025-09-01', 3.0],
    ['2026-11-01', 2.7],
  ]);
  const cpiRandom = createRandom(seed, 'economy', 'cpi');
  const cpi: number[] = [];
  let level = 154.7;
  for (const month of months) {
    level *= 1 + inflation(month) / 1200 + 0.0012 * cpiRandom.normal();
    cpi.push(level);
  }
  months.forEach((month, i) => {
    if (!released(month, 40)) return;
    const value = cpi[i] ?? 0;
    rows.push({ name: 'CPI', date: fromDay(month), value: round(value, 3) });
    const yearAgo = cpi[i - 12];
    const rate = yearAgo === undefined ? inflation(month) : (value / yearAgo - 1) * 100;
    rows.push({ name: 'inflationRate', date: fromDay(month), value: round(rate, 2) });
  });

  // Quarterly output: real GDP grows ~2.3% a year with the recessions of 2001, 2008–09 and 2020.
  const growth = interpolator([
    ['1996-01-01', 3.8],
    ['2000-06-01', 4.0],
    ['2001-04-01', -1.0],
    ['2002-01-01', 2.0],
    ['2005-01-01', 3.2],
    ['2008-01-01', -1.5],
    ['2008-10-01', -8.0],
    ['2009-07-01', 1.5],
    ['2010-01-01', 2.6],
    ['2019-10-01', 2.4],
    ['2020-04-01', -29],
    ['2020-07-01', 33],
    ['2020-10-01', 4.5],
    ['2022-01-01', -1],
    ['2023-01-01', 2.5],
    ['2026-11-01', 2.0],
  ]);
  const gdpRandom = createRandom(seed, 'economy', 'gdp');
  let realGdp = 11_800;
  let population = 266e6;
  for (let q = dayOf(1996, 1, 1); q <= asOfDay; q = addMonths(q, 3)) {
    realGdp *= 1 + (growth(q) + 0.8 * gdpRandom.normal()) / 400;
    population *= 1.0023;
    const monthIndex = months.indexOf(q);
    const priceLevel = (cpi[monthIndex] ?? level) / 154.7;
    const nominal = realGdp * priceLevel * 0.66;
    if (!released(q, 120)) continue;
    rows.push({ name: 'realGDP', date: fromDay(q), value: round(realGdp, 3) });
    rows.push({ name: 'GDP', date: fromDay(q), value: round(nominal, 3) });
    rows.push({
      name: 'nominalPotentialGDP',
      date: fromDay(q),
      value: round(nominal * (1.005 + 0.003 * gdpRandom.normal()), 3),
    });
    rows.push({ name: 'realGDPPerCapita', date: fromDay(q), value: round((realGdp * 1e9) / population, 0) });
    rows.push({
      name: 'commercialBankInterestRateOnCreditCardPlansAllAccounts',
      date: fromDay(q),
      value: round(12.5 + 0.9 * interpolator(SHORT_RATE)(q) + gdpRandom.normal() * 0.2, 2),
    });
  }

  // Monthly nominal activity follows nominal output, with the 2020 collapse in spending.
  const activityRandom = createRandom(seed, 'economy', 'activity');
  let retail = 205_000;
  let durable = 165_000;
  let payroll = 117_500;
  for (const month of months) {
    const year = yearOf(month);
    const shock =
      year === 2020 && monthOf(month) === 4 ? -0.16 : year === 2020 && monthOf(month) === 5 ? 0.17 : 0;
    const trend = (growth(month) + inflation(month)) / 1200;
    retail *= 1 + trend + shock + 0.006 * activityRandom.normal();
    durable *= 1 + trend + shock * 1.2 + 0.02 * activityRandom.normal();
    const jobs =
      year === 2020 && monthOf(month) === 4
        ? -0.135
        : year === 2020 && monthOf(month) >= 5 && monthOf(month) <= 9
          ? 0.02
          : growth(month) / 1800;
    payroll *= 1 + jobs + 0.0008 * activityRandom.normal();
    if (!released(month, 35)) continue;
    rows.push({ name: 'retailSales', date: fromDay(month), value: Math.round(retail) });
    rows.push({ name: 'durableGoods', date: fromDay(month), value: Math.round(durable) });
    rows.push({ name: 'totalNonfarmPayroll', date: fromDay(month), value: Math.round(payroll) });
  }

  // Weekly initial jobless claims (Saturdays), with the spring-2020 spike.
  const claimsRandom = createRandom(seed, 'economy', 'initialClaims');
  const claimsBase = interpolator([
    ['1996-01-01', 350_000],
    ['2000-04-01', 270_000],
    ['2001-10-01', 480_000],
    ['2006-01-01', 300_000],
    ['2009-03-28', 665_000],
    ['2014-01-01', 330_000],
    ['2019-12-01', 215_000],
    ['2020-03-14', 250_000],
    ['2020-03-28', 6_000_000],
    ['2020-05-30', 1_900_000],
    ['2020-12-26', 800_000],
    ['2021-12-01', 220_000],
    ['2026-11-01', 225_000],
  ]);
  let claimsDev = 0;
  let saturday = dayOf(1996, 1, 6);
  while (weekday(saturday) !== 6) saturday += 1;
  for (; saturday <= asOfDay; saturday += 7) {
    claimsDev = 0.5 * claimsDev + 0.04 * claimsRandom.normal();
    if (!released(saturday, 5)) continue;
    rows.push({
      name: 'initialClaims',
      date: fromDay(saturday),
      value: Math.round(claimsBase(saturday) * (1 + claimsDev)),
    });
  }
  return rows;
}
