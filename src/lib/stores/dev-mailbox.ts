import { computed, map } from 'nanostores';
import { clientConfig } from '../client-config.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, api } from '../http.ts';

/** Where the site serves the local mailbox (src/server/routes/dev-mailbox.ts). */
export const DEV_MAILBOX_API_URL = '/api/dev/mailbox';

/** The page that shows it; linked only from the dashboard, and only while the mailbox exists. */
export const DEV_MAILBOX_PAGE = '/dev/mailbox';

/**
 * One email the site would have sent: the identity provider's (locally the Auth emulator sends no
 * mail and keeps each message's action link instead) or the product's own, such as the
 * confirmation of a help request, which carry their subject and text.
 */
export interface MailboxMessage {
  /** The product's own emails have an id; the identity provider's are told apart by their link. */
  id?: string;
  email: string;
  /**
   * The kind of message: the provider's ('VERIFY_EMAIL', 'PASSWORD_RESET', 'EMAIL_SIGNIN', …) or
   * the product's ('HELP_REQUEST_RECEIVED', 'BILLING_RECEIPT', 'BILLING_PAYMENT_FAILED', …).
   */
  requestType: string;
  /** The subject line of the product's own emails. */
  subject?: string;
  /** The plain text of the product's own emails. */
  body?: string;
  /**
   * The action link the email would contain: for password resets and address verifications the
   * site's own page (a path on this site, src/lib/action-link.ts), else the provider's link.
   */
  link: string;
  /** When the message was sent, if the provider says (ISO 8601). */
  createdAt?: string;
}

/**
 * GET /api/dev/mailbox: the product's own emails, newest first, then the identity provider's,
 * newest first (the emulator does not date its messages).
 */
export interface MailboxAnswer {
  messages: MailboxMessage[];
}

const KIND_LABELS: Readonly<Record<string, string>> = {
  VERIFY_EMAIL: 'Email verification',
  PASSWORD_RESET: 'Password reset',
  EMAIL_SIGNIN: 'Sign-in link',
  VERIFY_AND_CHANGE_EMAIL: 'Email address change',
  RECOVER_EMAIL: 'Email address recovery',
  HELP_REQUEST_RECEIVED: 'Help request received',
  CONTACT_MESSAGE_RECEIVED: 'Contact message received',
  JOB_APPLICATION_RECEIVED: 'Job application received',
  BILLING_RECEIPT: 'Payment receipt',
  BILLING_PAYMENT_FAILED: 'Payment failed',
  BILLING_CANCELED: 'Subscription canceled',
  BILLING_ENDED: 'Subscription ended',
};

/** A reader's name for a kind of message; unknown kinds are shown as the provider names them. */
export function messageKind(requestType: string): string {
  return KIND_LABELS[requestType] ?? requestType;
}

const LINK_LABELS: Readonly<Record<string, string>> = {
  VERIFY_EMAIL: 'Verify email address',
  PASSWORD_RESET: 'Reset password',
  EMAIL_SIGNIN: 'Sign in',
  VERIFY_AND_CHANGE_EMAIL: 'Confirm new address',
  RECOVER_EMAIL: 'Restore address',
  HELP_REQUEST_RECEIVED: 'Open the help center',
  CONTACT_MESSAGE_RECEIVED: 'Open the contact page',
  JOB_APPLICATION_RECEIVED: 'See the open roles',
  BILLING_RECEIPT: 'Open the dashboard',
  BILLING_PAYMENT_FAILED: 'Open the dashboard',
  BILLING_CANCELED: 'Open the dashboard',
  BILLING_ENDED: 'See the plans',
};

/** The words on a message's action link, saying what following it does. */
export function linkLabel(requestType: string): string {
  return LINK_LABELS[requestType] ?? 'Open link';
}

export type MailboxStatus = 'idle' | 'loading' | 'ready' | 'unavailable' | 'error';

/** The local mailbox page: the messages, the address filter and how loading went. */
export interface DevMailboxState {
  status: MailboxStatus;
  messages: MailboxMessage[];
  /** Part of an address; only messages to matching addresses are listed. */
  filter: string;
  /** Why the list could not be shown: the server's own words where it gave any. */
  error: string;
}

export const $devMailbox = map<DevMailboxState>({ status: 'idle', messages: [], filter: '', error: '' });

/** The messages to list: those whose address contains the filter, ignoring case and spaces around it. */
export const $visibleMessages = computed($devMailbox, ({ messages, filter }) => {
  const wanted = filter.trim().toLowerCase();
  return wanted === '' ? messages : messages.filter((m) => m.email.toLowerCase().includes(wanted));
});

let latestLoad = 0;

/**
 * Fetches the messages. A 404 means the site runs against the real identity provider, which mails
 * its messages itself; the page then shows the server's explanation. Only the newest load may
 * write, so a slow answer cannot replace a fresher one after Refresh.
 */
export async function loadMailbox(): Promise<void> {
  const request = ++latestLoad;
  $devMailbox.set({ ...$devMailbox.get(), status: 'loading', error: '' });
  try {
    const answer = await api<MailboxAnswer>(DEV_MAILBOX_API_URL, { refreshOn403: false });
    if (request !== latestLoad) return;
    $devMailbox.set({ ...$devMailbox.get(), status: 'ready', messages: answer.messages, error: '' });
  } catch (error) {
    if (request !== latestLoad) return;
    const failure = error instanceof ApiError ? error : new ApiError(0, NETWORK_ERROR_MESSAGE, undefined);
    $devMailbox.set({
      ...$devMailbox.get(),
      status: failure.status === 404 ? 'unavailable' : 'error',
      messages: [],
      error: failure.message,
    });
  }
}

/** Narrows the list to addresses containing this text. */
export function setMailboxFilter(filter: string): void {
  $devMailbox.setKey('filter', filter);
}

/**
 * Whether the local mailbox exists on this server. The server offers it exactly when it runs
 * against the Auth emulator, which its client configuration reports, so the dashboard learns this
 * without fetching anyone's messages.
 */
export async function mailboxAvailable(): Promise<boolean> {
  try {
    const { authEmulatorUrl } = await clientConfig();
    return typeof authEmulatorUrl === 'string';
  } catch {
    return false;
  }
}
