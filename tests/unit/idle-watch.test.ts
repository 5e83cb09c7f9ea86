import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $sessionInactive,
  IDLE_CHECK_INTERVAL_MS,
  SESSION_INACTIVE_AFTER_MS,
  startIdleWatch,
  type IdleTarget,
} from '../../src/lib/stores/ui.ts';

/** A document stand-in: the unit project runs in Node, which has EventTarget but no document. */
function fakeDocument(): IdleTarget & { visibilityState: DocumentVisibilityState } {
  const state: { visibilityState: DocumentVisibilityState } = { visibilityState: 'visible' };
  return Object.assign(new EventTarget(), state);
}

let stop: () => void = () => undefined;

beforeEach(() => {
  vi.useFakeTimers();
  $sessionInactive.set({ open: false, refreshed: false });
});

afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('the session-inactive watch', () => {
  it('asks for a refresh once the page has been left alone for thirty minutes', () => {
    stop = startIdleWatch({ target: fakeDocument() });
    vi.advanceTimersByTime(SESSION_INACTIVE_AFTER_MS - IDLE_CHECK_INTERVAL_MS);
    expect($sessionInactive.get().open).toBe(false);
    vi.advanceTimersByTime(IDLE_CHECK_INTERVAL_MS);
    expect($sessionInactive.get().open).toBe(true);
  });

  it('does not interrupt a visitor who keeps reading and scrolling', () => {
    const target = fakeDocument();
    stop = startIdleWatch({ target });
    for (let minute = 0; minute < 90; minute += 10) {
      vi.advanceTimersByTime(10 * 60_000);
      target.dispatchEvent(new Event('scroll'));
    }
    expect($sessionInactive.get().open).toBe(false);
  });

  it('asks at once when a tab hidden for longer than the threshold becomes visible again', () => {
    const target = fakeDocument();
    let clock = 0;
    stop = startIdleWatch({ target, now: () => clock });
    target.visibilityState = 'hidden';
    target.dispatchEvent(new Event('visibilitychange'));
    // A sleeping laptop runs no timers: only the clock moves.
    clock += SESSION_INACTIVE_AFTER_MS + 1;
    target.visibilityState = 'visible';
    target.dispatchEvent(new Event('visibilitychange'));
    expect($sessionInactive.get().open).toBe(true);
  });

  it('does not ask again while the refresh it asked for is under way', () => {
    $sessionInactive.set({ open: false, refreshed: true });
    stop = startIdleWatch({ target: fakeDocument() });
    vi.advanceTimersByTime(2 * SESSION_INACTIVE_AFTER_MS);
    expect($sessionInactive.get().open).toBe(false);
  });
});
