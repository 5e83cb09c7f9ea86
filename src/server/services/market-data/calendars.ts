import { and, asc, between, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  isoDay,
  isoDayStart,
  isoDaysBetween,
  shiftIsoDays,
  shiftIsoMonths,
  DAY_MS,
} from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import {
  companyProfiles,
  dividends,
  earnings,
  economicIndicators,
  securities,
  splits,
} from '../../db/schema.ts';
import { dividendYield, type DividendRow, type EarningsRow, type SplitRow } from './events.ts';
import { InvalidParametersError } from './plan-access.ts';

/** The longest range FMP's calendars answer in one call; a longer one is refused, not cut short. */
export const CALENDAR_MAX_DAYS = 90;

/** Days a calendar covers when the caller names neither end: the coming four weeks and two days. */
export const CALENDAR_DEFAULT_DAYS = 30;

/** A calendar's first and last day (YYYY-MM-DD, inclusive). */
export interface CalendarWindow {
  from: string;
  to: string;
}

/**
 * The days a calendar covers: the caller's `from` and `to`, a missing end {@link CALENDAR_DEFAULT_DAYS}
 * from the other, today onwards when both are missing. A range that ends before it starts, or spans
 * more than {@link CALENDAR_MAX_DAYS} days, is refused as FMP refuses it, so a client never mistakes a
 * shortened answer for the whole range.
 */
export function calendarWindow(from: string | undefined, to: string | undefined, now: Date): CalendarWindow {
  const start = from ?? (to === undefined ? isoDay(now) : shiftIsoDays(to, -CALENDAR_DEFAULT_DAYS));
  const end = to ?? shiftIsoDays(start, CALENDAR_DEFAULT_DAYS);
  if (start > end) throw new InvalidParametersError('Parameter "from" must be on or before "to".');
  if (isoDaysBetween(start, end) > CALENDAR_MAX_DAYS)
    throw new InvalidParametersError(
      `The range from "from" to "to" can be at most ${CALENDAR_MAX_DAYS} days; ask for longer periods in several calls.`,
    );
  return { from: start, to: end };
}

/** Every symbol's dividends with an ex-date in the window, by ex-date then symbol. */
export async function dividendCalendarRows(db: Db, window: CalendarWindow): Promise<DividendRow[]> {
  const rows = await db
    .select({
      symbol: dividends.symbol,
      date: dividends.date,
      recordDate: dividends.recordDate,
      paymentDate: dividends.paymentDate,
      declarationDate: dividends.declarationDate,
      adjDividend: dividends.adjDividend,
      dividend: dividends.dividend,
      frequency: dividends.frequency,
      // The as-traded close the dividend is measured against, as on the dividends endpoint.
      close: sql<
        number | string | null
      >`(select p.close from daily_prices p where p.symbol = "dividends"."symbol" and p.date <= "dividends"."date" order by p.date desc limit 1)`,
    })
    .from(dividends)
    .where(between(dividends.date, window.from, window.to))
    .orderBy(asc(dividends.date), asc(dividends.symbol));
  return rows.map((row) => ({
    symbol: row.symbol,
    date: row.date,
    recordDate: row.recordDate ?? '',
    paymentDate: row.paymentDate ?? '',
    declarationDate: row.declarationDate ?? '',
    adjDividend: row.adjDividend,
    dividend: row.dividend,
    yield: dividendYield(row.dividend, row.frequency, row.close === null ? null : Number(row.close)),
    frequency: row.frequency,
  }));
}

/** Every symbol's splits taking effect in the window, by date then symbol. */
export async function splitCalendarRows(db: Db, window: CalendarWindow): Promise<SplitRow[]> {
  const rows = await db
    .select()
    .from(splits)
    .where(between(splits.date, window.from, window.to))
    .orderBy(asc(splits.date), asc(splits.symbol));
  return rows.map((row) => ({
    symbol: row.symbol,
    date: row.date,
    numerator: row.numerator,
    denominator: row.denominator,
  }));
}

