import { map } from 'nanostores';
import { enquiryFieldErrors, type CompanySize, type EnquiryFieldErrors } from '../enterprise-form.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, portal } from '../http.ts';
import { showFlash } from './auth.ts';
import type { UserState } from './user.ts';

export type EnterpriseFormStatus = 'idle' | 'sending' | 'sent' | 'error';

/** What the visitor has typed, kept as typed (untrimmed) so nothing they wrote is ever lost. */
export interface EnterpriseFormValues {
  name: string;
  email: string;
  company: string;
  jobTitle: string;
  companySize: CompanySize | '';
  message: string;
  consent: boolean;
}

export type TextField = Exclude<keyof EnterpriseFormValues, 'consent'>;

/** The enterprise enquiry form: its values, where the request stands and what to tell the visitor. */
export interface EnterpriseFormState {
  status: EnterpriseFormStatus;
  values: EnterpriseFormValues;
  errors: EnquiryFieldErrors;
  /** A problem with the whole form (network, server, too many enquiries), shown above the button. */
  message: string;
  /** Counts refused submissions, so the form can move focus to the first wrong field each time. */
  attempt: number;
  /** Fields the visitor has changed; prefilled account data never overwrites them. */
  edited: Partial<Record<keyof EnterpriseFormValues, true>>;
}

export const FIX_FIELDS_MESSAGE = 'Please correct the highlighted fields and send your enquiry again.';
export const ENQUIRY_FAILED_MESSAGE =
  'We could not send your enquiry. Please try again in a moment; nothing you typed has been lost.';

const EMPTY_VALUES: EnterpriseFormValues = {
  name: '',
  email: '',
  company: '',
  jobTitle: '',
  companySize: '',
  message: '',
  consent: false,
};

const INITIAL: EnterpriseFormState = {
  status: 'idle',
  values: EMPTY_VALUES,
  errors: {},
  message: '',
  attempt: 0,
  edited: {},
};

export const $enterpriseForm = map<EnterpriseFormState>({ ...INITIAL });

type EnquiryRules = typeof import('../enterprise-schema.ts');

let rules: Promise<EnquiryRules> | undefined;

/**
 * The enquiry schema, loaded once and only when wanted: it brings zod, which the page itself does
 * not need to draw the form. A failed load is forgotten, so the next attempt tries again.
 */
export function loadEnquiryRules(): Promise<EnquiryRules> {
  rules ??= import('../enterprise-schema.ts').catch((error: unknown) => {
    rules = undefined;
    throw error;
  });
  return rules;
}

/** Starts loading the schema early (e.g. when the visitor enters the form), so sending never waits for it. */
export function preloadEnquiryRules(): void {
  loadEnquiryRules().catch(() => {
    // Loading is tried again when the enquiry is sent, which reports a failure.
  });
}

/** Without the field's error, so a message disappears as soon as the visitor starts fixing it. */
function withoutError(errors: EnquiryFieldErrors, field: keyof EnterpriseFormValues): EnquiryFieldErrors {
  if (!(field in errors)) return errors;
  const rest = { ...errors };
  Reflect.deleteProperty(rest, field);
  return rest;
}

/** Records what the visitor typed or chose in one field. */
export function setEnquiryValue<K extends keyof EnterpriseFormValues>(
  field: K,
  value: EnterpriseFormValues[K],
): void {
  const state = $enterpriseForm.get();
  if (state.status === 'sending') return;
  $enterpriseForm.set({
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
export function prefillEnquiry(
  user: Pick<UserState, 'authenticated' | 'firstname' | 'lastname' | 'username' | 'email'>,
): void {
  if (!user.authenticated) return;
  const state = $enterpriseForm.get();
  if (state.status === 'sent') return;
  const fullName = `${user.firstname} ${user.lastname}`.trim();
  const name = fullName === '' ? user.username.trim() : fullName;
  const values = { ...state.values };
  if (state.edited.name !== true && values.name === '' && name !== '') values.name = name;
  if (state.edited.email !== true && values.email === '' && user.email !== '') values.email = user.email;
  if (values.name !== state.values.name || values.email !== state.values.email) {
    $enterpriseForm.set({ ...state, values });
  }
}

/** The words for a failed request: the server's own (with field messages) or a clear fallback. */
function failure(error: unknown): { message: string; errors: EnquiryFieldErrors } {
  if (!(error instanceof ApiError)) return { message: ENQUIRY_FAILED_MESSAGE, errors: {} };
  if (error.status === 400) {
    const data = error.data as { issues?: unknown } | undefined;
    const issues = Array.isArray(data?.issues)
      ? (data.issues as { path: string; message: string }[]).filter(
          (issue) => typeof issue.path === 'string' && typeof issue.message === 'string',
        )
      : [];
    const errors = enquiryFieldErrors(issues);
    if (Object.keys(errors).length > 0) return { message: FIX_FIELDS_MESSAGE, errors };
    return { message: error.message, errors: {} };
  }
  if (error.status === 0) return { message: NETWORK_ERROR_MESSAGE, errors: {} };
  if (error.status === 429) return { message: error.message, errors: {} };
  return { message: error.status >= 500 ? ENQUIRY_FAILED_MESSAGE : error.message, errors: {} };
}

/**
 * Checks the form with the rules the server uses, then sends it. `honeypot` is the hidden field's
 * value, passed on untouched: only the server decides what a filled-in one means. Every failure keeps
 * the values, so the visitor can fix or retry without typing anything again.
 */
export async function submitEnquiry(honeypot = ''): Promise<void> {
  const state = $enterpriseForm.get();
  if (state.status === 'sending' || state.status === 'sent') return;
  $enterpriseForm.set({ ...state, status: 'sending', message: '' });
  let schema: EnquiryRules['enterpriseEnquirySchema'];
  try {
    schema = (await loadEnquiryRules()).enterpriseEnquirySchema;
  } catch {
    $enterpriseForm.set({ ...state, status: 'error', message: NETWORK_ERROR_MESSAGE });
    showFlash(NETWORK_ERROR_MESSAGE);
    return;
  }
  const parsed = schema.safeParse({ ...state.values, website: honeypot });
  if (!parsed.success) {
    $enterpriseForm.set({
      ...state,
      status: 'error',
      errors: enquiryFieldErrors(parsed.error.issues),
      message: FIX_FIELDS_MESSAGE,
      attempt: state.attempt + 1,
    });
    return;
  }
  $enterpriseForm.set({ ...state, status: 'sending', errors: {}, message: '' });
  try {
    await portal<{ id: string }>('enterprise/enquiry', { method: 'POST', body: parsed.data });
    $enterpriseForm.set({ ...$enterpriseForm.get(), status: 'sent', errors: {}, message: '' });
  } catch (error) {
    const { message, errors } = failure(error);
    const current = $enterpriseForm.get();
    $enterpriseForm.set({
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

/** Starts a new, empty enquiry (after a sent one, or when the visitor leaves the page). */
export function resetEnquiry(): void {
  $enterpriseForm.set({ ...INITIAL });
}
