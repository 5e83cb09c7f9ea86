/**
 * The short code a developer tool shows and its owner types at /devauth (RFC 8628 user code).
 * Shared by the page and the server, so both read a typed code the same way.
 */

/**
 * Consonants only: no vowels (no words spelt by chance) and no look-alikes such as 0/O or 1/I,
 * so a code read off a terminal is typed right the first time.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** Characters in a code; twenty letters to the power of eight is about 2^34.6 codes. */
export const USER_CODE_LENGTH = 8;

/** Said when what was typed cannot be a code at all (wrong length or characters). */
export const USER_CODE_FORMAT_MESSAGE = 'Enter the 8-letter code your tool shows, like BCDF-GHJK.';

/** Said for a code that is well formed but unknown, already used or past its ten minutes. */
export const USER_CODE_INVALID_MESSAGE = 'This code is not valid or has expired.';

const SEPARATORS = /[\s\p{Pd}]+/gu;
const WELL_FORMED = new RegExp(`^[${USER_CODE_ALPHABET}]{${String(USER_CODE_LENGTH)}}$`);

/**
 * The code as stored and compared: upper case, without the dash and spaces people type or paste
 * (any kind of dash, since word processors turn '-' into '–').
 */
export function normalizeUserCode(input: string): string {
  return input.replace(SEPARATORS, '').toUpperCase();
}

/** Whether the normalised code has the length and letters of a code we could have issued. */
export function isWellFormedUserCode(normalized: string): boolean {
  return WELL_FORMED.test(normalized);
}

/**
 * The code as shown to people, XXXX-XXXX; anything that is not a well-formed code is shown as the
 * normalised text, so nothing typed is silently lost.
 */
export function formatUserCode(input: string): string {
  const code = normalizeUserCode(input);
  if (!isWellFormedUserCode(code)) return code;
  const half = USER_CODE_LENGTH / 2;
  return `${code.slice(0, half)}-${code.slice(half)}`;
}