/** Every symbol's earnings reports (published and expected) dated in the window, by date then symbol. */
export async function earningsCalendarRows(db: Db, window: CalendarWindow): Promise<EarningsRow[]> {
  const rows = await db
    .select()
    .from(earnings)
    .where(between(earnings.date, window.from, window.to))
    .orderBy(asc(earnings.date), asc(earnings.symbol));
  return rows.map((row) => ({
    symbol: row.symbol,
    date: row.date,
    epsActual: row.epsActual,
    epsEstimated: row.epsEstimated,
    revenueActual: row.revenueActual,
    revenueEstimated: row.revenueEstimated,
    lastUpdated: row.lastUpdated,
  }));
}

/** How a stored indicator series is released: its calendar name, weight and timing. */
export interface EconomicRelease {
  /** The series' name in the economic indicators table. */
  series: string;
  /** The event as the calendar names it. */
  event: string;
  impact: 'High' | 'Medium' | 'Low';
  unit: string;
  /** Period between readings. */
  every: 'week' | 'month' | 'quarter';
  /** Days from the start of the period read (a Saturday for weekly series) to its release. */
  lagDays: number;
  /** Release time, UTC (08:30 New York time for most US statistics). */
  time: string;
}

/**
 * The US releases the economic calendar lists, one per stored series: the release lag each series is
 * published with in the data set (35 days after the month for monthly statistics, 40 for prices, 120
 * after the quarter for output, five days after the week for jobless claims) and the market impact
 * economists commonly give the release.
 */
export const ECONOMIC_RELEASES: readonly EconomicRelease[] = [
  {
    series: 'GDP',
    event: 'GDP (Nominal, Annualized)',
    impact: 'High',
    unit: 'B USD',
    every: 'quarter',
    lagDays: 120,
    time: '13:30:00',
  },
  {
    series: 'realGDP',
    event: 'Real GDP',
    impact: 'High',
    unit: 'B USD',
    every: 'quarter',
    lagDays: 120,
    time: '13:30:00',
  },
  {
    series: 'CPI',
    event: 'CPI Index',
    impact: 'High',
    unit: '',
    every: 'month',
    lagDays: 40,
    time: '13:30:00',
  },
  {
    series: 'inflationRate',
    event: 'Inflation Rate YoY',
    impact: 'High',
    unit: '%',
    every: 'month',
    lagDays: 40,
    time: '13:30:00',
  },
  {
    series: 'unemploymentRate',
    event: 'Unemployment Rate',
    impact: 'High',
    unit: '%',
    every: 'month',
    lagDays: 35,
    time: '13:30:00',
  },
  {
    series: 'totalNonfarmPayroll',
    event: 'Nonfarm Payrolls',
    impact: 'High',
    unit: 'K',
    every: 'month',
    lagDays: 35,
    time: '13:30:00',
  },
  {
    series: 'retailSales',
    event: 'Retail Sales',
    impact: 'Medium',
    unit: 'M USD',
    every: 'month',
    lagDays: 35,
    time: '13:30:00',
  },
  {
    series: 'durableGoods',
    event: 'Durable Goods Orders',
    impact: 'Medium',
    unit: 'M USD',
    every: 'month',
    lagDays: 35,
    time: '13:30:00',
  },
  {
    series: 'consumerSentiment',
    event: 'Michigan Consumer Sentiment',
    impact: 'Medium',
    unit: '',
    every: 'month',
    lagDays: 35,
    time: '15:00:00',
  },
  {
    series: 'industrialProductionTotalIndex',
    event: 'Industrial Production Index',
    impact: 'Medium',
    unit: '',
    every: 'month',
    lagDays: 35,
    time: '14:15:00',
  },
  {
    series: 'newPrivatelyOwnedHousingUnitsStartedTotalUnits',
    event: 'Housing Starts',
    impact: 'Medium',
    unit: 'K',
    every: 'month',
    lagDays: 35,
    time: '13:30:00',
  },
  {
    series: 'totalVehicleSales',
    event: 'Total Vehicle Sales',
    impact: 'Low',
    unit: 'M',
    every: 'month',
    lagDays: 35,
    time: '21:00:00',
  },
  {
    series: 'initialClaims',
    event: 'Initial Jobless Claims',
    impact: 'Medium',
    unit: '',
    every: 'week',
    lagDays: 5,
    time: '13:30:00',
  },
];

