import { atom, computed } from 'nanostores';
import { ApiError, dataApiGet } from '../http.ts';
import { errorMessageOf, refusalAdvice, withKey } from '../playground.ts';
import { API_KEYS_PAGE, AUTH_LINKS } from '../routes.ts';
import { SUPPORT_EMAIL } from '../messages.ts';
import { $keyOwner, $apiUrl, requestKey, startApiUrl } from './data-api-access.ts';
import { $user } from './user.ts';

/*
 * "Run it" on the quickstart: sends the page's documented request to the data API from the
 * browser, as the reader's own code would (their key, or the site's visitor access when signed
 * out; data-api-access.ts decides which), and keeps the answer as it came, refusals included, so
 * the page can show the real status, the time it took and the JSON, or say in words what went
 * wrong and what to do about it.
 */

/** The documented request: an endpoint path under the data API and its query, without the key. */
export interface RunItRequest {
  path: string;
  query: readonly (readonly [string, string])[];
}

/** Whose key a run carried. */
export type KeyKind = 'account' | 'visitor';

/** An answer of the data API, as the page shows it. */
export interface RunItAnswer {
  status: number;
  statusText: string;
  /** From sending to the last byte read, in milliseconds. */
  ms: number;
  /** The parsed JSON body; undefined when the body is not JSON. */
  body: unknown;
  /** The body's text (the message of a refusal that is not JSON). */
  text: string;
  /** The answer comes from the generated demo data set (X-Data-Source: demo), not from markets. */
  demo: boolean;
  keyKind: KeyKind;
  /** Seconds to wait before the next call, when a call limit is reached (Retry-After). */
  retryAfter: string | null;
}

export type RunItState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'answered'; answer: RunItAnswer }
  /** The data API was not reached (offline, timed out): the browser's words. */
  | { status: 'unreachable'; message: string };

export const $runIt = atom<RunItState>({ status: 'idle' });

/** A way out of a refusal: a page to open. */
export interface RunItLink {
  href: string;
  label: string;
}

/** What went wrong, in words: the API's message, what to do, where to go, and whether to offer a retry. */
export interface RunItExplanation {
  message: string;
  advice: string;
  links: RunItLink[];
  retry: boolean;
}

/** Where the status page is, for failures on the API's side. */
export const STATUS_PAGE = '/developer/docs/status/';

function waitText(retryAfter: string | null): string {
  return retryAfter === null ? 'wait a little' : `wait ${retryAfter} seconds`;
}

/**
 * Why a run was refused and what the reader can do, by status and by whose key it carried. An
 * unverified account is told to confirm its address (the API refuses such a key with 403), a
 * visitor who runs out of the visitor access is offered a key of their own; the other refusals
 * read as in the API viewer. Null for an answer that is not a refusal.
 */
export function explainAnswer(answer: RunItAnswer, emailVerified: boolean): RunItExplanation | null {
  if (answer.status < 400) return null;
  const message =
    errorMessageOf(answer.body) ??
    (answer.text.trim() === ''
      ? `The data API answered ${String(answer.status)}.`
      : answer.text.slice(0, 500));
  const account = answer.keyKind === 'account';
  const dashboard = { href: AUTH_LINKS.dashboard, label: 'Open your dashboard' };
  const pricing = { href: AUTH_LINKS.pricing, label: 'See plans and pricing' };
  const signUp = { href: AUTH_LINKS.signUp, label: 'Get a free API key' };
  switch (answer.status) {
    case 401:
      return account
        ? {
            message,
            advice:
              'Your key was not accepted: it may have been replaced. Reload this page to use your current key, which the API keys page shows.',
            links: [{ href: API_KEYS_PAGE, label: 'Open your API keys' }],
            retry: false,
          }
        : {
            message,
            advice:
              'The visitor access was not accepted: reload this page to get a new one, or sign in to run it with your own key.',
            links: [{ href: AUTH_LINKS.signIn, label: 'Sign in' }],
            retry: false,
          };
    case 402:
      return {
        message,
        advice: 'Your plan does not include this request. The message names the plan that does.',
        links: [pricing],
        retry: false,
      };
    case 403:
      if (!account) {
        return { message, advice: refusalAdvice(answer.status, false, null), links: [], retry: false };
      }
      return emailVerified
        ? {
            message,
            advice: `If you verified your address a moment ago, run it again in a minute. If your account is blocked, write to ${SUPPORT_EMAIL}.`,
            links: [dashboard],
            retry: true,
          }
        : {
            message,
            advice:
              'Your email address is not verified yet, so your key does not answer calls: verify it with the link we emailed you (your dashboard sends a new one), then run it again.',
            links: [{ href: AUTH_LINKS.dashboard, label: 'Resend the email from your dashboard' }],
            retry: true,
          };
    case 429:
      return account
        ? {
            message,
            advice: `Your plan's call limit is reached: ${waitText(answer.retryAfter)}, then run it again. Your dashboard shows today's usage; a paid plan allows more calls.`,
            links: [dashboard, pricing],
            retry: true,
          }
        : {
            message,
            advice: `The visitor access's call limit is reached: ${waitText(answer.retryAfter)}, then run it again, or get a free API key of your own for more calls.`,
            links: [signUp, { href: AUTH_LINKS.signIn, label: 'Sign in' }],
            retry: true,
          };
    default:
      return answer.status >= 500
        ? {
            message,
            advice: 'The data API is having trouble: see the status page, and run it again shortly.',
            links: [{ href: STATUS_PAGE, label: 'See the status page' }],
            retry: true,
          }
        : {
            message,
            advice: refusalAdvice(answer.status, account, answer.retryAfter),
            links: [],
            retry: false,
          };
  }
}

