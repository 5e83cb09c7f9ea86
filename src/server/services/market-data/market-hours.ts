/**
 * The exchange calendar: each stock exchange of the universe with its regular trading hours, its time
 * zone and its holidays, computed by rule for any year (fixed dates with their weekend substitutes,
 * nth weekdays, Easter, the Japanese equinoxes, the Chinese lunar calendar for Hong Kong). One module,
 * so the market hours endpoints and anything that simulates a trading day agree on when a market trades.
 */
import { isoDay, shiftIsoDays } from '../../../lib/iso-date.ts';

/** A regular session, exchange-local wall-clock times 'HH:MM'. */
export interface ExchangeHours {
  /** Short code as securities carry it (NASDAQ, NYSE, LSE, …). */
  exchange: string;
  name: string;
  timeZone: string;
  open: string;
  close: string;
  /** Close on a shortened day (Christmas Eve and the like). */
  earlyClose: string;
}

/** A day the exchange is closed or closes early. */
export interface ExchangeHoliday {
  date: string;
  name: string;
  /** False on a shortened day, when the market opens but closes at `closeTime`. */
  closed: boolean;
  closeTime: string | null;
}

type HolidayRule = (year: number) => ExchangeHoliday[];

/** Days since 1970-01-01 of a calendar date (month 1–12); arithmetic stays on whole days. */
function dayNumber(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / 86_400_000);
}

function isoOf(day: number): string {
  return isoDay(new Date(day * 86_400_000));
}

/** 0 = Sunday … 6 = Saturday. */
function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** The nth (1-based) given weekday of a month; n = -1 for the last. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n < 0) {
    const last = dayNumber(year, month + 1, 1) - 1;
    return last - ((weekdayOf(last) - weekday + 7) % 7);
  }
  const first = dayNumber(year, month, 1);
  return first + ((weekday - weekdayOf(first) + 7) % 7) + (n - 1) * 7;
}

/** Easter Sunday (Gregorian, the anonymous algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return isoOf(dayNumber(year, month, day));
}

function closed(day: number, name: string): ExchangeHoliday {
  return { date: isoOf(day), name, closed: true, closeTime: null };
}

function shortened(day: number, name: string, closeTime: string): ExchangeHoliday {
  return { date: isoOf(day), name, closed: false, closeTime };
}

function isWeekday(day: number): boolean {
  const w = weekdayOf(day);
  return w !== 0 && w !== 6;
}

/** US rule: a Saturday holiday is kept on the Friday before, a Sunday one on the Monday after. */
function usObserved(day: number): number {
  const w = weekdayOf(day);
  return w === 6 ? day - 1 : w === 0 ? day + 1 : day;
}

function easterDay(year: number): number {
  const [y, m, d] = easterSunday(year).split('-').map(Number);
  return dayNumber(y ?? year, m ?? 1, d ?? 1);
}

/** NYSE and NASDAQ (Rule 7.2): ten holidays, three shortened days closing at 13:00. */
function usHolidays(year: number): ExchangeHoliday[] {
  const list: ExchangeHoliday[] = [];
  const newYear = dayNumber(year, 1, 1);
  // A Saturday New Year's Day is not made up on the Friday before: that is the old year's last session.
  if (weekdayOf(newYear) !== 6) list.push(closed(usObserved(newYear), 'New Years Day'));
  list.push(closed(nthWeekday(year, 1, 1, 3), 'Martin Luther King, Jr. Day'));
  list.push(closed(nthWeekday(year, 2, 1, 3), "Washington's Birthday"));
  list.push(closed(easterDay(year) - 2, 'Good Friday'));
  list.push(closed(nthWeekday(year, 5, 1, -1), 'Memorial Day'));
  if (year >= 2022)
    list.push(closed(usObserved(dayNumber(year, 6, 19)), 'Juneteenth National Independence Day'));
  const july3 = dayNumber(year, 7, 3);
  if (weekdayOf(july3) >= 1 && weekdayOf(july3) <= 4)
    list.push(shortened(july3, 'Independence Day', '13:00'));
  list.push(closed(usObserved(dayNumber(year, 7, 4)), 'Independence Day'));
  list.push(closed(nthWeekday(year, 9, 1, 1), 'Labor Day'));
  const thanksgiving = nthWeekday(year, 11, 4, 4);
  list.push(closed(thanksgiving, 'Thanksgiving Day'));
  list.push(shortened(thanksgiving + 1, 'Black Friday', '13:00'));
  const christmasEve = dayNumber(year, 12, 24);
  if (weekdayOf(christmasEve) >= 1 && weekdayOf(christmasEve) <= 4)
    list.push(shortened(christmasEve, 'Christmas Eve', '13:00'));
  list.push(closed(usObserved(dayNumber(year, 12, 25)), 'Christmas Day'));
  return list;
}

