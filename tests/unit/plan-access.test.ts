import { afterEach, describe, expect, it } from 'vitest';
import { $auth, PUBLIC_TOKEN, setAccessToken, signedIn } from '../../src/lib/stores/auth.ts';
import { $dataTier, $planSettled, includes, premiumContentState } from '../../src/lib/stores/plan-access.ts';
import { $sessionChecked } from '../../src/lib/stores/session.ts';
import { clearUser, setUserData } from '../../src/lib/stores/user.ts';

afterEach(() => {
  $auth.set({ ...$auth.get(), accessToken: PUBLIC_TOKEN, init: false });
  $sessionChecked.set(false);
  clearUser();
});

describe('premium sections', () => {
  it('open at once when the plan, even a stored one not yet confirmed, includes them', () => {
    expect(premiumContentState(2, 2, false)).toBe('open');
    expect(premiumContentState(2, 3, true)).toBe('open');
  });

  it('wait rather than lock while the plan is not settled, so subscribers are never told to pay', () => {
    expect(premiumContentState(2, 0, false)).toBe('pending');
  });

  it('lock once the settled plan falls short', () => {
    expect(premiumContentState(2, 1, true)).toBe('locked');
  });
});

describe('the visitor’s plan', () => {
  it('is the free level for signed-out visitors whatever a previous user left behind', () => {
    setUserData({ dataTier: 3 });
    setAccessToken(PUBLIC_TOKEN);
    expect($dataTier.get()).toBe(0);
    expect(includes(1)).toBe(false);
  });

  it('is the signed-in user’s data tier', () => {
    signedIn('token-1', { dataTier: 2 });
    expect($dataTier.get()).toBe(2);
    expect(includes(2)).toBe(true);
    expect(includes(3)).toBe(false);
  });

  it('is settled only once the session is restored and confirmed with the server', () => {
    expect($planSettled.get()).toBe(false);
    setAccessToken(PUBLIC_TOKEN);
    expect($planSettled.get()).toBe(false);
    $sessionChecked.set(true);
    expect($planSettled.get()).toBe(true);
  });
});
