/**
 * The admin console's contract, shared by the accounts API (`src/server/routes/admin.ts`, mounted at
 * /api/admin) and the console's stores, so both sides agree on every query field and answer shape.
 * Staff (admins and analysts) read; only admins act, and every action carries a reason for the audit
 * trail.
 */
import type { UserRole } from './user-data.ts';

/** The console's pages, in the order of its navigation. */
export const ADMIN_NAV = [
  { href: '/developer/docs/admin', label: 'Overview' },
  { href: '/developer/docs/admin/users', label: 'Users' },
  { href: '/developer/docs/admin/errors', label: 'Browser errors' },
  { href: '/developer/docs/admin/messages', label: 'Messages' },
  { href: '/developer/docs/admin/coupons', label: 'Coupons' },
  { href: '/developer/docs/admin/audit', label: 'Audit trail' },
] as const;

/** One user's page in the console: `?id=` names the account. */
export const ADMIN_USER_PAGE = '/developer/docs/admin/user';

/** The address of one user's page in the console. */
export function adminUserHref(userId: string): string {
  return `${ADMIN_USER_PAGE}?id=${encodeURIComponent(userId)}`;
}

/** How a user id (and every other id the console passes around) is written: a UUID. */
export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Roles the console can give (SPEC §6). */
export const ADMIN_ROLES = ['user', 'analyst', 'admin'] as const;

/** Whether a role may read the console: administrators, and analysts (a role containing 'analyst'). */
export function isStaffRole(role: string): boolean {
  return role === 'admin' || role.includes('analyst');
}

/** Columns the users list sorts by. */
export const USER_SORTS = ['createdAt', 'email', 'username', 'planCode'] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** Most rows one page of the users list holds. */
export const USER_PAGE_LIMIT = 100;

/** Longest reason an action accepts. */
export const REASON_MAX_LENGTH = 500;

/**
 * The users list's query (GET /api/admin/users): text matches the start of an address or username, or
 * a whole user id; every filter is optional; `cursor` is the `nextCursor` of the page before.
 */
export interface UserSearch {
  q?: string | undefined;
  plan?: string | undefined;
  role?: UserRole | undefined;
  blocked?: boolean | undefined;
  verified?: boolean | undefined;
  legacy?: boolean | undefined;
  /** Signed up on or after this day (YYYY-MM-DD, UTC). */
  from?: string | undefined;
  /** Signed up on or before this day (YYYY-MM-DD, UTC). */
  to?: string | undefined;
  sort?: UserSort | undefined;
  order?: 'asc' | 'desc' | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** One row of the users list. */
export interface AdminUserRow {
  id: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  planCode: string;
  blocked: boolean;
  emailVerified: boolean;
  legacy: boolean;
  createdAt: string;
}

/** One page of the users list; `nextCursor` is null on the last page. */
export interface AdminUserPage {
  users: AdminUserRow[];
  nextCursor: string | null;
}

export interface AdminKey {
  id: string;
  name: string;
  last4: string;
  primary: boolean;
  status: 'active' | 'expiring' | 'revoked' | 'expired';
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface AdminSession {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  userAgent: string;
  ip: string;
  /** Set when an administrator's switch into the account holds the session: that administrator's id. */
  impersonatedBy: string | null;
}

export interface AdminRequest {
  at: string;
  endpoint: string;
  status: number;
  durationMs: number;
}

export interface AdminAuditEntry {
  id: string;
  action: string;
  actorUserId: string | null;
  /** The actor's username when the account still exists. */
  actor: string | null;
  targetUserId: string | null;
  target: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export interface AdminSubscription {
  planCode: string;
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

/** One user's page (GET /api/admin/users/:id). */
export interface AdminUserDetail {
  user: AdminUserRow & { isPremium: boolean; updatedAt: string };
  subscription: AdminSubscription | null;
  keys: AdminKey[];
  /** Calls per day over the last 30 days, oldest first, days without calls included. */
  usage: { day: string; calls: number }[];
  requests: AdminRequest[];
  sessions: AdminSession[];
  audit: AdminAuditEntry[];
}

/** The body of every action: why it is done, for the audit trail. */
export interface AdminActionBody {
  reason: string;
}

/** The console's overview (GET /api/admin/overview?days=30). */
export interface AdminOverview {
  days: number;
  /** Per day, oldest first, days with nothing included. */
  signUps: { day: string; count: number }[];
  calls: { day: string; count: number }[];
  /** Data API answers with a status of 400 or more, and browser errors logged, per day. */
  errors: { day: string; api: number; browser: number }[];
  activeKeys: number;
  totalUsers: number;
  topEndpoints: { endpoint: string; calls: number }[];
}

/** Browser errors grouped by their message (GET /api/admin/client-errors/groups). */
export interface ClientErrorGroup {
  message: string;
  type: string;
  count: number;
  users: number;
  firstSeen: string;
  lastSeen: string;
  /** The newest error of the group, to read in full. */
  latestId: string;
}

/** Most uses a coupon can be given, and the largest amount off (in cents) it can take. */
export const COUPON_MAX_USES_LIMIT = 1_000_000;
export const COUPON_AMOUNT_OFF_LIMIT = 10_000_000;

/**
 * Where a coupon stands: usable, turned off by an administrator, past its expiry, or used as often as
 * it may be. The first that applies wins, in that order from disabled.
 */
export type CouponState = 'active' | 'disabled' | 'expired' | 'used_up';

/** One coupon as the console lists it (GET /api/admin/coupons answers `{ coupons }`, newest first). */
export interface AdminCoupon {
  code: string;
  /** Exactly one of percentOff (1 to 100) and amountOffCents (in the plans' currency) is set. */
  percentOff: number | null;
  amountOffCents: number | null;
  /** The paid plans it discounts; empty means every paid plan. */
  planCodes: string[];
  /** When it stops applying, or null for never. */
  expiresAt: string | null;
  /** How many completed checkouts may use it, or null for no limit. */
  maxUses: number | null;
  /** Completed checkouts that used it. */
  uses: number;
  state: CouponState;
  /** The username of the administrator who created it (null for coupons made otherwise). */
  createdBy: string | null;
  createdAt: string;
}

/** A new coupon (POST /api/admin/coupons answers 201 `{ coupon }`); the code is upper-cased. */
export interface AdminCouponInput {
  code: string;
  percentOff?: number | null;
  amountOffCents?: number | null;
  /** Empty or left out: every paid plan. */
  planCodes?: string[];
  expiresAt?: string | null;
  maxUses?: number | null;
  reason: string;
}
