/*
 * The sign-in form's Google button (page and pop-up). It sits apart from the Google identity calls
 * in social-sign-in.ts because it hands accounts that have not finished signing up over to the
 * sign-up flow, which itself builds on those calls.
 */
import { isEmailAddress } from '../form-rules.ts';
import { EMAIL_MESSAGE, FILL_ALL_FIELDS_MESSAGE } from '../messages.ts';
import {
  $signIn,
  completeSignIn,
  endSignInAttempt,
  failSignIn,
  signInPending,
  startLoading,
  type SignInFormKind,
} from './sign-in.ts';
import { continueUnfinishedGoogleSignUp } from './sign-up.ts';
import {
  socialSignInMessage,
  usesAuthEmulator,
  validatedGoogleSignIn,
  type ValidatedGoogleSignIn,
} from './social-sign-in.ts';

/**
 * Signs in with Google. An account whose sign-up questionnaire is not on record (a Google account
 * seen for the first time, say) goes on to the sign-up flow instead, as it would from the sign-up
 * form (SPEC §2, questionnaire): the session is stored only once the questionnaire is done. Resolves
 * true when signed in here.
 */
async function signInWithGoogle(form: SignInFormKind, emailForEmulator?: string): Promise<boolean> {
  startLoading(form, 'google');
  let google: ValidatedGoogleSignIn;
  try {
    google = await validatedGoogleSignIn(emailForEmulator);
  } catch (error) {
    failSignIn(form, socialSignInMessage(error));
    return false;
  }
  if (await continueUnfinishedGoogleSignUp(form, google)) {
    endSignInAttempt(form);
    return false;
  }
  completeSignIn(google.session);
  return true;
}

/**
 * The sign-in screen's Google button. Against the local Auth emulator it first asks which Google
 * account to sign in as; otherwise Google's window opens at once. Resolves true when signed in.
 */
export async function startGoogleSignIn(form: SignInFormKind): Promise<boolean> {
  if (signInPending()) return false;
  startLoading(form, 'google');
  let emulator: boolean;
  try {
    emulator = await usesAuthEmulator();
  } catch (error) {
    failSignIn(form, socialSignInMessage(error));
    return false;
  }
  if (!emulator) return signInWithGoogle(form);
  $signIn.set({ ...$signIn.get(), status: 'idle', form, askingGoogleEmail: true });
  return false;
}

/** Signs in as the Google account the visitor named for the local Auth emulator. */
export async function submitGoogleEmail(form: SignInFormKind, input: string): Promise<boolean> {
  if (signInPending()) return false;
  const email = input.trim();
  if (email === '' || !isEmailAddress(email)) {
    failSignIn(form, email === '' ? FILL_ALL_FIELDS_MESSAGE : EMAIL_MESSAGE);
    return false;
  }
  return signInWithGoogle(form, email);
}

/** Leaves the local Google sign-in without signing in. */
export function cancelGoogleEmail(): void {
  const state = $signIn.get();
  if (state.status === 'loading') return;
  $signIn.set({ ...state, status: 'idle', message: '', askingGoogleEmail: false });
}
