/**
 * Dates as whole days since 1970-01-01 (UTC), which keeps the generators' loops on plain integers; ISO strings
 * are made only when rows are written.
 */

import { DAY_MS, isoDay } from '../../../../lib/iso-date.ts';
import { exchangeHours, holidayOn } from '../market-hours.ts';

/** Day number of an ISO date (YYYY-MM-DD). */
export function toDay(iso: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) throw new Error(`not a date (YYYY-MM-DD): ${iso}`);
  const [, y, m, d] = match;
  const time = Date.UTC(Number(y), Number(m) - 1, Number(d));
  const day = Math.floor(time / DAY_MS);
  if (fromDay(day) !== iso) throw new Error(`not a calendar date: ${iso}`);
  return day;
}

const isoCache = new Map<number, string>();

/** ISO date of a day number; memoised because price rows repeat the same few thousand dates. */
export function fromDay(day: number): string {
  let iso = isoCache.get(day);
  if (iso === undefined) {
    iso = isoDay(new Date(day * DAY_MS));
    isoCache.set(day, iso);
  }
  return iso;
}

export function dayOf(year: number, month: number, dayOfMonth: number): number {
  return Math.floor(Date.UTC(year, month - 1, dayOfMonth) / DAY_MS);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function yearOf(day: number): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

/** 1 … 12. */
export function monthOf(day: number): number {
  return new Date(day * DAY_MS).getUTCMonth() + 1;
}

export function dayOfMonth(day: number): number {
  return new Date(day * DAY_MS).getUTCDate();
}

/** Last calendar day of a month. */
export function monthEnd(year: number, month: number): number {
  return dayOf(year, month + 1, 1) - 1;
}

/** Adds months, clamping to the month's end (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(day: number, months: number): number {
  const y = yearOf(day);
  const m = monthOf(day) - 1 + months;
  const year = y + Math.floor(m / 12);
  const month = (((m % 12) + 12) % 12) + 1;
  return Math.min(dayOf(year, month, dayOfMonth(day)), monthEnd(year, month));
}

/**
 * The grid of days a series is drawn on: `exchange` is New York's grid (US listings, funds, indexes and
 * commodities: weekdays but New Year's Day, Independence Day and Christmas), `exchange:<code>` another stock
 * exchange's (weekdays but its own holidays), `crypto` every day and `forex` every weekday. New York's grid
 * predates the exchange calendar and is kept so that the demo world (paths, statements, every figure the
 * documentation quotes) stays as it is; the days New York's calendar closes besides those three are dropped
 * from the stored series afterwards (`isSessionDay`, `withoutClosedDays` in prices.ts).
 */
export type TradingCalendar = 'exchange' | 'crypto' | 'forex' | `exchange:${string}`;

/** The calendar of a stock exchange: its own when it has one outside New York, else New York's. */
export function exchangeTradingCalendar(exchange: string): TradingCalendar {
  const hours = exchangeHours(exchange);
  if (hours === undefined || hours.timeZone === 'America/New_York') return 'exchange';
  return `exchange:${hours.exchange}`;
}

const fixedHolidayCache = new Map<number, boolean>();

/** New York's grid's holidays: New Year's Day, Independence Day and Christmas Day on a weekday. */
function isFixedHoliday(day: number): boolean {
  let holiday = fixedHolidayCache.get(day);
  if (holiday === undefined) {
    const date = new Date(day * DAY_MS);
    const m = date.getUTCMonth() + 1;
    const d = date.getUTCDate();
    holiday = (m === 1 && d === 1) || (m === 7 && d === 4) || (m === 12 && d === 25);
    fixedHolidayCache.set(day, holiday);
  }
  return holiday;
}

const holidayCache = new Map<string, boolean>();

/** Whether an exchange is closed all day on a date (a shortened session still trades). */
function isExchangeHoliday(day: number, code: string): boolean {
  const key = `${code}|${day}`;
  let holiday = holidayCache.get(key);
  if (holiday === undefined) {
    holiday = holidayOn(code, fromDay(day))?.closed === true;
    holidayCache.set(key, holiday);
  }
  return holiday;
}

/** Whether a day is on a calendar's grid (see TradingCalendar). */
export function isTradingDay(day: number, calendar: TradingCalendar): boolean {
  if (calendar === 'crypto') return true;
  const w = weekday(day);
  if (w === 0 || w === 6) return false;
  if (calendar === 'forex') return true;
  if (calendar === 'exchange') return !isFixedHoliday(day);
  return !isExchangeHoliday(day, calendar.slice('exchange:'.length));
}

/**
 * Whether the market of a calendar held a session on a day: the grid without the exchange's full-day
 * holidays (Thanksgiving, Good Friday, …), as the market hours endpoints list them.
 */
export function isSessionDay(day: number, calendar: TradingCalendar): boolean {
  if (!isTradingDay(day, calendar)) return false;
  return calendar !== 'exchange' || !isExchangeHoliday(day, 'NYSE');
}

const calendarCache = new Map<TradingCalendar, number[]>();

/** Trading days in [from, to], oldest first (sliced from a cached calendar: thousands of symbols ask). */
export function tradingDays(from: number, to: number, calendar: TradingCalendar): number[] {
  let all = calendarCache.get(calendar);
  const last = all?.[all.length - 1];
  const firstCached = all?.[0];
  if (!all || last === undefined || firstCached === undefined || last < to || firstCached > from) {
    const start = Math.min(from, firstCached ?? from, toDay('1990-01-01'));
    const end = Math.max(to, last ?? to);
    all = [];
    for (let day = start; day <= end; day += 1) if (isTradingDay(day, calendar)) all.push(day);
    calendarCache.set(calendar, all);
  }
  let lo = lastIndexAtOrBefore(all, from - 1) + 1;
  if (lo < 0) lo = 0;
  const hi = lastIndexAtOrBefore(all, to);
  return all.slice(lo, hi + 1);
}

/** The trading day on or after a day. */
export function nextTradingDay(day: number, calendar: TradingCalendar): number {
  let d = day;
  while (!isTradingDay(d, calendar)) d += 1;
  return d;
}

/** The trading day on or before a day. */
export function previousTradingDay(day: number, calendar: TradingCalendar): number {
  let d = day;
  while (!isTradingDay(d, calendar)) d -= 1;
  return d;
}

/** Adds weekdays (business days) to a day. */
export function addWeekdays(day: number, count: number): number {
  let d = day;
  let left = count;
  const step = count >= 0 ? 1 : -1;
  while (left !== 0) {
    d += step;
    const w = weekday(d);
    if (w !== 0 && w !== 6) left -= step;
  }
  return d;
}

/** The latest weekday on or before a moment (UTC). */
export function latestWeekday(now: Date): string {
  let day = Math.floor(now.getTime() / DAY_MS);
  while (weekday(day) === 0 || weekday(day) === 6) day -= 1;
  return fromDay(day);
}

/**
 * The latest weekday whose every daily bar is final at a moment: the default "as of" date of a generated
 * data set. A UTC day's last session (crypto's, which closes at midnight UTC; New York's ends at 21:00 UTC
 * or earlier) is over only once the next UTC day begins, so today is never settled. Seeding "as of" today
 * would store the final bar of a session still in progress and hand it to the end-of-day endpoints hours
 * early; the live market instead walks today's sessions from the last stored close.
 */
export function latestSettledWeekday(now: Date): string {
  return latestWeekday(new Date(now.getTime() - DAY_MS));
}

/** Index of the last element ≤ value in a sorted array, or -1. */
export function lastIndexAtOrBefore(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? Infinity) <= value) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
