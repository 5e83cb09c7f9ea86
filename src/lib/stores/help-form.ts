import { helpFieldErrors, type HelpFieldErrors, type HelpRequestAnswer } from '../help-form.ts';
import type { HelpTopic } from '../help-topics.ts';
import { createContactForm, type ContactFormState, type ContactFormStatus } from './contact-form.ts';

export type HelpFormStatus = ContactFormStatus;

/** What the visitor has typed, kept as typed (untrimmed) so nothing they wrote is ever lost. */
export interface HelpFormValues {
  name: string;
  email: string;
  topic: HelpTopic | '';
  message: string;
}

/** The help center's contact form; `reference` names the stored request in the confirmation. */
export type HelpFormState = ContactFormState<HelpFormValues, HelpFieldErrors>;

export const HELP_FIX_FIELDS_MESSAGE = 'Please correct the highlighted fields and send your question again.';
export const HELP_FAILED_MESSAGE =
  'We could not send your question. Please try again in a moment; nothing you typed has been lost.';

const form = createContactForm<HelpFormValues, HelpFieldErrors>({
  empty: { name: '', email: '', topic: '', message: '' },
  path: 'help/request',
  loadSchema: async () => (await import('../help-schema.ts')).helpRequestSchema,
  fieldErrors: helpFieldErrors,
  fixMessage: HELP_FIX_FIELDS_MESSAGE,
  failedMessage: HELP_FAILED_MESSAGE,
  referenceOf: (answer) => (answer as Partial<HelpRequestAnswer> | undefined)?.reference ?? '',
});

export const $helpForm = form.$form;
/** The request schema, loaded once and only when wanted (it brings zod). */
export const loadHelpRules = form.loadRules;
/** Starts loading the schema when the visitor enters the form, so sending never waits for it. */
export const preloadHelpRules = form.preloadRules;
/** Records what the visitor typed or chose in one field. */
export const setHelpValue = form.setValue;
/** Fills name and email from a signed-in account, never over what the visitor typed. */
export const prefillHelp = form.prefill;
/** Checks the question with the server's rules, then sends it; every failure keeps what was typed. */
export const submitHelp = form.submit;
/** Starts a new, empty question. */
export const resetHelp = form.reset;
