import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MISSING_CODE_MESSAGE, siteActionLink } from '../../src/lib/action-link.ts';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../src/lib/http.ts';
import {
  BLOCKED_ACCOUNT_MESSAGE,
  FILL_ALL_FIELDS_MESSAGE,
  PASSWORD_MESSAGE,
} from '../../src/lib/messages.ts';
import {
  $accountAction,
  PASSWORDS_DIFFER_MESSAGE,
  UNKNOWN_LINK_MESSAGE,
  continuePathOf,
  failureOf,
  newPasswordProblem,
  readActionLink,
  resetAccountAction,
  startAccountAction,
  submitNewPassword,
} from '../../src/lib/stores/account-action.ts';
import { $auth, clearFlash } from '../../src/lib/stores/auth.ts';

const ORIGIN = 'https://tickerlake.example';

beforeEach(() => {
  vi.useFakeTimers();
  resetAccountAction();
});

afterEach(() => {
  clearFlash();
  vi.useRealTimers();
});

describe('reading an emailed link', () => {
  it('takes the mode, the code and a continue page on this site', () => {
    expect(
      readActionLink(
        `?mode=resetPassword&oobCode=abc123&apiKey=k&lang=en&continueUrl=${encodeURIComponent(`${ORIGIN}/chart/AAPL?range=1Y`)}`,
        ORIGIN,
      ),
    ).toEqual({ ok: true, mode: 'resetPassword', oobCode: 'abc123', continuePath: '/chart/AAPL?range=1Y' });
    expect(readActionLink('?mode=verifyEmail&oobCode=xyz', ORIGIN)).toEqual({
      ok: true,
      mode: 'verifyEmail',
      oobCode: 'xyz',
      continuePath: undefined,
    });
  });

  it('says a link without its code is incomplete, keeping its kind for the way forward', () => {
    for (const search of [
      '?mode=resetPassword',
      '?mode=resetPassword&oobCode=',
      '?mode=resetPassword&oobCode=%20',
    ]) {
      expect(readActionLink(search, ORIGIN)).toEqual({
        ok: false,
        mode: 'resetPassword',
        message: MISSING_CODE_MESSAGE,
      });
    }
  });

  it.each([
    '',
    '?oobCode=abc',
    '?mode=recoverEmail&oobCode=abc',
    '?mode=signIn&oobCode=abc',
    '?mode=RESETPASSWORD&oobCode=a',
  ])('says the link %j is not one the site can open', (search) => {
    expect(readActionLink(search, ORIGIN)).toEqual({
      ok: false,
      mode: undefined,
      message: UNKNOWN_LINK_MESSAGE,
    });
  });

  it.each([
    ['another site', 'https://evil.example/steal'],
    ['a protocol-relative address', '//evil.example/steal'],
    ['a script', 'javascript:alert(1)'],
    ['an encoded second slash', `${ORIGIN}/%2Fevil.example`],
    ['nonsense', 'http://['],
  ])('ignores a continue address on %s', (_, continueUrl) => {
    expect(continuePathOf(continueUrl, ORIGIN)).toBeUndefined();
  });

  it('keeps a continue address on this site, given whole or as a path', () => {
    expect(continuePathOf(`${ORIGIN}/developer/docs/api-keys`, ORIGIN)).toBe('/developer/docs/api-keys');
    expect(continuePathOf('/developer/docs/api-keys#key', ORIGIN)).toBe('/developer/docs/api-keys#key');
    expect(continuePathOf(null, ORIGIN)).toBeUndefined();
  });
});

describe("the local mailbox's links", () => {
  const emulator = 'http://127.0.0.1:9099/emulator/action';

  it("lead to the site's page with the same mode, code and continue address", () => {
    const link = siteActionLink(
      `${emulator}?mode=resetPassword&lang=en&oobCode=Zq-9_x&apiKey=fake-api-key&continueUrl=${encodeURIComponent('http://localhost:4321/login')}`,
    );
    expect(link).toBe(
      `/auth/action?mode=resetPassword&oobCode=Zq-9_x&continueUrl=${encodeURIComponent('http://localhost:4321/login')}`,
    );
    expect(siteActionLink(`${emulator}?mode=verifyEmail&oobCode=abc&apiKey=k`)).toBe(
      '/auth/action?mode=verifyEmail&oobCode=abc',
    );
  });

  it('leave links of other kinds, or without a code, to the provider', () => {
    expect(siteActionLink(`${emulator}?mode=recoverEmail&oobCode=abc`)).toBeUndefined();
    expect(siteActionLink(`${emulator}?mode=resetPassword`)).toBeUndefined();
    expect(siteActionLink('not a link')).toBeUndefined();
  });
});