/** Christmas and Boxing Day moved to the next weekdays when they fall on a weekend (UK, Canada). */
function christmasPair(year: number, boxingName: string): ExchangeHoliday[] {
  const christmas = dayNumber(year, 12, 25);
  const w = weekdayOf(christmas);
  if (w === 6) return [closed(christmas + 2, 'Christmas Day'), closed(christmas + 3, boxingName)];
  if (w === 0) return [closed(christmas + 2, 'Christmas Day'), closed(christmas + 1, boxingName)];
  if (w === 5) return [closed(christmas, 'Christmas Day'), closed(christmas + 3, boxingName)];
  return [closed(christmas, 'Christmas Day'), closed(christmas + 1, boxingName)];
}

/** A weekend day moved to the Monday after. */
function mondayIfWeekend(day: number): number {
  const w = weekdayOf(day);
  return w === 6 ? day + 2 : w === 0 ? day + 1 : day;
}

function shortenedIfWeekday(day: number, name: string, time: string): ExchangeHoliday[] {
  return isWeekday(day) ? [shortened(day, name, time)] : [];
}

function londonHolidays(year: number): ExchangeHoliday[] {
  const easter = easterDay(year);
  return [
    closed(mondayIfWeekend(dayNumber(year, 1, 1)), 'New Years Day'),
    closed(easter - 2, 'Good Friday'),
    closed(easter + 1, 'Easter Monday'),
    closed(nthWeekday(year, 5, 1, 1), 'Early May Bank Holiday'),
    closed(nthWeekday(year, 5, 1, -1), 'Spring Bank Holiday'),
    closed(nthWeekday(year, 8, 1, -1), 'Summer Bank Holiday'),
    ...shortenedIfWeekday(dayNumber(year, 12, 24), 'Christmas Eve', '12:30'),
    ...christmasPair(year, 'Boxing Day'),
    ...shortenedIfWeekday(dayNumber(year, 12, 31), 'New Years Eve', '12:30'),
  ].sort((a, b) => a.date.localeCompare(b.date));
}

function weekdaysOnly(list: ExchangeHoliday[]): ExchangeHoliday[] {
  return list.filter((holiday) => {
    const [y, m, d] = holiday.date.split('-').map(Number);
    return isWeekday(dayNumber(y ?? 1970, m ?? 1, d ?? 1));
  });
}

function xetraHolidays(year: number): ExchangeHoliday[] {
  const easter = easterDay(year);
  return weekdaysOnly([
    closed(dayNumber(year, 1, 1), 'New Years Day'),
    closed(easter - 2, 'Good Friday'),
    closed(easter + 1, 'Easter Monday'),
    closed(dayNumber(year, 5, 1), 'Labour Day'),
    closed(dayNumber(year, 12, 24), 'Christmas Eve'),
    closed(dayNumber(year, 12, 25), 'Christmas Day'),
    closed(dayNumber(year, 12, 26), 'Boxing Day'),
    closed(dayNumber(year, 12, 31), 'New Years Eve'),
  ]);
}

function euronextHolidays(year: number): ExchangeHoliday[] {
  const easter = easterDay(year);
  return weekdaysOnly([
    closed(dayNumber(year, 1, 1), 'New Years Day'),
    closed(easter - 2, 'Good Friday'),
    closed(easter + 1, 'Easter Monday'),
    closed(dayNumber(year, 5, 1), 'Labour Day'),
    shortened(dayNumber(year, 12, 24), 'Christmas Eve', '14:05'),
    closed(dayNumber(year, 12, 25), 'Christmas Day'),
    closed(dayNumber(year, 12, 26), 'Boxing Day'),
    shortened(dayNumber(year, 12, 31), 'New Years Eve', '14:05'),
  ]);
}

