import { hmacHex, serverSecret } from './crypto.ts';
import type { Db } from './db/client.ts';
import type { User } from './db/schema.ts';
import type { UserData } from '../lib/stores/user.ts';
import { revealApiKey } from './services/api-keys.ts';

/**
 * The user state the browser stores after sign-in and refresh (SPEC §3), the same type the
 * browser's user store holds. It never carries a token: tokens travel beside it in the answer, so
 * the client can drop them before storing the rest.
 */
export type { UserData };

/** An account as the site may show it to anyone allowed to look: everything of SPEC §3 but the API key. */
export type ProfileData = Omit<UserData, 'apiKey'>;

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
    userid: user.id,
    username: user.username,
    firstname: user.firstName,
    lastname: user.lastName,
    email: user.email,
    userRole: user.role,
    createdAt: user.createdAt.toISOString(),
    isPremium: user.isPremium,
    planCode: user.planCode,
    legacy: user.legacy,
    facebookLinked: false,
    referralCode: user.referralCode ?? '',
    linkedAccounts: [],
    followingIDs: [],
    followersIDs: [],
    positionSpaces: [],
    watchlistSpaces: [],
    marketIndicies: [],
    intercomHash: intercomHash(user.id),
    tutorials: {},
    tutorialComplete: false,
    portfolioTutorials: { editPortfolioCompletes: true, tabBtnCompletes: true, settingsCompletes: true },
  };
}

/** The user state for the account's owner, with the API key revealed for the dashboard. */
export async function userData(db: Db, user: User): Promise<UserData> {
  const key = await revealApiKey(db, user.id);
  return { ...profileData(user), apiKey: key?.key ?? '' };
}
