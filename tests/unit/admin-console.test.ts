import { describe, expect, it } from 'vitest';
import type { AdminAuditEntry } from '../../src/lib/admin.ts';
import {
  auditActionLabel,
  auditChange,
  auditReason,
  errorHeadline,
  firstOrder,
  planName,
  replyHref,
  reportOrigin,
  shares,
  traceLines,
  userSearchFromParams,
  userSearchQuery,
  userSearchToParams,
} from '../../src/lib/admin-console.ts';

function entry(action: string, details: Record<string, unknown>): AdminAuditEntry {
  return {
    id: '1',
    action,
    actorUserId: null,
    actor: null,
    targetUserId: null,
    target: null,
    details,
    createdAt: '2026-05-01T10:00:00.000Z',
  };
}

describe('the users list’s query in the address', () => {
  it('reads every filter, the sort and the cursor from a linked address', () => {
    const search = userSearchFromParams(
      new URLSearchParams(
        'q=ada&plan=monthlyT2&role=analyst&blocked=true&verified=false&legacy=true&from=2026-01-01&to=2026-02-01&sort=email&order=asc&cursor=abc',
      ),
    );
    expect(search).toEqual({
      q: 'ada',
      plan: 'monthlyT2',
      role: 'analyst',
      blocked: true,
      verified: false,
      legacy: true,
      from: '2026-01-01',
      to: '2026-02-01',
      sort: 'email',
      order: 'asc',
      cursor: 'abc',
    });
  });

  it('leaves out what the admin API would refuse instead of failing the whole list', () => {
    expect(
      userSearchFromParams(
        new URLSearchParams('q=%20%20&role=owner&blocked=maybe&from=yesterday&sort=password&order=up'),
      ),
    ).toEqual({});
  });

  it('writes back the same address it reads, without the filters left unset', () => {
    const address = 'q=ada&plan=free&blocked=false&sort=createdAt&order=desc';
    expect(userSearchToParams(userSearchFromParams(new URLSearchParams(address))).toString()).toBe(address);
    expect(userSearchToParams({}).toString()).toBe('');
  });

  it('asks the admin API for one page of fifty', () => {
    expect(userSearchQuery({ q: 'ada' })).toEqual({ q: 'ada', limit: 50 });
  });

  it('sorts dates newest first and names from A when a column is first chosen', () => {
    expect(firstOrder('createdAt')).toBe('desc');
    expect(firstOrder('email')).toBe('asc');
  });
});

describe('the audit trail in words', () => {
  it('names every action the console records, and an unknown one by its code', () => {
    expect(auditActionLabel('plan_change')).toBe('Plan changed');
    expect(auditActionLabel('something_new')).toBe('something new');
  });

  it('puts the reason in its own column and the change beside it', () => {
    const planChange = entry('plan_change', {
      reason: 'Goodwill after the outage',
      via: 'console',
      from: 'free',
      to: 'monthlyT2',
    });
    expect(auditReason(planChange)).toBe('Goodwill after the outage');
    expect(auditChange(planChange)).toBe('free → monthlyT2; using: console');
  });

  it('names a revoked key by its name and last four, never by its id', () => {
    const revoke = entry('api_key_revoke', {
      reason: 'Leaked on a forum',
      keyId: '7d4c1a2e-0b6f-4c1e-9a57-3f1e2d4c5b6a',
      name: 'Default key',
      last4: 'a1B2',
      replacedBy: 'z9Y8',
    });
    expect(auditChange(revoke)).toBe('key: Default key; ending in: a1B2; new key ending in: z9Y8');
  });

  it('words yes-or-no changes, and leaves out what is not text', () => {
    expect(auditChange(entry('block', { from: false, to: true, nested: { a: 1 } }))).toBe('no → yes');
    expect(auditReason(entry('api_key_roll', {}))).toBe('');
  });
});

describe('browser reports in the console', () => {
  it('shows the escaped line breaks of a stored trace as lines', () => {
    expect(traceLines('TypeError: x is undefined\\n    at draw (chart.js:1:2)')).toEqual([
      'TypeError: x is undefined',
      '    at draw (chart.js:1:2)',
    ]);
  });

  it('takes the first line as the message, or the type when the trace is empty', () => {
    expect(errorHeadline('TypeError', 'TypeError: x is undefined\\n    at draw')).toBe(
      'TypeError: x is undefined',
    );
    expect(errorHeadline('unhandledrejection', '')).toBe('unhandledrejection');
  });

  it('labels a page’s own report by its page, and any other by the server it names', () => {
    expect(reportOrigin('page /chart/AAPL')).toEqual({ label: 'Page', value: '/chart/AAPL' });
    expect(reportOrigin('web-3')).toEqual({ label: 'Server', value: 'web-3' });
    expect(reportOrigin('')).toEqual({ label: 'Server', value: '' });
  });
});

describe('the console’s small helpers', () => {
  it('scales a chart’s bars to the largest value, and an empty chart to nothing', () => {
    expect(shares([0, 5, 10])).toEqual([0, 0.5, 1]);
    expect(shares([0, 0])).toEqual([0, 0]);
  });

  it('names a plan from the catalogue, or by its code when the catalogue has no such plan', () => {
    const plans = [{ code: 'monthlyT2', name: 'Professional' }];
    expect(planName(plans, 'monthlyT2')).toBe('Professional');
    expect(planName(plans, 'retired')).toBe('retired');
  });

  it('writes a reply link with its subject encoded', () => {
    expect(replyHref('ada@example.com', 'HC-ABCD2345: your help request')).toBe(
      'mailto:ada@example.com?subject=HC-ABCD2345%3A%20your%20help%20request',
    );
  });
});
