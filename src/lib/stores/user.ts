import { computed, map } from 'nanostores';
import { EMPTY_USER_DATA, type UserData } from '../user-data.ts';

export type { UserData, UserRole } from '../user-data.ts';

export interface UserState extends UserData {
  authenticated: boolean;
  /** Unsaved edits of the user's own data (profile forms). */
  draft: Partial<UserData> | null;
}

export const EMPTY_USER: UserState = { ...EMPTY_USER_DATA, authenticated: false, draft: null };

export const $user = map<UserState>({ ...EMPTY_USER });

/** Token fields the server may include in user data; they are never kept in the user store. */
const TOKEN_FIELDS = ['accessToken', 'refreshToken', 'firebaseAccessToken', 'token'] as const;

/** Replaces the user with server data, dropping any token fields it carries. */
export function setUserData(data: Partial<UserData> & Record<string, unknown>): void {
  const clean: Record<string, unknown> = { ...data };
  for (const field of TOKEN_FIELDS) Reflect.deleteProperty(clean, field);
  $user.set({ ...EMPTY_USER, ...(clean as Partial<UserData>), authenticated: true, draft: null });
}

export function clearUser(): void {
  $user.set({ ...EMPTY_USER });
}

export function setUserDraft(draft: Partial<UserData> | null): void {
  $user.setKey('draft', draft);
}

/** SPEC §6: admins see Admin and Link User; analysts are recognised by a role containing 'analyst'. */
export const $roles = computed($user, (user) => ({
  isAdmin: user.userRole === 'admin',
  isAnalyst: user.userRole.includes('analyst'),
  isPrivileged: user.userRole === 'admin' || user.userRole.includes('analyst'),
}));

/** The avatar letter: the first letter of the username, or '?' when there is none. */
export const $avatarLetter = computed($user, (user) => user.username.trim().charAt(0).toUpperCase() || '?');
