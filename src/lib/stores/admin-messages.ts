import { map } from 'nanostores';
import type { HelpTopic } from '../help-topics.ts';
import { adminApi } from '../http.ts';
import { problemText, startStaffPage } from './admin-console.ts';

/*
 * The console's messages: enterprise enquiries, help center requests, contact page messages and job
 * applications, each list newest first and a page at a time, in four tabs. The tab shown is kept in
 * the address (`?tab=help`, `?tab=contact`, `?tab=applications`).
 */

/** An enterprise enquiry, as the admin API lists it. */
export interface EnterpriseMessage {
  id: string;
  name: string;
  email: string;
  company: string;
  jobTitle: string;
  companySize: string | null;
  message: string;
  consentedAt: string | null;
  userId: string | null;
  createdAt: string;
}

/** A help center request, as the admin API lists it. */
export interface HelpMessage {
  id: string;
  reference: string;
  name: string;
  email: string;
  topic: HelpTopic;
  message: string;
  userId: string | null;
  createdAt: string;
}

/** A message from the contact page, as the admin API lists it. */
export interface ContactPageMessage {
  id: string;
  reference: string;
  name: string;
  email: string;
  topic: string;
  message: string;
  userId: string | null;
  createdAt: string;
}

/** A job application from a role's page, as the admin API lists it. */
export interface JobApplicationMessage {
  id: string;
  reference: string;
  roleId: string;
  roleTitle: string;
  name: string;
  email: string;
  links: string[];
  coverNote: string;
  userId: string | null;
  createdAt: string;
}

export const MESSAGE_TABS = [
  { id: 'enterprise', label: 'Enterprise enquiries', path: 'enterprise-enquiries' },
  { id: 'help', label: 'Help center', path: 'support-requests' },
  { id: 'contact', label: 'Contact', path: 'contact-messages' },
  { id: 'applications', label: 'Job applications', path: 'job-applications' },
] as const;
export type MessageTab = (typeof MESSAGE_TABS)[number]['id'];

/** Messages per page. */
export const MESSAGES_PER_PAGE = 20;

export interface MessageList<T> {
  status: 'loading' | 'ready' | 'error';
  error: string;
  entries: T[];
  nextBefore: string | null;
  loadingMore: boolean;
}

export interface AdminMessagesState {
  tab: MessageTab;
  enterprise: MessageList<EnterpriseMessage>;
  help: MessageList<HelpMessage>;
  contact: MessageList<ContactPageMessage>;
  applications: MessageList<JobApplicationMessage>;
}

type AnyMessage = EnterpriseMessage | HelpMessage | ContactPageMessage | JobApplicationMessage;

function emptyList<T>(): MessageList<T> {
  return { status: 'loading', error: '', entries: [], nextBefore: null, loadingMore: false };
}

function initial(): AdminMessagesState {
  return {
    tab: 'enterprise',
    enterprise: emptyList(),
    help: emptyList(),
    contact: emptyList(),
    applications: emptyList(),
  };
}

export const $adminMessages = map<AdminMessagesState>(initial());

function setList(tab: MessageTab, changes: Partial<MessageList<AnyMessage>>): void {
  const state = $adminMessages.get();
  $adminMessages.set({ ...state, [tab]: { ...state[tab], ...changes } });
}

interface Page {
  entries: AnyMessage[];
  nextBefore: string | null;
}

function pathOf(tab: MessageTab): string {
  return MESSAGE_TABS.find((item) => item.id === tab)?.path ?? 'enterprise-enquiries';
}

/** Reads a tab's newest messages. */
export async function loadMessages(tab: MessageTab): Promise<void> {
  setList(tab, { status: 'loading', error: '' });
  try {
    const page = await adminApi<Page>(pathOf(tab), { query: { limit: MESSAGES_PER_PAGE } });
    setList(tab, { status: 'ready', entries: page.entries, nextBefore: page.nextBefore });
  } catch (error) {
    setList(tab, {
      status: 'error',
      error: problemText(error, 'The messages could not be read. Please try again.'),
    });
  }
}

/** Adds a tab's next, older page below. */
export async function loadOlderMessages(tab: MessageTab): Promise<void> {
  const list = $adminMessages.get()[tab];
  if (list.nextBefore === null || list.loadingMore) return;
  setList(tab, { loadingMore: true, error: '' });
  try {
    const page = await adminApi<Page>(pathOf(tab), {
      query: { limit: MESSAGES_PER_PAGE, before: list.nextBefore },
    });
    setList(tab, {
      loadingMore: false,
      entries: [...$adminMessages.get()[tab].entries, ...page.entries],
      nextBefore: page.nextBefore,
    });
  } catch (error) {
    setList(tab, {
      loadingMore: false,
      error: problemText(error, 'Older messages could not be read. Please try again.'),
    });
  }
}

/** Shows a tab, keeping it in the address. */
export function showTab(tab: MessageTab): void {
  $adminMessages.setKey('tab', tab);
  const url = new URL(location.href);
  if (tab === 'enterprise') url.searchParams.delete('tab');
  else url.searchParams.set('tab', tab);
  history.replaceState(history.state, '', url);
}

/** Starts the messages page once the visitor is confirmed as staff; every tab is read at once. */
export function startAdminMessages(): () => void {
  const asked = new URLSearchParams(location.search).get('tab');
  const tab = MESSAGE_TABS.find((item) => item.id === asked)?.id ?? 'enterprise';
  $adminMessages.set({ ...initial(), tab });
  const stop = startStaffPage(() => {
    for (const item of MESSAGE_TABS) void loadMessages(item.id);
  });
  return () => {
    stop();
    $adminMessages.set(initial());
  };
}