function torontoHolidays(year: number): ExchangeHoliday[] {
  const easter = easterDay(year);
  const may25 = dayNumber(year, 5, 25);
  const victoria = may25 - ((weekdayOf(may25) - 1 + 7) % 7 || 7);
  return [
    closed(mondayIfWeekend(dayNumber(year, 1, 1)), 'New Years Day'),
    closed(nthWeekday(year, 2, 1, 3), 'Family Day'),
    closed(easter - 2, 'Good Friday'),
    closed(victoria, 'Victoria Day'),
    closed(mondayIfWeekend(dayNumber(year, 7, 1)), 'Canada Day'),
    closed(nthWeekday(year, 8, 1, 1), 'Civic Holiday'),
    closed(nthWeekday(year, 9, 1, 1), 'Labour Day'),
    closed(nthWeekday(year, 10, 1, 2), 'Thanksgiving Day'),
    ...shortenedIfWeekday(dayNumber(year, 12, 24), 'Christmas Eve', '13:00'),
    ...christmasPair(year, 'Boxing Day'),
  ].sort((a, b) => a.date.localeCompare(b.date));
}

/** Japan's national holidays (rules since 2020) plus the exchange's own year-end and New Year days. */
function tokyoHolidays(year: number): ExchangeHoliday[] {
  const offset = year - 1980;
  const leap = Math.floor(offset / 4);
  const vernal = Math.floor(20.8431 + 0.242194 * offset - leap);
  const autumnal = Math.floor(23.2488 + 0.242194 * offset - leap);
  const national = new Map<number, string>([
    [dayNumber(year, 1, 1), 'New Years Day'],
    [nthWeekday(year, 1, 1, 2), 'Coming of Age Day'],
    [dayNumber(year, 2, 11), 'National Foundation Day'],
    [dayNumber(year, 2, 23), "Emperor's Birthday"],
    [dayNumber(year, 3, vernal), 'Vernal Equinox Day'],
    [dayNumber(year, 4, 29), 'Showa Day'],
    [dayNumber(year, 5, 3), 'Constitution Memorial Day'],
    [dayNumber(year, 5, 4), 'Greenery Day'],
    [dayNumber(year, 5, 5), "Children's Day"],
    [nthWeekday(year, 7, 1, 3), 'Marine Day'],
    [dayNumber(year, 8, 11), 'Mountain Day'],
    [nthWeekday(year, 9, 1, 3), 'Respect for the Aged Day'],
    [dayNumber(year, 9, autumnal), 'Autumnal Equinox Day'],
    [nthWeekday(year, 10, 1, 2), 'Sports Day'],
    [dayNumber(year, 11, 3), 'Culture Day'],
    [dayNumber(year, 11, 23), 'Labour Thanksgiving Day'],
  ]);
  const days = new Map(national);
  // A weekday squeezed between two holidays is a holiday too (the September "Silver Week").
  for (const day of national.keys()) {
    if (national.has(day + 2) && !national.has(day + 1) && weekdayOf(day + 1) !== 0)
      days.set(day + 1, "Citizens' Holiday");
  }
  // A holiday on a Sunday moves to the next day that is not a holiday.
  for (const day of national.keys()) {
    if (weekdayOf(day) !== 0) continue;
    let substitute = day + 1;
    while (days.has(substitute)) substitute += 1;
    days.set(substitute, 'Substitute Holiday');
  }
  days.set(dayNumber(year, 1, 2), 'Market Holiday');
  days.set(dayNumber(year, 1, 3), 'Market Holiday');
  days.set(dayNumber(year, 12, 31), 'Market Holiday');
  return [...days.entries()]
    .filter(([day]) => isWeekday(day))
    .sort((a, b) => a[0] - b[0])
    .map(([day, name]) => closed(day, name));
}

const lunarFormat = new Intl.DateTimeFormat('en-u-ca-chinese', {
  timeZone: 'UTC',
  month: 'numeric',
  day: 'numeric',
});

/** The Gregorian day of a Chinese-calendar month and day within a Gregorian year. */
function lunarDay(year: number, month: number, day: number): number | undefined {
  for (let d = dayNumber(year, 1, 1); d < dayNumber(year + 1, 1, 1); d += 1) {
    const parts = lunarFormat.formatToParts(new Date(d * 86_400_000));
    const lunarMonth = parts.find((part) => part.type === 'month')?.value;
    const lunarDate = parts.find((part) => part.type === 'day')?.value;
    // Leap months are written '4bis' and never hold a festival.
    if (lunarMonth === String(month) && lunarDate === String(day)) return d;
  }
  return undefined;
}

