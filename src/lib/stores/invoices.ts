import { computed, map } from 'nanostores';
import { saveBlob } from '../download.ts';
import { fieldErrorsOf, type FieldIssue } from '../form-rules.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, portal } from '../http.ts';
import { invoiceFilename, type BillingProfileView, type InvoiceView } from '../invoices.ts';
import { $signedIn } from './auth.ts';
import { $sessionChecked, startSession } from './session.ts';
import { $user } from './user.ts';

// The invoices page (its list, the PDF downloads and the billing details form) and the printable
// page of one invoice. Everything is read from the accounts API with the session's token once the
// session is confirmed, and forgotten when another account signs in on the page.

export const PROFILE_SAVED_MESSAGE = 'Billing details saved. Your next invoices will carry them.';
export const PROFILE_FIX_MESSAGE = 'Please correct the highlighted fields.';

/** The id of the signed-in account once its session is confirmed on this page view, else ''. */
export const $invoiceOwner = computed(
  [$signedIn, $sessionChecked, $user],
  (signedIn, checked, user): string => (signedIn && checked && user.authenticated ? user.userid : ''),
);

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The invoices list and what the last download did. */
export interface InvoicesState {
  status: LoadStatus;
  invoices: InvoiceView[];
  /** Why the list could not be read ('' when it could). */
  error: string;
  /** The number whose PDF is being fetched ('' when none). */
  downloading: string;
  /** What the last download did, read out by a live region ('' before the first). */
  note: string;
  noteType: 'success' | 'error';
}

const INITIAL_INVOICES: InvoicesState = {
  status: 'idle',
  invoices: [],
  error: '',
  downloading: '',
  note: '',
  noteType: 'success',
};

export const $invoices = map<InvoicesState>({ ...INITIAL_INVOICES });

/** The billing details form's fields, flat as the form lays them out. */
export const PROFILE_FIELDS = ['name', 'line1', 'line2', 'city', 'postalCode', 'country'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileValues = Record<ProfileField, string>;

export interface BillingProfileState {
  status: LoadStatus;
  values: ProfileValues;
  errors: Partial<Record<ProfileField, string>>;
  saving: boolean;
  /** The outcome of the last save, or why the details could not be read. */
  message: string;
  messageType: 'success' | 'error';
  /** Counts refused saves, so the form can move focus to the first wrong field each time. */
  attempt: number;
}

const EMPTY_VALUES: ProfileValues = {
  name: '',
  line1: '',
  line2: '',
  city: '',
  postalCode: '',
  country: 'US',
};

const INITIAL_PROFILE: BillingProfileState = {
  status: 'idle',
  values: EMPTY_VALUES,
  errors: {},
  saving: false,
  message: '',
  messageType: 'success',
  attempt: 0,
};

export const $billingProfile = map<BillingProfileState>({ ...INITIAL_PROFILE });

function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : NETWORK_ERROR_MESSAGE;
}

let latestList = 0;

/** Reads the account's invoices, newest first; only the newest load may write. */
export async function loadInvoices(): Promise<void> {
  const call = ++latestList;
  $invoices.set({ ...$invoices.get(), status: 'loading', error: '' });
  try {
    const { invoices } = await portal<{ invoices: InvoiceView[] }>('billing/invoices');
    if (call === latestList) $invoices.set({ ...$invoices.get(), status: 'ready', invoices, error: '' });
  } catch (error) {
    if (call === latestList) $invoices.set({ ...$invoices.get(), status: 'error', error: messageOf(error) });
  }
}

function profileValues(profile: BillingProfileView): ProfileValues {
  const address = profile.address;
  return {
    name: profile.name,
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    city: address?.city ?? '',
    postalCode: address?.postalCode ?? '',
    country: address?.country ?? EMPTY_VALUES.country,
  };
}

let latestProfile = 0;

/** Reads the billing name and address the next invoices will carry. */
export async function loadBillingProfile(): Promise<void> {
  const call = ++latestProfile;
  $billingProfile.set({ ...$billingProfile.get(), status: 'loading', message: '' });
  try {
    const { profile } = await portal<{ profile: BillingProfileView }>('billing/profile');
    if (call !== latestProfile) return;
    $billingProfile.set({ ...INITIAL_PROFILE, status: 'ready', values: profileValues(profile) });
  } catch (error) {
    if (call !== latestProfile) return;
    $billingProfile.set({
      ...$billingProfile.get(),
      status: 'error',
      message: messageOf(error),
      messageType: 'error',
    });
  }
}

/** Drops what belongs to the account that was signed in, and any load still under way. */
function forgetAccount(): void {
  latestList += 1;
  latestProfile += 1;
  $invoices.set({ ...INITIAL_INVOICES });
  $billingProfile.set({ ...INITIAL_PROFILE });
}

/**
 * Starts the invoices page: the session check, then the list and the billing details once the
 * session is confirmed. Another account signing in starts over; the cleanup forgets everything.
 */
export function startInvoices(): () => void {
  startSession();
  let owner = '';
  const stop = $invoiceOwner.subscribe((id) => {
    if (id === '') return;
    if (id !== owner) {
      owner = id;
      forgetAccount();
    }
    if ($invoices.get().status === 'idle') void loadInvoices();
    if ($billingProfile.get().status === 'idle') void loadBillingProfile();
  });
  return () => {
    stop();
    forgetAccount();
  };
}

