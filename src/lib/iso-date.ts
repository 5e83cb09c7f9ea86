/**
 * Calendar arithmetic on YYYY-MM-DD dates, in UTC, for the pages that pick price ranges and
 * periods. Plain strings compare in date order, so ranges stay strings end to end.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The UTC calendar day of an instant. */
export function isoDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
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

function parts(date: string): [number, number, number] {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  return [year, month, day];
}

/** Shifts a date by whole days (negative: back). */
export function shiftIsoDays(date: string, days: number): string {
  return isoDay(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS));
}

/**
 * Shifts a date by whole months; a day the target month lacks falls back to its last day
 * (31 March minus one month is 28 or 29 February), so a period never overshoots.
 */
export function shiftIsoMonths(date: string, months: number): string {
  const [year, month, day] = parts(date);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return isoDay(target);
}

/** Shifts a date by whole years; 29 February falls back to the 28th. */
export function shiftIsoYears(date: string, years: number): string {
  return shiftIsoMonths(date, years * 12);
}

/**
 * A date as an instant at noon UTC, for formatting: midnight would read as the day before in
 * time zones west of Greenwich.
 */
export function isoDateInstant(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}
