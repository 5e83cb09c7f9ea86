import { navigate } from 'astro:transitions/client';
import type { User } from 'firebase/auth';
import { map } from 'nanostores';
import { pushSignUpEvent, type SignUpCategory } from '../analytics.ts';
import { NEW_REGISTRATION_COOKIE, NEW_REGISTRATION_EXPIRES_DAYS, setCookie } from '../cookies.ts';
import { getClientAuth } from '../firebase.ts';
import { ApiError, answerText, appServer, portal } from '../http.ts';
import {
  AGREEMENT_MESSAGE,
  CREATE_USER_FAILED_MESSAGE,
  EMAIL_MESSAGE,
  FILL_ALL_FIELDS_MESSAGE,
  SIGN_UP_SUCCESS_MESSAGE,
  USER_EXISTS_MESSAGE,
  WEAK_PASSWORD_MESSAGE,
} from '../messages.ts';
import { AUTH_LINKS, isPricingPage } from '../routes.ts';
import type { SignupAnswers } from '../signup-questions.ts';
import { campaignFor } from '../utms.ts';
import { $auth, openAuthPopup, showFlash, signedIn } from './auth.ts';
import { $questionnaire, isComplete, protectLeaving, resetQuestionnaire } from './questionnaire.ts';
import { logout, type SessionAnswer } from './session.ts';
import { NEW_REGISTRATION_STORAGE_KEY, setSignInField } from './sign-in.ts';
import {
  socialSignInMessage,
  usesAuthEmulator,
  validatedGoogleSignIn,
  type SocialSignInAnswer,
  type ValidatedGoogleSignIn,
} from './social-sign-in.ts';

/** SPEC §2, questionnaire: the views while the key is prepared and once it is. */
export const PREPARING_KEY_MESSAGE =
  'We are preparing your API key, which will be ready in just a few seconds....';
export const KEY_GENERATED_MESSAGE =
  'The API Key has been generated! A verification email has been sent to your account to activate the key.';

/**
 * SPEC §9: the fresh account's session ends this long after it began, so the visitor signs in
 * again once the address is verified and the key works…
 */
export const SIGN_OUT_DELAY_MS = 4000;
/** …and a sign-up pop-up turns into the sign-in form this long after that. */
export const POPUP_SWITCH_DELAY_MS = 1000;

/** The page at /register, or the sign-up view of the auth pop-up. */
export type SignUpVariant = 'page' | 'popup';
/** The form, the questionnaire, the key being prepared, the key generated (SPEC §2, §4). */
export type SignUpPhase = 'form' | 'questionnaire' | 'preparing' | 'done';
export type SignUpMethod = 'password' | 'google';

/** The sign-up flow on screen. */
export interface SignUpState {
  /**
   * The form running the flow: the page and the pop-up share this store (a pop-up can open over
   * /register), and each shows the flow only when it started there.
   */
  variant: SignUpVariant;
  phase: SignUpPhase;
  /** A check or call is under way; the form's buttons wait for it. */
  loading: boolean;
  method: SignUpMethod;
  /** The address being registered, e.g. to prefill the sign-in form afterwards. */
  email: string;
  /** The last problem, shown next to the form as well as in the error flash. */
  message: string;
  /** The local Google sign-up asks which Google account to use, the emulator having no window. */
  askingGoogleEmail: boolean;
}

const IDLE: SignUpState = {
  variant: 'page',
  phase: 'form',
  loading: false,
  method: 'password',
  email: '',
  message: '',
  askingGoogleEmail: false,
};

export const $signUp = map<SignUpState>({ ...IDLE });

/** What the visitor typed into the sign-up form (SPEC §3, sign-up input). */
export interface SignUpInput {
  email: string;
  password: string;
  agreement: boolean;
}

/**
 * The identity being registered, kept out of the store: the password must survive the
 * questionnaire but never be exposed to anything that reads the stores.
 */
type Pending =
  | { kind: 'password'; variant: SignUpVariant; email: string; password: string }
  | { kind: 'social'; variant: SignUpVariant; email: string; idToken: string; session: SocialSignInAnswer };

