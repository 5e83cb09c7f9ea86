import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** Roles of SPEC §6; a text column with a check (not a Postgres enum) keeps schemas relocatable. */
export const USER_ROLES = ['user', 'analyst', 'admin'] as const;

/** Accounts we own; Firebase only holds the identity, so roles, plans and flags live here. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firebaseUid: text('firebase_uid').notNull().unique(),
    email: text('email').notNull(),
    username: text('username').notNull().unique(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    role: text('role', { enum: USER_ROLES }).notNull().default('user'),
    planCode: text('plan_code').notNull().default('free'),
    isPremium: boolean('is_premium').notNull().default(false),
    legacy: boolean('legacy').notNull().default(false),
    blocked: boolean('blocked').notNull().default(false),
    referralCode: text('referral_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    check('users_role_check', sql`role in ('user', 'analyst', 'admin')`),
  ],
);
