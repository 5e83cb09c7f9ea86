import { fieldErrorsOf, type FieldIssue } from './form-rules.ts';

/**
 * The contact page's form (/contact): its topics, limits and messages, without the schema library,
 * so the page can draw the form without shipping zod; src/lib/contact-message-schema.ts builds the
 * schema that the accounts API and the form (loaded when needed) check messages with.
 */

export { MAX_HONEYPOT_LENGTH, characterLength } from './enterprise-form.ts';

/** What a message can be about, as stored (`id`) and as the form's select shows it (`label`). */
export const CONTACT_TOPICS = [
  { id: 'sales', label: 'Plans and pricing' },
  { id: 'support', label: 'Technical support' },
  { id: 'billing', label: 'Billing and invoices' },
  { id: 'data', label: 'Data coverage or a correction' },
  { id: 'partnerships', label: 'Partnerships and affiliates' },
  { id: 'press', label: 'Press and media' },
  { id: 'other', label: 'Something else' },
] as const;

export type ContactTopic = (typeof CONTACT_TOPICS)[number]['id'];

/** The topics' ids, as a tuple the schema and the table's check can enumerate. */
export const CONTACT_TOPIC_IDS = CONTACT_TOPICS.map((topic) => topic.id) as [ContactTopic, ...ContactTopic[]];

/** The name a reader sees for a topic (the console, the confirmation email). */
export function contactTopicLabel(topic: string): string {
  return CONTACT_TOPICS.find((entry) => entry.id === topic)?.label ?? topic;
}

export const MAX_CONTACT_NAME_LENGTH = 100;
export const MIN_CONTACT_MESSAGE_LENGTH = 10;
export const MAX_CONTACT_MESSAGE_LENGTH = 5000;

export const CONTACT_NAME_REQUIRED_MESSAGE = 'Please enter your name.';
export const CONTACT_NAME_TOO_LONG_MESSAGE = `Name should be at most ${MAX_CONTACT_NAME_LENGTH} characters.`;
export const CONTACT_NAME_CHARACTERS_MESSAGE = 'Name contains characters that are not allowed.';
export const CONTACT_EMAIL_REQUIRED_MESSAGE = 'Please enter your email address, so we can answer you.';
export const CONTACT_TOPIC_MESSAGE = 'Please choose what your message is about.';
export const CONTACT_MESSAGE_REQUIRED_MESSAGE = 'Please write your message.';
export const CONTACT_MESSAGE_TOO_SHORT_MESSAGE = `Please tell us a little more (at least ${MIN_CONTACT_MESSAGE_LENGTH} characters).`;
export const CONTACT_MESSAGE_TOO_LONG_MESSAGE = `Your message should be at most ${MAX_CONTACT_MESSAGE_LENGTH.toLocaleString('en-US')} characters.`;
export const CONTACT_MESSAGE_CHARACTERS_MESSAGE = 'Your message contains characters that are not allowed.';

/** The fields a visitor fills in, in the order the form shows them. */
export const CONTACT_FIELDS = ['name', 'email', 'topic', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/** One message per field, the first problem found with it. */
export type ContactFieldErrors = Partial<Record<ContactField, string>>;

/** What a stored message is answered with: the row's id and the reference the sender quotes. */
export interface ContactMessageAnswer {
  id: string;
  reference: string;
}

/** Field messages from zod's issues or the accounts API's, so both show alike. */
export function contactFieldErrors(issues: readonly FieldIssue[]): ContactFieldErrors {
  return fieldErrorsOf(CONTACT_FIELDS, issues);
}
