import { map, type MapStore } from 'nanostores';
import type { FieldIssue } from '../form-rules.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, portal } from '../http.ts';
import { showFlash } from './auth.ts';
import type { UserState } from './user.ts';

/*
 * The site's contact forms (the enterprise enquiry, the help center's question) behave the same way:
 * values kept as typed, the server's rules checked in the browser before sending (the schema loads
 * on first use, as it brings zod), field messages from either side shown alike, account data filling
 * only what the visitor has not typed, and every failure keeping what was typed. One store factory
 * holds that behaviour; each form names its fields, schema, address and words.
 */

export type ContactFormStatus = 'idle' | 'sending' | 'sent' | 'error';

/** A contact form's state: its values, where the request stands and what to tell the visitor. */
export interface ContactFormState<V, E> {
  status: ContactFormStatus;
  values: V;
  errors: E;
  /** A problem with the whole form (network, server, too many requests), shown above the button. */
  message: string;
  /** Counts refused submissions, so the form can move focus to the first wrong field each time. */
  attempt: number;
  /** Fields the visitor has changed; prefilled account data never overwrites them. */
  edited: Partial<Record<keyof V, true>>;
  /** What the server named the stored request ('' when it names none), for the confirmation. */
  reference: string;
}

/** What a schema module offers the store: zod's safeParse, without the store importing zod. */
export interface FormSchema {
  safeParse(
    input: unknown,
  ): { success: true; data: Record<string, unknown> } | { success: false; error: { issues: FieldIssue[] } };
}

export interface ContactFormOptions<V extends { name: string; email: string }, E> {
  empty: V;
  /** The accounts API path under the portal the form is sent to. */
  path: string;
  loadSchema: () => Promise<FormSchema>;
  fieldErrors: (issues: readonly FieldIssue[]) => E;
  /** Shown when fields must be corrected. */
  fixMessage: string;
  /** Shown when the request failed for a reason of the server's. */
  failedMessage: string;
  /** The reference the server's answer names, if the form shows one. */
  referenceOf?: (answer: unknown) => string;
}

export interface ContactForm<V, E> {
  $form: MapStore<ContactFormState<V, E>>;
  /** The schema, loaded once and only when wanted; a failed load is forgotten, so the next try loads again. */
  loadRules: () => Promise<FormSchema>;
  /** Starts loading the schema early (when the visitor enters the form), so sending never waits for it. */
  preloadRules: () => void;
  /** Records what the visitor typed or chose in one field, and clears that field's message. */
  setValue: <K extends keyof V>(field: K, value: V[K]) => void;
  /**
   * Fills name and email from a signed-in account, leaving alone anything the visitor has typed;
   * called again when the account arrives after the form (the session is restored on load).
   */
  prefill: (user: Pick<UserState, 'authenticated' | 'firstname' | 'lastname' | 'username' | 'email'>) => void;
  /**
   * Checks the form with the server's rules, then sends it. `honeypot` is the hidden field's value,
   * passed on untouched: only the server decides what a filled-in one means.
   */
  submit: (honeypot?: string) => Promise<void>;
  /** Starts a new, empty form (after a sent one, or when the visitor leaves the page). */
  reset: () => void;
}

/** A contact form's store and actions (see the module note). */
export function createContactForm<
  V extends { name: string; email: string },
  E extends Partial<Record<string, string>>,
>(options: ContactFormOptions<V, E>): ContactForm<V, E> {
  const initial = (): ContactFormState<V, E> => ({
    status: 'idle',
    values: { ...options.empty },
    errors: {} as E,
    message: '',
    attempt: 0,
    edited: {},
    reference: '',
  });
  const $form = map<ContactFormState<V, E>>(initial());

  let rules: Promise<FormSchema> | undefined;
  const loadRules = (): Promise<FormSchema> => {
    rules ??= options.loadSchema().catch((error: unknown) => {
      rules = undefined;
      throw error;
    });
    return rules;
  };

  const failure = (error: unknown): { message: string; errors: E } => {
    const none = {} as E;
    if (!(error instanceof ApiError)) return { message: options.failedMessage, errors: none };
    if (error.status === 400) {
      const data = error.data as { issues?: unknown } | undefined;
      const issues = Array.isArray(data?.issues)
        ? (data.issues as { path: unknown; message: unknown }[]).filter(
            (issue): issue is FieldIssue =>
              typeof issue.path === 'string' && typeof issue.message === 'string',
          )
        : [];
      const errors = options.fieldErrors(issues);
      if (Object.keys(errors).length > 0) return { message: options.fixMessage, errors };
      return { message: error.message, errors: none };
    }
    if (error.status === 0) return { message: NETWORK_ERROR_MESSAGE, errors: none };
    if (error.status === 429) return { message: error.message, errors: none };
    return { message: error.status >= 500 ? options.failedMessage : error.message, errors: none };
  };

  return {
    $form,
    loadRules,
    preloadRules: () => {
      loadRules().catch(() => {
        // Loading is tried again when the form is sent, which reports a failure.
      });
    },
    setValue: (field, value) => {
      const state = $form.get();
      if (state.status === 'sending') return;
      const errors = { ...state.errors };
      Reflect.deleteProperty(errors, field);
      $form.set({
        ...state,
        values: { ...state.values, [field]: value },
        errors,
        edited: { ...state.edited, [field]: true },
      });
    },
    prefill: (user) => {
      if (!user.authenticated) return;
      const state = $form.get();
      if (state.status === 'sent') return;
      const fullName = `${user.firstname} ${user.lastname}`.trim();
      const name = fullName === '' ? user.username.trim() : fullName;
      const values = { ...state.values };
      if (state.edited.name !== true && values.name === '' && name !== '') values.name = name;
      if (state.edited.email !== true && values.email === '' && user.email !== '') values.email = user.email;
      if (values.name !== state.values.name || values.email !== state.values.email)
        $form.set({ ...state, values });
    },
    submit: async (honeypot = '') => {
      const state = $form.get();
      if (state.status === 'sending' || state.status === 'sent') return;
      $form.set({ ...state, status: 'sending', message: '' });
      let schema: FormSchema;
      try {
        schema = await loadRules();
      } catch {
        $form.set({ ...state, status: 'error', message: NETWORK_ERROR_MESSAGE });
        showFlash(NETWORK_ERROR_MESSAGE);
        return;
      }
      const parsed = schema.safeParse({ ...state.values, website: honeypot });
      if (!parsed.success) {
        $form.set({
          ...state,
          status: 'error',
          errors: options.fieldErrors(parsed.error.issues),
          message: options.fixMessage,
          attempt: state.attempt + 1,
        });
        return;
      }
      $form.set({ ...state, status: 'sending', errors: {} as E, message: '' });
      try {
        const answer = await portal<unknown>(options.path, { method: 'POST', body: parsed.data });
        $form.set({
          ...$form.get(),
          status: 'sent',
          errors: {} as E,
          message: '',
          reference: options.referenceOf?.(answer) ?? '',
        });
      } catch (error) {
        const { message, errors } = failure(error);
        const current = $form.get();
        $form.set({
          ...current,
          status: 'error',
          errors,
          message,
          attempt: current.attempt + (Object.keys(errors).length > 0 ? 1 : 0),
        });
        // SPEC §8: errors also show as an error flash message.
        showFlash(message);
      }
    },
    reset: () => {
      $form.set(initial());
    },
  };
}
