import { z } from 'zod';
import { ANY_CONTROL, CONTROL_BUT_LINE_BREAKS } from './enterprise-form.ts';
import { EMAIL_TOO_LONG_MESSAGE, isEmailAddress, MAX_EMAIL_LENGTH } from './form-rules.ts';
import {
  characterLength,
  HELP_EMAIL_REQUIRED_MESSAGE,
  HELP_MESSAGE_CHARACTERS_MESSAGE,
  HELP_MESSAGE_REQUIRED_MESSAGE,
  HELP_MESSAGE_TOO_LONG_MESSAGE,
  HELP_MESSAGE_TOO_SHORT_MESSAGE,
  HELP_NAME_CHARACTERS_MESSAGE,
  HELP_NAME_REQUIRED_MESSAGE,
  HELP_NAME_TOO_LONG_MESSAGE,
  HELP_TOPIC_MESSAGE,
  MAX_HELP_MESSAGE_LENGTH,
  MAX_HELP_NAME_LENGTH,
  MAX_HONEYPOT_LENGTH,
  MIN_HELP_MESSAGE_LENGTH,
} from './help-form.ts';
import { HELP_TOPIC_IDS } from './help-topics.ts';
import { EMAIL_MESSAGE } from './messages.ts';

/**
 * The help request schema, shared by the accounts API and the help center's form (which loads it
 * only when a request is checked), so the page never accepts what the server refuses and both say
 * the same words about each field.
 */

export * from './help-form.ts';

const name = z
  .string({ error: HELP_NAME_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: HELP_NAME_REQUIRED_MESSAGE, abort: true })
  .refine((value) => characterLength(value) <= MAX_HELP_NAME_LENGTH, {
    error: HELP_NAME_TOO_LONG_MESSAGE,
    abort: true,
  })
  .refine((value) => !ANY_CONTROL.test(value), { error: HELP_NAME_CHARACTERS_MESSAGE });

const email = z
  .string({ error: HELP_EMAIL_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: HELP_EMAIL_REQUIRED_MESSAGE, abort: true })
  .max(MAX_EMAIL_LENGTH, { error: EMAIL_TOO_LONG_MESSAGE, abort: true })
  .refine(isEmailAddress, { error: EMAIL_MESSAGE })
  .transform((value) => value.toLowerCase());

const message = z
  .string({ error: HELP_MESSAGE_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: HELP_MESSAGE_REQUIRED_MESSAGE, abort: true })
  .refine((value) => characterLength(value) >= MIN_HELP_MESSAGE_LENGTH, {
    error: HELP_MESSAGE_TOO_SHORT_MESSAGE,
    abort: true,
  })
  .refine((value) => characterLength(value) <= MAX_HELP_MESSAGE_LENGTH, {
    error: HELP_MESSAGE_TOO_LONG_MESSAGE,
    abort: true,
  })
  .refine((value) => !CONTROL_BUT_LINE_BREAKS.test(value), { error: HELP_MESSAGE_CHARACTERS_MESSAGE });

/**
 * A help request as the form sends it. `website` is the honeypot: people never see it, so any value
 * in it marks the sender as a bot, whose request is then dropped without telling it so.
 */
export const helpRequestSchema = z.strictObject({
  name,
  email,
  topic: z.enum(HELP_TOPIC_IDS, { error: HELP_TOPIC_MESSAGE }),
  message,
  website: z.string().max(MAX_HONEYPOT_LENGTH).optional(),
});

export type HelpRequestInput = z.input<typeof helpRequestSchema>;
export type HelpRequest = z.output<typeof helpRequestSchema>;
