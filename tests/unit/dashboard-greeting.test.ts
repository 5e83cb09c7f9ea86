import { describe, expect, it } from 'vitest';
import type { AccountKey } from '../../src/lib/dashboard-data.ts';
import { $dashboard, greeting, loadExpiringKeys } from '../../src/lib/stores/dashboard.ts';

describe('the dashboard’s greeting', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');

  it('welcomes an account on its first day, not back', () => {
    expect(greeting('ada', '2026-11-26T09:00:00Z', now)).toBe('Welcome, ada');
  });

  it('welcomes back an account older than a day', () => {
    expect(greeting('ada', '2026-11-20T09:00:00Z', now)).toBe('Welcome back, ada');
  });

  it('welcomes back when the sign-up time is unknown', () => {
    expect(greeting('ada', '', now)).toBe('Welcome back, ada');
  });
});

describe('the overview’s key card', () => {
  const key = (last4: string, expiresAt: string | null): AccountKey => ({
    id: last4,
    name: 'Default key',
    primary: expiresAt === null,
    key: `tlk_${last4}`,
    last4,
    createdAt: '2026-11-01T00:00:00Z',
    lastUsedAt: null,
    expiresAt,
    callsToday: 0,
  });
  const inHours = (hours: number): string => new Date(Date.now() + hours * 3_600_000).toISOString();

  it('warns of replaced keys still working, soonest to stop first, and not of ended ones', async () => {
    await loadExpiringKeys(() =>
      Promise.resolve({
        keys: [
          key('new1', null),
          key('old2', inHours(24)),
          key('old1', inHours(1)),
          key('gone', inHours(-1)),
        ],
        additionalAllowed: 0,
        additionalUsed: 0,
      }),
    );
    expect($dashboard.get().expiringKeys.map((item) => item.last4)).toEqual(['old1', 'old2']);
  });

  it('shows no warning when the keys cannot be read', async () => {
    await loadExpiringKeys(() => Promise.reject(new Error('offline')));
    expect($dashboard.get().expiringKeys).toEqual([]);
  });
});