let pending: Pending | undefined;

/**
 * The first problem with the form before anything is sent (SPEC §5), in this order: the
 * agreement, then empty fields. Undefined when the server may check the rest.
 */
export function signUpProblem(input: SignUpInput): string | undefined {
  if (!input.agreement) return AGREEMENT_MESSAGE;
  if (input.email.trim() === '' || input.password === '') return FILL_ALL_FIELDS_MESSAGE;
  return undefined;
}

/**
 * What a refused validate-email call tells the visitor (SPEC §5): the server's text, else the
 * invalid-address message. A server that could not be reached at all is said to be unreachable
 * instead, since blaming the address would send the visitor looking for a typo that is not there.
 */
export function validateEmailMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return error.message;
    return answerText(error.data) ?? EMAIL_MESSAGE;
  }
  return EMAIL_MESSAGE;
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : '';
}

/** SPEC §8: the identity provider's account-creation codes in the spec's words. */
export function createUserMessage(error: unknown): string {
  switch (errorCode(error)) {
    case 'auth/email-already-in-use':
      return USER_EXISTS_MESSAGE;
    case 'auth/weak-password':
      return WEAK_PASSWORD_MESSAGE;
    default:
      return CREATE_USER_FAILED_MESSAGE;
  }
}

/** What a refused registration call tells the visitor: the server's words, else the generic failure. */
export function registerMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : CREATE_USER_FAILED_MESSAGE;
}

/** Pricing pages register straight away: the visitor is on the way to buying, not exploring. */
function onPricingPage(): boolean {
  return typeof location !== 'undefined' && isPricingPage(location.pathname);
}

function categoryOf(variant: SignUpVariant): SignUpCategory {
  return variant === 'popup' ? 'Popup' : 'Page';
}

/** Whether a sign-up is under way, so a second click starts nothing. */
function busy(): boolean {
  const { loading, phase } = $signUp.get();
  return loading || phase === 'preparing';
}

/** Every error is an error flash (SPEC §8) and is also shown next to the form it belongs to. */
function fail(variant: SignUpVariant, message: string): void {
  protectLeaving(false);
  pending = undefined;
  $signUp.set({
    ...$signUp.get(),
    variant,
    phase: 'form',
    loading: false,
    message,
    askingGoogleEmail: false,
  });
  showFlash(message);
}

function openQuestionnaire(): void {
  resetQuestionnaire();
  $signUp.set({ ...$signUp.get(), phase: 'questionnaire', loading: false, message: '' });
  protectLeaving(true);
}

/**
 * Submits the sign-up form (SPEC §4 step 1-2): the agreement and the fields are checked, then the
 * server validates the address and password; then the questionnaire opens, or on a pricing page
 * the account is registered straight away. Resolves when that next step is on screen.
 */
export async function submitSignUp(variant: SignUpVariant, input: SignUpInput): Promise<void> {
  if (busy()) return;
  const problem = signUpProblem(input);
  if (problem !== undefined) {
    fail(variant, problem);
    return;
  }
  const email = input.email.trim();
  $signUp.set({ ...IDLE, variant, loading: true, method: 'password', email });
  let valid: unknown;
  try {
    valid = await portal<unknown>('auth/validate-email', { body: { email, password: input.password } });
  } catch (error) {
    fail(variant, validateEmailMessage(error));
    return;
  }
  if (valid !== true) {
    fail(variant, answerText(valid) ?? EMAIL_MESSAGE);
    return;
  }
  pending = { kind: 'password', variant, email, password: input.password };
  if (onPricingPage()) {
    await register(undefined);
    return;
  }
  openQuestionnaire();
}

/**
 * The questionnaire's Submit (SPEC §4 step 3): registers with the answers, once every question has
 * one. Resolves when the registration has finished or failed.
 */
export async function submitQuestionnaire(): Promise<void> {
  const { answers } = $questionnaire.get();
  if (busy() || $signUp.get().phase !== 'questionnaire' || !isComplete(answers)) return;
  await register({ ...answers });
}

