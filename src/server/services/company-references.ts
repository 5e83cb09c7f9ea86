import { randomInt } from 'node:crypto';

/** Letters and digits that cannot be mistaken for one another when read out or typed (no 0/O, 1/I/L). */
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const REFERENCE_LENGTH = 8;

/** The prefixes of the company pages' references: contact messages and job applications. */
export type ReferencePrefix = 'CT' | 'JA';

/** A prefix and eight characters of the alphabet above, e.g. `CT-7KQ2M9XD`. */
export function referencePattern(prefix: ReferencePrefix): RegExp {
  return new RegExp(`^${prefix}-[2-9A-HJKMNP-Z]{${String(REFERENCE_LENGTH)}}$`);
}

/**
 * A new reference such as `CT-7KQ2M9XD`: short enough to quote on the phone, random so it tells
 * nothing about how many messages exist (31⁸ ≈ 850 billion values; the columns are unique).
 */
export function newCompanyReference(prefix: ReferencePrefix): string {
  const code = Array.from({ length: REFERENCE_LENGTH }, () =>
    REFERENCE_ALPHABET.charAt(randomInt(REFERENCE_ALPHABET.length)),
  ).join('');
  return `${prefix}-${code}`;
}

/** The first word of a name, for an email's greeting ("Hello Grace,"), or "Hello," without one. */
export function greeting(name: string): string {
  const firstName = name.trim().split(/\s+/)[0] ?? '';
  return firstName === '' ? 'Hello,' : `Hello ${firstName},`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a `before` cursor is the id of a listed row (anything else is refused before a query). */
export function isRowId(value: string): boolean {
  return UUID.test(value);
}

export const DEFAULT_COMPANY_PAGE = 50;
export const MAX_COMPANY_PAGE = 200;

/** A page size within the console's bounds, the default when none is asked. */
export function companyPageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_COMPANY_PAGE;
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_COMPANY_PAGE);
}
