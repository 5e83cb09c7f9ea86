import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  EMAIL_MESSAGE,
  FILL_ALL_FIELDS_MESSAGE,
  PASSWORD_MESSAGE,
  USER_EXISTS_MESSAGE,
} from '../../lib/messages.ts';
import {
  isEmailAddress,
  MAX_EMAIL_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  normalizeEmail,
  utmShape,
} from '../../lib/validation.ts';
import type { Context } from 'hono';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';

import { verifyIdToken } from '../auth/identity.ts';
import { foreignBearer, SIGN_IN_REQUIRED_MESSAGE } from '../middleware/caller.ts';
import { findUserById } from '../services/users.ts';
import { users } from '../db/schema.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { jsonBody, type JsonInput, queryParams } from '../middleware/validate.ts';
import { saveCampaign } from '../services/campaigns.ts';
import { listPricePlans } from '../services/price-plans.ts';
import { getSurvey, signupAnswersSchema, submitSurvey } from '../services/surveys.ts';

const validateEmailBody = z.strictObject({
  email: z.string().max(MAX_EMAIL_LENGTH + 64),
  password: z.string().max(MAX_PASSWORD_LENGTH),
});

/** The first problem with a sign-up form, in SPEC §5's words, or undefined when it may go ahead. */
async function signUpProblem(
  db: AccountsEnv['Variables']['db'],
  email: string,
  password: string,
): Promise<string | undefined> {
  const address = email.trim();
  if (address === '' || password === '') return FILL_ALL_FIELDS_MESSAGE;
  if (!isEmailAddress(address)) return EMAIL_MESSAGE;
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_MESSAGE;
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, address.toLowerCase()))
    .limit(1);
  return existing ? USER_EXISTS_MESSAGE : undefined;
}

const surveyBody = z.strictObject({
  email: z.string().trim().min(1).max(MAX_EMAIL_LENGTH),
  type: z.literal('signup'),
  ...signupAnswersSchema.shape,
});

/** The questionnaire of another address is neither written nor read. */
export const OTHER_ADDRESS_SURVEY_MESSAGE =
  'You can only answer or look up the questionnaire of your own address.';

const surveyLimit = rateLimit({ name: 'survey-ip', limit: 30, windowMs: 60_000, key: ipKey });

/**
 * The address the request proves it owns: the signed-in user's, or that of a Firebase ID token sent
 * as the bearer (a sign-up that has no session yet); undefined without such proof.
 */
async function provenAddress(c: Context<AccountsEnv>): Promise<string | undefined> {
  const who = c.var.caller;
  if (who.kind === 'user') return (await findUserById(c.var.db, who.userId))?.email;
  const bearer = foreignBearer(c);
  if (bearer === undefined) return undefined;
  const checked = await verifyIdToken(bearer);
  return checked.ok ? (checked.email ?? undefined) : undefined;
}

/**
 * Why a questionnaire call about `email` is refused: 401 without proof of any address, 403 for
 * another address than the proven one; null when the caller owns the address. Without this, anyone
 * could learn who signed up and write answers ahead of the owner.
 */
async function addressRefusal(
  c: Context<AccountsEnv>,
  email: string,
  message: string,
): Promise<Response | null> {
  const proven = await provenAddress(c);
  if (proven === undefined) return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
  if (normalizeEmail(proven) !== normalizeEmail(email)) return apiError(c, 403, message);
  return null;
}

const campaignBody = z.strictObject({
  campaign: z.strictObject({ email: z.string().max(MAX_EMAIL_LENGTH).optional(), ...utmShape }),
});

/**
 * Portal calls of SPEC §7 that need no signed-in user: the sign-up checks, the questionnaire, the
 * campaign record and the price list. Mounted at /api/portal.
 */
export const portalRoutes = new Hono<AccountsEnv>()
  .post(
    '/auth/validate-email',
    rateLimit({ name: 'validate-email-ip', limit: 30, windowMs: 60_000, key: ipKey }),
    jsonBody(validateEmailBody),
    rateLimit<JsonInput<typeof validateEmailBody>>({
      name: 'validate-email-account',
      limit: 10,
      windowMs: 60_000,
      key: (c) => `email:${c.req.valid('json').email.trim().toLowerCase()}`,
    }),
    async (c) => {
      const { email, password } = c.req.valid('json');
      const problem = await signUpProblem(c.var.db, email, password);
      // SPEC §7: "true on success, otherwise text".
      if (problem) return c.text(problem, 400);
      return c.json(true);
    },
  )
  .post('/account/submit-survey', surveyLimit, jsonBody(surveyBody), async (c) => {
    const { email, type, ...answers } = c.req.valid('json');
    if (!isEmailAddress(email)) return c.json({ error: `email: ${EMAIL_MESSAGE}`, field: 'email' }, 400);
    const refusal = await addressRefusal(c, email, OTHER_ADDRESS_SURVEY_MESSAGE);
    if (refusal) return refusal;
    const result = await submitSurvey(c.var.db, { email, type, answers });
    return c.json({ created: result.created }, result.created ? 201 : 200);
  })
  .get(
    '/account/get-survey',
    surveyLimit,
    queryParams(
      z.strictObject({ email: z.string().trim().min(1).max(MAX_EMAIL_LENGTH), type: z.literal('signup') }),
    ),
    async (c) => {
      const { email, type } = c.req.valid('query');
      const refusal = await addressRefusal(c, email, OTHER_ADDRESS_SURVEY_MESSAGE);
      if (refusal) return refusal;
      const survey = await getSurvey(c.var.db, email, type);
      // Only whether it exists, and only to the owner of the address.
      return c.json(survey ? { email: survey.email, type: survey.type } : {});
    },
  )
  .post('/user/save-campaign', jsonBody(campaignBody), async (c) => {
    const { campaign } = c.req.valid('json');
    const result = await saveCampaign(c.var.db, campaign);
    return c.json(result, result.saved ? 201 : 200);
  })
  .get(
    '/account/get-price-plans',
    queryParams(z.strictObject({ couponCode: z.string().trim().max(64).optional() })),
    async (c) => {
      const { couponCode } = c.req.valid('query');
      return c.json(await listPricePlans(c.var.db, couponCode));
    },
  );
