import { map } from 'nanostores';
import {
  ADMIN_ROLES,
  REASON_MAX_LENGTH,
  type AdminKey,
  type AdminUserDetail,
  type AdminUserRow,
} from '../admin.ts';
import { planName, roleLabel } from '../admin-console.ts';
import { adminApi, portal } from '../http.ts';
import type { PricePlan, PricePlansAnswer } from '../price-plans.ts';
import { problemText, startStaffPage } from './admin-console.ts';
import { showFlash } from './auth.ts';

/*
 * One user's page in the console (`?id=`): the account as the admin API describes it, and the
 * administrators' actions on it. Each action is asked for in a dialog that says what will happen and
 * takes the reason the audit trail keeps; after it the page reads the account again and says what
 * changed, or puts the refusal in words in the dialog.
 */

/** The actions the user's page offers administrators. */
export type AdminActionKind =
  'block' | 'unblock' | 'role' | 'plan' | 'legacy' | 'resend' | 'revoke' | 'sessions';

/** The action being asked for: its kind, the key it is about, and the value chosen (role or plan). */
export interface PendingAction {
  kind: AdminActionKind;
  key?: AdminKey;
  choice: string;
}

export interface AdminUserState {
  status: 'loading' | 'ready' | 'error';
  error: string;
  id: string;
  detail: AdminUserDetail | null;
  plans: PricePlan[];
  pending: PendingAction | null;
  busy: boolean;
  /** Why the pending action was refused, in words; '' when it was not. */
  problem: string;
  /** The field the refusal is about (`reason`, `choice`), for its input's invalid mark. */
  problemField: '' | 'reason' | 'choice';
}

const INITIAL: AdminUserState = {
  status: 'loading',
  error: '',
  id: '',
  detail: null,
  plans: [],
  pending: null,
  busy: false,
  problem: '',
  problemField: '',
};

export const $adminUser = map<AdminUserState>({ ...INITIAL });

/** The reason's refusal, in the admin API's words. */
export const REASON_MESSAGE = 'Give a reason: it is kept in the audit trail.';
export const REASON_TOO_LONG_MESSAGE = `A reason can be at most ${String(REASON_MAX_LENGTH)} characters.`;
export const NO_USER_MESSAGE = 'The address names no user. Find one on the Users page.';

let ticket = 0;

/** Reads the user's page. */
export async function loadUser(): Promise<void> {
  const mine = ++ticket;
  const { id } = $adminUser.get();
  if (id === '') {
    $adminUser.set({ ...$adminUser.get(), status: 'error', error: NO_USER_MESSAGE });
    return;
  }
  if ($adminUser.get().detail === null) $adminUser.setKey('status', 'loading');
  try {
    const detail = await adminApi<AdminUserDetail>(`users/${encodeURIComponent(id)}`);
    if (mine !== ticket) return;
    $adminUser.set({ ...$adminUser.get(), status: 'ready', error: '', detail });
  } catch (error) {
    if (mine !== ticket) return;
    $adminUser.set({
      ...$adminUser.get(),
      status: 'error',
      error: problemText(error, 'The user could not be read. Please try again.'),
    });
  }
}

async function loadPlans(): Promise<void> {
  try {
    const answer = await portal<PricePlansAnswer>('account/get-price-plans');
    $adminUser.setKey('plans', answer.plans);
  } catch {
    // Without the catalogue plans show by their codes, and the plan can only stay as it is.
  }
}

/** Opens an action's dialog; the role and plan start from the account's own. */
export function askFor(kind: AdminActionKind, key?: AdminKey): void {
  const user = $adminUser.get().detail?.user;
  const choice = kind === 'role' ? (user?.role ?? '') : kind === 'plan' ? (user?.planCode ?? '') : '';
  $adminUser.set({
    ...$adminUser.get(),
    pending: { kind, choice, ...(key === undefined ? {} : { key }) },
    problem: '',
    problemField: '',
  });
}

/** Changes the role or plan chosen in the open dialog. */
export function choose(choice: string): void {
  const { pending } = $adminUser.get();
  if (pending !== null) $adminUser.set({ ...$adminUser.get(), pending: { ...pending, choice }, problem: '' });
}

