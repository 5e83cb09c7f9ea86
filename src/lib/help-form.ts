import { fieldErrorsOf, type FieldIssue } from './form-rules.ts';
import { HELP_TOPIC_IDS, type HelpTopic } from './help-topics.ts';

/**
 * The help center's contact form: its limits and messages, without the schema library, so the page
 * can draw the form without shipping zod; src/lib/help-schema.ts builds the schema that the accounts
 * API and the form (loaded when needed) check requests with.
 */

export { MAX_HONEYPOT_LENGTH, characterLength } from './enterprise-form.ts';

export const MAX_HELP_NAME_LENGTH = 100;
export const MIN_HELP_MESSAGE_LENGTH = 10;
export const MAX_HELP_MESSAGE_LENGTH = 5000;

export const HELP_NAME_REQUIRED_MESSAGE = 'Please enter your name.';
export const HELP_NAME_TOO_LONG_MESSAGE = `Name should be at most ${MAX_HELP_NAME_LENGTH} characters.`;
export const HELP_NAME_CHARACTERS_MESSAGE = 'Name contains characters that are not allowed.';
export const HELP_EMAIL_REQUIRED_MESSAGE = 'Please enter your email address, so we can answer you.';
export const HELP_TOPIC_MESSAGE = 'Please choose what your question is about.';
export const HELP_MESSAGE_REQUIRED_MESSAGE = 'Please write your question.';
export const HELP_MESSAGE_TOO_SHORT_MESSAGE = `Please tell us a little more (at least ${MIN_HELP_MESSAGE_LENGTH} characters).`;
export const HELP_MESSAGE_TOO_LONG_MESSAGE = `Your message should be at most ${MAX_HELP_MESSAGE_LENGTH.toLocaleString('en-US')} characters.`;
export const HELP_MESSAGE_CHARACTERS_MESSAGE = 'Your message contains characters that are not allowed.';

/** The fields a visitor fills in, in the order the form shows them. */
export const HELP_FIELDS = ['name', 'email', 'topic', 'message'] as const;
export type HelpField = (typeof HELP_FIELDS)[number];

/** One message per field, the first problem found with it. */
export type HelpFieldErrors = Partial<Record<HelpField, string>>;

/** What a stored request is answered with: the row's id and the reference the sender quotes. */
export interface HelpRequestAnswer {
  id: string;
  reference: string;
}

/** Whether a value is one of the topics the form offers. */
export function isHelpTopic(value: unknown): value is HelpTopic {
  return typeof value === 'string' && (HELP_TOPIC_IDS as readonly string[]).includes(value);
}

/**
 * Field messages from a list of issues, whether zod's (path as an array) or the accounts API's
 * (path as a dotted string), so the form shows the server's refusals exactly like its own.
 */
export function helpFieldErrors(issues: readonly FieldIssue[]): HelpFieldErrors {
  return fieldErrorsOf(HELP_FIELDS, issues);
}
