import { z } from 'zod';
import {
  ANY_CONTROL,
  characterLength,
  CONTROL_BUT_LINE_BREAKS,
  MAX_HONEYPOT_LENGTH,
} from './enterprise-form.ts';
import { EMAIL_TOO_LONG_MESSAGE, isEmailAddress, MAX_EMAIL_LENGTH } from './form-rules.ts';
import {
  APPLICANT_EMAIL_REQUIRED_MESSAGE,
  APPLICANT_NAME_CHARACTERS_MESSAGE,
  APPLICANT_NAME_REQUIRED_MESSAGE,
  APPLICANT_NAME_TOO_LONG_MESSAGE,
  COVER_NOTE_CHARACTERS_MESSAGE,
  COVER_NOTE_REQUIRED_MESSAGE,
  COVER_NOTE_TOO_LONG_MESSAGE,
  COVER_NOTE_TOO_SHORT_MESSAGE,
  LINK_INVALID_MESSAGE,
  LINKS_REQUIRED_MESSAGE,
  LINKS_TOO_MANY_MESSAGE,
  MAX_APPLICANT_NAME_LENGTH,
  MAX_APPLICATION_LINK_LENGTH,
  MAX_APPLICATION_LINKS,
  MAX_COVER_NOTE_LENGTH,
  MIN_COVER_NOTE_LENGTH,
  ROLE_ID_PATTERN,
  ROLE_REQUIRED_MESSAGE,
} from './job-application-form.ts';
import { EMAIL_MESSAGE } from './messages.ts';
import { safeHttpUrl } from './safe-url.ts';

/**
 * The job application schema, shared by the accounts API and the careers pages' form (which loads
 * it only when an application is checked), so the page never accepts what the server refuses and
 * both say the same words about each field. Whether the chosen role is still open is the server's
 * to say (the roles are the careers collection's files).
 */

export * from './job-application-form.ts';

const name = z
  .string({ error: APPLICANT_NAME_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: APPLICANT_NAME_REQUIRED_MESSAGE, abort: true })
  .refine((value) => characterLength(value) <= MAX_APPLICANT_NAME_LENGTH, {
    error: APPLICANT_NAME_TOO_LONG_MESSAGE,
    abort: true,
  })
  .refine((value) => !ANY_CONTROL.test(value), { error: APPLICANT_NAME_CHARACTERS_MESSAGE });

const email = z
  .string({ error: APPLICANT_EMAIL_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: APPLICANT_EMAIL_REQUIRED_MESSAGE, abort: true })
  .max(MAX_EMAIL_LENGTH, { error: EMAIL_TOO_LONG_MESSAGE, abort: true })
  .refine(isEmailAddress, { error: EMAIL_MESSAGE })
  .transform((value) => value.toLowerCase());

/** A web address with a dotted host name (`github.com/ada`), as an absolute http(s) URL; else undefined. */
export function applicationLink(value: string): string | undefined {
  if (value.length > MAX_APPLICATION_LINK_LENGTH) return undefined;
  const href = safeHttpUrl(value);
  if (href === undefined) return undefined;
  return new URL(href).hostname.includes('.') ? href : undefined;
}

/**
 * The links as typed in the form (one per line, or separated by spaces or commas) or as a list (what
 * the form sends once checked, and what API callers may send), as a list of absolute addresses.
 */
const links = z
  .union([z.string().max(MAX_APPLICATION_LINKS * (MAX_APPLICATION_LINK_LENGTH + 2)), z.array(z.string())], {
    error: LINKS_REQUIRED_MESSAGE,
  })
  .transform((value) =>
    (typeof value === 'string' ? value.split(/[\s,]+/) : value)
      .map((link) => link.trim())
      .filter((link) => link !== ''),
  )
  .refine((list) => list.length > 0, { error: LINKS_REQUIRED_MESSAGE, abort: true })
  .refine((list) => list.length <= MAX_APPLICATION_LINKS, { error: LINKS_TOO_MANY_MESSAGE, abort: true })
  .refine((list) => list.every((link) => applicationLink(link) !== undefined), {
    error: LINK_INVALID_MESSAGE,
    abort: true,
  })
  .transform((list) => list.map((link) => applicationLink(link) ?? link));

const coverNote = z
  .string({ error: COVER_NOTE_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: COVER_NOTE_REQUIRED_MESSAGE, abort: true })
  .refine((value) => characterLength(value) >= MIN_COVER_NOTE_LENGTH, {
    error: COVER_NOTE_TOO_SHORT_MESSAGE,
    abort: true,
  })
  .refine((value) => characterLength(value) <= MAX_COVER_NOTE_LENGTH, {
    error: COVER_NOTE_TOO_LONG_MESSAGE,
    abort: true,
  })
  .refine((value) => !CONTROL_BUT_LINE_BREAKS.test(value), { error: COVER_NOTE_CHARACTERS_MESSAGE });

/**
 * An application as the form sends it. `website` is the honeypot: people never see it, so any value
 * in it marks the sender as a bot, whose application is then dropped without telling it so.
 */
export const jobApplicationSchema = z.strictObject({
  name,
  email,
  role: z
    .string({ error: ROLE_REQUIRED_MESSAGE })
    .trim()
    .max(100, { error: ROLE_REQUIRED_MESSAGE, abort: true })
    .regex(ROLE_ID_PATTERN, { error: ROLE_REQUIRED_MESSAGE }),
  links,
  coverNote,
  website: z.string().max(MAX_HONEYPOT_LENGTH).optional(),
});

export type JobApplicationInput = z.input<typeof jobApplicationSchema>;
export type JobApplication = z.output<typeof jobApplicationSchema>;