/** Hong Kong's general holidays: lunar festivals from the Chinese calendar, a Sunday moved to Monday. */
function hongKongHolidays(year: number): ExchangeHoliday[] {
  const easter = easterDay(year);
  const lunar = (month: number, day: number, name: string): [number, string][] => {
    const found = lunarDay(year, month, day);
    return found === undefined ? [] : [[found, name]];
  };
  const newYear = lunarDay(year, 1, 1);
  const chingMing = dayNumber(
    year,
    4,
    Math.floor(4.81 + 0.2422 * (year % 100) - Math.floor((year % 100) / 4)),
  );
  const list: [number, string][] = [
    [dayNumber(year, 1, 1), 'New Years Day'],
    ...(newYear === undefined
      ? []
      : ([
          [newYear, 'Lunar New Year'],
          [newYear + 1, 'Lunar New Year'],
          [newYear + 2, 'Lunar New Year'],
        ] as [number, string][])),
    [chingMing, 'Ching Ming Festival'],
    [easter - 2, 'Good Friday'],
    [easter + 1, 'Easter Monday'],
    [dayNumber(year, 5, 1), 'Labour Day'],
    ...lunar(4, 8, "Buddha's Birthday"),
    ...lunar(5, 5, 'Tuen Ng Festival'),
    [dayNumber(year, 7, 1), 'HKSAR Establishment Day'],
    ...lunar(8, 16, 'Day after Mid-Autumn Festival'),
    [dayNumber(year, 10, 1), 'National Day'],
    ...lunar(9, 9, 'Chung Yeung Festival'),
    [dayNumber(year, 12, 25), 'Christmas Day'],
    [dayNumber(year, 12, 26), 'Boxing Day'],
  ];
  const days = new Map<number, string>();
  for (const [day, name] of list) {
    let moved = weekdayOf(day) === 0 ? day + 1 : day;
    while (days.has(moved)) moved += 1;
    days.set(moved, name);
  }
  return [...days.entries()]
    .filter(([day]) => isWeekday(day))
    .sort((a, b) => a[0] - b[0])
    .map(([day, name]) => closed(day, name));
}

interface ExchangeCalendar extends ExchangeHours {
  holidays: HolidayRule;
}

const US_SESSION = { timeZone: 'America/New_York', open: '09:30', close: '16:00', earlyClose: '13:00' };

/** The stock exchanges of the universe, in the order the market hours list answers them. */
const CALENDARS: readonly ExchangeCalendar[] = [
  { exchange: 'NASDAQ', name: 'NASDAQ', ...US_SESSION, holidays: usHolidays },
  { exchange: 'NYSE', name: 'New York Stock Exchange', ...US_SESSION, holidays: usHolidays },
  { exchange: 'AMEX', name: 'New York Stock Exchange Arca', ...US_SESSION, holidays: usHolidays },
  {
    exchange: 'TSX',
    name: 'Toronto Stock Exchange',
    timeZone: 'America/Toronto',
    open: '09:30',
    close: '16:00',
    earlyClose: '13:00',
    holidays: torontoHolidays,
  },
  {
    exchange: 'LSE',
    name: 'London Stock Exchange',
    timeZone: 'Europe/London',
    open: '08:00',
    close: '16:30',
    earlyClose: '12:30',
    holidays: londonHolidays,
  },
  {
    exchange: 'XETRA',
    name: 'Deutsche Börse Xetra',
    timeZone: 'Europe/Berlin',
    open: '09:00',
    close: '17:30',
    earlyClose: '14:00',
    holidays: xetraHolidays,
  },
  {
    exchange: 'EURONEXT',
    name: 'Euronext Paris',
    timeZone: 'Europe/Paris',
    open: '09:00',
    close: '17:30',
    earlyClose: '14:05',
    holidays: euronextHolidays,
  },
  {
    exchange: 'JPX',
    name: 'Japan Exchange',
    timeZone: 'Asia/Tokyo',
    open: '09:00',
    close: '15:30',
    earlyClose: '15:30',
    holidays: tokyoHolidays,
  },
  {
    exchange: 'HKSE',
    name: 'Hong Kong Stock Exchange',
    timeZone: 'Asia/Hong_Kong',
    open: '09:30',
    close: '16:00',
    earlyClose: '12:00',
    holidays: hongKongHolidays,
  },
];

