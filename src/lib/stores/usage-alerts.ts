import { map } from 'nanostores';
import type { UsageAlertsState } from '../dashboard-data.ts';
import { ApiError, portal } from '../http.ts';
import { $signedIn } from './auth.ts';
import { $sessionChecked, startSession } from './session.ts';

/*
 * The overview's usage alerts: the percentages of the daily calls the owner is mailed at, the
 * choice being edited, and today's standing for the banner.
 */

export interface UsageAlertsStore {
  status: 'loading' | 'ready' | 'error';
  alerts: UsageAlertsState | null;
  /** The percentages ticked, saved or not. */
  draft: number[];
  saving: boolean;
  /** What the last save did ('' before one). */
  message: string;
  messageType: 'success' | 'error';
}

const INITIAL: UsageAlertsStore = {
  status: 'loading',
  alerts: null,
  draft: [],
  saving: false,
  message: '',
  messageType: 'success',
};

export const $usageAlerts = map<UsageAlertsStore>({ ...INITIAL });

async function load(): Promise<void> {
  try {
    const alerts = await portal<UsageAlertsState>('user/usage-alerts');
    $usageAlerts.set({ ...$usageAlerts.get(), status: 'ready', alerts, draft: alerts.thresholds });
  } catch {
    $usageAlerts.setKey('status', 'error');
  }
}

let stopWatching: (() => void) | undefined;

/** Reads the alerts once the session is confirmed; shared by the banner and the settings. */
export function startUsageAlerts(): void {
  startSession();
  if (stopWatching !== undefined) return;
  stopWatching = $sessionChecked.subscribe((checked) => {
    if (checked && $signedIn.get() && $usageAlerts.get().alerts === null) void load();
  });
}

/** Ticks or unticks a percentage. */
export function toggleThreshold(threshold: number, on: boolean): void {
  const draft = new Set($usageAlerts.get().draft);
  if (on) draft.add(threshold);
  else draft.delete(threshold);
  $usageAlerts.set({ ...$usageAlerts.get(), draft: [...draft].sort((a, b) => a - b), message: '' });
}

/** Saves the ticked percentages. */
export async function saveThresholds(): Promise<void> {
  if ($usageAlerts.get().saving) return;
  $usageAlerts.set({ ...$usageAlerts.get(), saving: true, message: '' });
  try {
    const alerts = await portal<UsageAlertsState>('user/usage-alerts', {
      method: 'PUT',
      body: { thresholds: $usageAlerts.get().draft },
    });
    $usageAlerts.set({
      ...$usageAlerts.get(),
      saving: false,
      alerts,
      draft: alerts.thresholds,
      message:
        alerts.thresholds.length === 0
          ? 'Usage alerts are off.'
          : `Saved: you are emailed at ${alerts.thresholds.map((value) => `${String(value)}%`).join(', ')} of your daily calls.`,
      messageType: 'success',
    });
  } catch (error) {
    $usageAlerts.set({
      ...$usageAlerts.get(),
      saving: false,
      message:
        error instanceof ApiError ? error.message : 'Your alerts could not be saved. Please try again.',
      messageType: 'error',
    });
  }
}
