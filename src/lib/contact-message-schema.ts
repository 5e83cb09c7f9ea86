import { z } from 'zod';
import {
  CONTACT_EMAIL_REQUIRED_MESSAGE,
  CONTACT_MESSAGE_CHARACTERS_MESSAGE,
  CONTACT_MESSAGE_REQUIRED_MESSAGE,
  CONTACT_MESSAGE_TOO_LONG_MESSAGE,
  CONTACT_MESSAGE_TOO_SHORT_MESSAGE,
  CONTACT_NAME_CHARACTERS_MESSAGE,
  CONTACT_NAME_REQUIRED_MESSAGE,
  CONTACT_NAME_TOO_LONG_MESSAGE,
  CONTACT_TOPIC_IDS,
  CONTACT_TOPIC_MESSAGE,
  MAX_CONTACT_MESSAGE_LENGTH,
  MAX_CONTACT_NAME_LENGTH,
  MIN_CONTACT_MESSAGE_LENGTH,
} from './contact-message-form.ts';
import {
  ANY_CONTROL,
  characterLength,
  CONTROL_BUT_LINE_BREAKS,
  MAX_HONEYPOT_LENGTH,
} from './enterprise-form.ts';
import { EMAIL_TOO_LONG_MESSAGE, isEmailAddress, MAX_EMAIL_LENGTH } from './form-rules.ts';
import { EMAIL_MESSAGE } from './messages.ts';

/**
 * The contact message schema, shared by the accounts API and the contact page's form (which loads it
 * only when a message is checked), so the page never accepts what the server refuses and both say
 * the same words about each field.
 */

export * from './contact-message-form.ts';

const name = z
  .string({ error: CONTACT_NAME_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: CONTACT_NAME_REQUIRED_MESSAGE, abort: true })
  .refine((value) => characterLength(value) <= MAX_CONTACT_NAME_LENGTH, {
    error: CONTACT_NAME_TOO_LONG_MESSAGE,
    abort: true,
  })
  .refine((value) => !ANY_CONTROL.test(value), { error: CONTACT_NAME_CHARACTERS_MESSAGE });

const email = z
  .string({ error: CONTACT_EMAIL_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: CONTACT_EMAIL_REQUIRED_MESSAGE, abort: true })
  .max(MAX_EMAIL_LENGTH, { error: EMAIL_TOO_LONG_MESSAGE, abort: true })
  .refine(isEmailAddress, { error: EMAIL_MESSAGE })
  .transform((value) => value.toLowerCase());

const message = z
  .string({ error: CONTACT_MESSAGE_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: CONTACT_MESSAGE_REQUIRED_MESSAGE, abort: true })
  .refine((value) => characterLength(value) >= MIN_CONTACT_MESSAGE_LENGTH, {
    error: CONTACT_MESSAGE_TOO_SHORT_MESSAGE,
    abort: true,
  })
  .refine((value) => characterLength(value) <= MAX_CONTACT_MESSAGE_LENGTH, {
    error: CONTACT_MESSAGE_TOO_LONG_MESSAGE,
    abort: true,
  })
  .refine((value) => !CONTROL_BUT_LINE_BREAKS.test(value), { error: CONTACT_MESSAGE_CHARACTERS_MESSAGE });

/**
 * A contact message as the form sends it. `website` is the honeypot: people never see it, so any
 * value in it marks the sender as a bot, whose message is then dropped without telling it so.
 */
export const contactMessageSchema = z.strictObject({
  name,
  email,
  topic: z.enum(CONTACT_TOPIC_IDS, { error: CONTACT_TOPIC_MESSAGE }),
  message,
  website: z.string().max(MAX_HONEYPOT_LENGTH).optional(),
});

export type ContactMessageInput = z.input<typeof contactMessageSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;
