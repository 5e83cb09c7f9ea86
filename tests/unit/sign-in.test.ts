import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../src/lib/http.ts';
import {
  BLOCKED_ACCOUNT_MESSAGE,
  NO_USERID_MESSAGE,
  OTHER_CREDENTIAL_MESSAGE,
  POPUP_BLOCKED_MESSAGE,
  POPUP_CLOSED_MESSAGE,
  SIGN_IN_FAILED_MESSAGE,
} from '../../src/lib/messages.ts';
import { $auth, clearFlash } from '../../src/lib/stores/auth.ts';
import {
  $signIn,
  applySignInQuery,
  DEFAULT_RETURN_PATH,
  resetSignInForm,
  returnPathAfterSignIn,
  safeReturnPath,
  setSignInField,
  signInErrorMessage,
  signInResultMessage,
  submitSignIn,
  takeReturnPath,
} from '../../src/lib/stores/sign-in.ts';
import { emulatorGoogleSubject, socialSignInMessage } from '../../src/lib/stores/social-sign-in.ts';

const INITIAL_AUTH = $auth.get();
const INITIAL_SIGN_IN = $signIn.get();

/** An error as the identity provider's SDK throws them: a code beside its technical message. */
function firebaseError(code: string, message = `Firebase: Error (${code}).`): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

beforeEach(() => {
  vi.useFakeTimers();
  $auth.set({ ...INITIAL_AUTH });
  $signIn.set({ ...INITIAL_SIGN_IN });
});

afterEach(() => {
  clearFlash();
  vi.useRealTimers();
});

