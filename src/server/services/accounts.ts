import type { Db } from '../db/client.ts';
import type { User } from '../db/schema.ts';
import { getIdentityUser, isEmailVerified } from '../auth/identity.ts';
import { recordReferral } from './affiliates.ts';
import { createApiKey } from './api-keys.ts';
import { saveCampaign, type CampaignInput } from './campaigns.ts';
import { submitSurvey, type SignupAnswers } from './surveys.ts';
import {
  DuplicateUserError,
  createUser,
  findUserByFirebaseUid,
  markEmailVerified,
  setBlocked,
} from './users.ts';

// Accounts as a whole: creating one for a proven identity, with everything a sign-up brings, and
// keeping its verification state in step with the identity provider.

/** The identity a sign-up or social sign-in proved, as the provider reported it. */
export interface ProvenIdentity {
  uid: string;
  email: string;
  emailVerified: boolean;
}

export interface Provisioned {
  user: User;
  created: boolean;
}

/**
 * What a sign-up brings besides the identity: the questionnaire's answers and the campaign (form
 * sign-ups), and the affiliate code the visitor's browser remembers from a referral link (any
 * sign-up; an unknown code or a self-referral is ignored).
 */
export interface SignUpExtras {
  survey?: SignupAnswers | undefined;
  campaign?: CampaignInput | undefined;
  referralCode?: string | undefined;
}

/**
 * Creates the account of a proven identity with its API key (and, for a form sign-up, survey and
 * campaign) in one transaction, or finds the account a previous or concurrent call created. Every
 * route that proves an identity provisions through here, so an account whose registration call was
 * lost is completed at its next sign-in instead of being stuck with a provider account only. The
 * unique firebase_uid decides races: the loser's insert finds the winner's row and rolls back.
 * Throws DuplicateUserError('email') when another identity already owns the address.
 */
export async function provisionAccount(
  db: Db,
  identity: ProvenIdentity,
  extras: SignUpExtras = {},
): Promise<Provisioned> {
  const existing = await findUserByFirebaseUid(db, identity.uid);
  if (existing) return { user: existing, created: false };
  try {
    const user = await db.transaction(async (tx) => {
      const created = await createUser(tx, {
        firebaseUid: identity.uid,
        email: identity.email,
        emailVerified: identity.emailVerified,
      });
      await createApiKey(tx, created.id);
      if (extras.survey) {
        await submitSurvey(tx, { email: identity.email, type: 'signup', answers: extras.survey });
      }
      if (extras.campaign) await saveCampaign(tx, { ...extras.campaign, email: identity.email });
      await recordReferral(tx, extras.referralCode, created);
      return created;
    });
    return { user, created: true };
  } catch (error) {
    if (!(error instanceof DuplicateUserError) || error.field !== 'firebaseUid') throw error;
    const winner = await findUserByFirebaseUid(db, identity.uid);
    if (!winner) throw error;
    return { user: winner, created: false };
  }
}

/** The provider has confirmed the address since we last looked: API keys start working. */
export async function syncEmailVerified(db: Db, user: User, emailVerified: boolean): Promise<User> {
  if (!emailVerified || user.emailVerified) return user;
  return (await markEmailVerified(db, user.id)) ?? user;
}

/**
 * Asks the provider whether an unverified account has confirmed its address since we last looked
 * (the link in the verification email is followed outside this site), so a session call picks the
 * change up and the API key starts working. A provider that cannot be asked leaves the stored
 * state: the check is repeated on the next call, and the session call itself must not fail over it.
 */
export async function refreshEmailVerified(db: Db, user: User): Promise<User> {
  if (user.emailVerified) return user;
  const checked = await isEmailVerified(user.firebaseUid);
  return checked.ok ? syncEmailVerified(db, user, checked.emailVerified) : user;
}

/**
 * Blocks an account whose identity was disabled at the provider (by an operator in its console, say),
 * so it is refused like any blocked account: sessions revoked, sign-ins and refreshes refused, and its
 * API keys refused at the data API's next key revalidation (within 60 s). Audited as a block by no
 * actor. A provider that cannot be asked, or does not know the account, changes nothing.
 */
export async function blockIfDisabledAtProvider(db: Db, user: User): Promise<User> {
  if (user.blocked) return user;
  const found = await getIdentityUser(user.firebaseUid);
  if (!found.ok || !found.user.disabled) return user;
  return (await setBlocked(db, user.id, true, null)) ?? user;
}
