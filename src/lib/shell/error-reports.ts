import { api } from '../http.ts';
import { browserErrorReport, ErrorReportGate, type BrowserFailure } from '../error-reports.ts';

const gate = new ErrorReportGate();

function report(failure: BrowserFailure, value: unknown): void {
  const entry = browserErrorReport(failure, value, location.pathname);
  if (!gate.admit(entry)) return;
  // A report that fails is dropped, never reported in turn.
  api('/api/log', { method: 'POST', body: { ...entry }, refreshOn403: false }).catch(() => undefined);
}

/**
 * Sends the page's uncaught errors and unhandled rejections to the error logger (`POST /api/log`), where the
 * admin console lists them with their page: each distinct failure once per page view, at most five, with
 * credentials removed first (src/lib/error-reports.ts).
 */
export function startErrorReports(): void {
  addEventListener('error', (event: ErrorEvent) => {
    // A resource that failed to load (an image, a script) is no script error and has no error object.
    if (!(event instanceof ErrorEvent)) return;
    report('uncaught error', event.error ?? event.message);
  });
  addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    report('unhandled rejection', event.reason);
  });
  document.addEventListener('astro:page-load', () => {
    gate.reset();
  });
}