/** Closes the action's dialog without acting. */
export function cancelAction(): void {
  if ($adminUser.get().busy) return;
  $adminUser.set({ ...$adminUser.get(), pending: null, problem: '', problemField: '' });
}

interface Call {
  path: string;
  body: Record<string, unknown>;
  done: (user: AdminUserRow) => string;
}

function callFor(pending: PendingAction, detail: AdminUserDetail, plans: PricePlan[]): Call | string {
  const { user } = detail;
  switch (pending.kind) {
    case 'block':
      return { path: 'block', body: {}, done: (row) => `${row.email} is blocked.` };
    case 'unblock':
      return { path: 'unblock', body: {}, done: (row) => `${row.email} is unblocked.` };
    case 'role':
      if (!(ADMIN_ROLES as readonly string[]).includes(pending.choice)) return 'Choose a role.';
      if (pending.choice === user.role) return 'Choose a role other than the current one.';
      return {
        path: 'role',
        body: { role: pending.choice },
        done: (row) => `${row.email} is now: ${roleLabel(row.role)}.`,
      };
    case 'plan':
      if (pending.choice === '') return 'Choose a plan.';
      if (pending.choice === user.planCode) return 'Choose a plan other than the current one.';
      return {
        path: 'plan',
        body: { planCode: pending.choice },
        done: (row) => `${row.email} is now on ${planName(plans, row.planCode)}.`,
      };
    case 'legacy':
      return {
        path: 'legacy',
        body: { legacy: !user.legacy },
        done: (row) =>
          row.legacy ? `${row.email} now has legacy access.` : `${row.email} no longer has legacy access.`,
      };
    case 'resend':
      return {
        path: 'resend-verification',
        body: {},
        done: (row) => `A new verification link was sent to ${row.email}.`,
      };
    case 'revoke': {
      const key = pending.key;
      if (key === undefined) return 'Choose the key to revoke.';
      return {
        path: `keys/${encodeURIComponent(key.id)}/revoke`,
        body: {},
        done: () => `The key ending in ${key.last4} was revoked.`,
      };
    }
    case 'sessions':
      return { path: 'sessions/end', body: {}, done: (row) => `${row.email} was signed out everywhere.` };
  }
}

/**
 * Does the open dialog's action with its reason. Resolves true when it went through: the dialog
 * closes, the page shows the account as it is now and a success message says what changed.
 */
export async function confirmAction(reasonText: string): Promise<boolean> {
  const state = $adminUser.get();
  const { pending, detail } = state;
  if (pending === null || detail === null || state.busy) return false;
  const reason = reasonText.trim();
  const refuse = (problem: string, problemField: AdminUserState['problemField']): false => {
    $adminUser.set({ ...$adminUser.get(), problem, problemField });
    return false;
  };
  const call = callFor(pending, detail, state.plans);
  if (typeof call === 'string') return refuse(call, 'choice');
  if (reason === '') return refuse(REASON_MESSAGE, 'reason');
  if (reason.length > REASON_MAX_LENGTH) return refuse(REASON_TOO_LONG_MESSAGE, 'reason');
  $adminUser.set({ ...$adminUser.get(), busy: true, problem: '', problemField: '' });
  try {
    const answer = await adminApi<{ success: true; user: AdminUserRow }>(
      `users/${encodeURIComponent(detail.user.id)}/${call.path}`,
      { method: 'POST', body: { ...call.body, reason } },
    );
    const current = $adminUser.get().detail;
    $adminUser.set({
      ...$adminUser.get(),
      busy: false,
      pending: null,
      detail: current === null ? null : { ...current, user: { ...current.user, ...answer.user } },
    });
    showFlash(call.done(answer.user), 'success');
    await loadUser();
    return true;
  } catch (error) {
    $adminUser.set({ ...$adminUser.get(), busy: false });
    return refuse(problemText(error, 'The change could not be made. Please try again.'), '');
  }
}

/** Starts the user's page for the user the address names once the visitor is confirmed as staff. */
export function startAdminUser(): () => void {
  const id = new URLSearchParams(location.search).get('id')?.trim() ?? '';
  $adminUser.set({ ...INITIAL, id });
  const stop = startStaffPage(() => {
    void loadUser();
    void loadPlans();
  });
  return () => {
    stop();
    ticket += 1;
    $adminUser.set({ ...INITIAL });
  };
}
