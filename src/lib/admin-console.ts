/**
 * What the admin console's pages say about the admin API's answers, and how the users list's query
 * lives in the address: plain functions shared by the console's stores and islands (and tested on
 * their own), so every page words an audit entry, a role or a key the same way.
 */
import {
  ADMIN_ROLES,
  USER_PAGE_LIMIT,
  USER_SORTS,
  type AdminAuditEntry,
  type AdminKey,
  type UserSearch,
  type UserSort,
} from './admin.ts';

/** How each audited action reads in the console. */
export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = {
  impersonate: 'Switched into the account',
  impersonate_end: 'Switch ended',
  block: 'Blocked',
  unblock: 'Unblocked',
  role_change: 'Role changed',
  plan_change: 'Plan changed',
  legacy_change: 'Legacy access changed',
  verification_resend: 'Verification link sent again',
  api_key_create: 'API key created',
  api_key_roll: 'API key replaced',
  api_key_revoke: 'API key revoked',
  device_authorize: 'Tool connected',
  profile_update: 'Profile updated',
  email_change_request: 'Address change asked for',
  email_change: 'Address changed',
  password_change: 'Password changed',
  sign_in_method_link: 'Sign-in method linked',
  sign_in_method_unlink: 'Sign-in method unlinked',
  sessions_end: 'Sessions ended',
  data_export: 'Data exported',
  account_delete: 'Account deleted',
  coupon_create: 'Coupon created',
  coupon_disable: 'Coupon disabled',
};

/** An audited action in words; an action this list does not know yet reads as its code. */
export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action] ?? action.replaceAll('_', ' ');
}

/** Roles as the console names them. */
export const ROLE_LABELS: Readonly<Record<string, string>> = {
  user: 'User',
  analyst: 'Analyst',
  admin: 'Administrator',
};

/** A role in words; a role outside the three (such as "senior-analyst") reads as it is stored. */
export function roleLabel(role: string): string {
  return ROLE_LABELS[role] ?? role;
}

/** A key's state in words, as the owner's keys page words it. */
export const KEY_STATUS_LABELS: Readonly<Record<AdminKey['status'], string>> = {
  active: 'Active',
  expiring: 'Replaced, in its grace period',
  revoked: 'Revoked',
  expired: 'Expired',
};

