import { z } from 'zod';
import {
  ANY_CONTROL,
  characterLength,
  COMPANY_CHARACTERS_MESSAGE,
  COMPANY_REQUIRED_MESSAGE,
  COMPANY_SIZE_MESSAGE,
  COMPANY_SIZE_VALUES,
  COMPANY_TOO_LONG_MESSAGE,
  CONSENT_MESSAGE,
  CONTROL_BUT_LINE_BREAKS,
  JOB_TITLE_CHARACTERS_MESSAGE,
  JOB_TITLE_TOO_LONG_MESSAGE,
  JOB_TITLE_TYPE_MESSAGE,
  MAX_COMPANY_LENGTH,
  MAX_HONEYPOT_LENGTH,
  MAX_JOB_TITLE_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_NAME_LENGTH,
  MESSAGE_CHARACTERS_MESSAGE,
  MESSAGE_REQUIRED_MESSAGE,
  MESSAGE_TOO_LONG_MESSAGE,
  MESSAGE_TOO_SHORT_MESSAGE,
  MIN_MESSAGE_LENGTH,
  NAME_CHARACTERS_MESSAGE,
  NAME_REQUIRED_MESSAGE,
  NAME_TOO_LONG_MESSAGE,
  WORK_EMAIL_REQUIRED_MESSAGE,
} from './enterprise-form.ts';
import { EMAIL_MESSAGE } from './messages.ts';
import { EMAIL_TOO_LONG_MESSAGE, isEmailAddress, MAX_EMAIL_LENGTH } from './form-rules.ts';

/**
 * The enterprise enquiry schema, shared by the accounts API and the browser form (which loads it
 * only when an enquiry is checked), so the page never accepts what the server refuses and both say
 * the same words about each field.
 */

export * from './enterprise-form.ts';

interface LineMessages {
  /** Said when the field is empty; without it the field may be left empty. */
  required?: string;
  /** Said when the value is not text at all (only API callers can send that). */
  type?: string;
  tooLong: string;
  characters: string;
}

/** One line of text, trimmed; required unless no `required` message is given. */
function singleLine(max: number, messages: LineMessages): z.ZodType<string, string> {
  const requiredMessage = messages.required;
  return z
    .string({ error: messages.type ?? requiredMessage ?? messages.characters })
    .trim()
    .refine((value) => requiredMessage === undefined || value !== '', {
      error: requiredMessage,
      abort: true,
    })
    .refine((value) => characterLength(value) <= max, { error: messages.tooLong, abort: true })
    .refine((value) => !ANY_CONTROL.test(value), { error: messages.characters });
}

const workEmail = z
  .string({ error: WORK_EMAIL_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: WORK_EMAIL_REQUIRED_MESSAGE, abort: true })
  .max(MAX_EMAIL_LENGTH, { error: EMAIL_TOO_LONG_MESSAGE, abort: true })
  .refine(isEmailAddress, { error: EMAIL_MESSAGE })
  .transform((value) => value.toLowerCase());

const useCase = z
  .string({ error: MESSAGE_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: MESSAGE_REQUIRED_MESSAGE, abort: true })
  .refine((value) => characterLength(value) >= MIN_MESSAGE_LENGTH, {
    error: MESSAGE_TOO_SHORT_MESSAGE,
    abort: true,
  })
  .refine((value) => characterLength(value) <= MAX_MESSAGE_LENGTH, {
    error: MESSAGE_TOO_LONG_MESSAGE,
    abort: true,
  })
  .refine((value) => !CONTROL_BUT_LINE_BREAKS.test(value), { error: MESSAGE_CHARACTERS_MESSAGE });

/**
 * An enquiry as the form sends it. `website` is the honeypot: people never see it, so any value in
 * it marks the sender as a bot, whose enquiry is then dropped without telling it so.
 */
export const enterpriseEnquirySchema = z.strictObject({
  name: singleLine(MAX_NAME_LENGTH, {
    required: NAME_REQUIRED_MESSAGE,
    tooLong: NAME_TOO_LONG_MESSAGE,
    characters: NAME_CHARACTERS_MESSAGE,
  }),
  email: workEmail,
  company: singleLine(MAX_COMPANY_LENGTH, {
    required: COMPANY_REQUIRED_MESSAGE,
    tooLong: COMPANY_TOO_LONG_MESSAGE,
    characters: COMPANY_CHARACTERS_MESSAGE,
  }),
  jobTitle: singleLine(MAX_JOB_TITLE_LENGTH, {
    type: JOB_TITLE_TYPE_MESSAGE,
    tooLong: JOB_TITLE_TOO_LONG_MESSAGE,
    characters: JOB_TITLE_CHARACTERS_MESSAGE,
  }).default(''),
  companySize: z.enum(COMPANY_SIZE_VALUES, { error: COMPANY_SIZE_MESSAGE }),
  message: useCase,
  consent: z.literal(true, { error: CONSENT_MESSAGE }),
  website: z.string().max(MAX_HONEYPOT_LENGTH).optional(),
});

export type EnterpriseEnquiryInput = z.input<typeof enterpriseEnquirySchema>;
export type EnterpriseEnquiry = z.output<typeof enterpriseEnquirySchema>;
