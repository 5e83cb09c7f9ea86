/**
 * Pure helpers of the company pages (overview, profile, analysis, corporate actions): the small
 * derivations a table cell or a statistic needs, kept out of the components so they can be tested.
 */
import { formatNumber } from '../../lib/format.ts';

/** Grade names brokers use, by the side of the market they put a stock on. */
const GRADE_GROUPS: Readonly<Record<string, RatingGroup>> = {
  'strong buy': 'strongBuy',
  'conviction buy': 'strongBuy',
  'top pick': 'strongBuy',
  buy: 'buy',
  outperform: 'buy',
  'market outperform': 'buy',
  'sector outperform': 'buy',
  overweight: 'buy',
  accumulate: 'buy',
  positive: 'buy',
  'moderate buy': 'buy',
  hold: 'hold',
  neutral: 'hold',
  'equal weight': 'hold',
  'equal-weight': 'hold',
  'market perform': 'hold',
  'sector perform': 'hold',
  'peer perform': 'hold',
  'in-line': 'hold',
  'in line': 'hold',
  'sector weight': 'hold',
  sell: 'sell',
  underperform: 'sell',
  'market underperform': 'sell',
  'sector underperform': 'sell',
  underweight: 'sell',
  reduce: 'sell',
  negative: 'sell',
  'moderate sell': 'sell',
  'strong sell': 'strongSell',
};

/** The five buckets a rating falls in, from most to least favourable. */
export type RatingGroup = 'strongBuy' | 'buy' | 'hold' | 'sell' | 'strongSell';

export const RATING_GROUP_LABELS: Readonly<Record<RatingGroup, string>> = {
  strongBuy: 'Strong Buy',
  buy: 'Buy',
  hold: 'Hold',
  sell: 'Sell',
  strongSell: 'Strong Sell',
};

const GROUP_SCORES: Readonly<Record<RatingGroup, number>> = {
  strongBuy: 5,
  buy: 4,
  hold: 3,
  sell: 2,
  strongSell: 1,
};

/** The bucket of a broker's grade; undefined for a grade no bucket knows. */
export function ratingGroup(grade: string): RatingGroup | undefined {
  return GRADE_GROUPS[grade.trim().toLowerCase()];
}

/** A rating change as the consensus needs it (newest first in the input). */
export interface GradeLike {
  date: string;
  gradingCompany: string;
  newGrade: string;
}

export interface RatingConsensus {
  counts: Record<RatingGroup, number>;
  /** Firms counted: each firm's latest grade counts once. */
  total: number;
  /** The bucket of the mean score (Strong Buy 5 … Strong Sell 1); undefined without grades. */
  consensus: RatingGroup | undefined;
}

/**
 * The consensus of the firms covering a stock: each firm's most recent grade counts once (older
 * grades of the same firm are superseded), and the consensus is the bucket nearest the mean score.
 */
export function ratingConsensus(grades: readonly GradeLike[]): RatingConsensus {
  const latest = new Map<string, GradeLike>();
  for (const grade of grades) {
    const firm = grade.gradingCompany.trim();
    const known = latest.get(firm);
    if (known === undefined || grade.date > known.date) latest.set(firm, grade);
  }
  const counts: Record<RatingGroup, number> = { strongBuy: 0, buy: 0, hold: 0, sell: 0, strongSell: 0 };
  let total = 0;
  let score = 0;
  for (const grade of latest.values()) {
    const group = ratingGroup(grade.newGrade);
    if (group === undefined) continue;
    counts[group] += 1;
    total += 1;
    score += GROUP_SCORES[group];
  }
  if (total === 0) return { counts, total, consensus: undefined };
  const mean = score / total;
  const consensus: RatingGroup =
    mean >= 4.5
      ? 'strongBuy'
      : mean >= 3.5
        ? 'buy'
        : mean >= 2.5
          ? 'hold'
          : mean >= 1.5
            ? 'sell'
            : 'strongSell';
  return { counts, total, consensus };
}

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
