/**
 * Calendar arithmetic on YYYY-MM-DD dates, in UTC: the one place the site, the data API and the
 * services shift, compare and list days. Plain strings compare in date order, so ranges stay
 * strings end to end. Browser and server code both import it, so it uses nothing but `Date`.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Milliseconds in a day; UTC days have no daylight-saving changes, so every one is this long. */
export const DAY_MS = 86_400_000;

/** The UTC day last formatted by isoDay, with the instants it spans. */
let lastDay = { start: 0, end: 0, text: '1970-01-01' };

/**
 * The UTC calendar day of an instant, as dates are written everywhere. Hot requests ask for the
 * same day again and again, so the day last formatted is kept.
 */
export function isoDay(instant: Date): string {
  const time = instant.getTime();
  if (time >= lastDay.start && time < lastDay.end) return lastDay.text;
  const start = Math.floor(time / DAY_MS) * DAY_MS;
  const text = instant.toISOString().slice(0, 10);
  if (Number.isFinite(start)) lastDay = { start, end: start + DAY_MS, text };
  return text;
}

/** Whether text is a real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1000) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Milliseconds since 1970 at the UTC midnight a YYYY-MM-DD day starts; NaN for text not written
 * that way. A day past its month's end counts on into the next month, as `Date.parse` reads it.
 */
export function isoDayStart(date: string): number {
  return ISO_DATE.test(date) ? Date.parse(`${date}T00:00:00Z`) : Number.NaN;
}

/**
 * A date as an instant at noon UTC, for formatting: midnight would read as the day before in
 * time zones west of Greenwich.
 */
export function isoDateInstant(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}

function parts(date: string): [number, number, number] {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  return [year, month, day];
}

/** Shifts a date by whole days (negative: back). */
export function shiftIsoDays(date: string, days: number): string {
  return isoDay(new Date(isoDayStart(date) + days * DAY_MS));
}

/**
 * Shifts a date by whole months (negative: back); a day the target month lacks falls back to its
 * last day (31 March minus one month is 28 or 29 February), so a period never overshoots.
 */
export function shiftIsoMonths(date: string, months: number): string {
  const [year, month, day] = parts(date);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return isoDay(target);
}

/** Shifts a date by whole years (negative: back); 29 February falls back to the 28th. */
export function shiftIsoYears(date: string, years: number): string {
  return shiftIsoMonths(date, years * 12);
}

/** Whole days from `from` to `to`: 0 for the same day, negative when `to` comes first. */
export function isoDaysBetween(from: string, to: string): number {
  return Math.round((isoDayStart(to) - isoDayStart(from)) / DAY_MS);
}

/** Monday of the week (Monday to Sunday) a date falls in, so days can be grouped by week. */
export function isoWeekStart(date: string): string {
  const weekday = (new Date(isoDayStart(date)).getUTCDay() + 6) % 7;
  return shiftIsoDays(date, -weekday);
}

/**
 * Every day from `from` through `to`, at most `limit` of them (a malformed range then cannot run
 * away); none when either end is not a date or the range is backwards.
 */
export function isoDaysThrough(from: string, to: string, limit: number = Number.POSITIVE_INFINITY): string[] {
  const start = isoDayStart(from);
  const end = isoDayStart(to);
  const days: string[] = [];
  if (Number.isNaN(start) || Number.isNaN(end)) return days;
  for (let time = start; time <= end && days.length < limit; time += DAY_MS)
    days.push(isoDay(new Date(time)));
  return days;
}
