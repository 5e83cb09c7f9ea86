import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { CONTACT_TOPIC_IDS } from '../../lib/contact-message-form.ts';
import { users } from './schema.ts';

// The company pages' records: messages from /contact, job applications from /careers and the
// affiliate programme's referrals (/affiliates; an affiliate's own code is users.referral_code).

/**
 * Messages sent with the contact page's form, kept for the team to answer. The reference is what
 * the sender is shown and emailed, so a reply or a follow-up can name the message.
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `CT-` and eight letters and digits; unique, quoted by the sender in follow-ups. */
    reference: text('reference').notNull().unique(),
    name: text('name').notNull(),
    /** The sender's address, lower case. */
    email: text('email').notNull(),
    /** One of the topics in src/lib/contact-message-form.ts. */
    topic: text('topic').notNull(),
    message: text('message').notNull(),
    /** The account of a signed-in sender. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'contact_messages_topic_check',
      // Written from CONTACT_TOPIC_IDS, so a new topic is one edit (and one generated migration).
      sql`topic in (${sql.raw(CONTACT_TOPIC_IDS.map((topic) => `'${topic}'`).join(', '))})`,
    ),
    index('contact_messages_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Applications sent from a role's page on /careers. The role is its file's name in
 * src/content/careers/, and its title as it read when the application was sent, so an application
 * still says what it was for after the role is closed (its file removed).
 */
export const jobApplications = pgTable(
  'job_applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `JA-` and eight letters and digits; unique, quoted by the applicant in follow-ups. */
    reference: text('reference').notNull().unique(),
    roleId: text('role_id').notNull(),
    roleTitle: text('role_title').notNull(),
    name: text('name').notNull(),
    /** The applicant's address, lower case. */
    email: text('email').notNull(),
    /** One to five absolute http(s) addresses: CV, profile, code, portfolio. */
    links: text('links').array().notNull(),
    coverNote: text('cover_note').notNull(),
    /** The account of a signed-in applicant. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('job_applications_links_check', sql`cardinality(links) between 1 and 5`),
    index('job_applications_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Accounts created after following an affiliate's link: one row per referred account (an account is
 * referred once), naming the affiliate and the code used. Self-referrals are never written.
 */
export const referrals = pgTable(
  'referrals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referrerUserId: uuid('referrer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    referredUserId: uuid('referred_user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The code as it was when the link was followed. */
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('referrals_not_self_check', sql`referrer_user_id <> referred_user_id`),
    index('referrals_referrer_idx').on(t.referrerUserId, t.createdAt),
  ],
);

export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type JobApplicationRow = typeof jobApplications.$inferSelect;
export type Referral = typeof referrals.$inferSelect;
