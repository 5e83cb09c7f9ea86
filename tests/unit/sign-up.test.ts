/**
 * The sign-up stores without a browser. Only the network and the identity provider are replaced
 * here (the accounts API client's portal and appServer calls, the Firebase Auth instance and SDK
 * functions, and Astro's client navigation); the stores, the questionnaire, cookies, session
 * storage handling and the analytics push run for real. The end-to-end stories in
 * tests/e2e/sign-up.spec.ts run the same flows against the real server and Auth emulator.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../src/lib/http.ts';
import {
  AGREEMENT_MESSAGE,
  CREATE_USER_FAILED_MESSAGE,
  SIGN_UP_SUCCESS_MESSAGE,
  USER_EXISTS_MESSAGE,
  WEAK_PASSWORD_MESSAGE,
} from '../../src/lib/messages.ts';
import { SIGNUP_QUESTIONS } from '../../src/lib/signup-questions.ts';
import { $auth, clearFlash, PUBLIC_TOKEN } from '../../src/lib/stores/auth.ts';
import {
  $questionnaire,
  chooseAnswer,
  isProtectingLeave,
  resetQuestionnaire,
} from '../../src/lib/stores/questionnaire.ts';
import { startGoogleSignIn, submitGoogleEmail } from '../../src/lib/stores/google-sign-in.ts';
import { $signIn } from '../../src/lib/stores/sign-in.ts';
import {
  $signUp,
  applySignUpQuery,
  continueWithGoogle,
  createUserMessage,
  POPUP_SWITCH_DELAY_MS,
  resetSignUp,
  SIGN_OUT_DELAY_MS,
  signUpProblem,
  startGoogleSignUp,
  submitQuestionnaire,
  submitSignUp,
  validateEmailMessage,
  type SignUpVariant,
} from '../../src/lib/stores/sign-up.ts';
import { clearUser } from '../../src/lib/stores/user.ts';
import { campaignFor, captureUtms, readUtms, UTM_STORAGE_KEY, type UtmStorage } from '../../src/lib/utms.ts';

const network = vi.hoisted(() => ({
  portal: vi.fn<(path: string, request?: Record<string, unknown>) => Promise<unknown>>(),
  appServer: vi.fn<(path: string, request?: Record<string, unknown>) => Promise<unknown>>(),
}));

const identity = vi.hoisted(() => {
  const user = {
    email: 'new@example.com',
    getIdToken: vi.fn(() => Promise.resolve('firebase-id-token')),
  };
  return {
    user,
    auth: { emulatorConfig: null as null | { url: string }, currentUser: null },
    createUserWithEmailAndPassword: vi.fn<(...args: unknown[]) => Promise<{ user: typeof user }>>(),
    sendEmailVerification: vi.fn<(...args: unknown[]) => Promise<void>>(),
    deleteUser: vi.fn<(...args: unknown[]) => Promise<void>>(),
    signInWithCredential: vi.fn<(...args: unknown[]) => Promise<{ user: typeof user }>>(),
    signInWithPopup: vi.fn<(...args: unknown[]) => Promise<{ user: typeof user }>>(),
    navigate: vi.fn<(path: string) => Promise<void>>(),
  };
});

vi.mock('../../src/lib/http.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/lib/http.ts')>()),
  portal: network.portal,
  appServer: network.appServer,
}));

vi.mock('../../src/lib/firebase.ts', () => ({
  getClientAuth: () => Promise.resolve(identity.auth),
}));

vi.mock('firebase/auth', () => ({
  createUserWithEmailAndPassword: identity.createUserWithEmailAndPassword,
  sendEmailVerification: identity.sendEmailVerification,
  deleteUser: identity.deleteUser,
  signInWithCredential: identity.signInWithCredential,
  signInWithPopup: identity.signInWithPopup,
  getAdditionalUserInfo: () => ({ isNewUser: true }),
  // Constructed for the popup; the emulator path only calls the static credential().
  GoogleAuthProvider: Object.assign(vi.fn(), { credential: (idToken: string) => ({ idToken }) }),
}));

vi.mock('astro:transitions/client', () => ({ navigate: identity.navigate }));

const EMAIL = 'new@example.com';
const PASSWORD = 'correct-horse-42';
const ANSWERS = Object.fromEntries(SIGNUP_QUESTIONS.map(({ question, options }) => [question, options[0]]));
const SESSION = { accessToken: 'access-new', userid: 'u1', username: 'newbie', email: EMAIL };

/** A session storage that lives in memory, as the browser's does for one tab. */
function memoryStorage(): UtmStorage & { removeItem: (key: string) => void; clear: () => void } {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
    },
    clear: () => {
      items.clear();
    },
  };
}