const BY_CODE = new Map(CALENDARS.map((calendar) => [calendar.exchange, calendar]));

/** Every exchange with a calendar, in listing order. */
export function exchangeCalendars(): readonly ExchangeHours[] {
  return CALENDARS;
}

/** One exchange's hours by code (case-insensitive), or undefined for an exchange without a calendar. */
export function exchangeHours(code: string): ExchangeHours | undefined {
  return BY_CODE.get(code.toUpperCase());
}

const holidayMemo = new Map<string, ExchangeHoliday[]>();

/** An exchange's holidays and shortened days of one year, by date. */
export function holidaysOfYear(code: string, year: number): ExchangeHoliday[] {
  const calendar = BY_CODE.get(code.toUpperCase());
  if (calendar === undefined) return [];
  const key = `${calendar.exchange}|${year}`;
  let list = holidayMemo.get(key);
  if (list === undefined) {
    list = calendar.holidays(year).sort((a, b) => a.date.localeCompare(b.date));
    if (holidayMemo.size > 2_000) holidayMemo.clear();
    holidayMemo.set(key, list);
  }
  return list;
}

/** Holidays and shortened days between two dates (both included), oldest first. */
export function holidaysBetween(code: string, from: string, to: string): ExchangeHoliday[] {
  const rows: ExchangeHoliday[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year += 1) {
    for (const holiday of holidaysOfYear(code, year))
      if (holiday.date >= from && holiday.date <= to) rows.push(holiday);
  }
  return rows;
}

/** The holiday (or shortened day) of an exchange on a date, if any. */
export function holidayOn(code: string, date: string): ExchangeHoliday | undefined {
  return holidaysOfYear(code, Number(date.slice(0, 4))).find((holiday) => holiday.date === date);
}

const localFormats = new Map<string, Intl.DateTimeFormat>();

/** The exchange-local date and minutes since midnight of an instant, and the zone's offset in minutes. */
export function localClock(
  instant: Date,
  timeZone: string,
): { date: string; minutes: number; offsetMinutes: number } {
  let format = localFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    localFormats.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(instant)) parts[part.type] = part.value;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const minutes = Number(parts.hour) * 60 + Number(parts.minute);
  const localMs = Date.parse(`${date}T00:00:00Z`) + minutes * 60_000;
  const utcMinuteMs = Math.floor(instant.getTime() / 60_000) * 60_000;
  return { date, minutes, offsetMinutes: Math.round((localMs - utcMinuteMs) / 60_000) };
}

function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** Whether an exchange's regular session is running at an instant (weekends, holidays and early closes count). */
export function isMarketOpen(code: string, instant: Date): boolean {
  const calendar = BY_CODE.get(code.toUpperCase());
  if (calendar === undefined) return false;
  const { date, minutes } = localClock(instant, calendar.timeZone);
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const holiday = holidayOn(calendar.exchange, date);
  if (holiday?.closed === true) return false;
  const close = minutesOf(holiday?.closeTime ?? calendar.close);
  return minutes >= minutesOf(calendar.open) && minutes < close;
}

/** Whether an exchange trades on a date (a weekday that is not a full holiday). */
export function isTradingDate(code: string, date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return holidayOn(code, date)?.closed !== true;
}

/** A wall-clock time as FMP writes session hours: '09:30 AM -05:00', with the zone's offset at an instant. */
export function sessionTimeLabel(time: string, timeZone: string, instant: Date): string {
  const minutes = minutesOf(time);
  const hours24 = Math.floor(minutes / 60);
  const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
  const suffix = hours24 < 12 ? 'AM' : 'PM';
  const { offsetMinutes } = localClock(instant, timeZone);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${pad(hours12)}:${pad(minutes % 60)} ${suffix} ${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** The next date after `date` on which an exchange trades. */
export function nextTradingDate(code: string, date: string): string {
  let next = shiftIsoDays(date, 1);
  while (!isTradingDate(code, next)) next = shiftIsoDays(next, 1);
  return next;
}