/** Whether revoking a key would change anything: it still answers calls. */
export function keyStillWorks(key: AdminKey): boolean {
  return key.status === 'active' || key.status === 'expiring';
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function shown(value: unknown): string {
  if (value === true) return 'yes';
  if (value === false) return 'no';
  return text(value) ?? '(none)';
}

/** Details an entry's other columns already show (the reason, the change) or that mean nothing to a reader (ids). */
const HIDDEN_DETAILS = new Set(['from', 'to', 'reason', 'keyId', 'sessionId']);

/** The recorded details' names in words; others read as they are stored. */
const DETAIL_LABELS: Readonly<Record<string, string>> = {
  via: 'using',
  name: 'key',
  last4: 'ending in',
  replacedBy: 'new key ending in',
};

/** An audit entry's why: the reason an administrator gave, when there is one. */
export function auditReason(entry: AdminAuditEntry): string {
  return text(entry.details.reason) ?? '';
}

/**
 * An audit entry's what beyond its action: the change from one value to another ("free → monthlyT2")
 * and the other facts it recorded (a key's last four, the tool connected), without the reason, which
 * has its own column.
 */
export function auditChange(entry: AdminAuditEntry): string {
  const { details } = entry;
  const parts: string[] = [];
  if ('from' in details || 'to' in details) parts.push(`${shown(details.from)} → ${shown(details.to)}`);
  for (const [name, value] of Object.entries(details)) {
    if (HIDDEN_DETAILS.has(name)) continue;
    const written = text(value);
    if (written !== undefined) parts.push(`${DETAIL_LABELS[name] ?? name}: ${written}`);
  }
  return parts.join('; ');
}

/** The users list's filters that read as yes or no. */
export const USER_FLAGS = ['blocked', 'verified', 'legacy'] as const;
export type UserFlag = (typeof USER_FLAGS)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The users list's sort when the address names none: the newest sign-ups first. */
export const DEFAULT_USER_SORT: UserSort = 'createdAt';

/** How many users one page of the list shows. */
export const USERS_PER_PAGE = 50;

function flag(value: string | null): boolean | undefined {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/**
 * The users list's query as the address holds it (`?q=ada&plan=free&blocked=true&sort=email&order=asc`),
 * so a filtered list can be linked and survives a reload. Values the API would refuse are left out
 * rather than failing the whole list.
 */
export function userSearchFromParams(params: URLSearchParams): UserSearch {
  const search: UserSearch = {};
  const q = params.get('q')?.trim() ?? '';
  if (q !== '') search.q = q.slice(0, 200);
  const plan = params.get('plan') ?? '';
  if (plan !== '') search.plan = plan;
  const role = params.get('role') ?? '';
  if ((ADMIN_ROLES as readonly string[]).includes(role)) search.role = role;
  for (const name of USER_FLAGS) {
    const value = flag(params.get(name));
    if (value !== undefined) search[name] = value;
  }
  const from = params.get('from') ?? '';
  if (DAY.test(from)) search.from = from;
  const to = params.get('to') ?? '';
  if (DAY.test(to)) search.to = to;
  const sort = params.get('sort') ?? '';
  if ((USER_SORTS as readonly string[]).includes(sort)) search.sort = sort as UserSort;
  const order = params.get('order');
  if (order === 'asc' || order === 'desc') search.order = order;
  const cursor = params.get('cursor') ?? '';
  if (cursor !== '') search.cursor = cursor;
  return search;
}

/** The users list's query as address parameters, leaving out what is not set. */
export function userSearchToParams(search: UserSearch): URLSearchParams {
  const params = new URLSearchParams();
  if (search.q !== undefined && search.q !== '') params.set('q', search.q);
  if (search.plan !== undefined && search.plan !== '') params.set('plan', search.plan);
  if (search.role !== undefined) params.set('role', search.role);
  for (const name of USER_FLAGS) {
    const value = search[name];
    if (value !== undefined) params.set(name, String(value));
  }
  if (search.from !== undefined) params.set('from', search.from);
  if (search.to !== undefined) params.set('to', search.to);
  if (search.sort !== undefined) params.set('sort', search.sort);
  if (search.order !== undefined) params.set('order', search.order);
  if (search.cursor !== undefined) params.set('cursor', search.cursor);
  return params;
}

/** The order a column sorts in when first chosen: names A to Z, dates newest first. */
export function firstOrder(sort: UserSort): 'asc' | 'desc' {
  return sort === 'createdAt' ? 'desc' : 'asc';
}

/** The users list's query as the admin API takes it (a page of {@link USERS_PER_PAGE}). */
export function userSearchQuery(search: UserSearch): Record<string, string | number | boolean | undefined> {
  return {
    ...Object.fromEntries(userSearchToParams(search)),
    limit: Math.min(USERS_PER_PAGE, USER_PAGE_LIMIT),
  };
}

/** A chart's bars: each value's share of the largest, so the tallest bar fills the chart. */
export function shares(values: readonly number[]): number[] {
  const largest = Math.max(0, ...values);
  return values.map((value) => (largest === 0 ? 0 : value / largest));
}

/** The sum of a series. */
export function total(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}

/**
 * The line breaks of a stored browser report: the server keeps them escaped (`\\n`, so a report
 * cannot forge lines in a log); the console shows them as lines again to be read.
 */
export function traceLines(stackTrace: string): string[] {
  return stackTrace.split(/\\r\\n|\\n|\r?\n/);
}

/** A browser error's message: the first line of its stack trace, or its type when the trace is empty. */
export function errorHeadline(type: string, stackTrace: string): string {
  const first = traceLines(stackTrace)[0]?.trim() ?? '';
  return first === '' ? type : first;
}

/**
 * Where a report came from, as the console labels it: a page's own report (`server` is `page <path>`, as
 * the pages send it) reads as its page; any other sender's `server` as the server it names.
 */
export function reportOrigin(server: string): { label: 'Page' | 'Server'; value: string } {
  return server.startsWith('page /')
    ? { label: 'Page', value: server.slice('page '.length) }
    : { label: 'Server', value: server };
}

/** A reply to a message by email, its subject naming what is answered. */
export function replyHref(email: string, subject: string): string {
  return `mailto:${email}?subject=${encodeURIComponent(subject)}`;
}

/** A person's name from their first and last names, or '' when neither is known. */
export function fullName(first: string, last: string): string {
  return `${first} ${last}`.trim();
}

/** A plan's name from the catalogue, or its code when the catalogue does not list it. */
export function planName(plans: readonly { code: string; name: string }[], code: string): string {
  return plans.find((plan) => plan.code === code)?.name ?? code;
}