const INITIAL_AUTH = $auth.get();
let storage: ReturnType<typeof memoryStorage>;
let page: { pathname: string; search: string; origin: string; assign: ReturnType<typeof vi.fn> };
let dataLayer: unknown[];

/** Routes the portal calls of a scenario to answers; anything unlisted is a test failure. */
function portalAnswers(
  answers: Record<string, (request?: Record<string, unknown>) => Promise<unknown>>,
): void {
  network.portal.mockImplementation((path, request) => {
    const answer = answers[path];
    if (!answer) return Promise.reject(new Error(`unexpected portal call ${path}`));
    return answer(request);
  });
}

/** The request body or query a mocked call received, for the first call to `path`. */
function requestOf(path: string): Record<string, unknown> | undefined {
  return network.portal.mock.calls.find(([called]) => called === path)?.[1];
}

function portalPaths(): string[] {
  return network.portal.mock.calls.map(([path]) => path);
}

/** Answers the questionnaire with the first option of every question. */
function answerAll(): void {
  for (const { options } of SIGNUP_QUESTIONS) chooseAnswer(options[0]);
}

/** The standard happy path of the portal for an e-mail sign-up. */
function acceptingPortal(): void {
  portalAnswers({
    'auth/validate-email': () => Promise.resolve(true),
    'user/register-user': () => Promise.resolve({ success: true, userid: 'u1', username: 'newbie' }),
    'auth/log-out': () => Promise.resolve({ success: true }),
  });
  network.appServer.mockImplementation((path) =>
    path === 'auth/signin' ? Promise.resolve(SESSION) : Promise.resolve({ success: true }),
  );
}

async function signUpThroughQuestionnaire(variant: SignUpVariant): Promise<void> {
  await submitSignUp(variant, { email: EMAIL, password: PASSWORD, agreement: true });
  answerAll();
  await submitQuestionnaire();
}

beforeEach(() => {
  vi.useFakeTimers();
  storage = memoryStorage();
  dataLayer = [];
  page = { pathname: '/register', search: '', origin: 'http://localhost:4321', assign: vi.fn() };
  vi.stubGlobal('sessionStorage', storage);
  vi.stubGlobal('location', page);
  vi.stubGlobal('window', Object.assign(new EventTarget(), { confirm: vi.fn(() => true), dataLayer }));
  vi.stubGlobal('document', Object.assign(new EventTarget(), { cookie: '' }));
  vi.stubGlobal('console', { ...console, error: vi.fn() });
  $auth.set({ ...INITIAL_AUTH });
  clearUser();
  resetSignUp('page');
  resetSignUp('popup');
  resetQuestionnaire();
  network.portal.mockReset();
  network.appServer.mockReset();
  identity.auth.emulatorConfig = null;
  identity.createUserWithEmailAndPassword.mockReset().mockResolvedValue({ user: identity.user });
  identity.sendEmailVerification.mockReset().mockResolvedValue(undefined);
  identity.deleteUser.mockReset().mockResolvedValue(undefined);
  identity.signInWithCredential.mockReset().mockResolvedValue({ user: identity.user });
  identity.signInWithPopup.mockReset().mockResolvedValue({ user: identity.user });
  identity.navigate.mockReset().mockResolvedValue(undefined);
});

