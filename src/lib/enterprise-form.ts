/**
 * The enterprise enquiry form's limits, options and messages, without the schema library, so the
 * page can draw the form without shipping zod; src/lib/enterprise-schema.ts builds the schema that
 * the accounts API and the form (loaded when needed) check enquiries with.
 */

import { fieldErrorsOf, type FieldIssue } from './form-rules.ts';

export const MAX_NAME_LENGTH = 100;
export const MAX_COMPANY_LENGTH = 120;
export const MAX_JOB_TITLE_LENGTH = 100;
export const MIN_MESSAGE_LENGTH = 20;
export const MAX_MESSAGE_LENGTH = 5000;
/** The hidden field only bots fill in; bounded so nobody can post megabytes through it. */
export const MAX_HONEYPOT_LENGTH = 500;

/** Company size bands, as stored (`value`) and as shown in the select (`label`). */
export const COMPANY_SIZES = [
  { value: '1-10', label: '1–10 employees' },
  { value: '11-50', label: '11–50 employees' },
  { value: '51-200', label: '51–200 employees' },
  { value: '201-1000', label: '201–1,000 employees' },
  { value: '1001-5000', label: '1,001–5,000 employees' },
  { value: '5001+', label: 'More than 5,000 employees' },
] as const;

export type CompanySize = (typeof COMPANY_SIZES)[number]['value'];

export const COMPANY_SIZE_VALUES = COMPANY_SIZES.map((size) => size.value) as [CompanySize, ...CompanySize[]];

export const NAME_REQUIRED_MESSAGE = 'Please enter your name.';
export const NAME_TOO_LONG_MESSAGE = `Name should be at most ${MAX_NAME_LENGTH} characters.`;
export const NAME_CHARACTERS_MESSAGE = 'Name contains characters that are not allowed.';
export const WORK_EMAIL_REQUIRED_MESSAGE = 'Please enter your work email address.';
export const COMPANY_REQUIRED_MESSAGE = 'Please enter your company name.';
export const COMPANY_TOO_LONG_MESSAGE = `Company name should be at most ${MAX_COMPANY_LENGTH} characters.`;
export const COMPANY_CHARACTERS_MESSAGE = 'Company name contains characters that are not allowed.';
export const JOB_TITLE_TOO_LONG_MESSAGE = `Job title should be at most ${MAX_JOB_TITLE_LENGTH} characters.`;
export const JOB_TITLE_TYPE_MESSAGE = 'Job title should be text.';
export const JOB_TITLE_CHARACTERS_MESSAGE = 'Job title contains characters that are not allowed.';
export const COMPANY_SIZE_MESSAGE = 'Please choose the size of your company.';
export const MESSAGE_REQUIRED_MESSAGE = 'Please tell us about your use case.';
export const MESSAGE_TOO_SHORT_MESSAGE = `Please tell us a little more about your use case (at least ${MIN_MESSAGE_LENGTH} characters).`;
export const MESSAGE_TOO_LONG_MESSAGE = `Your message should be at most ${MAX_MESSAGE_LENGTH.toLocaleString('en-US')} characters.`;
export const MESSAGE_CHARACTERS_MESSAGE = 'Your message contains characters that are not allowed.';
export const CONSENT_MESSAGE = 'Please agree to be contacted about your enquiry.';

/** Control characters of any kind: a name, a company or a title is one line of plain text. */
export const ANY_CONTROL = /\p{Cc}/u;
/** Control characters other than tab, line feed and carriage return, which a message may contain. */
export const CONTROL_BUT_LINE_BREAKS = /[^\P{Cc}\t\n\r]/u;

/** Length as Postgres counts it (code points), so a character outside the BMP counts once. */
export function characterLength(value: string): number {
  const surrogatePairs = value.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0;
  return value.length - surrogatePairs;
}

/** The fields a visitor fills in, in the order the form shows them. */
export const ENQUIRY_FIELDS = [
  'name',
  'email',
  'company',
  'jobTitle',
  'companySize',
  'message',
  'consent',
] as const;
export type EnquiryField = (typeof ENQUIRY_FIELDS)[number];

/** One message per field, the first problem found with it. */
export type EnquiryFieldErrors = Partial<Record<EnquiryField, string>>;

/**
 * Field messages from a list of issues, whether zod's (path as an array) or the accounts API's
 * (path as a dotted string), so the form shows the server's refusals exactly like its own.
 */
export function enquiryFieldErrors(issues: readonly FieldIssue[]): EnquiryFieldErrors {
  return fieldErrorsOf(ENQUIRY_FIELDS, issues);
}
