import { sql } from 'drizzle-orm';
import { STACK_TRACE_LIMIT } from '../../lib/error-reports.ts';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  bigint,
  bigserial,
  date,
  primaryKey,
  smallint,
} from 'drizzle-orm/pg-core';

export * from './market-schema.ts';
export * from './market-schema-company.ts';
export * from './market-schema-markets.ts';
export * from './market-schema-stmts.ts';
export * from './market-schema-filings.ts';
export * from './market-schema-research.ts';
export * from './schema-company.ts';

// Enumerations are text columns with check constraints rather than Postgres enums, so that the whole
// schema can be created inside any search_path (tests give each run a private schema).

/** Roles of SPEC §6; a text column with a check (not a Postgres enum) keeps schemas relocatable. */
export const USER_ROLES = ['user', 'analyst', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Survey kinds; SPEC §3 only knows the sign-up questionnaire. */
export const SURVEY_TYPES = ['signup'] as const;
export type SurveyType = (typeof SURVEY_TYPES)[number];

export const PLAN_TYPES = ['personal', 'commercial'] as const;
export const BILLING_INTERVALS = ['month', 'year'] as const;

/** Privileged actions an administrator can take on someone else's account; each leaves an audit row. */
export const AUDIT_ACTIONS = [
  'impersonate',
  'block',
  'unblock',
  'role_change',
  'plan_change',
  'api_key_create',
  'api_key_roll',
  'api_key_revoke',
  'device_authorize',
  'profile_update',
  'email_change_request',
  'email_change',
  'password_change',
  'sign_in_method_link',
  'sign_in_method_unlink',
  'sessions_end',
  'data_export',
  'account_delete',
  'impersonate_end',
  'legacy_change',
  'verification_resend',
  'coupon_create',
  'coupon_disable',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** SPEC §7 and §9: the debug logger accepts stack traces of at most 3000 characters (as browsers cut them). */
export { STACK_TRACE_LIMIT };

/** The catalogue the pricing page shows; users.plan_code points here so an account never holds an unknown plan. */
export const pricePlans = pgTable(
  'price_plans',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    planType: text('plan_type', { enum: PLAN_TYPES }).notNull(),
    billingInterval: text('billing_interval', { enum: BILLING_INTERVALS }).notNull(),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** Null means no per-minute cap. */
    callsPerMinute: integer('calls_per_minute'),
    /** Null means no daily cap. */
    callsPerDay: integer('calls_per_day'),
    features: jsonb('features').$type<string[]>().notNull().default([]),
    sortOrder: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /**
     * How much of the data API the plan opens: 0 the free sample (with its annual statements), 1 every
     * US listing and the fundamentals beyond the statements, 2 intraday, quarterly and corporate data,
     * 3 global markets and alternative data, 4 commercial use (see DATA_TIERS in
     * src/server/services/market-data/plan-access.ts).
     */
    dataTier: integer('data_tier').notNull().default(0),
    /** Years of daily history the plan can read; null means all of it. */
    historyYears: integer('history_years'),
  },
  () => [
    check('price_plans_plan_type_check', sql`plan_type in ('personal', 'commercial')`),
    check('price_plans_billing_interval_check', sql`billing_interval in ('month', 'year')`),
    check('price_plans_price_check', sql`price_cents >= 0`),
    check(
      'price_plans_limits_check',
      sql`(calls_per_minute is null or calls_per_minute > 0) and (calls_per_day is null or calls_per_day > 0)`,
    ),
    check('price_plans_features_check', sql`jsonb_typeof(features) = 'array'`),
    check('price_plans_data_tier_check', sql`data_tier between 0 and 4`),
  ],
);

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
    planCode: text('plan_code')
      .notNull()
      .default('free')
      .references(() => pricePlans.code, { onUpdate: 'cascade' }),
    isPremium: boolean('is_premium').notNull().default(false),
    legacy: boolean('legacy').notNull().default(false),
    blocked: boolean('blocked').notNull().default(false),
    /** API keys only work once the owner has proved the address. */
    emailVerified: boolean('email_verified').notNull().default(false),
    /** The account's own affiliate code (/affiliates), null until it joins the programme. */
    referralCode: text('referral_code'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    check('users_role_check', sql`role in ('user', 'analyst', 'admin')`),
    // The admin console's search matches the start of an address or username, and its list sorts by
    // sign-up date: indexes that keep both fast with hundreds of thousands of accounts.
    index('users_email_prefix_idx').on(sql`lower(${t.email}) text_pattern_ops`),
    index('users_username_prefix_idx').on(sql`lower(${t.username}) text_pattern_ops`),
    index('users_created_at_idx').on(t.createdAt, t.id),
    uniqueIndex('users_referral_code_idx').on(t.referralCode),
  ],
);

