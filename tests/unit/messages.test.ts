import { describe, expect, it } from 'vitest';
import * as messages from '../../src/lib/messages.ts';

/** SPEC §5 and §8, word for word, by the name the catalogue gives each text. */
const SPEC_TEXTS: Record<string, string> = {
  AGREEMENT_MESSAGE: 'Please agree to the terms and conditions & privacy policy before proceeding.',
  FILL_ALL_FIELDS_MESSAGE: 'Please fill all the fields.',
  EMAIL_MESSAGE: 'Please enter a valid email address.',
  PASSWORD_MESSAGE: 'Password should be at least 6 characters.',
  BLOCKED_ACCOUNT_MESSAGE: 'Your account has been blocked. Please contact support.',
  NO_USERID_MESSAGE: 'Error signing into your account.',
  SIGN_IN_FAILED_MESSAGE: 'Sign in failed. Please try again later.',
  USER_EXISTS_MESSAGE: 'User already exists.',
  WEAK_PASSWORD_MESSAGE: 'Password should be at least 6 characters.',
  CREATE_USER_FAILED_MESSAGE: 'Create user failed! Please try again later.',
  SIGN_UP_SUCCESS_MESSAGE: 'User created successfully. Please check your email to verify your account.',
  OTHER_CREDENTIAL_MESSAGE:
    'An account already exists with the same email address but different sign-in credentials. Sign in using a provider associated with this email address.',
  POPUP_CLOSED_MESSAGE: 'Sign in interrupted. Please try again later.',
  POPUP_BLOCKED_MESSAGE: 'Please allow pop-up windows to sign in.',
  PRICE_PLANS_ERROR_MESSAGE: 'Something went wrong, please contact support@tickerlake.com for more details.',
};

describe('the message catalogue', () => {
  it('holds the texts of SPEC §5 and §8 word for word', () => {
    for (const [name, text] of Object.entries(SPEC_TEXTS)) {
      expect(messages[name as keyof typeof messages], name).toBe(text);
    }
  });

  it('words the session-inactive and premium dialogs as SPEC §8 does', () => {
    expect(messages.SESSION_INACTIVE_DIALOG).toEqual({
      title: 'Stay Ahead with Fresh Data!',
      text: 'Your session has been inactive. For the latest financial insights, please refresh.',
      button: 'Refresh Now',
    });
    expect(messages.PREMIUM_DIALOG).toMatchObject({
      title: 'Unrestricted Access',
      keepBrowsing: 'Keep Browsing',
      subscribe: 'Get subscription',
    });
    expect(messages.PREMIUM_DIALOG.text).toMatch(/premium membership plans/);
  });

  it('defines each message text under one name, apart from the one the spec itself repeats', () => {
    const texts = Object.entries(messages)
      .filter(([name, value]) => name.endsWith('_MESSAGE') && typeof value === 'string')
      .map(([, value]) => value as string);
    const repeated = texts.filter((text, index) => texts.indexOf(text) !== index);
    expect(repeated).toEqual(['Password should be at least 6 characters.']);
    expect(texts).toHaveLength(Object.keys(SPEC_TEXTS).length);
  });
});
