/**
 * What the accounts API answers about an account's keys, requests and usage alerts, as the dashboard's pages read
 * them: written once here, for the server that builds the answers and the browser that shows them.
 */

/** One key as its owner sees it (GET /api/portal/user/api-keys). */
export interface AccountKey {
  id: string;
  name: string;
  primary: boolean;
  /** The whole key, for the owner's reveal and copy. */
  key: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** When a replaced key stops working; null for a key without an end. */
  expiresAt: string | null;
  callsToday: number;
}

/** The account's keys and how many more it may add. */
export interface AccountKeys {
  keys: AccountKey[];
  additionalAllowed: number;
  additionalUsed: number;
}

/** One logged data API request (GET /api/portal/user/request-log). */
export interface RequestLogEntry {
  id: number;
  at: string;
  keyId: string | null;
  /** The key's name, or null when the key was deleted. */
  keyName: string | null;
  keyLast4: string | null;
  endpoint: string;
  /** The query as sent, without the key. */
  params: string;
  status: number;
  latencyMs: number;
  bytes: number;
}

/** A page of the request log. */
export interface RequestLogPage {
  entries: RequestLogEntry[];
  /** The cursor of the next, older page; null at the end. */
  nextBefore: string | null;
  /** Every endpoint the account has called in the log's window, for the filter. */
  endpoints: string[];
}

/** The percentages of the daily calls an owner may be alerted at. */
export const USAGE_ALERT_CHOICES = [10, 25, 50, 80, 90, 100] as const;

/** The account's usage alerts and today's standing (GET /api/portal/user/usage-alerts). */
export interface UsageAlertsState {
  /** The percentages chosen, ascending. */
  thresholds: number[];
  /** The percentages on offer. */
  choices: number[];
  /** The plan's calls a day; null when the plan has no daily limit (alerts then never fire). */
  perDay: number | null;
  callsToday: number;
  /** The chosen percentages reached today (each mailed once). */
  reachedToday: number[];
}

/** One sign-in of the account (a browser or app that holds a session), as the settings page lists it. */
export interface AccountSession {
  /** The sign-in's id (its session family), for ending it. */
  id: string;
  /** Whether this is the sign-in the list was asked from. */
  current: boolean;
  signedInAt: string;
  lastActiveAt: string;
  /** The browser's own description (user agent), '' when it sent none. */
  userAgent: string;
  ip: string;
}

/** The sign-in methods of an account as the identity provider records them. */
export type SignInMethod = 'password' | 'google.com';

/** What the settings page shows (GET /api/portal/user/account). */
export interface AccountSettings {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  createdAt: string;
  planCode: string;
  /** Null when the identity provider could not be asked just now. */
  signInMethods: SignInMethod[] | null;
  sessions: AccountSession[];
}
