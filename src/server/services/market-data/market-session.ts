import { DAY_MS, isoDay, isoDayStart } from '../../../lib/iso-date.ts';
import type { AssetType, Security } from '../../db/schema.ts';
import { isTradingDay, toDay, weekday, type TradingCalendar } from './seed/calendar.ts';

/**
 * When markets trade, for the live simulator: the regular session of an exchange day, US extended hours and
 * the round-the-clock markets. Trading days follow the demo data's own calendar (weekends and the fixed
 * holidays are closed), so a session never opens on a day that has no stored bar; a full exchange calendar
 * replaces `isSessionDay` without touching the rest.
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

interface VenueHours {
  timeZone: string;
  open: WallTime;
  close: WallTime;
}

const NEW_YORK = 'America/New_York';
const US_HOURS: VenueHours = {
  timeZone: NEW_YORK,
  open: { hour: 9, minute: 30 },
  close: { hour: 16, minute: 0 },
};
const VENUE_HOURS: Record<string, VenueHours> = {
  LSE: { timeZone: 'Europe/London', open: { hour: 8, minute: 0 }, close: { hour: 16, minute: 30 } },
  XETRA: { timeZone: 'Europe/Berlin', open: { hour: 9, minute: 0 }, close: { hour: 17, minute: 30 } },
  EURONEXT: { timeZone: 'Europe/Paris', open: { hour: 9, minute: 0 }, close: { hour: 17, minute: 30 } },
  TSX: { timeZone: 'America/Toronto', open: { hour: 9, minute: 30 }, close: { hour: 16, minute: 0 } },
  JPX: { timeZone: 'Asia/Tokyo', open: { hour: 9, minute: 0 }, close: { hour: 15, minute: 30 } },
  HKSE: { timeZone: 'Asia/Hong_Kong', open: { hour: 9, minute: 30 }, close: { hour: 16, minute: 0 } },
};
/** US pre-market (04:00–09:30 New York) and after-hours (16:00–20:00 New York). */
const PRE_MARKET: readonly [WallTime, WallTime] = [
  { hour: 4, minute: 0 },
  { hour: 9, minute: 30 },
];
const AFTER_HOURS: readonly [WallTime, WallTime] = [
  { hour: 16, minute: 0 },
  { hour: 20, minute: 0 },
];
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

function venueHours(security: Pick<Security, 'exchange'>): VenueHours {
  return VENUE_HOURS[security.exchange] ?? US_HOURS;
}

/** The day (in the market's own convention) an instant belongs to: exchange-local, or UTC for crypto and forex. */
export function marketDay(security: Pick<Security, 'exchange' | 'assetType'>, instant: number): string {
  return marketKind(security.assetType) === 'exchange'
    ? zonedDay(instant, venueHours(security).timeZone)
    : isoDay(new Date(instant));
}

/** Whether the market holds a session on a day (the swappable calendar rule). */
export function isSessionDay(kind: MarketKind, day: string): boolean {
  const calendar: TradingCalendar = kind;
  return isTradingDay(toDay(day), calendar);
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
  if (kind === 'exchange') {
    if (!isSessionDay(kind, day)) return null;
    const hours = venueHours(security);
    return {
      start: zonedInstant(day, hours.open, hours.timeZone),
      end: zonedInstant(day, hours.close, hours.timeZone),
    };
  }
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

/** The pre-market and after-hours windows of a New York day, or none on a day without a session. */
export function extendedSpans(day: string): ExtendedSpan[] {
  if (!isSessionDay('exchange', day)) return [];
  return [
    {
      window: 'pre',
      day,
      start: zonedInstant(day, PRE_MARKET[0], NEW_YORK),
      end: zonedInstant(day, PRE_MARKET[1], NEW_YORK),
    },
    {
      window: 'post',
      day,
      start: zonedInstant(day, AFTER_HOURS[0], NEW_YORK),
      end: zonedInstant(day, AFTER_HOURS[1], NEW_YORK),
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