/** A run that never reached the data API: the browser's reason, and a retry. */
export function explainUnreachable(message: string): RunItExplanation {
  return {
    message,
    advice:
      'Run it again once your connection is back; if it keeps failing, the status page says whether the API is down.',
    links: [{ href: STATUS_PAGE, label: 'See the status page' }],
    retry: true,
  };
}

/** What the page says about the last run: null while nothing went wrong. */
export const $runItExplanation = computed([$runIt, $user], (state, user): RunItExplanation | null => {
  if (state.status === 'unreachable') return explainUnreachable(state.message);
  if (state.status === 'answered') return explainAnswer(state.answer, user.emailVerified);
  return null;
});

/** Whose key the next run carries: the account's (with the last four characters to tell it), or the visitor access. */
export const $runItKey = computed($keyOwner, (owner) =>
  owner.kind === 'account'
    ? { kind: 'account' as const, last4: owner.key.slice(-4) }
    : { kind: 'visitor' as const },
);

function parsed(text: string, contentType: string): unknown {
  if (!contentType.includes('json')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function header(headers: readonly (readonly [string, string])[], name: string): string | null {
  return headers.find(([candidate]) => candidate.toLowerCase() === name)?.[1] ?? null;
}

/** The request's address without the key, against the data API this browser reaches. */
export function runItUrl(apiUrl: string, request: RunItRequest): string {
  const query = request.query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `${apiUrl}${request.path}${query === '' ? '' : `?${query}`}`;
}

let running: AbortController | undefined;

/** Settles once the running server has said where this browser reaches the data API. */
let apiUrlKnown: Promise<void> = Promise.resolve();

/** Sends the request with the reader's key (or the visitor access) and keeps the answer, or why none came. */
export async function runIt(request: RunItRequest): Promise<void> {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  $runIt.set({ status: 'running' });
  const keyKind = $keyOwner.get().kind;
  try {
    const key = await requestKey();
    await apiUrlKnown;
    const url = withKey(runItUrl($apiUrl.get(), request), key);
    // Every press is a call of its own, counted and logged, never an answer the browser kept.
    const answer = await dataApiGet(url, controller.signal, 'no-store');
    if (controller.signal.aborted) return;
    $runIt.set({
      status: 'answered',
      answer: {
        status: answer.status,
        statusText: answer.statusText,
        ms: answer.ms,
        body: parsed(answer.text, answer.contentType),
        text: answer.text,
        demo: header(answer.headers, 'x-data-source') === 'demo',
        keyKind,
        retryAfter: header(answer.headers, 'retry-after'),
      },
    });
  } catch (error) {
    if (controller.signal.aborted) return;
    $runIt.set({
      status: 'unreachable',
      message: error instanceof ApiError ? error.message : 'The request could not be sent.',
    });
  } finally {
    if (running === controller) running = undefined;
  }
}

/**
 * Starts "Run it" on a page built with the data API's address `builtUrl` (the running server may
 * name another); returns the stop for the island's unmount, which forgets the last run, so a page
 * opened again starts clean.
 */
export function startRunIt(builtUrl: string): () => void {
  apiUrlKnown = startApiUrl(builtUrl);
  return () => {
    running?.abort();
    running = undefined;
    $runIt.set({ status: 'idle' });
  };
}
