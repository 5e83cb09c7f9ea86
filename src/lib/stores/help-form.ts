import { map } from 'nanostores';
import { helpFieldErrors, type HelpFieldErrors, type HelpRequestAnswer } from '../help-form.ts';
import type { HelpTopic } from '../help-topics.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, portal } from '../http.ts';
import { showFlash } from './auth.ts';
import type { UserState } from './user.ts';

export type HelpFormStatus = 'idle' | 'sending' | 'sent' | 'error';

/** What the visitor has typed, kept as typed (untrimmed) so nothing they wrote is ever lost. */
export interface HelpFormValues {
  name: string;
  email: string;
  topic: HelpTopic | '';
  message: string;
}

/** The help center's contact form: its values, where the request stands and what to tell the visitor. */
export interface HelpFormState {
  status: HelpFormStatus;
  values: HelpFormValues;
  errors: HelpFieldErrors;
  /** A problem with the whole form (network, server, too many requests), shown above the button. */
  message: string;
  /** Counts refused submissions, so the form can move focus to the first wrong field each time. */
  attempt: number;
  /** Fields the visitor has changed; prefilled account data never overwrites them. */
  edited: Partial<Record<keyof HelpFormValues, true>>;
  /** The reference of the request once stored, which the confirmation names. */
  reference: string;
}

export const HELP_FIX_FIELDS_MESSAGE = 'Please correct the highlighted fields and send your question again.';
export const HELP_FAILED_MESSAGE =
  'We could not send your question. Please try again in a moment; nothing you typed has been lost.';

const INITIAL: HelpFormState = {
  status: 'idle',
  values: { name: '', email: '', topic: '', message: '' },
  errors: {},
  message: '',
  attempt: 0,
  edited: {},
  reference: '',
};

export const $helpForm = map<HelpFormState>({ ...INITIAL });

type HelpRules = typeof import('../help-schema.ts');

let rules: Promise<HelpRules> | undefined;

/**
 * The request schema, loaded once and only when wanted: it brings zod, which the page itself does
 * not need to draw the form. A failed load is forgotten, so the next attempt tries again.
 */
export function loadHelpRules(): Promise<HelpRules> {
  rules ??= import('../help-schema.ts').catch((error: unknown) => {
    rules = undefined;
    throw error;
  });
  return rules;
}

/** Starts loading the schema early (when the visitor enters the form), so sending never waits for it. */
export function preloadHelpRules(): void {
  loadHelpRules().catch(() => {
    // Loading is tried again when the question is sent, which reports a failure.
  });
}

/** Without the field's error, so a message disappears as soon as the visitor starts fixing it. */
function withoutError(errors: HelpFieldErrors, field: keyof HelpFormValues): HelpFieldErrors {
  if (!(field in errors)) return errors;
  const rest = { ...errors };
  Reflect.deleteProperty(rest, field);
  return rest;
}

/** Records what the visitor typed or chose in one field. */
export function setHelpValue<K extends keyof HelpFormValues>(field: K, value: HelpFormValues[K]): void {
  const state = $helpForm.get();
  if (state.status === 'sending') return;
  $helpForm.set({
    ...state,
    values: { ...state.values, [field]: value },
    errors: withoutError(state.errors, field),
    edited: { ...state.edited, [field]: true },
  });
}

/**
 * Fills name and email from a signed-in account, leaving alone anything the visitor has already
 * typed; called again when the account arrives after the form (the session is restored on load).
 */
export function prefillHelp(
  user: Pick<UserState, 'authenticated' | 'firstname' | 'lastname' | 'username' | 'email'>,
): void {
  if (!user.authenticated) return;
  const state = $helpForm.get();
  if (state.status === 'sent') return;
  const fullName = `${user.firstname} ${user.lastname}`.trim();
  const name = fullName === '' ? user.username.trim() : fullName;
  const values = { ...state.values };
  if (state.edited.name !== true && values.name === '' && name !== '') values.name = name;
  if (state.edited.email !== true && values.email === '' && user.email !== '') values.email = user.email;
  if (values.name !== state.values.name || values.email !== state.values.email) {
    $helpForm.set({ ...state, values });
  }
}

/** The words for a failed request: the server's own (with field messages) or a clear fallback. */
function failure(error: unknown): { message: string; errors: HelpFieldErrors } {
  if (!(error instanceof ApiError)) return { message: HELP_FAILED_MESSAGE, errors: {} };
  if (error.status === 400) {
    const data = error.data as { issues?: unknown } | undefined;
    const issues = Array.isArray(data?.issues)
      ? (data.issues as { path: string; message: string }[]).filter(
          (issue) => typeof issue.path === 'string' && typeof issue.message === 'string',
        )
      : [];
    const errors = helpFieldErrors(issues);
    if (Object.keys(errors).length > 0) return { message: HELP_FIX_FIELDS_MESSAGE, errors };
    return { message: error.message, errors: {} };
  }
  if (error.status === 0) return { message: NETWORK_ERROR_MESSAGE, errors: {} };
  if (error.status === 429) return { message: error.message, errors: {} };
  return { message: error.status >= 500 ? HELP_FAILED_MESSAGE : error.message, errors: {} };
}

/**
 * Checks the form with the rules the server uses, then sends it. `honeypot` is the hidden field's
 * value, passed on untouched: only the server decides what a filled-in one means. Every failure keeps
 * the values, so the visitor can fix or retry without typing anything again.
 */
export async function submitHelp(honeypot = ''): Promise<void> {
  const state = $helpForm.get();
  if (state.status === 'sending' || state.status === 'sent') return;
  $helpForm.set({ ...state, status: 'sending', message: '' });
  let schema: HelpRules['helpRequestSchema'];
  try {
    schema = (await loadHelpRules()).helpRequestSchema;
  } catch {
    $helpForm.set({ ...state, status: 'error', message: NETWORK_ERROR_MESSAGE });
    showFlash(NETWORK_ERROR_MESSAGE);
    return;
  }
  const parsed = schema.safeParse({ ...state.values, website: honeypot });
  if (!parsed.success) {
    $helpForm.set({
      ...state,
      status: 'error',
      errors: helpFieldErrors(parsed.error.issues),
      message: HELP_FIX_FIELDS_MESSAGE,
      attempt: state.attempt + 1,
    });
    return;
  }
  $helpForm.set({ ...state, status: 'sending', errors: {}, message: '' });
  try {
    const answer = await portal<HelpRequestAnswer>('help/request', { method: 'POST', body: parsed.data });
    $helpForm.set({
      ...$helpForm.get(),
      status: 'sent',
      errors: {},
      message: '',
      reference: answer.reference,
    });
  } catch (error) {
    const { message, errors } = failure(error);
    const current = $helpForm.get();
    $helpForm.set({
      ...current,
      status: 'error',
      errors,
      message,
      attempt: current.attempt + (Object.keys(errors).length > 0 ? 1 : 0),
    });
    // SPEC §8: errors also show as an error flash message.
    showFlash(message);
  }
}

/** Starts a new, empty question (after a sent one, or when the visitor leaves the page). */
export function resetHelp(): void {
  $helpForm.set({ ...INITIAL });
}
