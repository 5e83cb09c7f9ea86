import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  normalizeReferralCode,
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  type AffiliateStatus,
} from '../../lib/affiliates.ts';
import type { Db } from '../db/client.ts';
import { referrals, users, type User } from '../db/schema.ts';

const JOIN_ATTEMPTS = 5;

/** A new random code (31⁸ ≈ 850 billion values), so codes tell nothing about the account or the programme's size. */
export function newReferralCode(): string {
  return Array.from({ length: REFERRAL_CODE_LENGTH }, () =>
    REFERRAL_CODE_ALPHABET.charAt(randomInt(REFERRAL_CODE_ALPHABET.length)),
  ).join('');
}

/** How many accounts were created through an affiliate's links. */
export async function referredSignUps(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(referrals)
    .where(eq(referrals.referrerUserId, userId));
  return row?.n ?? 0;
}

/** The account's place in the programme: its code (null before joining) and its referred sign-ups. */
export async function affiliateStatus(db: Db, userId: string): Promise<AffiliateStatus | null> {
  const [row] = await db
    .select({ referralCode: users.referralCode })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  return { referralCode: row.referralCode, referredSignUps: await referredSignUps(db, userId) };
}

/**
 * Makes the account an affiliate: gives it a referral code, or keeps the one it has, so joining
 * twice changes nothing. A code another account drew at the same time (the unique index decides)
 * is drawn again.
 */
export async function joinAffiliateProgramme(
  db: Db,
  userId: string,
): Promise<{ status: AffiliateStatus; joined: boolean } | null> {
  for (let attempt = 0; attempt < JOIN_ATTEMPTS; attempt += 1) {
    const current = await affiliateStatus(db, userId);
    if (current === null) return null;
    if (current.referralCode !== null) return { status: current, joined: false };
    try {
      const [row] = await db
        .update(users)
        .set({ referralCode: newReferralCode() })
        .where(and(eq(users.id, userId), sql`${users.referralCode} is null`))
        .returning({ referralCode: users.referralCode });
      if (row) return { status: { referralCode: row.referralCode, referredSignUps: 0 }, joined: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error(`No free referral code found after ${String(JOIN_ATTEMPTS)} attempts`);
}

function isUniqueViolation(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * One mailbox, however it is written: case ignored, and a `+tag` of the local part dropped
 * (ada+test@example.com is ada@example.com), so an affiliate's second address is still theirs.
 */
export function mailboxOf(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  return `${lower.slice(0, at).split('+')[0] ?? ''}${lower.slice(at)}`;
}

/**
 * Counts a new account for the affiliate whose code it arrived with, inside the account's creation
 * (the caller's transaction). Ignored, without a word, when the code has no code's shape, no
 * account holds it, or the affiliate would be referring themselves (the same account, or another
 * address of the same mailbox). An account is referred once. Answers whether it was counted.
 */
export async function recordReferral(
  db: Db,
  code: string | null | undefined,
  referred: User,
): Promise<boolean> {
  const normalized = normalizeReferralCode(code);
  if (normalized === null) return false;
  const [referrer] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.referralCode, normalized))
    .limit(1);
  if (!referrer) return false;
  if (referrer.id === referred.id || mailboxOf(referrer.email) === mailboxOf(referred.email)) return false;
  const inserted = await db
    .insert(referrals)
    .values({ referrerUserId: referrer.id, referredUserId: referred.id, code: normalized })
    .onConflictDoNothing()
    .returning({ id: referrals.id });
  return inserted.length > 0;
}
