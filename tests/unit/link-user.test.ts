/**
 * The Link User store's rules without a browser: which accounts can be viewed, how the banner shows
 * the time left, when a switch ends (read from its token) and what the flash says when a switch ends
 * by itself. The switch itself runs against the real server in tests/e2e/link-user.spec.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  formatTimeLeft,
  RETURNED_MESSAGE,
  switchOverMessage,
  switchRefusal,
  tokenExpiry,
} from '../../src/lib/stores/link-user.ts';

vi.mock('astro:transitions/client', () => ({ navigate: vi.fn(() => Promise.resolve()) }));

/** A token shaped like the accounts API's, with only the claims the browser reads. */
function tokenWith(claims: Record<string, unknown>): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'at+jwt' })}.${part(claims)}.signature`;
}

describe('which accounts can be viewed', () => {
  it('refuses administrators and blocked accounts, as the server does, and offers everyone else', () => {
    expect(switchRefusal({ role: 'admin', blocked: false })).toBe('Administrators cannot be viewed.');
    expect(switchRefusal({ role: 'user', blocked: true })).toBe('Blocked accounts cannot be viewed.');
    expect(switchRefusal({ role: 'user', blocked: false })).toBeNull();
    expect(switchRefusal({ role: 'analyst', blocked: false })).toBeNull();
  });
});

describe('the time left', () => {
  it('shows minutes and seconds, rounding part of a second up and never going below zero', () => {
    expect(formatTimeLeft(15 * 60_000)).toBe('15:00');
    expect(formatTimeLeft(14 * 60_000 + 5_000)).toBe('14:05');
    expect(formatTimeLeft(59_001)).toBe('1:00');
    expect(formatTimeLeft(400)).toBe('0:01');
    expect(formatTimeLeft(0)).toBe('0:00');
    expect(formatTimeLeft(-5000)).toBe('0:00');
  });
});

describe('when a switch ends', () => {
  it("is read from the switched token's expiry", () => {
    expect(tokenExpiry(tokenWith({ sub: 'u1', exp: 1_900_000_000 }))).toBe(1_900_000_000_000);
  });

  it('is unknown for a token without an expiry or that is no token at all', () => {
    expect(tokenExpiry(tokenWith({ sub: 'u1' }))).toBeUndefined();
    expect(tokenExpiry('public')).toBeUndefined();
    expect(tokenExpiry('a.%%%.b')).toBeUndefined();
  });
});

describe('the flash of a switch that ended by itself', () => {
  it('says the 15 minutes are over, or that the view was ended, and that the administrator is back', () => {
    expect(switchOverMessage('alice', true)).toBe(
      `Your 15 minutes viewing alice are over. ${RETURNED_MESSAGE}`,
    );
    expect(switchOverMessage('alice', false)).toBe(`Your view of alice was ended. ${RETURNED_MESSAGE}`);
  });
});