async function register(survey: SignupAnswers | undefined): Promise<void> {
  const flow = pending;
  if (!flow) return;
  $signUp.set({ ...$signUp.get(), phase: 'preparing', loading: true, message: '' });
  if (flow.kind === 'password') await registerWithPassword(flow, survey);
  else await registerSocial(flow, survey);
}

/**
 * Creates the identity in the browser, then the account with its API key, survey and campaign
 * (SPEC §4 step 3-4). An identity whose account could not be created is removed again, so the
 * visitor can simply try again rather than being told the address is taken.
 */
async function registerWithPassword(
  flow: Extract<Pending, { kind: 'password' }>,
  survey: SignupAnswers | undefined,
): Promise<void> {
  const { variant, email, password } = flow;
  let user: User;
  let sdk: typeof import('firebase/auth');
  try {
    const [auth, loaded] = await Promise.all([getClientAuth(), import('firebase/auth')]);
    sdk = loaded;
    user = (await sdk.createUserWithEmailAndPassword(auth, email, password)).user;
  } catch (error) {
    fail(variant, createUserMessage(error));
    return;
  }
  try {
    const idToken = await user.getIdToken();
    const campaign = campaignFor(email);
    await portal('user/register-user', {
      body: {
        email,
        idToken,
        agreement: true,
        ...(survey === undefined ? {} : { survey }),
        ...(campaign === undefined ? {} : { campaign }),
      },
    });
  } catch (error) {
    await sdk.deleteUser(user).catch(() => undefined);
    fail(variant, registerMessage(error));
    return;
  }
  try {
    await sdk.sendEmailVerification(user);
  } catch (error) {
    // The account stands; the dashboard offers to send the verification email again.
    console.error('The verification email could not be sent', error);
  }
  pending = undefined;
  protectLeaving(false);
  showFlash(SIGN_UP_SUCCESS_MESSAGE, 'success');
  $signUp.set({ ...$signUp.get(), phase: 'done', loading: false });
  const token = await signInOnce(variant, email, password);
  setTimeout(() => {
    void afterRegistration(variant, email, token);
  }, SIGN_OUT_DELAY_MS);
}

/**
 * Signs the new account in at once (SPEC §4 step 4); the access token, or undefined if refused.
 * Signing in closes the auth pop-up, yet the visitor should still see the key generated there: it
 * is reopened in the same tick, so the dialog never renders closed in between.
 */
async function signInOnce(
  variant: SignUpVariant,
  email: string,
  password: string,
): Promise<string | undefined> {
  try {
    const answer = await appServer<SessionAnswer>('auth/signin', {
      body: { login: email, password },
      refreshOn403: false,
    });
    const popup = $auth.get().authPopup;
    signedIn(answer.accessToken, answer);
    if (variant === 'popup' && popup !== false) openAuthPopup(popup);
    return answer.accessToken;
  } catch (error) {
    // The account exists; the visitor signs in with the Log In button instead.
    console.error('Signing in the new account failed', error);
    return undefined;
  }
}

/**
 * The end of a registration (SPEC §4 step 4): the short session ends (unless the visitor has since
 * signed in some other way), the new_registration marks are set for the sign-in form, the
 * registration is counted, and a pop-up turns into the sign-in form a second later.
 */
async function afterRegistration(
  variant: SignUpVariant,
  email: string,
  token: string | undefined,
): Promise<void> {
  if (token !== undefined && $auth.get().accessToken === token) await logout();
  setCookie(NEW_REGISTRATION_COOKIE, 'true', { expires: NEW_REGISTRATION_EXPIRES_DAYS });
  try {
    sessionStorage.setItem(NEW_REGISTRATION_STORAGE_KEY, 'true');
  } catch {
    // Storage may be unavailable (private modes); the cookie carries the same fact.
  }
  pushSignUpEvent('Email', categoryOf(variant));
  if (variant !== 'popup') return;
  setTimeout(() => {
    const { phase, variant: current } = $signUp.get();
    const stillShown = phase === 'done' && current === 'popup';
    if (stillShown) $signUp.set({ ...IDLE, variant: 'popup' });
    if (stillShown && $auth.get().authPopup !== false) {
      setSignInField('popup', 'login', email);
      openAuthPopup(1);
    }
  }, POPUP_SWITCH_DELAY_MS);
}