/**
 * Data API keys. The key itself is never stored: key_hash (HMAC with the server secret) finds it on each
 * request, key_ciphertext lets its owner read it again on the dashboard. An account has one primary
 * key (the one the site shows and uses) and may have named additional ones; a key replaced with a
 * grace period keeps working until expires_at, and a revoked key never again.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull().unique(),
    keyCiphertext: text('key_ciphertext').notNull(),
    last4: text('last4').notNull(),
    /** What the owner calls it ("Default key", "Production server"). */
    name: text('name').notNull().default('Default key'),
    /** The account's main key; additional keys are not. */
    primary: boolean('is_primary').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When a replaced key stops working (its grace period's end); null while it has no end. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    /** The last call made with it, as the usage meter last wrote (to the minute, in batches). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // At most one current primary key per account; replaced ones stay for the record.
    uniqueIndex('api_keys_one_primary_per_user_idx')
      .on(t.userId)
      .where(sql`revoked_at is null and expires_at is null and is_primary`),
    index('api_keys_user_id_idx').on(t.userId),
  ],
);

/**
 * Refresh tokens. Each rotation is a new row in the same family, so a replayed (already rotated) token
 * can revoke the whole sign-in.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_family_id_idx').on(t.familyId)],
);

/** Questionnaire answers keyed by question text (SPEC §3); one per address and survey kind. */
export const surveys = pgTable(
  'surveys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    type: text('type', { enum: SURVEY_TYPES }).notNull(),
    answers: jsonb('answers').$type<Record<string, string>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('surveys_email_type_idx').on(sql`lower(${t.email})`, t.type),
    check('surveys_type_check', sql`type in ('signup')`),
  ],
);

/** Where a sign-up came from (SPEC §3 campaign record); empty strings rather than nulls, as the client sends them. */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    utmSource: text('utm_source').notNull().default(''),
    utmMedium: text('utm_medium').notNull().default(''),
    utmCampaign: text('utm_campaign').notNull().default(''),
    utmTerm: text('utm_term').notNull().default(''),
    utmContent: text('utm_content').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('campaigns_email_idx').on(sql`lower(${t.email})`)],
);

