import { DAY_MS, isoDay, isoDayStart } from '../../../lib/iso-date.ts';
import type { AssetType, Security } from '../../db/schema.ts';
import { exchangeHours, holidayOn, isTradingDate, type ExchangeHours } from './market-hours.ts';
import { toDay, weekday } from './seed/calendar.ts';

/**
 * When markets trade, for the live simulator: the regular session of an exchange day, US extended hours and
 * the round-the-clock markets. Exchange sessions are the exchange calendar's (`market-hours.ts`: hours, time
 * zone, holidays and early closes by rule), so the simulated prices rest exactly when the market hours
 * endpoints say a market is closed; securities of a venue without a calendar (indexes, commodities) keep New
 * York's.
 */

/** A span of time in ms since the epoch, `start` included and `end` excluded. */
export interface TimeSpan {
  start: number;
  end: number;
}

/** A wall-clock time of day at a venue. */
interface WallTime {
  hour: number;
  minute: number;
}

/** The NYSE's calendar, which US listings, indexes and commodities follow. */
function newYorkCalendar(): ExchangeHours {
  const calendar = exchangeHours('NYSE');
  if (calendar === undefined) throw new Error('the exchange calendar has no NYSE');
  return calendar;
}

const NEW_YORK_CALENDAR = newYorkCalendar();
const NEW_YORK = NEW_YORK_CALENDAR.timeZone;
/** US pre-market opens at 04:00 New York and runs to the open. */
const PRE_MARKET_OPEN: WallTime = { hour: 4, minute: 0 };
/** US after-hours run from the close to 20:00 New York, or to 17:00 after an early close. */
const AFTER_HOURS_END: WallTime = { hour: 20, minute: 0 };
const AFTER_EARLY_CLOSE_END: WallTime = { hour: 17, minute: 0 };
/** Forex trades from Sunday 17:00 to Friday 17:00 New York. */
const FOREX_WEEK: WallTime = { hour: 17, minute: 0 };

/** How a security's market keeps time: an exchange with sessions, or a market open all week. */
export type MarketKind = 'exchange' | 'crypto' | 'forex';

