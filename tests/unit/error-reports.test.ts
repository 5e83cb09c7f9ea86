import { describe, expect, it } from 'vitest';
import {
  browserErrorReport,
  CUT_MARKER,
  ErrorReportGate,
  REPORTS_PER_PAGE_VIEW,
  STACK_TRACE_LIMIT,
} from '../../src/lib/error-reports.ts';
import { redactSecrets } from '../../src/lib/redact.ts';
import { newApiKey } from '../../src/server/services/key-format.ts';

describe('a browser error report', () => {
  it('carries the kind of failure, the message and stack, and the page it happened on', () => {
    const error = new TypeError('chart is undefined');
    const report = browserErrorReport('uncaught error', error, '/chart/AAPL');
    expect(report.type).toBe('browser: uncaught error');
    expect(report.stackTrace.split('\n')[0]).toBe('TypeError: chart is undefined');
    expect(report.stackTrace).toContain('error-reports.test.ts');
    expect(report.server).toBe('page /chart/AAPL');
  });

  it('writes out a rejection that is not an Error', () => {
    expect(browserErrorReport('unhandled rejection', 'quota exceeded', '/').stackTrace).toBe(
      'quota exceeded',
    );
    expect(browserErrorReport('unhandled rejection', { code: 42 }, '/').stackTrace).toBe('{"code":42}');
    expect(browserErrorReport('unhandled rejection', undefined, '/').stackTrace).toBe('undefined');
  });

  it('removes API keys, tokens and key parameters before anything is sent', () => {
    const key = newApiKey();
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const report = browserErrorReport(
      'unhandled rejection',
      new Error(`GET /stable/quote?symbol=AAPL&apikey=${key} failed; key ${key}; Bearer ${jwt}`),
      '/developer/docs',
    );
    expect(report.stackTrace).not.toContain(key);
    expect(report.stackTrace).not.toContain(jwt);
    expect(report.stackTrace.split('\n')[0]).toBe(
      'Error: GET /stable/quote?symbol=AAPL&apikey=[redacted] failed; key [redacted]; Bearer [redacted]',
    );
  });

  it('cuts a trace longer than the logger keeps, and says it was cut', () => {
    const report = browserErrorReport('uncaught error', 'x'.repeat(STACK_TRACE_LIMIT * 2), '/');
    expect(Array.from(report.stackTrace)).toHaveLength(STACK_TRACE_LIMIT);
    expect(report.stackTrace.endsWith(CUT_MARKER)).toBe(true);
  });
});

describe('which reports a page view sends', () => {
  it('sends each failure once, however often it repeats, and at most five per page view', () => {
    const gate = new ErrorReportGate();
    const first = browserErrorReport('uncaught error', new Error('one'), '/');
    expect(gate.admit(first)).toBe(true);
    expect(gate.admit(browserErrorReport('uncaught error', new Error('one'), '/'))).toBe(false);
    expect(gate.admit(browserErrorReport('unhandled rejection', new Error('one'), '/'))).toBe(true);
    for (let index = 2; index < REPORTS_PER_PAGE_VIEW; index += 1)
      expect(gate.admit(browserErrorReport('uncaught error', new Error(String(index)), '/'))).toBe(true);
    expect(gate.admit(browserErrorReport('uncaught error', new Error('sixth'), '/'))).toBe(false);
  });

  it('starts afresh on the next page view', () => {
    const gate = new ErrorReportGate();
    const report = browserErrorReport('uncaught error', new Error('again'), '/');
    expect(gate.admit(report)).toBe(true);
    gate.reset();
    expect(gate.admit(report)).toBe(true);
  });
});

describe('the one redactor', () => {
  it('finds the product’s API keys on their own, as in a pasted command', () => {
    const key = newApiKey();
    expect(redactSecrets(`curl https://example.com/stable/quote -H "apikey: ${key}"`)).toBe(
      'curl https://example.com/stable/quote -H "apikey: [redacted]"',
    );
  });
});
