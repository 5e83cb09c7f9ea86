import { Hono } from 'hono';
import { z } from 'zod';
import { AFFILIATE_TERMS_MESSAGE } from '../../lib/affiliates.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { requireUser } from '../middleware/caller.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody } from '../middleware/validate.ts';
import { affiliateStatus, joinAffiliateProgramme } from '../services/affiliates.ts';

export const NO_ACCOUNT_MESSAGE = 'Your account could not be found. Please sign in again.';

const joinBody = z.strictObject({
  acceptTerms: z.literal(true, { error: AFFILIATE_TERMS_MESSAGE }),
});

/**
 * The signed-in account's place in the affiliate programme (/affiliates), mounted at /api/portal:
 * GET its referral code (null before joining) and how many accounts its links brought; POST joins,
 * accepting the programme's terms, and gives the account its code (201), or answers the code it
 * already has (200).
 */
export const affiliateRoutes = new Hono<AccountsEnv>()
  .get('/affiliates/me', noStore(), requireUser(), async (c) => {
    const { db, caller } = c.var;
    if (caller.kind !== 'user') throw new Error('requireUser let a non-user through');
    const status = await affiliateStatus(db, caller.userId);
    if (status === null) return apiError(c, 404, NO_ACCOUNT_MESSAGE);
    return c.json(status);
  })
  .post('/affiliates/join', noStore(), requireUser(), jsonBody(joinBody), async (c) => {
    const { db, caller } = c.var;
    if (caller.kind !== 'user') throw new Error('requireUser let a non-user through');
    const result = await joinAffiliateProgramme(db, caller.userId);
    if (result === null) return apiError(c, 404, NO_ACCOUNT_MESSAGE);
    return c.json(result.status, result.joined ? 201 : 200);
  });