/** Readings averaged into the estimate of the next one (the demo data set holds no economists' survey). */
export const ESTIMATE_READINGS = 3;

/** FMP's economic-calendar row. */
export interface EconomicCalendarRow {
  date: string;
  country: string;
  event: string;
  currency: string;
  previous: number | null;
  estimate: number | null;
  actual: number | null;
  change: number | null;
  impact: string;
  changePercentage: number | null;
  unit: string;
}

function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The day a reading of the period starting `date` is released: the lag on, moved past a weekend. */
export function releaseDay(date: string, lagDays: number): string {
  let day = shiftIsoDays(date, lagDays);
  const weekday = new Date(isoDayStart(day)).getUTCDay();
  if (weekday === 6) day = shiftIsoDays(day, 2);
  if (weekday === 0) day = shiftIsoDays(day, 1);
  return day;
}

function nextPeriod(date: string, every: EconomicRelease['every']): string {
  if (every === 'week') return shiftIsoDays(date, 7);
  return shiftIsoMonths(date, every === 'month' ? 1 : 3);
}

/**
 * The calendar rows of one series' readings (oldest first): each stored reading on its release day
 * with the reading before it as previous and the mean of the {@link ESTIMATE_READINGS} before it as
 * estimate; then the next, not yet released reading with no actual.
 */
export function releaseRows(
  release: EconomicRelease,
  readings: readonly { date: string; value: number }[],
): EconomicCalendarRow[] {
  const rows: EconomicCalendarRow[] = [];
  const row = (date: string, index: number, actual: number | null): EconomicCalendarRow => {
    const previous = readings[index - 1]?.value ?? null;
    const before = readings.slice(Math.max(0, index - ESTIMATE_READINGS), index).map((r) => r.value);
    const estimate =
      before.length === 0 ? null : roundTo(before.reduce((a, b) => a + b, 0) / before.length, 4);
    const change = actual === null || previous === null ? null : roundTo(actual - previous, 4);
    return {
      date: `${releaseDay(date, release.lagDays)} ${release.time}`,
      country: 'US',
      event: release.event,
      currency: 'USD',
      previous,
      estimate,
      actual,
      change,
      impact: release.impact,
      changePercentage:
        change === null || previous === null || previous === 0
          ? null
          : roundTo((change / Math.abs(previous)) * 100, 4),
      unit: release.unit,
    };
  };
  readings.forEach((reading, index) => rows.push(row(reading.date, index, reading.value)));
  const last = readings[readings.length - 1];
  if (last !== undefined) rows.push(row(nextPeriod(last.date, release.every), readings.length, null));
  return rows;
}

/** Days of readings read before the window: the longest lag plus the readings the estimate averages. */
const READING_LOOKBACK_DAYS = 130 + 3 * 92 + 7;

/**
 * The US economic releases dated in the window, by time then event: stored indicator readings on the
 * day they were published (see {@link ECONOMIC_RELEASES}) and each series' next, expected release.
 */
