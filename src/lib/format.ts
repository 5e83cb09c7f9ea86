/**
 * Number, price, percent and date formatting (SPEC §9), shared by the server render and the
 * islands so a value reads the same before and after hydration.
 */

import { isoDayStart } from './iso-date.ts';

/** Shown for a missing or non-finite value, so a table never reads "NaN" or "Infinity". */
export const MISSING_VALUE = '–';

export const DEFAULT_LOCALE = 'en-US';

/** Up to this absolute value numbers keep every digit; above it they are abbreviated. */
export const FULL_DIGITS_LIMIT = 100_000;

/** Dates younger than this read as relative time; older ones as a long date. */
export const RELATIVE_DATE_LIMIT_MS = 8 * 24 * 60 * 60 * 1000;

/** Under this many seconds a date reads as "just now" instead of a count of seconds. */
export const JUST_NOW_LIMIT_MS = 45 * 1000;

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Abbreviation suffixes by power of 1,000 (index 1 = thousand ... index 6 = 1e18). */
const SUFFIXES = ['', 'k', 'M', 'B', 'T', 'P', 'E'] as const;
const LARGEST_UNIT = SUFFIXES.length - 1;

export interface FormatNumberOptions {
  locale?: string;
  /** Most fraction digits shown, both in full and abbreviated form. Defaults to 2. */
  maximumFractionDigits?: number;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** Intl formatters are costly to build and tables format thousands of cells, so reuse them. */
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

function isFiniteNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The power of 1,000 an abbreviated value is shown in, before rounding is considered. */
function unitIndex(abs: number): number {
  for (let index = LARGEST_UNIT; index > 0; index -= 1) {
    if (abs >= 1000 ** index) return index;
  }
  return 0;
}

/**
 * The value Intl will display after rounding. Intl rounds the shortest decimal form (1.005 shows
 * as 1.01) where toFixed rounds the binary value (1.00), so only Intl itself can say whether a
 * value reaches the next unit.
 */
function roundedAsShown(value: number, maximumFractionDigits: number): number {
  return Number(numberFormat('en-US', { maximumFractionDigits, useGrouping: false }).format(value));
}

/**
 * Formats a quantity the way the data tables do: every digit with separators up to 100,000, and
 * k/M/B/T/P/E abbreviations above, carrying to the next unit when rounding reaches 1,000
 * (999,999 reads "1M", never "1,000k").
 */
export function formatNumber(value: number | null | undefined, options: FormatNumberOptions = {}): string {
  if (!isFiniteNumber(value)) return MISSING_VALUE;
  const locale = options.locale ?? DEFAULT_LOCALE;
  const maximumFractionDigits = options.maximumFractionDigits ?? 2;
  const formatter = numberFormat(locale, { maximumFractionDigits, signDisplay: 'negative' });
  const abs = Math.abs(value);
  if (abs <= FULL_DIGITS_LIMIT) return formatter.format(value);

  let index = unitIndex(abs);
  let scaled = abs / 1000 ** index;
  if (index < LARGEST_UNIT && roundedAsShown(scaled, maximumFractionDigits) >= 1000) {
    index += 1;
    scaled = abs / 1000 ** index;
  }
  return `${formatter.format(Math.sign(value) * scaled)}${SUFFIXES[index] ?? ''}`;
}

/** A price: always two decimals with separators, e.g. "1,234.50". */
export function formatPrice(
  value: number | null | undefined,
  locale: string = DEFAULT_LOCALE,
  fractionDigits = 2,
): string {
  if (!isFiniteNumber(value)) return MISSING_VALUE;
  return numberFormat(locale, {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/**
 * Decimals a price needs to be read: cents for most, more for sub-dollar prices (a currency pair
 * at 0.6512, a small coin at 0.000412) whose moves would otherwise round away.
 */
export function priceDigits(value: number | null | undefined): number {
  if (!isFiniteNumber(value)) return 2;
  const abs = Math.abs(value);
  if (abs === 0 || abs >= 1) return 2;
  if (abs >= 0.01) return 4;
  return 6;
}

/**
 * A change in percent points (1.25 reads "+1.25%"). The sign is always shown so gains and losses
 * read apart at a glance; a change that rounds to zero has none.
 */
export function formatPercent(value: number | null | undefined, locale: string = DEFAULT_LOCALE): string {
  if (!isFiniteNumber(value)) return MISSING_VALUE;
  const formatter = numberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: 'exceptZero',
  });
  return `${formatter.format(value)}%`;
}

function toDate(date: Date | string | number): Date {
  return date instanceof Date ? new Date(date.getTime()) : new Date(date);
}

function relativeTime(diffMs: number, locale: string): string {
  const abs = Math.abs(diffMs);
  const sign = Math.sign(diffMs);
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (abs < JUST_NOW_LIMIT_MS) {
    return locale.toLowerCase().startsWith('en') ? 'just now' : relative.format(0, 'second');
  }
  if (abs < HOUR_MS) return relative.format(sign * Math.max(1, Math.trunc(abs / MINUTE_MS)), 'minute');
  if (abs < DAY_MS) return relative.format(sign * Math.trunc(abs / HOUR_MS), 'hour');
  return relative.format(sign * Math.trunc(abs / DAY_MS), 'day');
}

/**
 * Recent dates (under 8 days either way) read as relative time in the largest whole unit
 * ("5 minutes ago", "yesterday", "in 3 hours"); older ones as a long local date, because
 * "43 days ago" is harder to place than "November 14, 2026".
 */
export function formatDate(
  date: Date | string | number,
  now: Date = new Date(),
  locale: string = DEFAULT_LOCALE,
): string {
  const when = toDate(date);
  const time = when.getTime();
  if (Number.isNaN(time)) return MISSING_VALUE;
  const diff = time - now.getTime();
  if (Math.abs(diff) < RELATIVE_DATE_LIMIT_MS) return relativeTime(diff, locale);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(when);
}

/** A moment with its time of day in the reader's zone ("Nov 26, 2026, 11:58 PM"), for deadlines. */
export function formatDateTime(date: Date | string | number, locale: string = DEFAULT_LOCALE): string {
  const when = toDate(date);
  if (Number.isNaN(when.getTime())) return MISSING_VALUE;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(when);
}

/**
 * A calendar day ("Nov 20, 2026") for trading days, period ends and payment dates in tables: a
 * day has no time of day, so it is read in UTC and never shifts with the reader's time zone, and
 * rows of consecutive days read alike (relative time is for moments such as news).
 */
export function formatDay(date: Date | string, locale: string = DEFAULT_LOCALE): string {
  const start = typeof date === 'string' ? isoDayStart(date) : Number.NaN;
  const when = typeof date !== 'string' ? date : new Date(Number.isNaN(start) ? date : start);
  if (Number.isNaN(when.getTime())) return MISSING_VALUE;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(when);
}

/**
 * An amount in cents as money, e.g. 4900 usd → "$49.00": how checkouts and receipts state a charge.
 * `wholeUnits` leaves out zero cents ("$49"), as price lists show round prices.
 */
export function formatCents(
  cents: number,
  currency: string,
  options: { wholeUnits?: boolean; locale?: string } = {},
): string {
  const round = options.wholeUnits === true && cents % 100 === 0;
  return new Intl.NumberFormat(options.locale ?? DEFAULT_LOCALE, {
    style: 'currency',
    currency: currency.toUpperCase(),
    ...(round ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
  }).format(cents / 100);
}

/**
 * A number with every digit it has, grouped ("383,285,000,000", "0.30000000000000004"): for raw
 * answers (the API viewer's table), where an abbreviation or rounding would change the value the
 * reader is checking. Grouping can be left out for identifiers such as years; values that JavaScript
 * writes in exponent form (below 1e-6 or from 1e21) keep that form, which is shorter and exact.
 */
export function formatExactNumber(
  value: number | null | undefined,
  options: { locale?: string; grouping?: boolean } = {},
): string {
  if (!isFiniteNumber(value)) return MISSING_VALUE;
  const text = String(value);
  if (text.includes('e')) return text;
  return numberFormat(options.locale ?? DEFAULT_LOCALE, {
    maximumFractionDigits: 100,
    useGrouping: options.grouping ?? true,
    signDisplay: 'negative',
  }).format(value);
}
