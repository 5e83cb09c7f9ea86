/**
 * Pure helpers of the company pages (overview, profile, analysis, corporate actions): the small
 * derivations a table cell or a statistic needs, kept out of the components so they can be tested.
 */
import { formatNumber } from '../../lib/format.ts';

/**
 * The start of a long description, cut at a word boundary near `limit` characters with an ellipsis,
 * so the overview can tease the profile without breaking a word.
 */
export function excerpt(text: string, limit = 300): string {
  const clean = text.trim().replace(/\s+/g, ' ');
  if (clean.length <= limit) return clean;
  const cut = clean.slice(0, limit);
  const space = cut.lastIndexOf(' ');
  const head = space > limit * 0.6 ? cut.slice(0, space) : cut;
  return `${head.replace(/[\s,;:.–-]+$/, '')}…`;
}

/** A split as people say it: 4 new shares for 1 old is "4-for-1", a reverse split "1-for-10". */
export function splitRatio(numerator: number, denominator: number): string {
  return `${formatNumber(numerator)}-for-${formatNumber(denominator)}`;
}

/**
 * How far an actual figure beat (positive) or missed (negative) its estimate, in percent of the
 * estimate's size; undefined while the actual is unknown or the estimate is zero.
 */
export function surprisePercent(actual: number | null, estimate: number | null): number | undefined {
  if (actual === null || estimate === null || estimate === 0) return undefined;
  const value = ((actual - estimate) / Math.abs(estimate)) * 100;
  return Number.isFinite(value) ? value : undefined;
}

/** The move, in percent, from the current price to a target; undefined without both. */
export function upsidePercent(
  target: number | null | undefined,
  price: number | null | undefined,
): number | undefined {
  if (typeof target !== 'number' || typeof price !== 'number' || !(price > 0) || !Number.isFinite(target)) {
    return undefined;
  }
  return (target / price - 1) * 100;
}

/**
 * A calendar date (YYYY-MM-DD) as a local-midnight Date, so the long date shown is the same day in
 * every server time zone (a bare ISO date parses as UTC midnight, the day before west of Greenwich).
 * Empty or malformed text gives an invalid Date, which the formatter shows as missing.
 */
export function calendarDate(iso: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00`) : new Date(Number.NaN);
}

/**
 * Decimals of a per-share cash amount: cents at least, and up to four when the amount has them
 * (0.2475 a share should not read 0.25).
 */
export function perShareDigits(value: number): number {
  if (!Number.isFinite(value)) return 2;
  for (let digits = 2; digits < 4; digits += 1) {
    const scaled = value * 10 ** digits;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6) return digits;
  }
  return 4;
}

/** The address without its parts that are blank, e.g. "One Apple Park Way, Cupertino, CA 95014, US". */
export function postalAddress(parts: {
  address: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}): string {
  const region = [parts.state, parts.zip].map((part) => part.trim()).filter((part) => part !== '');
  return [parts.address, parts.city, region.join(' '), parts.country]
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(', ');
}

/** A country's name from its ISO 3166 alpha-2 code ("US" → "United States"); other text unchanged. */
export function countryName(code: string, locale = 'en-US'): string {
  const trimmed = code.trim();
  if (!/^[A-Za-z]{2}$/.test(trimmed)) return trimmed;
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(trimmed.toUpperCase()) ?? trimmed;
  } catch {
    return trimmed;
  }
}
