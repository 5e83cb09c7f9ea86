import { fieldErrorsOf, type FieldIssue } from './form-rules.ts';

/**
 * The careers pages' application form: its limits and messages, without the schema library, so a
 * role's page can draw the form without shipping zod; src/lib/job-application-schema.ts builds the
 * schema that the accounts API and the form (loaded when needed) check applications with.
 */

export { MAX_HONEYPOT_LENGTH, characterLength } from './enterprise-form.ts';

export const MAX_APPLICANT_NAME_LENGTH = 100;
/** Links to a CV, a profile, code or a portfolio: we ask for no file, so at least one is needed. */
export const MAX_APPLICATION_LINKS = 5;
export const MAX_APPLICATION_LINK_LENGTH = 500;
export const MIN_COVER_NOTE_LENGTH = 50;
export const MAX_COVER_NOTE_LENGTH = 5000;
/** A role is named by its file in src/content/careers/: lower-case words joined by dashes. */
export const ROLE_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const APPLICANT_NAME_REQUIRED_MESSAGE = 'Please enter your name.';
export const APPLICANT_NAME_TOO_LONG_MESSAGE = `Name should be at most ${MAX_APPLICANT_NAME_LENGTH} characters.`;
export const APPLICANT_NAME_CHARACTERS_MESSAGE = 'Name contains characters that are not allowed.';
export const APPLICANT_EMAIL_REQUIRED_MESSAGE = 'Please enter your email address, so we can reply to you.';
export const ROLE_REQUIRED_MESSAGE = 'Please choose the role you are applying for.';
export const ROLE_CLOSED_MESSAGE = 'This role is no longer open. Please choose one of the open roles.';
export const LINKS_REQUIRED_MESSAGE =
  'Please add at least one link: your CV, LinkedIn profile, GitHub or portfolio.';
export const LINKS_TOO_MANY_MESSAGE = `Please add at most ${MAX_APPLICATION_LINKS} links.`;
export const LINK_INVALID_MESSAGE =
  'Each link should be a web address such as https://github.com/your-name, one per line.';
export const COVER_NOTE_REQUIRED_MESSAGE = 'Please write a short cover note.';
export const COVER_NOTE_TOO_SHORT_MESSAGE = `Please tell us a little more about yourself (at least ${MIN_COVER_NOTE_LENGTH} characters).`;
export const COVER_NOTE_TOO_LONG_MESSAGE = `Your cover note should be at most ${MAX_COVER_NOTE_LENGTH.toLocaleString('en-US')} characters.`;
export const COVER_NOTE_CHARACTERS_MESSAGE = 'Your cover note contains characters that are not allowed.';

/** The fields an applicant fills in, in the order the form shows them. */
export const APPLICATION_FIELDS = ['name', 'email', 'role', 'links', 'coverNote'] as const;
export type ApplicationField = (typeof APPLICATION_FIELDS)[number];

/** One message per field, the first problem found with it. */
export type ApplicationFieldErrors = Partial<Record<ApplicationField, string>>;

/** What a stored application is answered with: the row's id and the reference the applicant quotes. */
export interface JobApplicationAnswer {
  id: string;
  reference: string;
}

/** An open role as the form's select offers it. */
export interface RoleChoice {
  id: string;
  title: string;
}

/** Field messages from zod's issues or the accounts API's, so both show alike. */
export function applicationFieldErrors(issues: readonly FieldIssue[]): ApplicationFieldErrors {
  return fieldErrorsOf(APPLICATION_FIELDS, issues);
}
