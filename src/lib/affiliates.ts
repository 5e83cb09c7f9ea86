/**
 * The affiliate programme's terms and its referral links, in one module so the /affiliates page,
 * the cookie the shell sets and the server that counts referrals never disagree about a number.
 * A referral link is any page of the site with `?ref=CODE`; the code is remembered in a first-party
 * cookie and counted for its affiliate when the visitor creates an account.
 */

/** Share of a referred customer's payments the affiliate earns. */
export const COMMISSION_PERCENT = 20;
/** For how many months after the customer's first payment. */
export const COMMISSION_MONTHS = 12;
/** How long a followed link is remembered; a later affiliate link replaces it. */
export const REFERRAL_COOKIE_DAYS = 60;
/** Commission becomes payable this many days after the payment it comes from (the refund window). */
export const COMMISSION_HOLD_DAYS = 30;
/** The smallest balance paid out; smaller balances roll over to the next month. */
export const MINIMUM_PAYOUT_USD = 50;
/** Payouts for the previous month's payable commission are sent by this day of each month. */
export const PAYOUT_DAY = 15;

/** The query parameter of a referral link. */
export const REFERRAL_PARAMETER = 'ref';
/** The first-party cookie that remembers the code of the last referral link followed. */
export const REFERRAL_COOKIE = 'tl_ref';

/** Letters and digits that cannot be mistaken for one another when read out or typed (no 0/O, 1/I/L). */
export const REFERRAL_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const REFERRAL_CODE_LENGTH = 8;
const REFERRAL_CODE_PATTERN = /^[2-9A-HJKMNP-Z]{8}$/;

/** A code as stored (upper case) when the value has a code's shape, else null: anything else is ignored. */
export function normalizeReferralCode(value: string | null | undefined): string | null {
  const code = (value ?? '').trim().toUpperCase();
  return REFERRAL_CODE_PATTERN.test(code) ? code : null;
}

/** The address an affiliate shares: the home page with their code (any page with `?ref=` works). */
export function referralLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/?${REFERRAL_PARAMETER}=${encodeURIComponent(code)}`;
}

/** What the affiliate API answers about the signed-in account. */
export interface AffiliateStatus {
  /** The account's code, or null while it has not joined the programme. */
  referralCode: string | null;
  /** Accounts created after following the code's links. */
  referredSignUps: number;
}

/** The cookie header value that remembers a code for the programme's cookie duration. */
export function referralCookie(code: string, secure: boolean): string {
  const maxAge = REFERRAL_COOKIE_DAYS * 24 * 60 * 60;
  return `${REFERRAL_COOKIE}=${code}; Max-Age=${String(maxAge)}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * Remembers the code of a referral link the visitor arrived with (any page, `?ref=CODE`) in a
 * first-party cookie for 60 days, then takes the parameter out of the address so a copied link does
 * not carry it on. A value without a code's shape is ignored, and so is a code no affiliate holds
 * (the server checks when the account is created), without telling the visitor anything.
 */
export function captureReferral(): void {
  if (typeof location === 'undefined' || typeof document === 'undefined') return;
  const url = new URL(location.href);
  const raw = url.searchParams.get(REFERRAL_PARAMETER);
  if (raw === null) return;
  const code = normalizeReferralCode(raw);
  if (code !== null) document.cookie = referralCookie(code, location.protocol === 'https:');
  url.searchParams.delete(REFERRAL_PARAMETER);
  history.replaceState(history.state, '', url);
}

/** Said when the terms box is not ticked (the form and the API alike). */
export const AFFILIATE_TERMS_MESSAGE = 'Please accept the affiliate programme terms to join.';