describe('safeReturnPath', () => {
  it.each(['/', '/developer/docs/api-keys', '/chart/AAPL?range=1y#top', '/search?q=a%20b', '/a/b/'])(
    'keeps the same-site path %s as given',
    (path) => {
      expect(safeReturnPath(path)).toBe(path);
    },
  );

  it.each([
    ['another host', 'https://evil.example/steal'],
    ['a protocol-relative host', '//evil.example/steal'],
    ['a backslash that browsers read as a slash', '/\\evil.example'],
    ['a backslash further on', '/docs\\..\\x'],
    ['a script URL', 'javascript:alert(1)'],
    ['a relative path', 'developer/docs'],
    ['a tab that browsers drop', '/\t/evil.example'],
    ['a newline', '/docs\n'],
    ['an encoded second slash', '/%2Fevil.example'],
    ['a doubly encoded second slash', '/%252Fevil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['an encoded tab', '/%09/evil.example'],
    ['an empty value', ''],
  ])('refuses %s', (_, value) => {
    expect(safeReturnPath(value)).toBeUndefined();
  });

  it('refuses anything that is not a string, and overlong paths', () => {
    expect(safeReturnPath(undefined)).toBeUndefined();
    expect(safeReturnPath(null)).toBeUndefined();
    expect(safeReturnPath(42)).toBeUndefined();
    expect(safeReturnPath(`/${'a'.repeat(5000)}`)).toBeUndefined();
  });
});

describe('the page after signing in', () => {
  it('is the dashboard when nothing else was asked for', () => {
    expect(returnPathAfterSignIn('', '')).toBe('/developer/docs/dashboard');
    expect(DEFAULT_RETURN_PATH).toBe('/developer/docs/dashboard');
  });

  it('is the page a guard turned the visitor away from, before a redirect parameter', () => {
    expect(returnPathAfterSignIn('/developer/docs/settings?tab=2', '?redirect=/pricing')).toBe(
      '/developer/docs/settings?tab=2',
    );
  });

  it('is the redirect parameter when no page was remembered', () => {
    expect(returnPathAfterSignIn('', '?redirect=%2Fdeveloper%2Fdocs%2Finvoices')).toBe(
      '/developer/docs/invoices',
    );
  });

  it('never leaves the site, and never goes back to the sign-in or sign-up page', () => {
    expect(returnPathAfterSignIn('//evil.example', '?redirect=https://evil.example')).toBe(
      DEFAULT_RETURN_PATH,
    );
    expect(returnPathAfterSignIn('/login', '?redirect=/register/')).toBe(DEFAULT_RETURN_PATH);
  });

  it('forgets the remembered page once it has been used', () => {
    $auth.setKey('preseturl', '/developer/docs/api-keys');
    expect(takeReturnPath('')).toBe('/developer/docs/api-keys');
    expect($auth.get().preseturl).toBe('');
    expect(takeReturnPath('')).toBe(DEFAULT_RETURN_PATH);
  });
});

describe('sign-in answers', () => {
  it('accept an answer with a user id and an access token', () => {
    expect(signInResultMessage({ userid: 'u1', accessToken: 't' })).toBeUndefined();
  });

  it('refuse an answer without a user id', () => {
    expect(signInResultMessage({ accessToken: 't' })).toBe('Error signing into your account.');
    expect(signInResultMessage({ userid: '', accessToken: 't' })).toBe(NO_USERID_MESSAGE);
    expect(signInResultMessage(null)).toBe(NO_USERID_MESSAGE);
    expect(signInResultMessage('ok')).toBe(NO_USERID_MESSAGE);
  });

  it('refuse a blocked account even when a user id came back', () => {
    expect(signInResultMessage({ userid: 'u1', accessToken: 't', blockedAccount: true })).toBe(
      'Your account has been blocked. Please contact support.',
    );
  });
});

describe('sign-in failures', () => {
  it('show the blocked message for a blocked account', () => {
    const error = new ApiError(403, BLOCKED_ACCOUNT_MESSAGE, { error: 'x', blockedAccount: true });
    expect(signInErrorMessage(error)).toBe(BLOCKED_ACCOUNT_MESSAGE);
  });

  it("show the server's own words", () => {
    const error = new ApiError(401, 'Invalid email/username or password.', {
      error: 'Invalid email/username or password.',
    });
    expect(signInErrorMessage(error)).toBe('Invalid email/username or password.');
    expect(signInErrorMessage(new ApiError(400, 'x', 'Plain text reason.'))).toBe('Plain text reason.');
  });

  it('fall back to the generic message when the server said nothing usable or was not reached', () => {
    expect(signInErrorMessage(new ApiError(500, NETWORK_ERROR_MESSAGE, undefined))).toBe(
      'Sign in failed. Please try again later.',
    );
    expect(signInErrorMessage(new ApiError(0, NETWORK_ERROR_MESSAGE, undefined))).toBe(
      SIGN_IN_FAILED_MESSAGE,
    );
    expect(signInErrorMessage(new TypeError('boom'))).toBe(SIGN_IN_FAILED_MESSAGE);
  });
});

describe('social sign-in failures', () => {
  it("use the spec's words for the identity provider's known codes", () => {
    expect(socialSignInMessage(firebaseError('auth/account-exists-with-different-credential'))).toBe(
      'An account already exists with the same email address but different sign-in credentials. Sign in using a provider associated with this email address.',
    );
    expect(OTHER_CREDENTIAL_MESSAGE).toMatch(/^An account already exists/);
    expect(socialSignInMessage(firebaseError('auth/popup-closed-by-user'))).toBe(
      'Sign in interrupted. Please try again later.',
    );
    expect(POPUP_CLOSED_MESSAGE).toBe('Sign in interrupted. Please try again later.');
    expect(socialSignInMessage(firebaseError('auth/popup-blocked'))).toBe(
      'Please allow pop-up windows to sign in.',
    );
    expect(POPUP_BLOCKED_MESSAGE).toBe('Please allow pop-up windows to sign in.');
  });

  it('treat a disabled identity as a blocked account', () => {
    expect(socialSignInMessage(firebaseError('auth/user-disabled'))).toBe(BLOCKED_ACCOUNT_MESSAGE);
  });

  it("show another error's own message without the SDK's wrapping", () => {
    expect(
      socialSignInMessage(
        firebaseError(
          'auth/invalid-credential',
          'Firebase: The supplied credential is malformed. (auth/invalid-credential).',
        ),
      ),
    ).toBe('The supplied credential is malformed.');
    expect(socialSignInMessage(new Error('Please fill all the fields.'))).toBe('Please fill all the fields.');
  });

  it('fall back to the generic message when the error has nothing readable', () => {
    expect(socialSignInMessage(firebaseError('auth/network-request-failed'))).toBe(SIGN_IN_FAILED_MESSAGE);
    expect(socialSignInMessage(new Error(''))).toBe(SIGN_IN_FAILED_MESSAGE);
    expect(socialSignInMessage('nope')).toBe(SIGN_IN_FAILED_MESSAGE);
  });

  it("answer the accounts API's refusals as any sign-in does", () => {
    expect(socialSignInMessage(new ApiError(403, 'x', { blockedAccount: true }))).toBe(
      BLOCKED_ACCOUNT_MESSAGE,
    );
    expect(socialSignInMessage(new ApiError(0, NETWORK_ERROR_MESSAGE, undefined))).toBe(
      SIGN_IN_FAILED_MESSAGE,
    );
  });
});

describe('the local Google account id', () => {
  it('is the same for the same address however it is typed', () => {
    expect(emulatorGoogleSubject('Ada@Example.com ')).toBe(emulatorGoogleSubject('ada@example.com'));
  });

  it('differs between addresses', () => {
    expect(emulatorGoogleSubject('ada@example.com')).not.toBe(emulatorGoogleSubject('bob@example.com'));
  });
});

describe('the sign-in form', () => {
  it('asks for both fields before calling the server', async () => {
    setSignInField('page', 'login', '   ');
    setSignInField('page', 'password', 'secret');
    expect(await submitSignIn('page')).toBe(false);
    expect($signIn.get()).toMatchObject({ status: 'error', message: 'Please fill all the fields.' });
    expect($auth.get().flashMessage).toEqual({ type: 'error', text: 'Please fill all the fields.' });
  });

  it('points out a mistyped address before calling the server', async () => {
    setSignInField('popup', 'login', 'ada@');
    setSignInField('popup', 'password', 'secret');
    expect(await submitSignIn('popup')).toBe(false);
    expect($signIn.get()).toMatchObject({
      status: 'error',
      form: 'popup',
      message: 'Please enter a valid email address.',
    });
  });

  it("takes the page's error parameter as a flash and its email as the login", () => {
    applySignInQuery('?error=Something%20failed&email=a%40b.co');
    expect($auth.get().flashMessage).toEqual({ type: 'error', text: 'Something failed' });
    expect($signIn.get()).toMatchObject({ form: 'page', login: 'a@b.co' });
  });

  it('starts the other form afresh instead of mixing what was typed in both', () => {
    setSignInField('page', 'password', 'page secret');
    setSignInField('popup', 'login', 'ada');
    expect($signIn.get()).toMatchObject({ form: 'popup', login: 'ada', password: '' });
  });

  it('forgets a form only when asked for that form', () => {
    setSignInField('page', 'login', 'ada');
    resetSignInForm('popup');
    expect($signIn.get().login).toBe('ada');
    resetSignInForm('page');
    expect($signIn.get().login).toBe('');
  });
});
