import { hmacHex, serverSecret } from './crypto.ts';
import type { Db } from './db/client.ts';
import type { User } from './db/schema.ts';
import { EMPTY_PROFILE_DATA, type ProfileData, type UserData } from '../lib/user-data.ts';
import { revealApiKey } from './services/api-keys.ts';

/**
 * The user state the browser stores after sign-in and refresh (SPEC §3). It never carries a token:
 * tokens travel beside it in the answer, so the client can drop them before storing the rest.
 */
export type { ProfileData, UserData };

/**
 * Signs the user id for the support chat's identity verification, so nobody can open a chat as
 * someone else by changing the id in the browser.
 */
export function intercomHash(userId: string, secret: string = serverSecret()): string {
  return hmacHex(secret, userId);
}

/** Everything of the user state except the API key, for admins looking at someone else's account. */
export function profileData(user: User): ProfileData {
  return {
    ...EMPTY_PROFILE_DATA,
    userid: user.id,
    username: user.username,
    firstname: user.firstName,
    lastname: user.lastName,
    email: user.email,
    userRole: user.role,
    createdAt: user.createdAt.toISOString(),
    emailVerified: user.emailVerified,
    isPremium: user.isPremium,
    planCode: user.planCode,
    legacy: user.legacy,
    referralCode: user.referralCode ?? '',
    intercomHash: intercomHash(user.id),
  };
}

/** The user state for the account's owner, with the API key revealed for the dashboard. */
export async function userData(db: Db, user: User): Promise<UserData> {
  const key = await revealApiKey(db, user.id);
  return { ...profileData(user), apiKey: key?.key ?? '' };
}
