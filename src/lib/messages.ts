/**
 * The messages a user reads, as SPEC §5 (validation rules) and §8 (error catalogue) write them,
 * defined once and word for word. The browser stores and islands show them and the servers answer
 * with them, so both import them from here: a sign-up refused by the server and one refused in the
 * form read the same. Texts that are not in the spec stay with the code that uses them.
 */

import { SITE_NAME } from './routes.ts';

// ---------------------------------------------------------------------------------------------------------------
// Forms (SPEC §5, sign-up; also used by the sign-in and password-reset forms)

/** SPEC §5, sign-up: the terms agreement was not ticked. */
export const AGREEMENT_MESSAGE =
  'Please agree to the terms and conditions & privacy policy before proceeding.';

/** SPEC §5, sign-up: the email or the password is empty. */
export const FILL_ALL_FIELDS_MESSAGE = 'Please fill all the fields.';

/** SPEC §5, sign-up: the email check refused the address, or failed without a text of its own. */
export const EMAIL_MESSAGE = 'Please enter a valid email address.';

/** SPEC §5, sign-up: the password is shorter than the identity provider's minimum. */
export const PASSWORD_MESSAGE = 'Password should be at least 6 characters.';

// ---------------------------------------------------------------------------------------------------------------
// Sign-in (SPEC §5 sign-in and §8 sign-in)

/** SPEC §8, sign-in: the account is blocked. */
export const BLOCKED_ACCOUNT_MESSAGE = 'Your account has been blocked. Please contact support.';

/** SPEC §5 and §8, sign-in: the answer holds no userid. */
export const NO_USERID_MESSAGE = 'Error signing into your account.';

/** SPEC §8, sign-in and social sign-in: a failure with no text of its own. */
export const SIGN_IN_FAILED_MESSAGE = 'Sign in failed. Please try again later.';

// ---------------------------------------------------------------------------------------------------------------
// Sign-up (SPEC §8, identity provider codes)

/** SPEC §8, sign-up: email-already-in-use. */
export const USER_EXISTS_MESSAGE = 'User already exists.';

/** SPEC §8, sign-up: weak-password; the same words as the §5 minimum. */
export const WEAK_PASSWORD_MESSAGE = PASSWORD_MESSAGE;

/** SPEC §8, sign-up: any other failure to create the user. */
export const CREATE_USER_FAILED_MESSAGE = 'Create user failed! Please try again later.';

/** SPEC §8, other: the success flash after sign-up. */
export const SIGN_UP_SUCCESS_MESSAGE =
  'User created successfully. Please check your email to verify your account.';

// ---------------------------------------------------------------------------------------------------------------
// Social sign-in (SPEC §8)

/** SPEC §8, social sign-in: account-exists-with-different-credential. */
export const OTHER_CREDENTIAL_MESSAGE =
  'An account already exists with the same email address but different sign-in credentials. Sign in using a provider associated with this email address.';

/** SPEC §8, social sign-in: popup-closed-by-user. */
export const POPUP_CLOSED_MESSAGE = 'Sign in interrupted. Please try again later.';

/** SPEC §8, social sign-in: popup-blocked. */
export const POPUP_BLOCKED_MESSAGE = 'Please allow pop-up windows to sign in.';

// ---------------------------------------------------------------------------------------------------------------
// Pricing and dialogs (SPEC §8, other)

/** Where pricing failures send people; derived from the brand so a rename cannot leave it stale. */
export const SUPPORT_EMAIL = `support@${SITE_NAME.toLowerCase()}.com`;

/** SPEC §8, other: the price plans could not be loaded and the server gave no reason of its own. */
export const PRICE_PLANS_ERROR_MESSAGE = `Something went wrong, please contact ${SUPPORT_EMAIL} for more details.`;

/** SPEC §8, other: the dialog asking a visitor who has been away to refresh. */
export const SESSION_INACTIVE_DIALOG = {
  title: 'Stay Ahead with Fresh Data!',
  text: 'Your session has been inactive. For the latest financial insights, please refresh.',
  button: 'Refresh Now',
} as const;

/**
 * SPEC §8, other: the premium dialog's default title and text (the spec gives the text only as
 * "about unlocking everything with premium membership plans") and its two buttons.
 */
export const PREMIUM_DIALOG = {
  title: 'Unrestricted Access',
  text: 'Unlock every dataset, endpoint and page with one of our premium membership plans.',
  keepBrowsing: 'Keep Browsing',
  subscribe: 'Get subscription',
} as const;
