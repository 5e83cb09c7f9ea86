import { computed, map } from 'nanostores';
import type { AccountKeys } from '../dashboard-data.ts';
import { ApiError, portal } from '../http.ts';
import type { PricePlan } from '../price-plans.ts';
import { $signedIn, showFlash } from './auth.ts';
import { mailboxAvailable } from './dev-mailbox.ts';
import { $pricing, loadPricePlans } from './pricing.ts';
import { $sessionChecked, revalidateSession, startSession } from './session.ts';
import { showSnackbar } from './snackbar.ts';
import { $subscription, loadSubscription, resetSubscription } from './subscription.ts';
import { $user } from './user.ts';

export const KEY_COPIED_MESSAGE = 'API key copied to the clipboard.';
export const COPY_REFUSED_MESSAGE =
  'Your browser did not let the page copy the key. Reveal it and copy it by hand instead.';
export const ALREADY_VERIFIED_MESSAGE = 'Your email address is already verified.';
export const STILL_UNVERIFIED_MESSAGE =
  'Your email address is not verified yet. Follow the link in the verification email, then check again.';
export const NOW_VERIFIED_MESSAGE = 'Thank you: your email address is verified and your API key is active.';

/** What a masked key shows before its last four characters; a fixed width, so it says nothing of the length. */
const MASK = '•'.repeat(16);

/** The key as dots and its last four characters, enough to tell keys apart without exposing one. */
export function maskApiKey(key: string): string {
  return key.length <= 4 ? MASK : `${MASK}${key.slice(-4)}`;
}

/** How long after signing up the dashboard still greets the account as new. */
const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;

/**
 * The dashboard's greeting: "Welcome" on the first day of an account, "Welcome back" after, so a
 * developer who has just signed up is not welcomed back to a place they have never been.
 */
export function greeting(name: string, createdAt: string, now: number = Date.now()): string {
  const created = Date.parse(createdAt);
  const isNew = Number.isFinite(created) && now - created < NEW_ACCOUNT_MS;
  return `${isNew ? 'Welcome' : 'Welcome back'}, ${name}`;
}

export function verificationSentMessage(email: string): string {
  return `We sent a verification email to ${email}. Follow the link in it, then choose “Check again”.`;
}

export type NoteType = 'info' | 'success' | 'error';

/** A replaced key still in its grace period: it answers calls until `expiresAt`, then stops. */
export interface ExpiringKey {
  last4: string;
  expiresAt: string;
}

/** The dashboard's own state; the account itself lives in the user store. */
export interface DashboardState {
  /** Whether the API key is shown in full rather than masked. */
  keyRevealed: boolean;
  /** A verification email is being requested. */
  sending: boolean;
  /** The session is being checked again for a verification made elsewhere. */
  checking: boolean;
  /** The outcome of the last resend or check, shown next to the buttons; '' when none. */
  note: string;
  noteType: NoteType;
  /** The site runs against the Auth emulator, so verification emails land in the local mailbox. */
  mailboxAvailable: boolean;
  /** The visitor arrived from a paid checkout (`?checkout=success`): the page says the plan is active. */
  checkoutSucceeded: boolean;
  /** Replaced keys that still work for a while, soonest to stop first; the key card warns of them. */
  expiringKeys: ExpiringKey[];
}

const INITIAL: DashboardState = {
  keyRevealed: false,
  sending: false,
  checking: false,
  note: '',
  noteType: 'info',
  mailboxAvailable: false,
  checkoutSucceeded: false,
  expiringKeys: [],
};

export const $dashboard = map<DashboardState>({ ...INITIAL });

/** What the dashboard shows: a skeleton until a signed-in session is confirmed, then the account. */
export type DashboardView =
  | { status: 'loading' }
  | {
      status: 'ready';
      /** The username, or the address for accounts without one. */
      name: string;
      /** "Welcome, …" on an account's first day, "Welcome back, …" after. */
      greeting: string;
      email: string;
      apiKey: string;
      maskedKey: string;
      emailVerified: boolean;
      /**
       * The key's state at a glance: it answers calls ('active') or waits for the address to be
       * verified ('unverified').
       */
      keyStatus: 'active' | 'unverified';
      /** Replaced keys still answering calls until they expire, soonest first. */
      expiringKeys: ExpiringKey[];
      planCode: string;
      isPremium: boolean;
      /** The plan as the catalogue describes it, or null while the catalogue is not loaded or lacks it. */
      plan: PricePlan | null;
      /** The catalogue's name of the plan, or its code when the catalogue cannot say. */
      planName: string;
    };

/**
 * The dashboard's view. Account data appears only once the server has confirmed the session on
 * this page view (or while the dashboard itself re-checks it), so a signed-out visitor, whom the
 * route guard sends away, never sees a stale stored account in the meantime.
 */
export const $dashboardView = computed(
  [$signedIn, $sessionChecked, $user, $pricing, $dashboard],
  (signedIn, checked, user, pricing, dashboard): DashboardView => {
    if (!signedIn || !user.authenticated || !(checked || dashboard.checking)) return { status: 'loading' };
    const plan = pricing.plans.find((candidate) => candidate.code === user.planCode) ?? null;
    const name = user.username.trim() || user.email;
    return {
      status: 'ready',
      name,
      greeting: greeting(name, user.createdAt),
      email: user.email,
      apiKey: user.apiKey,
      maskedKey: maskApiKey(user.apiKey),
      emailVerified: user.emailVerified,
      keyStatus: user.emailVerified ? 'active' : 'unverified',
      expiringKeys: dashboard.expiringKeys,
      planCode: user.planCode,
      isPremium: user.isPremium,
      plan,
      planName: plan?.name ?? user.planCode,
    };
  },
);

