import { randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  API_KEY_BODY_LENGTH as BODY_LENGTH,
  API_KEY_CHECKSUM_LENGTH as CHECKSUM_LENGTH,
  API_KEY_PREFIX,
} from '../../lib/redact.ts';

/*
 * The shape of the data API's keys, as GitHub's and Stripe's tokens have one: a fixed prefix that
 * secret scanners can search for, a random body, and a checksum of the body, so a key that was
 * mistyped or cut short is refused by its look alone, without a database lookup. Keys issued before
 * this shape (43 base64url characters) keep working; only keys that carry the prefix are checked.
 */

/** What every new key starts with (shared with the redactor, which finds keys in logs by it). */
export { API_KEY_PREFIX };

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The length of every new key. */
export const API_KEY_LENGTH = API_KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH;

/** A pattern secret scanners (and the docs) can use to find the product's keys in text. */
export const API_KEY_PATTERN = new RegExp(
  `\\b${API_KEY_PREFIX}[0-9A-Za-z]{${String(BODY_LENGTH + CHECKSUM_LENGTH)}}\\b`,
);

function base62(value: number, length: number): string {
  let rest = value;
  let text = '';
  while (rest > 0) {
    text = `${ALPHABET[rest % 62] ?? '0'}${text}`;
    rest = Math.floor(rest / 62);
  }
  return text.padStart(length, '0');
}

function checksumOf(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

/** A new key: the prefix, a random body and its checksum. */
export function newApiKey(): string {
  let body = '';
  for (let index = 0; index < BODY_LENGTH; index += 1) body += ALPHABET[randomInt(62)] ?? '0';
  return `${API_KEY_PREFIX}${body}${checksumOf(body)}`;
}

/**
 * How a key looks: 'valid' when it has the new shape and its checksum matches, 'mistyped' when it
 * has the prefix but not the shape or the checksum (no such key can exist), 'legacy' for anything
 * else, which only the database can judge.
 */
export function keyShape(key: string): 'valid' | 'mistyped' | 'legacy' {
  if (!key.startsWith(API_KEY_PREFIX)) return 'legacy';
  if (key.length !== API_KEY_LENGTH) return 'mistyped';
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH);
  const checksum = key.slice(API_KEY_PREFIX.length + BODY_LENGTH);
  if (!/^[0-9A-Za-z]+$/.test(body + checksum)) return 'mistyped';
  return checksumOf(body) === checksum ? 'valid' : 'mistyped';
}
