import {
  applicationFieldErrors,
  type ApplicationFieldErrors,
  type JobApplicationAnswer,
} from '../job-application-form.ts';
import { createContactForm, type ContactFormState } from './contact-form.ts';

/** What the applicant has typed, kept as typed (untrimmed) so nothing they wrote is ever lost. */
export interface JobApplicationValues {
  name: string;
  email: string;
  /** The role's id (its file name in the careers collection). */
  role: string;
  /** One address per line, as typed. */
  links: string;
  coverNote: string;
}

/** A role page's application form; `reference` names the stored application in the confirmation. */
export type JobApplicationState = ContactFormState<JobApplicationValues, ApplicationFieldErrors>;

export const APPLICATION_FIX_FIELDS_MESSAGE =
  'Please correct the highlighted fields and send your application again.';
export const APPLICATION_FAILED_MESSAGE =
  'We could not send your application. Please try again in a moment; nothing you typed has been lost.';

const form = createContactForm<JobApplicationValues, ApplicationFieldErrors>({
  empty: { name: '', email: '', role: '', links: '', coverNote: '' },
  path: 'careers/application',
  loadSchema: async () => (await import('../job-application-schema.ts')).jobApplicationSchema,
  fieldErrors: applicationFieldErrors,
  fixMessage: APPLICATION_FIX_FIELDS_MESSAGE,
  failedMessage: APPLICATION_FAILED_MESSAGE,
  referenceOf: (answer) => (answer as Partial<JobApplicationAnswer> | undefined)?.reference ?? '',
});

export const $jobApplication = form.$form;
/** Starts loading the schema when the applicant enters the form, so sending never waits for it. */
export const preloadApplicationRules = form.preloadRules;
/** Records what the applicant typed or chose in one field. */
export const setApplicationValue = form.setValue;
/** Fills name and email from a signed-in account, never over what the applicant typed. */
export const prefillApplication = form.prefill;
/** Checks the application with the server's rules, then sends it; every failure keeps what was typed. */
export const submitApplication = form.submit;
/** Starts a new, empty application. */
export const resetApplication = form.reset;

/**
 * Chooses the role of the page the form is on, unless the applicant has already chosen one: the
 * form opens on that role, and the select still lets them apply for another.
 */
export function presetApplicationRole(roleId: string): void {
  const state = $jobApplication.get();
  if (state.edited.role === true || state.values.role === roleId) return;
  $jobApplication.set({ ...state, values: { ...state.values, role: roleId } });
}
