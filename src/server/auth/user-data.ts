import { hmacHex, serverSecret } from './crypto.ts';
import type { Db } from '../db/client.ts';
import { eq } from 'drizzle-orm';
import { pricePlans, type User } from '../db/schema.ts';
import { EMPTY_PROFILE_DATA, type ProfileData, type UserData } from '../../lib/user-data.ts';
import { revealApiKey } from '../services/api-keys.ts';

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
export function profileData(user: User, dataTier = 0): ProfileData {
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
    dataTier,
    legacy: user.legacy,
    referralCode: user.referralCode ?? '',
    intercomHash: intercomHash(user.id),
  };
}

/** The user state for the account's owner, with the API key revealed for the dashboard. */
export async function userData(db: Db, user: User): Promise<UserData> {
  const [key, dataTier] = await Promise.all([revealApiKey(db, user.id), planDataTier(db, user.planCode)]);
  return { ...profileData(user, dataTier), apiKey: key?.key ?? '' };
}

/** The data coverage of a plan (0 when the plan is unknown): what the site's sections check. */
export async function planDataTier(db: Db, planCode: string): Promise<number> {
  const [plan] = await db
    .select({ dataTier: pricePlans.dataTier })
    .from(pricePlans)
    .where(eq(pricePlans.code, planCode));
  return plan?.dataTier ?? 0;
}