/** The market an asset type trades on. */
export function marketKind(assetType: AssetType): MarketKind {
  if (assetType === 'crypto') return 'crypto';
  if (assetType === 'forex') return 'forex';
  return 'exchange';
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** The wall clock of a time zone at an instant, read as if it were UTC (ms). */
function wallClock(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of zoneFormat(timeZone).formatToParts(new Date(instant)))
    parts[part.type] = Number(part.value);
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

const instants = new Map<string, number>();

/** The instant a wall-clock time of a day happens in a time zone (daylight saving included). */
export function zonedInstant(day: string, time: WallTime, timeZone: string): number {
  const key = `${timeZone}|${day}|${time.hour}:${time.minute}`;
  let instant = instants.get(key);
  if (instant === undefined) {
    const wall = isoDayStart(day) + (time.hour * 60 + time.minute) * 60_000;
    const first = wall - (wallClock(wall, timeZone) - wall);
    const second = wall - (wallClock(first, timeZone) - first);
    instant = second;
    if (instants.size > 20_000) instants.clear();
    instants.set(key, instant);
  }
  return instant;
}

/** The calendar day of an instant in a time zone. */
export function zonedDay(instant: number, timeZone: string): string {
  return isoDay(new Date(wallClock(instant, timeZone)));
}

/** A calendar's 'HH:MM' as a wall-clock time. */
function wallTime(time: string): WallTime {
  const [hour, minute] = time.split(':').map(Number);
  return { hour: hour ?? 0, minute: minute ?? 0 };
}

/** The exchange calendar a security's sessions follow: its own exchange's, else New York's. */
export function calendarOf(security: Pick<Security, 'exchange'>): ExchangeHours {
  return exchangeHours(security.exchange) ?? NEW_YORK_CALENDAR;
}

/** The day (in the market's own convention) an instant belongs to: exchange-local, or UTC for crypto and forex. */
export function marketDay(security: Pick<Security, 'exchange' | 'assetType'>, instant: number): string {
  return marketKind(security.assetType) === 'exchange'
    ? zonedDay(instant, calendarOf(security).timeZone)
    : isoDay(new Date(instant));
}

/** An exchange's regular session of a day, cut at an early close; null on a weekend or holiday. */
function exchangeSpan(calendar: ExchangeHours, day: string): TimeSpan | null {
  if (!isTradingDate(calendar.exchange, day)) return null;
  const close = holidayOn(calendar.exchange, day)?.closeTime ?? calendar.close;
  return {
    start: zonedInstant(day, wallTime(calendar.open), calendar.timeZone),
    end: zonedInstant(day, wallTime(close), calendar.timeZone),
  };
}

/**
 * The instant a day's session of an exchange-traded security closes (early closes included), or would close
 * on a day it does not trade: a quote's timestamp when its latest bar is that day's.
 */
export function sessionCloseInstant(security: Pick<Security, 'exchange'>, day: string): number {
  const calendar = calendarOf(security);
  return exchangeSpan(calendar, day)?.end ?? zonedInstant(day, wallTime(calendar.close), calendar.timeZone);
}

/**
 * The span in which a day's daily bar is made: the regular session for an exchange, the UTC day for crypto,
 * and the UTC day cut to the forex week (Sunday 17:00 to Friday 17:00 New York); null when the market does
 * not trade that day.
 */
export function sessionSpan(
  security: Pick<Security, 'exchange' | 'assetType'>,
  day: string,
): TimeSpan | null {
  const kind = marketKind(security.assetType);
  if (kind === 'exchange') return exchangeSpan(calendarOf(security), day);
  const start = isoDayStart(day);
  const span = { start, end: start + DAY_MS };
  if (kind === 'crypto') return span;
  const dayOfWeek = weekday(toDay(day));
  if (dayOfWeek === 6) return null;
  if (dayOfWeek === 0) span.start = Math.max(span.start, zonedInstant(day, FOREX_WEEK, NEW_YORK));
  if (dayOfWeek === 5) span.end = Math.min(span.end, zonedInstant(day, FOREX_WEEK, NEW_YORK));
  return span.start < span.end ? span : null;
}

/** Whether the market of a security trades at an instant (its regular session). */
export function isTrading(security: Pick<Security, 'exchange' | 'assetType'>, instant: number): boolean {
  const span = sessionSpan(security, marketDay(security, instant));
  return span !== null && instant >= span.start && instant < span.end;
}

/** Which US extended-hours window: before the open or after the close. */
export type ExtendedWindow = 'pre' | 'post';

/** A US extended-hours window of a session day. */
export interface ExtendedSpan extends TimeSpan {
  window: ExtendedWindow;
  day: string;
}

/**
 * The pre-market and after-hours windows of a New York trading day: 04:00 to the open, and the close to 20:00
 * (13:00 to 17:00 after an early close); none on a weekend or holiday.
 */
export function extendedSpans(day: string): ExtendedSpan[] {
  const session = exchangeSpan(NEW_YORK_CALENDAR, day);
  if (session === null) return [];
  const early = (holidayOn(NEW_YORK_CALENDAR.exchange, day)?.closeTime ?? null) !== null;
  return [
    { window: 'pre', day, start: zonedInstant(day, PRE_MARKET_OPEN, NEW_YORK), end: session.start },
    {
      window: 'post',
      day,
      start: session.end,
      end: zonedInstant(day, early ? AFTER_EARLY_CLOSE_END : AFTER_HOURS_END, NEW_YORK),
    },
  ];
}

/** The latest US extended-hours window that has begun by an instant (looking back at most two weeks). */
export function latestExtendedSpan(instant: number): ExtendedSpan | null {
  let day = zonedDay(instant, NEW_YORK);
  for (let back = 0; back < 14; back += 1) {
    const spans = extendedSpans(day);
    for (let index = spans.length - 1; index >= 0; index -= 1) {
      const span = spans[index];
      if (span !== undefined && span.start <= instant) return span;
    }
    day = isoDay(new Date(isoDayStart(day) - DAY_MS));
  }
  return null;
}