afterEach(async () => {
  // Let any timed end of a registration run out before the next test starts.
  await vi.runAllTimersAsync();
  clearFlash();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('sign-up form checks', () => {
  it('check the agreement first, then that both fields are filled', () => {
    expect(signUpProblem({ email: '', password: '', agreement: false })).toBe(AGREEMENT_MESSAGE);
    expect(signUpProblem({ email: '  ', password: PASSWORD, agreement: true })).toBe(
      'Please fill all the fields.',
    );
    expect(signUpProblem({ email: EMAIL, password: '', agreement: true })).toBe(
      'Please fill all the fields.',
    );
    expect(signUpProblem({ email: EMAIL, password: PASSWORD, agreement: true })).toBeUndefined();
    expect(AGREEMENT_MESSAGE).toBe(
      'Please agree to the terms and conditions & privacy policy before proceeding.',
    );
  });

  it('show an unticked agreement as an error flash without asking the server', async () => {
    await submitSignUp('page', { email: EMAIL, password: PASSWORD, agreement: false });
    expect($auth.get().flashMessage).toEqual({ type: 'error', text: AGREEMENT_MESSAGE });
    expect($signUp.get()).toMatchObject({ phase: 'form', loading: false, message: AGREEMENT_MESSAGE });
    expect(network.portal).not.toHaveBeenCalled();
  });

  it('show empty fields as an error flash without asking the server', async () => {
    await submitSignUp('page', { email: EMAIL, password: '', agreement: true });
    expect($auth.get().flashMessage?.text).toBe('Please fill all the fields.');
    expect(network.portal).not.toHaveBeenCalled();
  });

  it('send the trimmed address and the password to the server for validation', async () => {
    acceptingPortal();
    await submitSignUp('page', { email: `  ${EMAIL} `, password: PASSWORD, agreement: true });
    expect(requestOf('auth/validate-email')).toEqual({ body: { email: EMAIL, password: PASSWORD } });
  });

  it("show the server's text when it refuses the address or password", async () => {
    portalAnswers({
      'auth/validate-email': () =>
        Promise.reject(new ApiError(400, USER_EXISTS_MESSAGE, 'User already exists.')),
    });
    await submitSignUp('page', { email: EMAIL, password: PASSWORD, agreement: true });
    expect($auth.get().flashMessage?.text).toBe('User already exists.');
    expect($signUp.get().phase).toBe('form');
  });

  it('say the address is invalid when the server answers anything but true without a text', async () => {
    portalAnswers({ 'auth/validate-email': () => Promise.resolve(false) });
    await submitSignUp('page', { email: EMAIL, password: PASSWORD, agreement: true });
    expect($auth.get().flashMessage?.text).toBe('Please enter a valid email address.');
  });

  it('say the address is invalid when the call fails without a text', async () => {
    portalAnswers({
      'auth/validate-email': () => Promise.reject(new ApiError(500, NETWORK_ERROR_MESSAGE, undefined)),
    });
    await submitSignUp('page', { email: EMAIL, password: PASSWORD, agreement: true });
    expect($auth.get().flashMessage?.text).toBe('Please enter a valid email address.');
  });

  it('say the server is unreachable rather than blame the address when it cannot be reached', () => {
    expect(validateEmailMessage(new ApiError(0, NETWORK_ERROR_MESSAGE, undefined))).toBe(
      NETWORK_ERROR_MESSAGE,
    );
    expect(validateEmailMessage(new Error('boom'))).toBe('Please enter a valid email address.');
  });

  it('open the questionnaire, guarded against leaving, once the server accepts', async () => {
    acceptingPortal();
    chooseAnswer(SIGNUP_QUESTIONS[0].options[1]);
    await submitSignUp('page', { email: EMAIL, password: PASSWORD, agreement: true });
    expect($signUp.get()).toMatchObject({ phase: 'questionnaire', loading: false, variant: 'page' });
    expect($questionnaire.get()).toEqual({ step: 0, furthest: 0, answers: {} });
    expect(isProtectingLeave()).toBe(true);
  });

  it('register at once, without the questionnaire, on a pricing page', async () => {
    acceptingPortal();
    page.pathname = '/developer/docs/pricing';
    await submitSignUp('popup', { email: EMAIL, password: PASSWORD, agreement: true });
    expect($signUp.get().phase).toBe('done');
    expect(requestOf('user/register-user')?.body).not.toHaveProperty('survey');
  });

  it('take the page query: error as an error flash, email to prefill', () => {
    expect(applySignUpQuery('?email=ann%40example.com&error=Link%20expired')).toBe('ann@example.com');
    expect($auth.get().flashMessage).toEqual({ type: 'error', text: 'Link expired' });
    expect(applySignUpQuery('')).toBe('');
  });
});

describe('account creation errors', () => {
  it("are the identity provider's codes in the spec's words", () => {
    expect(createUserMessage({ code: 'auth/email-already-in-use' })).toBe('User already exists.');
    expect(createUserMessage({ code: 'auth/weak-password' })).toBe(
      'Password should be at least 6 characters.',
    );
    expect(createUserMessage({ code: 'auth/network-request-failed' })).toBe(
      'Create user failed! Please try again later.',
    );
    expect(createUserMessage(new Error('no code'))).toBe(CREATE_USER_FAILED_MESSAGE);
    expect(WEAK_PASSWORD_MESSAGE).toBe('Password should be at least 6 characters.');
  });

  it('send the visitor back to the form with the error flash, no longer guarded', async () => {
    acceptingPortal();
    identity.createUserWithEmailAndPassword.mockRejectedValue({ code: 'auth/email-already-in-use' });
    await signUpThroughQuestionnaire('page');
    expect($signUp.get()).toMatchObject({ phase: 'form', loading: false, message: 'User already exists.' });
    expect($auth.get().flashMessage).toEqual({ type: 'error', text: 'User already exists.' });
    expect(isProtectingLeave()).toBe(false);
    expect(portalPaths()).not.toContain('user/register-user');
  });

  it("remove the new identity again when the account cannot be created, and show the server's words", async () => {
    acceptingPortal();
    portalAnswers({
      'auth/validate-email': () => Promise.resolve(true),
      'user/register-user': () =>
        Promise.reject(new ApiError(503, 'The service is briefly unavailable.', { error: 'x' })),
    });
    await signUpThroughQuestionnaire('page');
    expect(identity.deleteUser).toHaveBeenCalledWith(identity.user);
    expect($auth.get().flashMessage?.text).toBe('The service is briefly unavailable.');
    expect($signUp.get().phase).toBe('form');
    expect(network.appServer).not.toHaveBeenCalled();
  });
});

describe('registration', () => {
  it('shows the preparing view while the account is created', async () => {
    acceptingPortal();
    let release: (value: { success: boolean }) => void = () => undefined;
    portalAnswers({
      'auth/validate-email': () => Promise.resolve(true),
      'user/register-user': () =>
        new Promise((resolve) => {
          release = resolve;
        }),
      'auth/log-out': () => Promise.resolve({}),
    });
    await submitSignUp('page', { email: EMAIL, password: PASSWORD, agreement: true });
    answerAll();
    const submitted = submitQuestionnaire();
    await vi.waitFor(() => {
      expect(portalPaths()).toContain('user/register-user');
    });
    expect($signUp.get()).toMatchObject({ phase: 'preparing', loading: true });
    expect(isProtectingLeave()).toBe(true);
    release({ success: true });
    await submitted;
    expect($signUp.get().phase).toBe('done');
  });

  it('creates the identity, registers with the answers and campaign, mails the verification and signs in', async () => {
    acceptingPortal();
    storage.setItem(UTM_STORAGE_KEY, JSON.stringify({ utm_source: 'newsletter', utm_medium: 'email' }));
    await signUpThroughQuestionnaire('page');
    expect(identity.createUserWithEmailAndPassword).toHaveBeenCalledWith(identity.auth, EMAIL, PASSWORD);
    expect(requestOf('user/register-user')).toEqual({
      body: {
        email: EMAIL,
        idToken: 'firebase-id-token',
        agreement: true,
        survey: ANSWERS,
        campaign: {
          email: EMAIL,
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: '',
          utm_term: '',
          utm_content: '',
        },
      },
    });
    expect(identity.sendEmailVerification).toHaveBeenCalledWith(identity.user);
    expect($auth.get().flashMessage).toEqual({ type: 'success', text: SIGN_UP_SUCCESS_MESSAGE });
    expect(SIGN_UP_SUCCESS_MESSAGE).toBe(
      'User created successfully. Please check your email to verify your account.',
    );
    expect(network.appServer).toHaveBeenCalledWith('auth/signin', {
      body: { login: EMAIL, password: PASSWORD },
      refreshOn403: false,
    });
    expect($auth.get().accessToken).toBe('access-new');
    expect($signUp.get()).toMatchObject({ phase: 'done', loading: false });
    expect(isProtectingLeave()).toBe(false);
  });

  it('sends no campaign without a utm_source', async () => {
    acceptingPortal();
    storage.setItem(UTM_STORAGE_KEY, JSON.stringify({ utm_medium: 'email' }));
    await signUpThroughQuestionnaire('page');
    expect(requestOf('user/register-user')?.body).not.toHaveProperty('campaign');
  });

  it('signs out 4 s later, marks the new registration and counts it, and keeps the page view', async () => {
    acceptingPortal();
    await signUpThroughQuestionnaire('page');
    await vi.advanceTimersByTimeAsync(SIGN_OUT_DELAY_MS - 1);
    expect($auth.get().accessToken).toBe('access-new');
    expect(document.cookie).toBe('');
    expect(dataLayer).toEqual([]);

    await vi.advanceTimersByTimeAsync(1);
    expect(SIGN_OUT_DELAY_MS).toBe(4000);
    expect($auth.get().accessToken).toBe(PUBLIC_TOKEN);
    expect(portalPaths()).toContain('auth/log-out');
    expect(document.cookie).toMatch(/^new_registration=true; path=\/; expires=/);
    const expires = Date.parse(/expires=([^;]+)/.exec(document.cookie)?.[1] ?? '');
    expect(expires - Date.now()).toBeGreaterThan(299_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(300_000);
    expect(storage.getItem('new_registration')).toBe('true');
    expect(dataLayer).toEqual([{ event: 'sign_up', method: 'Email', category: 'Page' }]);

    await vi.advanceTimersByTimeAsync(POPUP_SWITCH_DELAY_MS);
    expect($signUp.get().phase).toBe('done');
    expect($auth.get().authPopup).toBe(false);
  });

  it('in the pop-up keeps the key view open, then switches to sign-in with the address 1 s after signing out', async () => {
    acceptingPortal();
    $auth.setKey('authPopup', 2);
    await signUpThroughQuestionnaire('popup');
    expect($auth.get().authPopup).toBe(2);
    await vi.advanceTimersByTimeAsync(SIGN_OUT_DELAY_MS);
    expect(dataLayer).toEqual([{ event: 'sign_up', method: 'Email', category: 'Popup' }]);
    await vi.advanceTimersByTimeAsync(POPUP_SWITCH_DELAY_MS - 1);
    expect($auth.get().authPopup).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(POPUP_SWITCH_DELAY_MS).toBe(1000);
    expect($auth.get().authPopup).toBe(1);
    expect($signIn.get()).toMatchObject({ form: 'popup', login: EMAIL });
    expect($signUp.get().phase).toBe('form');
  });

  it('does not reopen a pop-up the visitor closed meanwhile', async () => {
    acceptingPortal();
    $auth.setKey('authPopup', 2);
    await signUpThroughQuestionnaire('popup');
    $auth.setKey('authPopup', false);
    await vi.advanceTimersByTimeAsync(SIGN_OUT_DELAY_MS + POPUP_SWITCH_DELAY_MS);
    expect($auth.get().authPopup).toBe(false);
  });

  it('does not sign out a visitor who has signed in some other way meanwhile', async () => {
    acceptingPortal();
    await signUpThroughQuestionnaire('page');
    $auth.setKey('accessToken', 'access-other');
    await vi.advanceTimersByTimeAsync(SIGN_OUT_DELAY_MS);
    expect($auth.get().accessToken).toBe('access-other');
    expect(storage.getItem('new_registration')).toBe('true');
  });

  it('still ends in the key view when signing the new account in fails', async () => {
    acceptingPortal();
    network.appServer.mockRejectedValue(new ApiError(503, 'down', undefined));
    await signUpThroughQuestionnaire('page');
    expect($signUp.get().phase).toBe('done');
    expect($auth.get().accessToken).toBe(PUBLIC_TOKEN);
    await vi.advanceTimersByTimeAsync(SIGN_OUT_DELAY_MS);
    expect(portalPaths()).not.toContain('auth/log-out');
    expect(dataLayer).toHaveLength(1);
  });

  it('does nothing on Submit before every question is answered', async () => {
    acceptingPortal();
    await submitSignUp('page', { email: EMAIL, password: PASSWORD, agreement: true });
    chooseAnswer(SIGNUP_QUESTIONS[0].options[0]);
    await submitQuestionnaire();
    expect($signUp.get().phase).toBe('questionnaire');
    expect(identity.createUserWithEmailAndPassword).not.toHaveBeenCalled();
  });
});

describe('UTM capture', () => {
  it('stores the five parameters of the landing URL when at least one is present', () => {
    captureUtms('?utm_source=news&utm_campaign=spring&other=1', storage);
    expect(JSON.parse(storage.getItem(UTM_STORAGE_KEY) ?? 'null')).toEqual({
      utm_source: 'news',
      utm_medium: '',
      utm_campaign: 'spring',
      utm_term: '',
      utm_content: '',
    });
  });

  it('leaves an earlier capture alone when the URL has none', () => {
    captureUtms('?utm_source=news', storage);
    captureUtms('?page=2', storage);
    expect(readUtms(storage).utm_source).toBe('news');
  });

  it('stores nothing when the URL has none', () => {
    captureUtms('', storage);
    expect(storage.getItem(UTM_STORAGE_KEY)).toBeNull();
  });

  it('reads empty strings when nothing or something unreadable is stored', () => {
    const empty = { utm_source: '', utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '' };
    expect(readUtms(storage)).toEqual(empty);
    storage.setItem(UTM_STORAGE_KEY, '{not json');
    expect(readUtms(storage)).toEqual(empty);
    storage.setItem(UTM_STORAGE_KEY, JSON.stringify({ utm_source: 42 }));
    expect(readUtms(storage)).toEqual(empty);
  });

  it('keeps values the accounts API accepts: no control characters, at most 200 characters', () => {
    captureUtms(`?utm_source=a%0Ab&utm_term=${'x'.repeat(300)}`, storage);
    const utms = readUtms(storage);
    expect(utms.utm_source).toBe('ab');
    expect(utms.utm_term).toHaveLength(200);
  });

  it('skips the campaign when utm_source or the email is empty', () => {
    const utms = { utm_source: 'news', utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '' };
    expect(campaignFor('', utms)).toBeUndefined();
    expect(campaignFor(EMAIL, { ...utms, utm_source: '' })).toBeUndefined();
    expect(campaignFor(EMAIL, utms)).toEqual({ email: EMAIL, ...utms });
  });
});

describe('Google sign-up', () => {
  const GOOGLE_SESSION = { ...SESSION, accessToken: 'access-google', isNewUser: true };

  function googlePortal(survey: Record<string, unknown>, campaign?: () => Promise<unknown>): void {
    portalAnswers({
      'auth/validate-user': () => Promise.resolve(GOOGLE_SESSION),
      'user/save-campaign': campaign ?? (() => Promise.resolve({ saved: true })),
      'account/get-survey': () => Promise.resolve(survey),
      'user/register-user': () => Promise.resolve({ success: true, userid: 'u1', username: 'newbie' }),
    });
  }

  it('requires the agreement', async () => {
    await startGoogleSignUp('page', false);
    expect($auth.get().flashMessage?.text).toBe(AGREEMENT_MESSAGE);
    await continueWithGoogle('page', false, EMAIL);
    expect(identity.signInWithPopup).not.toHaveBeenCalled();
    expect(identity.signInWithCredential).not.toHaveBeenCalled();
  });

  it('asks which Google account to use against the local Auth emulator', async () => {
    identity.auth.emulatorConfig = { url: 'http://127.0.0.1:9699' };
    await startGoogleSignUp('page', true);
    expect($signUp.get()).toMatchObject({ askingGoogleEmail: true, loading: false, method: 'google' });
    expect(identity.signInWithPopup).not.toHaveBeenCalled();
  });

  it('saves the campaign of a new account, counts it, and opens the questionnaire when no survey exists', async () => {
    googlePortal({});
    storage.setItem(UTM_STORAGE_KEY, JSON.stringify({ utm_source: 'ads' }));
    await startGoogleSignUp('page', true);
    expect(identity.signInWithPopup).toHaveBeenCalled();
    expect(requestOf('auth/validate-user')).toMatchObject({ query: { accessToken: 'firebase-id-token' } });
    expect(requestOf('user/save-campaign')).toEqual({
      body: {
        campaign: {
          email: EMAIL,
          utm_source: 'ads',
          utm_medium: '',
          utm_campaign: '',
          utm_term: '',
          utm_content: '',
        },
      },
    });
    expect(dataLayer).toEqual([{ event: 'sign_up', method: 'google.com', category: 'Page' }]);
    expect(requestOf('account/get-survey')).toEqual({
      query: { email: EMAIL, type: 'signup' },
      headers: { Authorization: 'Bearer access-google' },
    });
    expect($signUp.get().phase).toBe('questionnaire');
    expect($auth.get().accessToken).toBe(PUBLIC_TOKEN);
  });

  it('skips the campaign without a utm_source, and only logs a failed save', async () => {
    googlePortal({});
    await continueWithGoogle('page', true, EMAIL);
    expect(portalPaths()).not.toContain('user/save-campaign');

    resetSignUp('page');
    network.portal.mockClear();
    storage.setItem(UTM_STORAGE_KEY, JSON.stringify({ utm_source: 'ads' }));
    googlePortal({}, () => Promise.reject(new ApiError(500, 'broken', undefined)));
    await continueWithGoogle('page', true, EMAIL);
    expect(console.error).toHaveBeenCalled();
    expect($signUp.get().phase).toBe('questionnaire');
  });

  it('registers the answers with the ID token, then signs in and goes to the dashboard', async () => {
    googlePortal({});
    await continueWithGoogle('page', true, EMAIL);
    answerAll();
    await submitQuestionnaire();
    expect(requestOf('user/register-user')).toEqual({
      body: { email: EMAIL, idToken: 'firebase-id-token', agreement: true, survey: ANSWERS },
    });
    expect(identity.createUserWithEmailAndPassword).not.toHaveBeenCalled();
    expect(network.appServer).not.toHaveBeenCalled();
    expect($auth.get().accessToken).toBe('access-google');
    expect(identity.navigate).toHaveBeenCalledWith('/developer/docs/dashboard');
    expect(isProtectingLeave()).toBe(false);
  });

  it('finishes at once when the survey is on record', async () => {
    googlePortal({ email: EMAIL, type: 'signup' });
    await continueWithGoogle('page', true, EMAIL);
    expect($auth.get().accessToken).toBe('access-google');
    expect(identity.navigate).toHaveBeenCalledWith('/developer/docs/dashboard');
    expect(portalPaths()).not.toContain('user/register-user');
  });

  it('in the pop-up finishes by closing it', async () => {
    googlePortal({ email: EMAIL, type: 'signup' });
    $auth.setKey('authPopup', 2);
    await continueWithGoogle('popup', true, EMAIL);
    expect($auth.get().authPopup).toBe(false);
    expect(identity.navigate).not.toHaveBeenCalled();
  });

  it('finishes at once on a pricing page without asking for the survey', async () => {
    googlePortal({});
    page.pathname = '/developer/docs/pricing';
    await continueWithGoogle('popup', true, EMAIL);
    expect(portalPaths()).not.toContain('account/get-survey');
    expect($auth.get().accessToken).toBe('access-google');
  });

  it('does not count an existing account again', async () => {
    portalAnswers({
      'auth/validate-user': () => Promise.resolve({ ...GOOGLE_SESSION, isNewUser: false }),
      'account/get-survey': () => Promise.resolve({ email: EMAIL, type: 'signup' }),
    });
    await continueWithGoogle('page', true, EMAIL);
    expect(dataLayer).toEqual([]);
    expect(portalPaths()).not.toContain('user/save-campaign');
  });

  it("shows the identity provider's refusal in the spec's words", async () => {
    identity.signInWithPopup.mockRejectedValue({ code: 'auth/popup-closed-by-user' });
    await continueWithGoogle('page', true);
    expect($auth.get().flashMessage?.text).toBe('Sign in interrupted. Please try again later.');
    expect($signUp.get()).toMatchObject({ phase: 'form', loading: false });
  });
});

describe('Google sign-in of an account that has not finished signing up', () => {
  const NEW_ACCOUNT = { ...SESSION, accessToken: 'access-google', isNewUser: true };

  function signInPortal(session: Record<string, unknown>, survey: Record<string, unknown>): void {
    portalAnswers({
      'auth/validate-user': () => Promise.resolve(session),
      'account/get-survey': () => Promise.resolve(survey),
      'user/register-user': () => Promise.resolve({ success: true, userid: 'u1', username: 'newbie' }),
    });
  }

  it('on the page goes on to the questionnaire and stores the session only once it is answered', async () => {
    signInPortal(NEW_ACCOUNT, {});
    page.pathname = '/login';
    expect(await startGoogleSignIn('page')).toBe(false);

    expect($signUp.get()).toMatchObject({ variant: 'page', phase: 'questionnaire', email: EMAIL });
    expect($signIn.get()).toMatchObject({ status: 'idle', form: 'page', message: '' });
    expect($auth.get().accessToken).toBe(PUBLIC_TOKEN);
    expect(isProtectingLeave()).toBe(true);
    expect(dataLayer).toEqual([{ event: 'sign_up', method: 'google.com', category: 'Page' }]);

    answerAll();
    await submitQuestionnaire();
    expect(requestOf('user/register-user')).toEqual({
      body: { email: EMAIL, idToken: 'firebase-id-token', agreement: true, survey: ANSWERS },
    });
    expect($auth.get().accessToken).toBe('access-google');
    expect(identity.navigate).toHaveBeenCalledWith('/developer/docs/dashboard');
    expect(isProtectingLeave()).toBe(false);
  });

  it('in the pop-up turns it to its sign-up view with the questionnaire, and closes it once answered', async () => {
    signInPortal(NEW_ACCOUNT, {});
    page.pathname = '/chart/AAPL';
    identity.auth.emulatorConfig = { url: 'http://127.0.0.1:9699' };
    $auth.setKey('authPopup', 1);
    expect(await submitGoogleEmail('popup', EMAIL)).toBe(false);

    expect($auth.get().authPopup).toBe(2);
    expect($signUp.get()).toMatchObject({ variant: 'popup', phase: 'questionnaire' });
    expect(dataLayer).toEqual([{ event: 'sign_up', method: 'google.com', category: 'Popup' }]);

    answerAll();
    await submitQuestionnaire();
    expect($auth.get()).toMatchObject({ accessToken: 'access-google', authPopup: false });
    expect(identity.navigate).not.toHaveBeenCalled();
  });

  it('asks an existing account without the questionnaire on record for it, without counting it again', async () => {
    signInPortal({ ...NEW_ACCOUNT, isNewUser: false }, {});
    expect(await startGoogleSignIn('page')).toBe(false);
    expect($signUp.get().phase).toBe('questionnaire');
    expect(dataLayer).toEqual([]);
    expect(portalPaths()).not.toContain('user/save-campaign');
  });

  it('signs an account whose questionnaire is on record straight in', async () => {
    signInPortal({ ...NEW_ACCOUNT, isNewUser: false }, { email: EMAIL, type: 'signup' });
    expect(await startGoogleSignIn('page')).toBe(true);
    expect($auth.get().accessToken).toBe('access-google');
    expect($signUp.get().phase).toBe('form');
    expect(portalPaths()).toEqual(['auth/validate-user', 'account/get-survey']);
    expect(isProtectingLeave()).toBe(false);
  });
});