/**
 * The Google button of the sign-up form (SPEC §4, social sign-up). The agreement must be ticked
 * (SPEC §5). Against the local Auth emulator it first asks which Google account to use; otherwise
 * Google's window opens at once.
 */
export async function startGoogleSignUp(variant: SignUpVariant, agreement: boolean): Promise<void> {
  if (busy()) return;
  if (!agreement) {
    fail(variant, AGREEMENT_MESSAGE);
    return;
  }
  $signUp.set({ ...IDLE, variant, loading: true, method: 'google' });
  let emulator: boolean;
  try {
    emulator = await usesAuthEmulator();
  } catch (error) {
    fail(variant, socialSignInMessage(error));
    return;
  }
  if (emulator) {
    $signUp.set({ ...$signUp.get(), loading: false, askingGoogleEmail: true });
    return;
  }
  await continueWithGoogle(variant, agreement);
}

/** Leaves the local Google sign-up without signing up. */
export function cancelGoogleSignUp(): void {
  if (busy()) return;
  $signUp.set({ ...$signUp.get(), askingGoogleEmail: false, message: '' });
}

/**
 * Signs up with Google (SPEC §4, social sign-up): the identity provider's ID token is exchanged for
 * a session (validate-user, which creates the account on its first visit), and the sign-up goes on
 * from there (see {@link continueGoogleSignUp}). `emailForEmulator` names the Google account against
 * the local Auth emulator.
 */
export async function continueWithGoogle(
  variant: SignUpVariant,
  agreement: boolean,
  emailForEmulator?: string,
): Promise<void> {
  if (!agreement) {
    fail(variant, AGREEMENT_MESSAGE);
    return;
  }
  $signUp.set({ ...$signUp.get(), variant, loading: true, method: 'google', message: '' });
  let google: ValidatedGoogleSignIn;
  try {
    google = await validatedGoogleSignIn(emailForEmulator);
  } catch (error) {
    fail(variant, socialSignInMessage(error));
    return;
  }
  await continueGoogleSignUp(variant, google);
}

/**
 * Takes over a Google sign-in from the sign-in form when the account has not finished signing up:
 * the questionnaire follows the social sign-up whenever the survey is not on record (SPEC §2), a
 * Google account seen for the first time being the usual case. The sign-up then goes on as from its
 * own form, in the same place (the /login page, or the pop-up, which turns to its sign-up view).
 * Resolves false, having changed nothing, when the survey is on record: the caller signs in.
 */
export async function continueUnfinishedGoogleSignUp(
  variant: SignUpVariant,
  google: ValidatedGoogleSignIn,
): Promise<boolean> {
  if (await surveyOnRecord(google.email, google.session.accessToken)) return false;
  await continueGoogleSignUp(variant, google, false);
  return true;
}

/**
 * The social sign-up after validate-user (SPEC §4): a new account has its campaign saved and the
 * registration counted; then the questionnaire opens unless the survey is on record (asked here
 * unless `knownSurveyOnRecord` already says) or the visitor is on a pricing page, in which case the
 * sign-up finishes at once. A pop-up shows the questionnaire in its sign-up view.
 */
async function continueGoogleSignUp(
  variant: SignUpVariant,
  { idToken, providerId, session, email }: ValidatedGoogleSignIn,
  knownSurveyOnRecord?: boolean,
): Promise<void> {
  $signUp.set({ ...IDLE, variant, loading: true, method: 'google', email });
  if (session.isNewUser === true) {
    await saveCampaign(email);
    pushSignUpEvent(providerId, categoryOf(variant));
  }
  if (onPricingPage() || (knownSurveyOnRecord ?? (await surveyOnRecord(email, session.accessToken)))) {
    await finishSocial(variant, session);
    return;
  }
  pending = { kind: 'social', variant, email, idToken, session };
  openQuestionnaire();
  // Same tick as the questionnaire, so the view it takes focus in is the one on screen.
  if (variant === 'popup' && $auth.get().authPopup !== false) openAuthPopup(2);
}

