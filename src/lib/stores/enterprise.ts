import { enquiryFieldErrors, type CompanySize, type EnquiryFieldErrors } from '../enterprise-form.ts';
import { createContactForm, type ContactFormState, type ContactFormStatus } from './contact-form.ts';

export type EnterpriseFormStatus = ContactFormStatus;

/** What the visitor has typed, kept as typed (untrimmed) so nothing they wrote is ever lost. */
export interface EnterpriseFormValues {
  name: string;
  email: string;
  company: string;
  jobTitle: string;
  companySize: CompanySize | '';
  message: string;
  consent: boolean;
}

export type TextField = Exclude<keyof EnterpriseFormValues, 'consent'>;

/** The enterprise enquiry form: its values, where the request stands and what to tell the visitor. */
export type EnterpriseFormState = ContactFormState<EnterpriseFormValues, EnquiryFieldErrors>;

export const FIX_FIELDS_MESSAGE = 'Please correct the highlighted fields and send your enquiry again.';
export const ENQUIRY_FAILED_MESSAGE =
  'We could not send your enquiry. Please try again in a moment; nothing you typed has been lost.';

const form = createContactForm<EnterpriseFormValues, EnquiryFieldErrors>({
  empty: { name: '', email: '', company: '', jobTitle: '', companySize: '', message: '', consent: false },
  path: 'enterprise/enquiry',
  loadSchema: async () => (await import('../enterprise-schema.ts')).enterpriseEnquirySchema,
  fieldErrors: enquiryFieldErrors,
  fixMessage: FIX_FIELDS_MESSAGE,
  failedMessage: ENQUIRY_FAILED_MESSAGE,
});

export const $enterpriseForm = form.$form;
/** The enquiry schema, loaded once and only when wanted (it brings zod). */
export const loadEnquiryRules = form.loadRules;
/** Starts loading the schema when the visitor enters the form, so sending never waits for it. */
export const preloadEnquiryRules = form.preloadRules;
/** Records what the visitor typed or chose in one field. */
export const setEnquiryValue = form.setValue;
/** Fills name and email from a signed-in account, never over what the visitor typed. */
export const prefillEnquiry = form.prefill;
/** Checks the enquiry with the server's rules, then sends it; every failure keeps what was typed. */
export const submitEnquiry = form.submit;
/** Starts a new, empty enquiry. */
export const resetEnquiry = form.reset;
