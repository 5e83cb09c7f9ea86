import { redactSecrets } from './redact.ts';

/** SPEC §7 and §9: the error logger keeps stack traces of at most 3000 characters. */
export const STACK_TRACE_LIMIT = 3000;
/** Ends a stack trace that was cut, so nobody mistakes it for the whole trace. */
export const CUT_MARKER = ' …[cut]';
/** Reports one page view sends at most: a page failing in a loop must not flood the logger. */
export const REPORTS_PER_PAGE_VIEW = 5;

/** What went wrong: an error thrown and not caught, or a promise rejected with nobody to handle it. */
export type BrowserFailure = 'uncaught error' | 'unhandled rejection';

/** The logger's payload (SPEC §7 `POST /log`): `server` names the page the error happened on. */
export interface BrowserErrorReport {
  type: string;
  stackTrace: string;
  server: string;
}

/** The limit of a report's short fields (server, cron, fargate, channel), in browser and server alike. */
export const SHORT_FIELD_LIMIT = 200;

/**
 * At most `limit` characters, counted as code points (as the database counts them), the last ones replaced
 * by the cut marker: the browser cuts a report so, and the server cuts whatever reaches it the same way.
 */
export function cutText(text: string, limit: number): string {
  // A string of at most `limit` UTF-16 units has at most that many code points.
  if (text.length <= limit) return text;
  const characters = Array.from(text);
  if (characters.length <= limit) return text;
  return characters
    .slice(0, limit - CUT_MARKER.length)
    .join('')
    .concat(CUT_MARKER);
}

/** The message and stack of whatever was thrown: an Error's own, or the value written out. */
function traceOf(value: unknown): string {
  if (value instanceof Error) {
    const headline = `${value.name}: ${value.message}`;
    const stack = value.stack ?? '';
    // V8 starts the stack with the headline; other engines list the frames only.
    return stack.startsWith(headline) ? stack : `${headline}\n${stack}`.trimEnd();
  }
  if (typeof value === 'string') return value;
  try {
    // Undefined, a function or a symbol are no JSON: JSON.stringify answers undefined for them.
    const written = JSON.stringify(value) as string | undefined;
    return written ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The report of a failure on a page: credentials removed before anything leaves the browser (an API key
 * or a token can sit in a message or a URL), the trace cut to the logger's limit, and the page's path
 * without its query (which can hold anything).
 */
export function browserErrorReport(
  failure: BrowserFailure,
  value: unknown,
  pagePath: string,
): BrowserErrorReport {
  return {
    type: `browser: ${failure}`,
    stackTrace: cutText(redactSecrets(traceOf(value)), STACK_TRACE_LIMIT),
    server: cutText(redactSecrets(`page ${pagePath}`), SHORT_FIELD_LIMIT),
  };
}

/** The same failure, whatever its line numbers: its kind and the first line of its trace. */
function signatureOf(report: BrowserErrorReport): string {
  return `${report.type}|${report.stackTrace.split('\n', 1)[0] ?? ''}`;
}

/**
 * Decides which failures of a page view are sent: each distinct failure once, and at most
 * {@link REPORTS_PER_PAGE_VIEW} of them, so a page failing in a loop costs the logger five calls.
 */
export class ErrorReportGate {
  private readonly seen = new Set<string>();
  private readonly limit: number;

  constructor(limit: number = REPORTS_PER_PAGE_VIEW) {
    this.limit = limit;
  }

  /** Whether to send this report (and remember that it was). */
  admit(report: BrowserErrorReport): boolean {
    const signature = signatureOf(report);
    if (this.seen.has(signature) || this.seen.size >= this.limit) return false;
    this.seen.add(signature);
    return true;
  }

  /** A new page view: its failures are reported afresh. */
  reset(): void {
    this.seen.clear();
  }
}
