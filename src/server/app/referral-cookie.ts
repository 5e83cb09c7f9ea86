import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { REFERRAL_COOKIE } from '../../lib/affiliates.ts';

/**
 * The affiliate code the visitor's browser remembers from a referral link (set by the shell, see
 * src/lib/affiliates.ts), read by the calls that create accounts; undefined without one. Its shape
 * and its owner are checked where the referral is recorded.
 */
export function referralCodeOf(c: Context): string | undefined {
  const value = getCookie(c, REFERRAL_COOKIE);
  return value === undefined || value === '' ? undefined : value;
}

/** Forgets the remembered code once an account has been created with it: a referral counts once. */
export function forgetReferral(c: Context): void {
  if (referralCodeOf(c) === undefined) return;
  c.header('Set-Cookie', `${REFERRAL_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`, { append: true });
}