/** The query a paid checkout lands on the dashboard with. */
export const CHECKOUT_SUCCESS_PARAM = 'checkout';

/** What the dashboard says after a paid checkout, naming the plan now active. */
export function checkoutSuccessMessage(planName: string): string {
  return `Your subscription to ${planName} is active.`;
}

/**
 * Notices a paid checkout's landing once: the query is taken off the address, so reloading or
 * coming back later does not say it again.
 */
function takeCheckoutSuccess(): void {
  if (typeof window === 'undefined') return;
  const url = new URL(window.location.href);
  if (url.searchParams.get(CHECKOUT_SUCCESS_PARAM) !== 'success') return;
  url.searchParams.delete(CHECKOUT_SUCCESS_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  $dashboard.setKey('checkoutSucceeded', true);
}

let stopWatchingSession: (() => void) | undefined;

/**
 * Reads which replaced keys still work, so the key card can say when they stop. The API keys page
 * owns the keys; a failure here leaves the card without the warning rather than with an error.
 */
export async function loadExpiringKeys(
  request: () => Promise<AccountKeys> = () => portal<AccountKeys>('user/api-keys'),
): Promise<void> {
  try {
    const { keys } = await request();
    const expiring = keys
      .filter((key): key is typeof key & { expiresAt: string } => key.expiresAt !== null)
      .filter((key) => Date.parse(key.expiresAt) > Date.now())
      .map((key) => ({ last4: key.last4, expiresAt: key.expiresAt }))
      .sort((a, b) => Date.parse(a.expiresAt) - Date.parse(b.expiresAt));
    $dashboard.setKey('expiringKeys', expiring);
  } catch {
    $dashboard.setKey('expiringKeys', []);
  }
}

/**
 * Starts what the dashboard needs: the session check (shared with every island), the plan
 * catalogue for the plan's name, whether the local mailbox exists, the subscription and the
 * replaced keys still in their grace period.
 */
export function startDashboard(): void {
  takeCheckoutSuccess();
  startSession();
  if ($pricing.get().plans.length === 0) void loadPricePlans();
  void mailboxAvailable().then((available) => {
    $dashboard.setKey('mailboxAvailable', available);
  });
  stopWatchingSession?.();
  // The subscription and the keys are read once the session is confirmed (the calls need the signed-in token).
  let keysRead = false;
  stopWatchingSession = $sessionChecked.subscribe((checked) => {
    if (!checked || !$signedIn.get()) return;
    if (!$subscription.get().loaded) void loadSubscription();
    if (!keysRead) {
      keysRead = true;
      void loadExpiringKeys();
    }
  });
}

/** Forgets what was revealed and said, so a later visit starts masked and quiet. */
export function resetDashboard(): void {
  stopWatchingSession?.();
  stopWatchingSession = undefined;
  resetSubscription();
  $dashboard.set({ ...INITIAL, mailboxAvailable: $dashboard.get().mailboxAvailable });
}

export function toggleKeyReveal(): void {
  $dashboard.setKey('keyRevealed', !$dashboard.get().keyRevealed);
}

/** The page's clipboard, absent outside secure pages and in old browsers. */
function browserClipboard(): Pick<Clipboard, 'writeText'> | undefined {
  if (typeof navigator === 'undefined') return undefined;
  const { clipboard } = navigator as { clipboard?: Clipboard };
  return clipboard;
}

/**
 * Copies the API key and confirms with a snackbar. Browsers may refuse (no permission, an insecure
 * page, no Clipboard API at all); then the snackbar says so and how to copy it by hand.
 */
export async function copyApiKey(
  clipboard: Pick<Clipboard, 'writeText'> | undefined = browserClipboard(),
): Promise<void> {
  const key = $user.get().apiKey;
  if (key === '') return;
  try {
    if (clipboard === undefined) throw new Error('The Clipboard API is not available');
    await clipboard.writeText(key);
    showSnackbar(KEY_COPIED_MESSAGE, { type: 'success' });
  } catch {
    showSnackbar(COPY_REFUSED_MESSAGE, { type: 'error' });
  }
}

function note(text: string, noteType: NoteType): void {
  $dashboard.set({ ...$dashboard.get(), note: text, noteType });
}

/**
 * Asks the accounts API to mail a new verification link. An address verified meanwhile answers
 * 409: the session is then checked again so the dashboard shows the active key. Other refusals
 * (rate limit, provider down) are shown in the server's words, inline and as an error flash.
 */
export async function resendVerificationEmail(): Promise<void> {
  if ($dashboard.get().sending) return;
  $dashboard.set({ ...$dashboard.get(), sending: true, note: '' });
  try {
    const answer = await portal<{ sent: boolean; email?: string }>('user/send-verification-email', {
      method: 'POST',
      body: {},
    });
    note(verificationSentMessage(answer.email ?? $user.get().email), 'success');
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      note(ALREADY_VERIFIED_MESSAGE, 'success');
      await checkVerification();
      return;
    }
    const message = error instanceof ApiError ? error.message : String(error);
    note(message, 'error');
    showFlash(message);
  } finally {
    $dashboard.setKey('sending', false);
  }
}

/**
 * Checks the session again after the reader says the link was followed: the server asks the
 * identity provider and answers the account's current state, which the user store takes over.
 */
export async function checkVerification(): Promise<void> {
  if ($dashboard.get().checking) return;
  $dashboard.setKey('checking', true);
  try {
    await revalidateSession();
  } finally {
    $dashboard.setKey('checking', false);
  }
  if ($user.get().emailVerified) note(NOW_VERIFIED_MESSAGE, 'success');
  else note(STILL_UNVERIFIED_MESSAGE, 'info');
}