/** SPEC §7 save-campaign, skipped per SPEC §5; a failure is only logged, the sign-up goes on. */
async function saveCampaign(email: string): Promise<void> {
  const campaign = campaignFor(email);
  if (campaign === undefined) return;
  try {
    await portal('user/save-campaign', { body: { campaign } });
  } catch (error) {
    console.error('The campaign could not be saved', error);
  }
}

/**
 * Whether the questionnaire was already answered for the address (SPEC §7 get-survey: an `email`
 * field means it was). The server answers only the owner of the address, so the new session's
 * access token goes with the call (the session is stored only when the sign-up finishes). When the
 * check fails the visitor is not held up: the questionnaire is optional for an existing account.
 */
async function surveyOnRecord(email: string, accessToken: string): Promise<boolean> {
  try {
    const answer = await portal<Record<string, unknown>>('account/get-survey', {
      query: { email, type: 'signup' },
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    return typeof answer === 'object' && 'email' in answer;
  } catch (error) {
    console.error('The questionnaire record could not be checked', error);
    return true;
  }
}

/** A current ID token of the signed-in Google identity: the one from sign-in may have expired since. */
async function freshIdToken(flow: Extract<Pending, { kind: 'social' }>): Promise<string> {
  try {
    const user = (await getClientAuth()).currentUser;
    if (user?.email?.toLowerCase() === flow.email.toLowerCase()) return await user.getIdToken();
  } catch {
    // The token from sign-in is the fallback.
  }
  return flow.idToken;
}

/** Records the questionnaire of a Google account (register-user with its ID token), then finishes. */
async function registerSocial(
  flow: Extract<Pending, { kind: 'social' }>,
  survey: SignupAnswers | undefined,
): Promise<void> {
  try {
    await portal('user/register-user', {
      body: {
        email: flow.email,
        idToken: await freshIdToken(flow),
        agreement: true,
        ...(survey === undefined ? {} : { survey }),
      },
    });
  } catch (error) {
    $signUp.set({ ...$signUp.get(), phase: 'questionnaire', loading: false });
    showFlash(registerMessage(error));
    return;
  }
  await finishSocial(flow.variant, flow.session);
}

/**
 * A finished social sign-up: the session is stored (which closes a pop-up) and the page sends the
 * visitor to the dashboard (SPEC §4).
 */
async function finishSocial(variant: SignUpVariant, session: SocialSignInAnswer): Promise<void> {
  pending = undefined;
  protectLeaving(false);
  signedIn(session.accessToken, session);
  $signUp.set({ ...IDLE, variant });
  if (variant !== 'page' || onPricingPage()) return;
  try {
    await navigate(AUTH_LINKS.dashboard);
  } catch {
    location.assign(AUTH_LINKS.dashboard);
  }
}

/**
 * Ends the flow of one form, e.g. when the visitor leaves the page: what was typed and answered
 * is forgotten and leaving is no longer guarded. A registration under way is left to finish, and
 * the timed end of a finished one still runs.
 */
export function resetSignUp(variant: SignUpVariant): void {
  const state = $signUp.get();
  if (state.variant !== variant || state.phase === 'preparing') return;
  if (pending?.variant === variant) pending = undefined;
  protectLeaving(false);
  resetQuestionnaire();
  $signUp.set({ ...IDLE, variant });
}

/**
 * The pop-up's way to the sign-in form: switches the view, with the address of this sign-up
 * already in the login field.
 */
export function switchToSignIn(email: string): void {
  if (email.trim() !== '') setSignInField('popup', 'login', email.trim());
  openAuthPopup(1);
}

/**
 * Takes the sign-up page's query (SPEC §2): `error` is shown as an error flash; the `email` to
 * prefill the email field with is returned ('' when there is none).
 */
export function applySignUpQuery(search: string): string {
  const params = new URLSearchParams(search);
  const error = params.get('error')?.trim();
  if (error) showFlash(error);
  return params.get('email')?.trim() ?? '';
}