export async function economicCalendarRows(db: Db, window: CalendarWindow): Promise<EconomicCalendarRow[]> {
  const stored = await db
    .select({ name: economicIndicators.name, date: economicIndicators.date, value: economicIndicators.value })
    .from(economicIndicators)
    .where(
      and(
        inArray(
          economicIndicators.name,
          ECONOMIC_RELEASES.map((release) => release.series),
        ),
        between(economicIndicators.date, shiftIsoDays(window.from, -READING_LOOKBACK_DAYS), window.to),
      ),
    )
    .orderBy(asc(economicIndicators.date));
  const rows: EconomicCalendarRow[] = [];
  for (const release of ECONOMIC_RELEASES) {
    const readings = stored.filter((reading) => reading.name === release.series);
    for (const row of releaseRows(release, readings)) {
      const day = row.date.slice(0, 10);
      if (day >= window.from && day <= window.to) rows.push(row);
    }
  }
  return rows.sort((a, b) => a.date.localeCompare(b.date) || a.event.localeCompare(b.event));
}

/** FMP's ipos-calendar row. */
export interface IpoCalendarRow {
  symbol: string;
  date: string;
  daa: string;
  company: string;
  exchange: string;
  actions: string;
  shares: number | null;
  priceRange: string | null;
  marketCap: number | null;
}

/**
 * Listings whose initial public offering falls in the window (the profiles' IPO dates), by date then
 * symbol: priced once trading began, with the market value at the first close over today's shares;
 * expected when the date is still ahead.
 */
export async function ipoCalendarRows(db: Db, window: CalendarWindow, now: Date): Promise<IpoCalendarRow[]> {
  const rows = await db
    .select({
      symbol: companyProfiles.symbol,
      date: companyProfiles.ipoDate,
      company: securities.name,
      exchange: securities.exchange,
      shares: securities.sharesOutstanding,
      firstClose: sql<
        number | string | null
      >`(select p.close from daily_prices p where p.symbol = "company_profiles"."symbol" and p.date >= "company_profiles"."ipo_date" order by p.date asc limit 1)`,
    })
    .from(companyProfiles)
    .innerJoin(securities, sql`${securities.symbol} = ${companyProfiles.symbol}`)
    .where(and(isNotNull(companyProfiles.ipoDate), between(companyProfiles.ipoDate, window.from, window.to)))
    .orderBy(asc(companyProfiles.ipoDate), asc(companyProfiles.symbol));
  const today = isoDay(now);
  return rows.map((row) => {
    const date = row.date ?? '';
    const firstClose = row.firstClose === null ? null : Number(row.firstClose);
    const priced = date <= today && firstClose !== null;
    return {
      symbol: row.symbol,
      date,
      daa: new Date(isoDayStart(date) - DAY_MS + 14 * 3_600_000).toISOString(),
      company: row.company,
      exchange: row.exchange,
      actions: priced ? 'Priced' : 'Expected',
      shares: null,
      priceRange: null,
      marketCap: priced && row.shares !== null ? Math.round(firstClose * row.shares) : null,
    };
  });
}

/** Days before the first trading day a listing's registration statement (S-1) is filed. */
export const REGISTRATION_LEAD_DAYS = 60;
/** The underwriters' gross spread of a US offering, as a share of the offer price. */
export const GROSS_SPREAD = 0.07;
/** Shares sold in the offering, as a share of today's shares outstanding. */
export const OFFERED_SHARE = 0.1;

/** A listing's offering facts derived from its profile and first bar. */
interface Offering {
  symbol: string;
  ipoDate: string;
  cik: string;
  firstOpen: number | null;
  shares: number | null;
}

