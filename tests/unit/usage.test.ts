import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/http.ts';
import type { PricePlan } from '../../src/lib/price-plans.ts';
import { $auth, signedIn, signedOut } from '../../src/lib/stores/auth.ts';
import { $dashboard } from '../../src/lib/stores/dashboard.ts';
import { $pricing } from '../../src/lib/stores/pricing.ts';
import { $sessionChecked } from '../../src/lib/stores/session.ts';
import { $snackbars, hideSnackbar } from '../../src/lib/stores/snackbar.ts';
import {
  $usage,
  $usageView,
  API_KEY_PLACEHOLDER,
  callsOn,
  copyExample,
  curlExample,
  dailySeries,
  endpointTotals,
  EXAMPLE_COPIED_MESSAGE,
  EXAMPLE_COPY_REFUSED_MESSAGE,
  formatBytes,
  formatDay,
  loadUsage,
  startUsage,
  summarizeUsage,
  todayUsage,
  USAGE_DAYS,
  type UsageAnswer,
  type UsageRow,
} from '../../src/lib/stores/usage.ts';
import { clearUser, setUserData } from '../../src/lib/stores/user.ts';

function plan(overrides: Partial<PricePlan> = {}): PricePlan {
  return {
    code: 'free',
    name: 'Free',
    planType: 'personal',
    billingInterval: 'month',
    priceCents: 0,
    discountedPriceCents: null,
    currency: 'usd',
    callsPerMinute: 30,
    callsPerDay: 250,
    features: [],
    sortOrder: 10,
    ...overrides,
  };
}

const ROWS: UsageRow[] = [
  { date: '2026-03-01', endpoint: 'quote', calls: 3, bytes: 1200 },
  { date: '2026-03-01', endpoint: 'profile', calls: 1, bytes: 900 },
  { date: '2026-03-03', endpoint: 'historical-price-eod/full', calls: 2, bytes: 2_500_000 },
  { date: '2026-03-04', endpoint: 'quote', calls: 7, bytes: 2800 },
  { date: '2026-03-04', endpoint: 'profile', calls: 5, bytes: 4500 },
];

const ANSWER: UsageAnswer = { from: '2026-03-01', to: '2026-03-04', usage: ROWS };

describe('the daily series', () => {
  it('has one entry per day of the range, days without calls as 0', () => {
    expect(dailySeries(ROWS, '2026-03-01', '2026-03-04').map(({ date, calls }) => [date, calls])).toEqual([
      ['2026-03-01', 4],
      ['2026-03-02', 0],
      ['2026-03-03', 2],
      ['2026-03-04', 12],
    ]);
  });

  it('scales each day against the busiest one', () => {
    const shares = dailySeries(ROWS, '2026-03-01', '2026-03-04').map((day) => day.share);
    expect(shares).toEqual([4 / 12, 0, 2 / 12, 1]);
  });

  it('covers 30 days across a month end with no calls at all as flat zeros', () => {
    const days = dailySeries([], '2026-02-15', '2026-03-16');
    expect(days).toHaveLength(30);
    expect(days[0]?.date).toBe('2026-02-15');
    expect(days[14]?.date).toBe('2026-03-01');
    expect(days.every((day) => day.calls === 0 && day.share === 0)).toBe(true);
  });

  it('is empty for a reversed or malformed range instead of guessing', () => {
    expect(dailySeries(ROWS, '2026-03-04', '2026-03-01')).toEqual([]);
    expect(dailySeries(ROWS, 'yesterday', '2026-03-01')).toEqual([]);
  });
});

describe('the per-endpoint totals', () => {
  it('add calls and bytes over the period, busiest endpoint first', () => {
    expect(endpointTotals(ROWS)).toEqual([
      { endpoint: 'quote', calls: 10, bytes: 4000 },
      { endpoint: 'profile', calls: 6, bytes: 5400 },
      { endpoint: 'historical-price-eod/full', calls: 2, bytes: 2_500_000 },
    ]);
  });

  it('order endpoints with equal calls by name, so the list does not shuffle between refreshes', () => {
    const tied: UsageRow[] = [
      { date: '2026-03-01', endpoint: 'search-symbol', calls: 2, bytes: 10 },
      { date: '2026-03-01', endpoint: 'profile', calls: 2, bytes: 10 },
    ];
    expect(endpointTotals(tied).map((entry) => entry.endpoint)).toEqual(['profile', 'search-symbol']);
  });
});

