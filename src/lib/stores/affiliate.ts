import { map } from 'nanostores';
import { AFFILIATE_TERMS_MESSAGE, referralLink, type AffiliateStatus } from '../affiliates.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, portal } from '../http.ts';
import { $signedIn } from './auth.ts';
import { $sessionChecked, startSession } from './session.ts';
import { $user } from './user.ts';

/*
 * The /affiliates page's sign-up: for a signed-in account, its place in the programme (its referral
 * code and link and how many accounts they brought), the join form before it has a code, and what to
 * tell the visitor. Signed-out visitors are invited to sign in or create an account first.
 */

export type AffiliateView = 'checking' | 'signed-out' | 'loading' | 'join' | 'member' | 'error';

export interface AffiliateState {
  view: AffiliateView;
  status: AffiliateStatus | null;
  /** The terms box, ticked or not. */
  acceptTerms: boolean;
  joining: boolean;
  /** The terms box's problem, shown beside it. */
  termsError: string;
  /** A problem with loading or joining as a whole. */
  message: string;
  /** Set once the visitor joined on this page, for the welcome line. */
  justJoined: boolean;
  /** Whether the link was just copied (the button says so). */
  copied: boolean;
}

const INITIAL: AffiliateState = {
  view: 'checking',
  status: null,
  acceptTerms: false,
  joining: false,
  termsError: '',
  message: '',
  justJoined: false,
  copied: false,
};

export const $affiliate = map<AffiliateState>({ ...INITIAL });

export const AFFILIATE_LOAD_FAILED_MESSAGE =
  'We could not read your affiliate account. Please reload the page to try again.';
export const AFFILIATE_JOIN_FAILED_MESSAGE =
  'We could not add you to the programme. Please try again in a moment.';

function problem(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return NETWORK_ERROR_MESSAGE;
    if (error.status < 500 && error.message !== '') return error.message;
  }
  return fallback;
}

/** Reads the signed-in account's place in the programme. */
export async function loadAffiliate(): Promise<void> {
  $affiliate.set({ ...$affiliate.get(), view: 'loading', message: '' });
  try {
    const status = await portal<AffiliateStatus>('affiliates/me');
    $affiliate.set({ ...$affiliate.get(), status, view: status.referralCode === null ? 'join' : 'member' });
  } catch (error) {
    $affiliate.set({
      ...$affiliate.get(),
      view: 'error',
      message: problem(error, AFFILIATE_LOAD_FAILED_MESSAGE),
    });
  }
}

/** Ticks or unticks the terms box. */
export function setAcceptTerms(accept: boolean): void {
  $affiliate.set({ ...$affiliate.get(), acceptTerms: accept, termsError: '' });
}

/** Joins the programme once the terms are accepted; the account gets its code at once. */
export async function joinProgramme(): Promise<void> {
  const state = $affiliate.get();
  if (state.joining) return;
  if (!state.acceptTerms) {
    $affiliate.set({ ...state, termsError: AFFILIATE_TERMS_MESSAGE });
    return;
  }
  $affiliate.set({ ...state, joining: true, termsError: '', message: '' });
  try {
    const status = await portal<AffiliateStatus>('affiliates/join', {
      method: 'POST',
      body: { acceptTerms: true },
    });
    if (status.referralCode !== null) $user.setKey('referralCode', status.referralCode);
    $affiliate.set({ ...$affiliate.get(), joining: false, status, view: 'member', justJoined: true });
  } catch (error) {
    $affiliate.set({
      ...$affiliate.get(),
      joining: false,
      message: problem(error, AFFILIATE_JOIN_FAILED_MESSAGE),
    });
  }
}

/** The account's referral link on this site, or '' before it has a code. */
export function currentReferralLink(): string {
  const code = $affiliate.get().status?.referralCode ?? null;
  return code === null || typeof location === 'undefined' ? '' : referralLink(location.origin, code);
}

/** Copies the referral link; the button says so for a moment. */
export async function copyReferralLink(): Promise<void> {
  const link = currentReferralLink();
  if (link === '') return;
  try {
    await navigator.clipboard.writeText(link);
    $affiliate.setKey('copied', true);
    setTimeout(() => {
      $affiliate.setKey('copied', false);
    }, 2000);
  } catch {
    // Clipboard refused (permissions): the link stays on screen to copy by hand.
  }
}

/**
 * Follows the session: signed out once it is confirmed so, and for a signed-in account its place
 * in the programme (read again when another account signs in). Returns the stop function.
 */
export function startAffiliate(): () => void {
  startSession();
  let loadedFor = '';
  const decide = (): void => {
    if (!$sessionChecked.get()) return;
    if (!$signedIn.get()) {
      loadedFor = '';
      $affiliate.set({ ...INITIAL, view: 'signed-out' });
      return;
    }
    const userId = $user.get().userid;
    if (userId === loadedFor) return;
    loadedFor = userId;
    $affiliate.set({ ...INITIAL, view: 'loading' });
    void loadAffiliate();
  };
  const stops = [$sessionChecked.subscribe(decide), $signedIn.subscribe(decide), $user.subscribe(decide)];
  return () => {
    for (const stop of stops) stop();
    $affiliate.set({ ...INITIAL });
  };
}