/** Discounts the pricing page accepts; codes are stored upper-case so that lookups can ignore case. */
export const coupons = pgTable(
  'coupons',
  {
    code: text('code').primaryKey(),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    /** Empty means the coupon applies to every plan. */
    planCodes: text('plan_codes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    validUntil: timestamp('valid_until', { withTimezone: true, mode: 'date' }),
    active: boolean('active').notNull().default(true),
    /** How many checkouts may use the coupon; null means no cap. */
    maxRedemptions: integer('max_redemptions'),
    /** Checkouts paid with the coupon, counted when the subscription starts. */
    timesRedeemed: integer('times_redeemed').notNull().default(0),
    /** The administrator who created the coupon (null for seeded ones and deleted accounts). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  () => [
    check('coupons_max_redemptions_check', sql`max_redemptions is null or max_redemptions > 0`),
    check('coupons_times_redeemed_check', sql`times_redeemed >= 0`),
    check('coupons_code_upper_check', sql`code = upper(code) and code <> ''`),
    check('coupons_percent_off_check', sql`percent_off is null or percent_off between 1 and 100`),
    check('coupons_amount_off_check', sql`amount_off_cents is null or amount_off_cents > 0`),
    check('coupons_one_discount_check', sql`num_nonnulls(percent_off, amount_off_cents) = 1`),
  ],
);

/** Browser errors posted to the logger (SPEC §7); kept so support can see them without a third party. */
export const clientErrors = pgTable(
  'client_errors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    stackTrace: text('stack_trace').notNull().default(''),
    server: text('server').notNull().default(''),
    cron: text('cron').notNull().default(''),
    fargate: text('fargate').notNull().default(''),
    discordChannel: text('discord_channel').notNull().default(''),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('client_errors_stack_trace_check', sql`char_length(stack_trace) <= 3000`),
    index('client_errors_created_at_idx').on(t.createdAt),
  ],
);

/** Who did what to whose account; rows outlive both accounts (foreign keys set null). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'audit_log_action_check',
      // Written from AUDIT_ACTIONS, so a new action is one edit (and one generated migration).
      sql`action in (${sql.raw(AUDIT_ACTIONS.map((action) => `'${action}'`).join(', '))})`,
    ),
    index('audit_log_created_at_idx').on(t.createdAt),
    index('audit_log_target_user_id_idx').on(t.targetUserId),
  ],
);

/**
 * Messages from the enterprise enquiry form, kept until sales answers them. Company size and consent
 * are null only on enquiries sent before the form asked for them.
 */
export const enterpriseEnquiries = pgTable(
  'enterprise_enquiries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company').notNull().default(''),
    jobTitle: text('job_title').notNull().default(''),
    /** One of the bands in src/lib/enterprise-form.ts (COMPANY_SIZES). */
    companySize: text('company_size'),
    message: text('message').notNull(),
    /** When the sender agreed to be contacted about the enquiry. */
    consentedAt: timestamp('consented_at', { withTimezone: true, mode: 'date' }),
    /** The account of a signed-in sender. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'enterprise_enquiries_company_size_check',
      sql`company_size is null or company_size in ('1-10', '11-50', '51-200', '201-1000', '1001-5000', '5001+')`,
    ),
    index('enterprise_enquiries_created_at_idx').on(t.createdAt),
  ],
);

/** Where a device authorization stands: waiting for the account owner, or decided by them. */
export const DEVICE_CODE_STATUSES = ['pending', 'approved', 'denied'] as const;
export type DeviceCodeStatus = (typeof DEVICE_CODE_STATUSES)[number];

/**
 * Device authorizations (RFC 8628): a tool holds the device code, the account owner types the user
 * code at /devauth. Both secrets are stored only as digests; a row is deleted once the tool has been
 * told the outcome, so a code delivers the API key at most once.
 */
export const deviceCodes = pgTable(
  'device_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceCodeHash: text('device_code_hash').notNull().unique(),
    userCodeHash: text('user_code_hash').notNull().unique(),
    clientName: text('client_name').notNull(),
    status: text('status', { enum: DEVICE_CODE_STATUSES }).notNull().default('pending'),
    /** The account that approved or denied the request. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('device_codes_status_check', sql`status in ('pending', 'approved', 'denied')`),
    check(
      'device_codes_decision_check',
      sql`(status = 'pending') = (user_id is null and decided_at is null)`,
    ),
    index('device_codes_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * Questions sent with the help center's form, kept for support to answer. The reference is what
 * the sender is shown and emailed, so a reply or a follow-up can name the request.
 */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** `HC-` and eight letters and digits; unique, quoted by the sender in follow-ups. */
    reference: text('reference').notNull().unique(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** One of the help topics in src/lib/help-topics.ts. */
    topic: text('topic').notNull(),
    message: text('message').notNull(),
    /** The account of a signed-in sender. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'support_requests_topic_check',
      sql`topic in ('account', 'keys', 'billing', 'data', 'api', 'limits')`,
    ),
    index('support_requests_created_at_idx').on(t.createdAt),
  ],
);

/**
 * The product's own emails (such as the confirmation of a help request), written here instead of
 * being held in memory so every instance sharing the database sees them; the local mailbox lists
 * them beside the identity provider's messages.
 */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The recipient's address, lower case. */
    email: text('email').notNull(),
    /** What the email is, as the mailbox labels it: 'HELP_REQUEST_RECEIVED', … */
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    /** The plain-text body. */
    body: text('body').notNull(),
    /** The page the email invites its reader to open (a path on this site). */
    link: text('link').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('outbox_emails_created_at_idx').on(t.createdAt)],
);

/**
 * The request log: one row per data API call made with a key (answered or refused after the key
 * check), written in batches by the data API; kept 30 days and at most a bounded number per account.
 * The parameters are stored without the key.
 */
export const apiRequests = pgTable(
  'api_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    endpoint: text('endpoint').notNull(),
    /** The query as sent, without the key. */
    params: text('params').notNull(),
    status: smallint('status').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    bytes: integer('bytes').notNull(),
  },
  (t) => [index('api_requests_user_at_idx').on(t.userId, t.at), index('api_requests_at_idx').on(t.at)],
);

/** The usage alerts an owner chose: percentages of the plan's daily calls that send an email when reached. */
export const usageAlerts = pgTable('usage_alerts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  thresholds: integer('thresholds')
    .array()
    .notNull()
    .default(sql`'{}'::integer[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** The usage alerts sent: one row per account, UTC day and threshold, so each is mailed once a day. */
export const usageAlertsSent = pgTable(
  'usage_alerts_sent',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    threshold: integer('threshold').notNull(),
    calls: integer('calls').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.threshold] })],
);

/** Calls and bytes per key, endpoint and UTC day, added up in batches by the data API. */
export const apiUsage = pgTable(
  'api_usage',
  {
    apiKeyId: uuid('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    endpoint: text('endpoint').notNull(),
    calls: integer('calls').notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.day, t.endpoint] }), index('api_usage_day_idx').on(t.day)],
);

/** What a status probe found: working, working with a problem (slow, a weaker fallback), or not working. */
export const STATUS_STATES = ['operational', 'degraded', 'down'] as const;
export type StatusState = (typeof STATUS_STATES)[number];

/**
 * Each result of the status probes (src/server/status/): one row per component (the site, the APIs,
 * the database, the identity provider, each endpoint group) and probe round, kept for 90 days.
 */
export const statusChecks = pgTable(
  'status_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The component's id: 'site', 'database', 'group:quotes', … */
    component: text('component').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }).notNull(),
    state: text('state', { enum: STATUS_STATES }).notNull(),
    latencyMs: integer('latency_ms').notNull(),
    /** Why a component is degraded or down; empty when it is operational. */
    detail: text('detail').notNull().default(''),
  },
  (t) => [
    check('status_checks_state_check', sql`state in ('operational', 'degraded', 'down')`),
    check('status_checks_latency_check', sql`latency_ms >= 0`),
    index('status_checks_checked_at_idx').on(t.checkedAt),
    index('status_checks_component_checked_at_idx').on(t.component, t.checkedAt),
  ],
);

/**
 * The status checks counted per component and UTC day (checks made, checks passed), kept beside
 * the rows so the 90 daily uptime bars are read from at most 90 rows per component.
 */
export const statusDays = pgTable(
  'status_days',
  {
    component: text('component').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    checks: integer('checks').notNull().default(0),
    /** Checks that found the component working (operational or degraded). */
    passed: integer('passed').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.component, t.day] }),
    index('status_days_day_idx').on(t.day),
    check('status_days_passed_check', sql`passed between 0 and checks`),
  ],
);

/**
 * How often the site's visitors searched for each symbol, per UTC day: aggregated counts only (no
 * visitor, no address), added to with one upsert per search so every instance counts into the same
 * row. The most-searched page ranks symbols by the sum over the last days.
 */
export const symbolSearches = pgTable(
  'symbol_searches',
  {
    day: date('day', { mode: 'string' }).notNull(),
    symbol: text('symbol').notNull(),
    count: integer('count').notNull().default(0),
  },
  // Day first: the ranking reads a range of days, the upsert one (day, symbol).
  (t) => [primaryKey({ columns: [t.day, t.symbol] }), check('symbol_searches_count_check', sql`count >= 0`)],
);

export type User = typeof users.$inferSelect;
export type PricePlan = typeof pricePlans.$inferSelect;
export type Coupon = typeof coupons.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type ApiRequest = typeof apiRequests.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type Survey = typeof surveys.$inferSelect;
export type Campaign = typeof campaigns.$inferSelect;
export type ClientError = typeof clientErrors.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
export type EnterpriseEnquiry = typeof enterpriseEnquiries.$inferSelect;
export type DeviceCode = typeof deviceCodes.$inferSelect;
export type ApiUsageRow = typeof apiUsage.$inferSelect;
export type SupportRequest = typeof supportRequests.$inferSelect;
export type OutboxEmail = typeof outboxEmails.$inferSelect;
export type StatusCheck = typeof statusChecks.$inferSelect;

/** Where a subscription stands, as the payment provider's events say: only active and past_due grant the plan. */
export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'incomplete'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Where a checkout stands on the provider's hosted page; only `complete` was charged. */
export const CHECKOUT_STATUSES = ['open', 'requires_action', 'complete'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/**
 * What an account is about to buy: the plan, the price after the coupon (fixed when the checkout
 * starts, so the page and the charge agree) and where the provider's hosted page stands. The id is
 * the unguessable part of the page's address.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planCode: text('plan_code')
      .notNull()
      .references(() => pricePlans.code, { onUpdate: 'cascade' }),
    couponCode: text('coupon_code'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** Which provider serves the page: 'test' for the test-mode provider. */
    provider: text('provider').notNull(),
    status: text('status', { enum: CHECKOUT_STATUSES }).notNull().default('open'),
    /** The last four digits of the card that paid, for the receipt; never the whole number. */
    cardLast4: text('card_last4'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('checkout_sessions_status_check', sql`status in ('open', 'requires_action', 'complete')`),
    check('checkout_sessions_amount_check', sql`amount_cents >= 0`),
    index('checkout_sessions_user_id_idx').on(t.userId),
  ],
);

/**
 * An account's paid plan as the payment provider reports it, one per account. `lastEventAt` is the
 * time of the newest provider event applied, so a late, older event cannot undo a newer one.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    planCode: text('plan_code')
      .notNull()
      .references(() => pricePlans.code, { onUpdate: 'cascade' }),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true, mode: 'date' }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, mode: 'date' }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** The plan the subscription moves to when this period ends (a downgrade), or null. */
    scheduledPlanCode: text('scheduled_plan_code').references(() => pricePlans.code, { onUpdate: 'cascade' }),
    /** When the provider tries a failed renewal again (status past_due), or null. */
    nextPaymentAttemptAt: timestamp('next_payment_attempt_at', { withTimezone: true, mode: 'date' }),
    provider: text('provider').notNull(),
    providerCustomerId: text('provider_customer_id').notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull().unique(),
    lastEventAt: timestamp('last_event_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  () => [
    check('subscriptions_status_check', sql`status in ('active', 'past_due', 'canceled', 'incomplete')`),
    check('subscriptions_period_check', sql`current_period_end > current_period_start`),
  ],
);

/** Provider events already handled, by the provider's event id: a replayed event is recognised and changes nothing. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** When the provider says the event happened. */
  occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type CheckoutSession = typeof checkoutSessions.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;

/** What the test-mode provider's card on file does at renewals: pays, or is declined (test card 0341). */
export const TEST_CARD_RENEWALS = ['pay', 'decline'] as const;
export type TestCardRenewals = (typeof TEST_CARD_RENEWALS)[number];

/**
 * The test-mode provider's own record of a subscription, as a real provider keeps one on its side:
 * the plan and period it bills, what is scheduled, the card on file's behaviour and the retries of
 * a failed renewal. Stored in the database (not in memory) so any instance can renew it; the site
 * learns of changes only through the provider's signed events.
 */
export const testModeSubscriptions = pgTable(
  'test_mode_subscriptions',
  {
    /** The provider's subscription id (`sub_test_…`), as the events carry it. */
    id: text('id').primaryKey(),
    customerId: text('customer_id').notNull(),
    planCode: text('plan_code')
      .notNull()
      .references(() => pricePlans.code, { onUpdate: 'cascade' }),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true, mode: 'date' }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, mode: 'date' }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    scheduledPlanCode: text('scheduled_plan_code').references(() => pricePlans.code, {
      onUpdate: 'cascade',
    }),
    currency: text('currency').notNull(),
    cardLast4: text('card_last4').notNull(),
    cardRenewals: text('card_renewals', { enum: TEST_CARD_RENEWALS }).notNull().default('pay'),
    /** Credit the customer holds (a downgrade's unused time beyond what it cost), taken off later invoices. */
    balanceCents: integer('balance_cents').notNull().default(0),
    /** Failed attempts of the open renewal invoice. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    /** When the open renewal invoice is tried again; null when none is open. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    check(
      'test_mode_subscriptions_status_check',
      sql`status in ('active', 'past_due', 'canceled', 'incomplete')`,
    ),
    check('test_mode_subscriptions_card_renewals_check', sql`card_renewals in ('pay', 'decline')`),
    check('test_mode_subscriptions_balance_check', sql`balance_cents >= 0`),
    index('test_mode_subscriptions_due_idx').on(t.status, t.currentPeriodEnd),
  ],
);
export type TestModeSubscription = typeof testModeSubscriptions.$inferSelect;

/** Where an invoice stands: `open` is issued and unpaid (a renewal being retried), `void` will never be paid. */
export const INVOICE_STATUSES = ['paid', 'open', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** One line of an invoice: what was charged or credited (a proration credit is negative). */
export interface InvoiceLine {
  description: string;
  amountCents: number;
}

/** A postal address as an invoice prints it. */
export interface BillingAddress {
  line1: string;
  line2: string;
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2 code. */
  country: string;
}

/**
 * The name and address an account wants on its invoices, editable for future invoices; an invoice
 * keeps a copy of them as they were when it was issued.
 */
export const billingProfiles = pgTable('billing_profiles', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull().default(''),
  address: jsonb('address').$type<BillingAddress | null>(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/**
 * The last invoice number given out per provider account: invoice numbers are sequential without
 * gaps, so the counter is taken inside the transaction that stores the invoice.
 */
export const invoiceCounters = pgTable('invoice_counters', {
  provider: text('provider').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/**
 * An invoice as the payment provider reported it (one per provider invoice id), numbered by the
 * site, with the billing name and address copied in when it was issued.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerInvoiceId: text('provider_invoice_id').notNull(),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    planCode: text('plan_code')
      .notNull()
      .references(() => pricePlans.code, { onUpdate: 'cascade' }),
    status: text('status', { enum: INVOICE_STATUSES }).notNull(),
    currency: text('currency').notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    taxCents: integer('tax_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true, mode: 'date' }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true, mode: 'date' }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    cardLast4: text('card_last4'),
    billingName: text('billing_name').notNull().default(''),
    billingAddress: jsonb('billing_address').$type<BillingAddress | null>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    uniqueIndex('invoices_provider_invoice_idx').on(t.provider, t.providerInvoiceId),
    index('invoices_user_id_idx').on(t.userId, t.issuedAt),
    check('invoices_status_check', sql`status in ('paid', 'open', 'void')`),
    check('invoices_total_check', sql`total_cents = subtotal_cents + tax_cents`),
  ],
);

export type BillingProfile = typeof billingProfiles.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;
