import { z } from 'zod';
import { EMAIL_MESSAGE, FILL_ALL_FIELDS_MESSAGE, PASSWORD_MESSAGE } from './messages.ts';
import {
  EMAIL_TOO_LONG_MESSAGE,
  isEmailAddress,
  MAX_EMAIL_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_USERNAME_LENGTH,
  MAX_UTM_LENGTH,
  MIN_PASSWORD_LENGTH,
} from './form-rules.ts';

/**
 * Input rules shared by the browser forms and the accounts API, so a value the form accepts is a
 * value the server accepts, with the same words when it is not.
 */

export * from './form-rules.ts';

/**
 * An e-mail address, trimmed and lower-cased so "Ann@Example.com " and "ann@example.com" are one
 * account (the identity provider compares case-insensitively too).
 */
export const emailSchema = z
  .string({ error: EMAIL_MESSAGE })
  .trim()
  .max(MAX_EMAIL_LENGTH, { error: EMAIL_TOO_LONG_MESSAGE, abort: true })
  .refine(isEmailAddress, { error: EMAIL_MESSAGE, abort: true })
  .transform((value) => value.toLowerCase());

/** The address in the form used for comparisons and storage. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** A new password. Never trimmed: spaces are legitimate password characters. */
export const passwordSchema = z
  .string({ error: PASSWORD_MESSAGE })
  .min(MIN_PASSWORD_LENGTH, { error: PASSWORD_MESSAGE })
  .max(MAX_PASSWORD_LENGTH, { error: `Password should be at most ${MAX_PASSWORD_LENGTH} characters.` });

/** ASCII and Unicode control characters (category Cc): NUL, CR/LF, tab, DEL, C1. */
const CONTROL_CHARACTER = /\p{Cc}/u;

export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTER.test(value);
}

function utmField(name: string): z.ZodDefault<z.ZodString> {
  return z
    .string({ error: `${name} should be text.` })
    .max(MAX_UTM_LENGTH, { error: `${name} should be at most ${MAX_UTM_LENGTH} characters.` })
    .refine((value) => !hasControlCharacters(value), { error: `${name} contains control characters.` })
    .default('');
}

export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** The campaign parameters a visitor arrived with; every one optional, absent ones read as ''. */
export const utmShape = {
  utm_source: utmField('utm_source'),
  utm_medium: utmField('utm_medium'),
  utm_campaign: utmField('utm_campaign'),
  utm_term: utmField('utm_term'),
  utm_content: utmField('utm_content'),
};

/** Campaign parameters as stored with an account (SPEC §7 save-campaign); unknown keys are refused. */
export const utmSchema = z.strictObject(utmShape);
export type Utm = z.output<typeof utmSchema>;

/**
 * A sign-in login: an e-mail address (normalised like emailSchema) or a username, which is kept as
 * typed apart from surrounding spaces.
 */
export const usernameOrEmailSchema = z
  .string({ error: FILL_ALL_FIELDS_MESSAGE })
  .trim()
  .min(1, { error: FILL_ALL_FIELDS_MESSAGE })
  .superRefine((value, ctx) => {
    if (value.includes('@')) {
      if (!isEmailAddress(value)) ctx.addIssue({ code: 'custom', message: EMAIL_MESSAGE });
    } else if (value.length > MAX_USERNAME_LENGTH || /[\s\p{Cc}]/u.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'Please enter a valid username or email address.' });
    }
  })
  .transform((value) => (value.includes('@') ? value.toLowerCase() : value));

/**
 * Percent-decodes each ASCII escape on its own, so one malformed escape cannot hide the rest (the
 * bytes of multi-byte UTF-8 characters never decode to a slash, backslash or control character).
 */
function decodeAsciiEscapes(value: string): string {
  return value.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Every form the value takes as layers of percent-encoding are peeled off. */
function decodedForms(value: string): string[] {
  const forms = [value];
  let current = value;
  for (let round = 0; round < 8; round += 1) {
    const next = decodeAsciiEscapes(current);
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return forms;
}

/**
 * A path that stays on this site however it is read: starts with one slash, no backslash (browsers
 * treat `/\` as `//`), no control characters (browsers drop tabs and newlines, turning `/\t/` into
 * `//`), and the same holds after any amount of percent-decoding.
 */
function isLocalPath(path: string): boolean {
  return decodedForms(path).every(
    (form) =>
      form.startsWith('/') && !form.startsWith('//') && !form.includes('\\') && !hasControlCharacters(form),
  );
}

const MAX_REDIRECT_LENGTH = 2048;

/**
 * Where to send the browser after sign-in: `target` when it is a path on this site (returned as
 * given), the path of an absolute URL on this origin, and '/' for anything else, so a crafted
 * `?redirect=` can never bounce a freshly signed-in user to another site.
 */
export function safeRedirect(target: string | null | undefined, origin: string): string {
  if (typeof target !== 'string' || target === '' || target.length > MAX_REDIRECT_LENGTH) return '/';
  let base: URL;
  try {
    base = new URL(origin);
  } catch {
    return '/';
  }
  let path = target;
  if (!target.startsWith('/')) {
    let absolute: URL;
    try {
      absolute = new URL(target);
    } catch {
      return '/';
    }
    if (absolute.origin !== base.origin || hasControlCharacters(target)) return '/';
    path = `${absolute.pathname}${absolute.search}${absolute.hash}`;
  }
  if (!isLocalPath(path)) return '/';
  try {
    return new URL(path, base.origin).origin === base.origin ? path : '/';
  } catch {
    return '/';
  }
}