describe("today's calls", () => {
  it('add every endpoint of the day', () => {
    expect(callsOn(ROWS, '2026-03-04')).toBe(12);
    expect(callsOn(ROWS, '2026-03-02')).toBe(0);
  });

  it('read against the daily limit of the plan', () => {
    expect(todayUsage(12, plan())).toEqual({
      calls: 12,
      limit: 250,
      share: 12 / 250,
      text: '12 of 250 calls today',
    });
  });

  it('separate thousands and keep a full meter when the limit is reached', () => {
    const today = todayUsage(50_000, plan({ callsPerDay: 50_000 }));
    expect(today.text).toBe('50,000 of 50,000 calls today');
    expect(today.share).toBe(1);
  });

  it('have no limit when the plan has no daily cap or is not known', () => {
    expect(todayUsage(1, plan({ callsPerDay: null }))).toEqual({
      calls: 1,
      limit: null,
      share: 0,
      text: '1 call today',
    });
    expect(todayUsage(3, null).limit).toBeNull();
  });
});

describe('the usage summary', () => {
  it('puts today, the per-minute limit, the series and the endpoints together', () => {
    const summary = summarizeUsage(ANSWER, plan());
    expect(summary.today.text).toBe('12 of 250 calls today');
    expect(summary.perMinute).toBe('Up to 30 calls per minute.');
    expect(summary.unlimitedDaily).toBe(false);
    expect(summary.days).toHaveLength(4);
    expect(summary.endpoints[0]?.endpoint).toBe('quote');
    expect(summary.totalCalls).toBe(18);
    expect(summary.totalBytes).toBe(2_509_400);
  });

  it('says so when the plan has neither a daily nor a per-minute cap', () => {
    const summary = summarizeUsage(ANSWER, plan({ callsPerDay: null, callsPerMinute: null }));
    expect(summary.unlimitedDaily).toBe(true);
    expect(summary.perMinute).toBe('Your plan has no per-minute limit.');
  });

  it('claims no limits while the plan is unknown', () => {
    const summary = summarizeUsage(ANSWER, null);
    expect(summary.unlimitedDaily).toBe(false);
    expect(summary.perMinute).toBeNull();
  });
});

describe('byte formatting', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1 kB'],
    [1536, '1.5 kB'],
    [999_949, '999.9 kB'],
    [999_950, '1 MB'],
    [2_500_000, '2.5 MB'],
    [3_210_000_000, '3.2 GB'],
  ])('shows %d bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('shows nonsense as nothing sent rather than NaN', () => {
    expect(formatBytes(Number.NaN)).toBe('0 B');
    expect(formatBytes(-5)).toBe('0 B');
  });
});

describe('days and the example command', () => {
  it('name the UTC day whatever the reader’s time zone', () => {
    expect(formatDay('2026-03-01')).toBe('Mar 1, 2026');
  });

  it('asks for a quote with the placeholder unless a key is given', () => {
    expect(curlExample('', 'https://data.example')).toBe(
      `curl "https://data.example/stable/quote?symbol=AAPL&apikey=${API_KEY_PLACEHOLDER}"`,
    );
    expect(curlExample('abc123', 'https://data.example')).toBe(
      'curl "https://data.example/stable/quote?symbol=AAPL&apikey=abc123"',
    );
  });
});

describe('loading the usage', () => {
  afterEach(() => {
    $usage.set({ status: 'idle', answer: null, error: '' });
  });

  it('asks for the dashboard period and keeps the answer', async () => {
    const asked: number[] = [];
    await loadUsage((days) => {
      asked.push(days);
      return Promise.resolve(ANSWER);
    });
    expect(asked).toEqual([USAGE_DAYS]);
    expect($usage.get()).toEqual({ status: 'ready', answer: ANSWER, error: '' });
  });

  it('keeps the numbers shown and reports the server’s words when a refresh fails', async () => {
    await loadUsage(() => Promise.resolve(ANSWER));
    await loadUsage(() => Promise.reject(new ApiError(503, 'Usage is briefly unavailable.', undefined)));
    expect($usage.get()).toEqual({ status: 'error', answer: ANSWER, error: 'Usage is briefly unavailable.' });
  });

  it('lets only the newest load write, so a slow older answer cannot replace a fresher one', async () => {
    let answerSlow: (answer: UsageAnswer) => void = () => undefined;
    const slow = loadUsage(
      () =>
        new Promise<UsageAnswer>((resolve) => {
          answerSlow = resolve;
        }),
    );
    const fresh: UsageAnswer = { ...ANSWER, usage: [] };
    await loadUsage(() => Promise.resolve(fresh));
    answerSlow(ANSWER);
    await slow;
    expect($usage.get().answer).toBe(fresh);
  });
});