/** What a saved PDF is fetched and kept as: the session's token goes in a header, never in a link. */
export type PdfRequest = (number: string) => Promise<Blob>;

const requestPdf: PdfRequest = (number) =>
  portal<Blob>(`billing/invoices/${encodeURIComponent(number)}/pdf`, {
    responseType: 'blob',
    headers: { Accept: 'application/pdf' },
  });

/**
 * Fetches an invoice's PDF with the session's token and saves it under the invoice's file name. A
 * second click while one runs is ignored; a failure is said in the server's words.
 */
export async function downloadInvoicePdf(
  number: string,
  request: PdfRequest = requestPdf,
  save: (blob: Blob, filename: string) => void = saveBlob,
): Promise<void> {
  if ($invoices.get().downloading !== '') return;
  const filename = invoiceFilename(number);
  $invoices.set({
    ...$invoices.get(),
    downloading: number,
    note: `Preparing ${filename}…`,
    noteType: 'success',
  });
  try {
    save(await request(number), filename);
    $invoices.set({
      ...$invoices.get(),
      downloading: '',
      note: `Downloaded ${filename}.`,
      noteType: 'success',
    });
  } catch (error) {
    const note = `${filename} could not be downloaded: ${messageOf(error)}`;
    $invoices.set({ ...$invoices.get(), downloading: '', note, noteType: 'error' });
  }
}

/** Keeps what was typed in one field and clears that field's message. */
export function setProfileValue(field: ProfileField, value: string): void {
  const state = $billingProfile.get();
  const errors = Object.fromEntries(Object.entries(state.errors).filter(([name]) => name !== field));
  $billingProfile.set({ ...state, values: { ...state.values, [field]: value }, errors, message: '' });
}

/** The form's field an API issue is about: `address.city` is the form's `city`. */
function formIssues(issues: readonly FieldIssue[]): FieldIssue[] {
  return issues.map((issue) => ({
    ...issue,
    path: typeof issue.path === 'string' ? issue.path.replace(/^address\./, '') : issue.path,
  }));
}

function issuesOf(error: ApiError): FieldIssue[] {
  const data = error.data as { issues?: unknown } | undefined;
  return Array.isArray(data?.issues) ? (data.issues as FieldIssue[]) : [];
}

/**
 * Saves the billing name and address for future invoices; the server checks every field and each
 * refusal is shown beside its field. Invoices already issued keep the details they were issued with.
 */
export async function saveBillingProfile(): Promise<void> {
  const state = $billingProfile.get();
  if (state.saving) return;
  $billingProfile.set({ ...state, saving: true, errors: {}, message: '' });
  const { name, line1, line2, city, postalCode, country } = state.values;
  try {
    const { profile } = await portal<{ profile: BillingProfileView }>('billing/profile', {
      method: 'PUT',
      body: { name, address: { line1, line2, city, postalCode, country } },
    });
    $billingProfile.set({
      ...$billingProfile.get(),
      status: 'ready',
      values: profileValues(profile),
      saving: false,
      message: PROFILE_SAVED_MESSAGE,
      messageType: 'success',
    });
  } catch (error) {
    const errors =
      error instanceof ApiError ? fieldErrorsOf(PROFILE_FIELDS, formIssues(issuesOf(error))) : {};
    const wrongFields = Object.keys(errors).length > 0;
    $billingProfile.set({
      ...$billingProfile.get(),
      saving: false,
      errors,
      message: wrongFields ? PROFILE_FIX_MESSAGE : messageOf(error),
      messageType: 'error',
      attempt: $billingProfile.get().attempt + (wrongFields ? 1 : 0),
    });
  }
}

/** The printable page of one invoice. */
export type InvoicePageState =
  | { status: 'loading' }
  | { status: 'ready'; invoice: InvoiceView }
  | { status: 'missing' }
  | { status: 'error'; error: string };

export const $invoicePage = map<{ page: InvoicePageState }>({ page: { status: 'loading' } });

let latestInvoice = 0;

/** Reads one invoice; a 404 (not one of the account's, or no such number) is "not found". */
export async function loadInvoice(number: string): Promise<void> {
  const call = ++latestInvoice;
  $invoicePage.setKey('page', { status: 'loading' });
  try {
    const { invoice } = await portal<{ invoice: InvoiceView }>(
      `billing/invoices/${encodeURIComponent(number)}`,
    );
    if (call === latestInvoice) $invoicePage.setKey('page', { status: 'ready', invoice });
  } catch (error) {
    if (call !== latestInvoice) return;
    const missing = error instanceof ApiError && error.status === 404;
    $invoicePage.setKey(
      'page',
      missing ? { status: 'missing' } : { status: 'error', error: messageOf(error) },
    );
  }
}

/** Starts the printable page: the invoice is read once the session is confirmed. */
export function startInvoicePage(number: string): () => void {
  startSession();
  let owner = '';
  const stop = $invoiceOwner.subscribe((id) => {
    if (id === '' || id === owner) return;
    owner = id;
    void loadInvoice(number);
  });
  return () => {
    stop();
    latestInvoice += 1;
    $invoicePage.setKey('page', { status: 'loading' });
  };
}