describe('the new password', () => {
  it('must be filled in twice', () => {
    expect(newPasswordProblem('', '')).toEqual({ field: 'password', message: FILL_ALL_FIELDS_MESSAGE });
    expect(newPasswordProblem('secret1', '')).toEqual({ field: 'confirm', message: FILL_ALL_FIELDS_MESSAGE });
  });

  it('must be at least six characters, as at sign-up', () => {
    expect(newPasswordProblem('12345', '12345')).toEqual({ field: 'password', message: PASSWORD_MESSAGE });
    expect(newPasswordProblem('123456', '123456')).toBeUndefined();
  });

  it('must be typed the same both times, spaces included', () => {
    expect(newPasswordProblem('secret1', 'secret2')).toEqual({
      field: 'confirm',
      message: PASSWORDS_DIFFER_MESSAGE,
    });
    expect(newPasswordProblem('secret1 ', 'secret1')).toEqual({
      field: 'confirm',
      message: PASSWORDS_DIFFER_MESSAGE,
    });
  });
});

describe('the way forward after a refusal', () => {
  it('is a new link when the server refused the code', () => {
    const error = new ApiError(400, 'This password reset link has expired.', {
      error: 'This password reset link has expired.',
      field: 'oobCode',
    });
    expect(failureOf(error)).toEqual({ failure: 'link', message: 'This password reset link has expired.' });
  });

  it('is support for a blocked account', () => {
    const error = new ApiError(403, BLOCKED_ACCOUNT_MESSAGE, {
      error: BLOCKED_ACCOUNT_MESSAGE,
      blockedAccount: true,
    });
    expect(failureOf(error)).toEqual({ failure: 'blocked', message: BLOCKED_ACCOUNT_MESSAGE });
  });

  it("is trying again when the network or the server failed, in the server's words where it gave some", () => {
    expect(failureOf(new ApiError(0, NETWORK_ERROR_MESSAGE, undefined))).toEqual({
      failure: 'retry',
      message: NETWORK_ERROR_MESSAGE,
    });
    expect(failureOf(new TypeError('fetch failed'))).toEqual({
      failure: 'retry',
      message: NETWORK_ERROR_MESSAGE,
    });
    expect(failureOf(new ApiError(503, 'Please try again in a moment.', {}))).toEqual({
      failure: 'retry',
      message: 'Please try again in a moment.',
    });
  });
});

describe('the page', () => {
  it('fails an unknown link at once, with the message shown and flashed, and no call made', async () => {
    await startAccountAction('?mode=somethingElse&oobCode=abc', ORIGIN);
    expect($accountAction.get()).toMatchObject({
      step: 'failed',
      failure: 'link',
      mode: undefined,
      message: UNKNOWN_LINK_MESSAGE,
      tone: 'error',
    });
    expect($auth.get().flashMessage).toMatchObject({ type: 'error', text: UNKNOWN_LINK_MESSAGE });
  });

  it('fails a reset link without its code with the way to a new reset link', async () => {
    await startAccountAction('?mode=resetPassword', ORIGIN);
    expect($accountAction.get()).toMatchObject({
      step: 'failed',
      failure: 'link',
      mode: 'resetPassword',
      message: MISSING_CODE_MESSAGE,
    });
  });

  it('points out a short or mismatched new password on its field before sending anything', async () => {
    $accountAction.set({ ...$accountAction.get(), step: 'choosing', oobCode: 'abc', email: 'a@example.com' });
    expect(await submitNewPassword('123', '123')).toBeUndefined();
    expect($accountAction.get()).toMatchObject({
      step: 'choosing',
      field: 'password',
      message: PASSWORD_MESSAGE,
    });
    expect(await submitNewPassword('secret1', 'secret2')).toBeUndefined();
    expect($accountAction.get()).toMatchObject({
      step: 'choosing',
      field: 'confirm',
      message: PASSWORDS_DIFFER_MESSAGE,
      tone: 'error',
    });
    expect($auth.get().flashMessage).toMatchObject({ type: 'error', text: PASSWORDS_DIFFER_MESSAGE });
  });

  it('takes no new password before the link has been checked', async () => {
    expect(await submitNewPassword('secret1', 'secret1')).toBeUndefined();
    expect($accountAction.get().step).toBe('starting');
  });
});