describe('the usage view', () => {
  const INITIAL_AUTH = $auth.get();

  beforeEach(() => {
    $pricing.setKey('plans', [plan()]);
  });

  afterEach(() => {
    signedOut();
    $auth.set({ ...INITIAL_AUTH });
    clearUser();
    $sessionChecked.set(false);
    $pricing.setKey('plans', []);
    $dashboard.setKey('keyRevealed', false);
    $usage.set({ status: 'idle', answer: null, error: '' });
  });

  function signIn(emailVerified = true): void {
    signedIn('token', {});
    setUserData({ email: 'dev@example.com', apiKey: 'secret-key-1234', planCode: 'free', emailVerified });
    $sessionChecked.set(true);
  }

  it('shows nothing to a signed-out visitor', () => {
    $usage.set({ status: 'ready', answer: ANSWER, error: '' });
    expect($usageView.get()).toEqual({ status: 'hidden' });
  });

  it('waits for the confirmed session before showing any numbers', () => {
    signedIn('token', {});
    setUserData({ email: 'dev@example.com', planCode: 'free' });
    $usage.set({ status: 'ready', answer: ANSWER, error: '' });
    expect($usageView.get()).toEqual({ status: 'loading' });
  });

  it('shows the failure with the server’s words when the first load fails', () => {
    signIn();
    $usage.set({ status: 'error', answer: null, error: 'Please sign in again.' });
    expect($usageView.get()).toEqual({ status: 'error', error: 'Please sign in again.' });
  });

  it('puts the key into the example only while the dashboard shows it revealed', () => {
    signIn(false);
    $usage.set({ status: 'ready', answer: { ...ANSWER, usage: [] }, error: '' });
    const masked = $usageView.get();
    expect(masked.status === 'ready' && masked.example).toContain(`apikey=${API_KEY_PLACEHOLDER}`);
    expect(masked.status === 'ready' && masked.keyActive).toBe(false);
    $dashboard.setKey('keyRevealed', true);
    const revealed = $usageView.get();
    expect(revealed.status === 'ready' && revealed.example).toContain('apikey=secret-key-1234');
  });

  it('uses the limits of the signed-in user’s plan', () => {
    signIn();
    $usage.set({ status: 'ready', answer: ANSWER, error: '' });
    const view = $usageView.get();
    expect(view.status === 'ready' && view.summary.today.text).toBe('12 of 250 calls today');
  });

  it('loads once the session is confirmed and forgets the numbers when the panel goes away', async () => {
    const asked: number[] = [];
    const stop = startUsage((days) => {
      asked.push(days);
      return Promise.resolve(ANSWER);
    });
    expect(asked).toEqual([]);
    signIn();
    expect(asked).toEqual([USAGE_DAYS]);
    await expect.poll(() => $usage.get().status).toBe('ready');
    $dashboard.setKey('keyRevealed', true);
    expect(asked).toHaveLength(1);
    stop();
    expect($usage.get()).toEqual({ status: 'idle', answer: null, error: '' });
  });

  it('starts over when another account signs in on the page', async () => {
    const stop = startUsage(() => Promise.resolve(ANSWER));
    signIn();
    await expect.poll(() => $usage.get().status).toBe('ready');
    setUserData({
      email: 'other@example.com',
      apiKey: 'other-key-5678',
      planCode: 'free',
      emailVerified: true,
    });
    expect($usage.get().status).toBe('loading');
    await expect.poll(() => $usage.get().status).toBe('ready');
    stop();
  });
});

describe('copying the example command', () => {
  afterEach(() => {
    for (const { id } of $snackbars.get()) hideSnackbar(id);
  });

  it('copies the command as shown and confirms it', async () => {
    const copied: string[] = [];
    await copyExample('curl "x"', {
      writeText: (text) => {
        copied.push(text);
        return Promise.resolve();
      },
    });
    expect(copied).toEqual(['curl "x"']);
    expect($snackbars.get().at(-1)?.text).toBe(EXAMPLE_COPIED_MESSAGE);
  });

  it('says so when the browser refuses or has no clipboard', async () => {
    await copyExample('curl "x"', { writeText: () => Promise.reject(new Error('denied')) });
    expect($snackbars.get().at(-1)?.text).toBe(EXAMPLE_COPY_REFUSED_MESSAGE);
    await copyExample('curl "x"', undefined);
    expect($snackbars.get().at(-1)?.text).toBe(EXAMPLE_COPY_REFUSED_MESSAGE);
  });
});
