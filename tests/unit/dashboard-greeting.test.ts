import { describe, expect, it } from 'vitest';
import { greeting } from '../../src/lib/stores/dashboard.ts';

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