async function offerings(db: Db, window: CalendarWindow, shiftDays: number): Promise<Offering[]> {
  const rows = await db
    .select({
      symbol: companyProfiles.symbol,
      ipoDate: companyProfiles.ipoDate,
      cik: companyProfiles.cik,
      shares: securities.sharesOutstanding,
      firstOpen: sql<
        number | string | null
      >`(select p.open from daily_prices p where p.symbol = "company_profiles"."symbol" and p.date >= "company_profiles"."ipo_date" order by p.date asc limit 1)`,
    })
    .from(companyProfiles)
    .innerJoin(securities, sql`${securities.symbol} = ${companyProfiles.symbol}`)
    .where(
      and(
        isNotNull(companyProfiles.ipoDate),
        between(
          companyProfiles.ipoDate,
          shiftIsoDays(window.from, shiftDays),
          shiftIsoDays(window.to, shiftDays),
        ),
      ),
    )
    .orderBy(asc(companyProfiles.ipoDate), asc(companyProfiles.symbol));
  return rows.map((row) => ({
    symbol: row.symbol,
    ipoDate: row.ipoDate ?? '',
    cik: row.cik,
    firstOpen: row.firstOpen === null ? null : Number(row.firstOpen),
    shares: row.shares,
  }));
}

/** FMP's ipos-disclosure row. */
export interface IpoDisclosureRow {
  symbol: string;
  filingDate: string;
  acceptedDate: string;
  effectivenessDate: string;
  cik: string;
  form: string;
  url: string;
}

/**
 * The registration statements (S-1) of listings filed in the window, by filing date: filed
 * {@link REGISTRATION_LEAD_DAYS} days before the first trading day, effective the day before it.
 */
export async function ipoDisclosureRows(db: Db, window: CalendarWindow): Promise<IpoDisclosureRow[]> {
  const rows = await offerings(db, window, REGISTRATION_LEAD_DAYS);
  return rows.map((row) => {
    const filed = shiftIsoDays(row.ipoDate, -REGISTRATION_LEAD_DAYS);
    return {
      symbol: row.symbol,
      filingDate: filed,
      acceptedDate: `${filed} 16:05:00`,
      effectivenessDate: shiftIsoDays(row.ipoDate, -1),
      cik: row.cik,
      form: 'S-1',
      url: `https://example.com/filings/${row.cik === '' ? row.symbol.toLowerCase() : row.cik}/s-1`,
    };
  });
}

/** FMP's ipos-prospectus row. */
export interface IpoProspectusRow {
  symbol: string;
  acceptedDate: string;
  filingDate: string;
  ipoDate: string;
  cik: string;
  pricePublicPerShare: number;
  pricePublicTotal: number;
  discountsAndCommissionsPerShare: number;
  discountsAndCommissionsTotal: number;
  proceedsBeforeExpensesPerShare: number;
  proceedsBeforeExpensesTotal: number;
  form: string;
  url: string;
}

const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * The final prospectuses (424B4) of listings priced in the window, by listing date, filed the day
 * before trading began: the offer price is the first day's open, {@link OFFERED_SHARE} of today's
 * shares are sold, and the underwriters keep the {@link GROSS_SPREAD} customary for US offerings.
 * Listings that never traded are left out.
 */
export async function ipoProspectusRows(db: Db, window: CalendarWindow): Promise<IpoProspectusRow[]> {
  const rows = await offerings(db, window, 0);
  return rows.flatMap((row) => {
    if (row.firstOpen === null || row.shares === null) return [];
    const price = cents(row.firstOpen);
    const offered = Math.round(row.shares * OFFERED_SHARE);
    const spread = cents(price * GROSS_SPREAD);
    const filed = shiftIsoDays(row.ipoDate, -1);
    return [
      {
        symbol: row.symbol,
        acceptedDate: `${filed} 17:30:00`,
        filingDate: filed,
        ipoDate: row.ipoDate,
        cik: row.cik,
        pricePublicPerShare: price,
        pricePublicTotal: cents(price * offered),
        discountsAndCommissionsPerShare: spread,
        discountsAndCommissionsTotal: cents(spread * offered),
        proceedsBeforeExpensesPerShare: cents(price - spread),
        proceedsBeforeExpensesTotal: cents((price - spread) * offered),
        form: '424B4',
        url: `https://example.com/filings/${row.cik === '' ? row.symbol.toLowerCase() : row.cik}/424b4`,
      },
    ];
  });
}
