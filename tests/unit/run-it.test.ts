import { beforeEach, describe, expect, it } from 'vitest';
import {
  $runIt,
  $runItExplanation,
  explainAnswer,
  explainUnreachable,
  runItUrl,
  type RunItAnswer,
} from '../../src/lib/stores/run-it.ts';
import { $user, EMPTY_USER } from '../../src/lib/stores/user.ts';

const QUOTE = [{ symbol: 'AAPL', name: 'Apple Inc.', price: 237.37 }];

function answer(status: number, changes: Partial<RunItAnswer> = {}): RunItAnswer {
  return {
    status,
    statusText: '',
    ms: 12,
    body: status < 400 ? QUOTE : { 'Error Message': `Refused with ${String(status)}.` },
    text: '',
    demo: true,
    keyKind: 'account',
    retryAfter: null,
    ...changes,
  };
}

const hrefs = (explanation: ReturnType<typeof explainAnswer>): string[] =>
  explanation?.links.map((link) => link.href) ?? [];

describe('"Run it" on the quickstart', () => {
  it('explains nothing when the API answered', () => {
    expect(explainAnswer(answer(200), true)).toBeNull();
    expect(explainAnswer(answer(304), true)).toBeNull();
  });

  it('tells an unverified developer to verify the address, with the way to resend the email', () => {
    const explanation = explainAnswer(answer(403), false);
    expect(explanation).toMatchObject({
      message: 'Refused with 403.',
      advice:
        'Your email address is not verified yet, so your key does not answer calls: verify it with the link we emailed you (your dashboard sends a new one), then run it again.',
      links: [{ href: '/developer/docs/dashboard', label: 'Resend the email from your dashboard' }],
      retry: true,
    });
  });

  it('tells a verified developer whose key is refused to retry shortly or write to support', () => {
    expect(explainAnswer(answer(403), true)?.advice).toBe(
      'If you verified your address a moment ago, run it again in a minute. If your account is blocked, write to support@tickerlake.com.',
    );
  });

  it('says a reached call limit, how long to wait, and where usage and more calls are', () => {
    const explanation = explainAnswer(answer(429, { retryAfter: '42' }), true);
    expect(explanation?.advice).toBe(
      "Your plan's call limit is reached: wait 42 seconds, then run it again. Your dashboard shows today's usage; a paid plan allows more calls.",
    );
    expect(hrefs(explanation)).toEqual(['/developer/docs/dashboard', '/developer/docs/pricing']);
    expect(explainAnswer(answer(429), true)?.advice).toContain('wait a little, then run it again');
  });

  it('offers a visitor who reached the visitor limit a key of their own', () => {
    const explanation = explainAnswer(answer(429, { keyKind: 'visitor', retryAfter: '5' }), false);
    expect(explanation?.advice).toBe(
      "The visitor access's call limit is reached: wait 5 seconds, then run it again, or get a free API key of your own for more calls.",
    );
    expect(hrefs(explanation)).toEqual(['/register', '/login']);
  });

  it('sends a developer whose key was replaced to the current key, and a visitor to sign in', () => {
    expect(explainAnswer(answer(401), true)).toMatchObject({
      advice:
        'Your key was not accepted: it may have been replaced. Reload this page to use your current key, which the API keys page shows.',
      links: [{ href: '/developer/docs/api-keys' }],
      retry: false,
    });
    expect(hrefs(explainAnswer(answer(401, { keyKind: 'visitor' }), false))).toEqual(['/login']);
  });

  it('points a request outside the plan at the pricing page', () => {
    expect(hrefs(explainAnswer(answer(402), true))).toEqual(['/developer/docs/pricing']);
  });

  it('offers a retry and the status page when the API fails, in its words or in its status', () => {
    const explanation = explainAnswer(answer(503, { body: undefined, text: '' }), true);
    expect(explanation).toMatchObject({
      message: 'The data API answered 503.',
      advice: 'The data API is having trouble: see the status page, and run it again shortly.',
      retry: true,
    });
    expect(hrefs(explanation)).toEqual(['/developer/docs/status/']);
  });

  it('offers a retry when the data API cannot be reached, keeping the browser’s reason', () => {
    const reason =
      'The data API could not be reached at http://localhost:4322. Check your connection, then see the status page.';
    expect(explainUnreachable(reason)).toMatchObject({ message: reason, retry: true });
  });

  describe('the page’s explanation', () => {
    beforeEach(() => {
      $user.set({ ...EMPTY_USER, authenticated: true, apiKey: 'tlk_key', emailVerified: false });
    });

    it('follows the last run and the account’s verification state', () => {
      $runIt.set({ status: 'answered', answer: answer(200) });
      expect($runItExplanation.get()).toBeNull();
      $runIt.set({ status: 'answered', answer: answer(403) });
      expect($runItExplanation.get()?.links[0]?.label).toBe('Resend the email from your dashboard');
      $user.setKey('emailVerified', true);
      expect($runItExplanation.get()?.links[0]?.label).toBe('Open your dashboard');
      $runIt.set({ status: 'unreachable', message: 'Offline.' });
      expect($runItExplanation.get()).toMatchObject({ message: 'Offline.', retry: true });
    });
  });

  it('writes the request’s address with its query encoded, without the key', () => {
    expect(runItUrl('http://127.0.0.1:4672', { path: '/stable/quote', query: [['symbol', 'BRK.B']] })).toBe(
      'http://127.0.0.1:4672/stable/quote?symbol=BRK.B',
    );
  });
});
