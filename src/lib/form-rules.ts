/**
 * The plain rules of the sign-up and sign-in forms, without the schema library, so a browser form
 * can check its fields without shipping zod; src/lib/validation.ts builds the schemas the accounts
 * API uses on the same rules. The messages the spec words are in src/lib/messages.ts.
 */

export const EMAIL_TOO_LONG_MESSAGE = 'Email address should be at most 254 characters.';
export const MIN_PASSWORD_LENGTH = 6;
/** A ceiling so nobody can make the server hash megabytes; far above any real password. */
export const MAX_PASSWORD_LENGTH = 4096;
/** RFC 5321 path limit (256) minus the angle brackets. */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_UTM_LENGTH = 200;
export const MAX_USERNAME_LENGTH = 64;

const ATEXT = "[a-z0-9!#$%&'*+/=?^_`{|}~-]";
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const TOP_LABEL = '(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})';
/**
 * A dot-atom local part (no quoted strings, no comments) at a host name with a top-level domain (no
 * IP literals, no single-label hosts): what mail providers actually accept, minus exotica no real
 * customer uses and that downstream systems mishandle.
 */
const EMAIL_PATTERN = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*@(?:${LABEL}\\.)+${TOP_LABEL}$`, 'i');

/** Whether a trimmed address has a sane shape and fits the length limits of RFC 5321. */
export function isEmailAddress(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(value)) return false;
  const at = value.lastIndexOf('@');
  return at <= 64 && value.length - at - 1 <= 253;
}

/** An issue as zod reports it (path as an array) or as the accounts API does (a dotted string). */
export interface FieldIssue {
  path: string | readonly PropertyKey[];
  message: string;
}

/**
 * The first message of each of a form's fields from a list of issues of either kind, so a form shows
 * the server's refusals exactly like its own checks.
 */
export function fieldErrorsOf<F extends string>(
  fields: readonly F[],
  issues: readonly FieldIssue[],
): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = typeof issue.path === 'string' ? issue.path : issue.path[0];
    if (typeof field === 'string' && (fields as readonly string[]).includes(field)) {
      errors[field as F] ??= issue.message;
    }
  }
  return errors;
}

/** The longest username an owner may choose (names made from an address are shorter still). */
export const CHOSEN_USERNAME_MAX_LENGTH = 30;
/** Letters, digits, dots, dashes and underscores, starting with a letter or digit: never an '@'. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/i;
export const USERNAME_RULE_MESSAGE = `A username is 1 to ${CHOSEN_USERNAME_MAX_LENGTH} letters, digits, dots, dashes or underscores, starting with a letter or digit.`;

/**
 * What is wrong with a username an owner chose, or undefined when it may be used. The same rule on
 * the settings form and the server, so the form never promises a name the server refuses.
 */
export function usernameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (
    trimmed.length === 0 ||
    trimmed.length > CHOSEN_USERNAME_MAX_LENGTH ||
    !USERNAME_PATTERN.test(trimmed)
  ) {
    return USERNAME_RULE_MESSAGE;
  }
  return undefined;
}

/** The settings page's deletion asks for the username typed exactly; the server checks it again. */
export const DELETE_CONFIRMATION_MESSAGE = 'Type your username exactly to confirm the deletion.';
