import {
  contactFieldErrors,
  type ContactFieldErrors,
  type ContactMessageAnswer,
  type ContactTopic,
} from '../contact-message-form.ts';
import { createContactForm, type ContactFormState } from './contact-form.ts';

/** What the visitor has typed, kept as typed (untrimmed) so nothing they wrote is ever lost. */
export interface ContactMessageValues {
  name: string;
  email: string;
  topic: ContactTopic | '';
  message: string;
}

/** The contact page's form; `reference` names the stored message in the confirmation. */
export type ContactMessageState = ContactFormState<ContactMessageValues, ContactFieldErrors>;

export const CONTACT_FIX_FIELDS_MESSAGE =
  'Please correct the highlighted fields and send your message again.';
export const CONTACT_FAILED_MESSAGE =
  'We could not send your message. Please try again in a moment; nothing you typed has been lost.';

const form = createContactForm<ContactMessageValues, ContactFieldErrors>({
  empty: { name: '', email: '', topic: '', message: '' },
  path: 'contact/message',
  loadSchema: async () => (await import('../contact-message-schema.ts')).contactMessageSchema,
  fieldErrors: contactFieldErrors,
  fixMessage: CONTACT_FIX_FIELDS_MESSAGE,
  failedMessage: CONTACT_FAILED_MESSAGE,
  referenceOf: (answer) => (answer as Partial<ContactMessageAnswer> | undefined)?.reference ?? '',
});

export const $contactMessage = form.$form;
/** Starts loading the schema when the visitor enters the form, so sending never waits for it. */
export const preloadContactRules = form.preloadRules;
/** Records what the visitor typed or chose in one field. */
export const setContactValue = form.setValue;
/** Fills name and email from a signed-in account, never over what the visitor typed. */
export const prefillContact = form.prefill;
/** Checks the message with the server's rules, then sends it; every failure keeps what was typed. */
export const submitContact = form.submit;
/** Starts a new, empty message. */
export const resetContact = form.reset;
