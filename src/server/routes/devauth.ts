import type { Context } from 'hono';
import { Hono } from 'hono';
import type { BlankInput } from 'hono/types';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import {
  isWellFormedUserCode,
  normalizeUserCode,
  USER_CODE_FORMAT_MESSAGE,
  USER_CODE_INVALID_MESSAGE,
} from '../../lib/user-code.ts';
import { BLOCKED_ACCOUNT_MESSAGE } from '../../lib/messages.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { requireUser } from '../middleware/caller.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { requestOrigin } from '../app/request.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody, queryParams } from '../middleware/validate.ts';
import { revealApiKey } from '../services/api-keys.ts';
import {
  createDeviceCode,
  decideDeviceCode,
  DEVICE_CODE_TTL_SECONDS,
  findPendingDevice,
  POLL_INTERVAL_SECONDS,
  pollDeviceCode,
  type DeviceCodeOptions,
  type DeviceDecision,
} from '../services/device-codes.ts';
import { findUserById } from '../services/users.ts';

/** The page where account owners type the code. */
export const VERIFICATION_PATH = '/devauth';

/** Longest tool name we show; enough for "Tickerlake CLI 2.4 on build-server-07". */
export const MAX_CLIENT_NAME_LENGTH = 64;

/** The errors of RFC 8628 §3.5 a polling tool must understand. */
export type TokenError = 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token';

/** What each error means, for the tool to show its user (RFC 6749 error_description). */
export const TOKEN_ERROR_DESCRIPTIONS: Readonly<Record<TokenError, string>> = {
  authorization_pending: `The account owner has not answered yet. Poll again in ${String(POLL_INTERVAL_SECONDS)} seconds.`,
  slow_down: `Polling too often. Wait ${String(POLL_INTERVAL_SECONDS)} more seconds between requests.`,
  access_denied: 'The account owner denied access.',
  expired_token: 'This device code has expired or has already been used. Ask for a new code.',
};

export const NO_API_KEY_MESSAGE =
  'The account has no active API key. Create one on the dashboard, then connect the tool again.';

// Controls and invisible formatting characters could disguise the name a person is asked to trust.
const UNSAFE_NAME_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const codeRequestSchema = z.strictObject({
  client_name: z
    .string({ error: 'must be the name of the tool asking for access' })
    .trim()
    .min(1, 'must be the name of the tool asking for access')
    .max(MAX_CLIENT_NAME_LENGTH, `must be at most ${String(MAX_CLIENT_NAME_LENGTH)} characters`)
    .refine((name) => !UNSAFE_NAME_CHARACTERS.test(name), 'must not contain control or invisible characters'),
});

const tokenRequestSchema = z.strictObject({
  device_code: z.string({ error: 'must be the device_code this API gave the tool' }).min(1).max(128),
});

// Generous length: people paste codes with spaces around; anything longer is not a code.
const userCodeField = z.string({ error: USER_CODE_FORMAT_MESSAGE }).max(64, USER_CODE_FORMAT_MESSAGE);
const userCodeQuerySchema = z.strictObject({ user_code: userCodeField });
const userCodeBodySchema = z.strictObject({ user_code: userCodeField });

/** Per client address: opening requests costs a row each, and a tool needs one per sign-in. */
const codeIpLimit = rateLimit<BlankInput, AccountsEnv>({
  name: 'devauth-code',
  limit: 10,
  windowMs: 60_000,
  key: ipKey,
});

/** Per client address: a tool polls every five seconds; this leaves room for several tools behind one address. */
const tokenIpLimit = rateLimit<BlankInput, AccountsEnv>({
  name: 'devauth-token',
  limit: 120,
  windowMs: 60_000,
  key: ipKey,
});

/**
 * Per account, every code a user submits counts, right or wrong: a guesser is held to twenty tries
 * in ten minutes however its guesses fare, while honest use needs two (look up, then answer).
 */
const userCodeLimit = rateLimit<BlankInput, AccountsEnv>({
  name: 'devauth-user-code',
  limit: 20,
  windowMs: 10 * 60_000,
  key: (c) => (c.var.caller.kind === 'user' ? `user:${c.var.caller.userId}` : undefined),
});

function tokenError(
  c: Context,
  error: TokenError,
  description: string = TOKEN_ERROR_DESCRIPTIONS[error],
  status: ContentfulStatusCode = 400,
): Response {
  return c.json({ error, error_description: description }, status);
}

function signedInUserId(c: Context<AccountsEnv>): string {
  const { caller: who } = c.var;
  if (who.kind !== 'user') throw new Error('requireUser let a non-user through');
  return who.userId;
}

/** The typed code normalised, or the 400 that says what a code looks like. */
function readUserCode(
  c: Context,
  typed: string,
): { ok: true; code: string } | { ok: false; response: Response } {
  const code = normalizeUserCode(typed);
  if (isWellFormedUserCode(code)) return { ok: true, code };
  return { ok: false, response: apiError(c, 400, USER_CODE_FORMAT_MESSAGE, { field: 'user_code' }) };
}

async function decide(
  c: Context<AccountsEnv>,
  typed: string,
  decision: DeviceDecision,
  options: DeviceCodeOptions,
): Promise<Response> {
  const read = readUserCode(c, typed);
  if (!read.ok) return read.response;
  const row = await decideDeviceCode(
    c.var.db,
    { userCode: read.code, userId: signedInUserId(c), decision },
    options,
  );
  if (!row) return apiError(c, 404, USER_CODE_INVALID_MESSAGE, { field: 'user_code' });
  return c.json({ status: row.status, client_name: row.clientName });
}

/**
 * Connecting developer tools to an account (OAuth 2.0 Device Authorization Grant, RFC 8628), mounted
 * at /api/devauth. A tool asks for a code pair, shows the user code, and polls with the device code;
 * the account owner looks the user code up at /devauth and approves or denies; the next poll after
 * an approval carries the account's API key, once. `options.now` moves the clock in tests.
 */
export function createDevauthRoutes(options: DeviceCodeOptions = {}) {
  return new Hono<AccountsEnv>()
    .use(noStore())
    .post('/code', codeIpLimit, jsonBody(codeRequestSchema), async (c) => {
      const { client_name: clientName } = c.req.valid('json');
      const issued = await createDeviceCode(c.var.db, clientName, options);
      const verificationUri = `${requestOrigin(c)}${VERIFICATION_PATH}`;
      return c.json({
        device_code: issued.deviceCode,
        user_code: issued.userCode,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?code=${encodeURIComponent(issued.userCode)}`,
        expires_in: DEVICE_CODE_TTL_SECONDS,
        interval: POLL_INTERVAL_SECONDS,
      });
    })
    .post('/token', tokenIpLimit, jsonBody(tokenRequestSchema), async (c) => {
      const { db } = c.var;
      const outcome = await pollDeviceCode(db, c.req.valid('json').device_code, options);
      switch (outcome.result) {
        case 'pending':
          return tokenError(c, 'authorization_pending');
        case 'slow_down':
          return tokenError(c, 'slow_down');
        case 'denied':
          return tokenError(c, 'access_denied');
        case 'expired':
          return tokenError(c, 'expired_token');
        case 'approved':
          break;
      }
      const user = await findUserById(db, outcome.userId);
      if (!user) return tokenError(c, 'expired_token');
      if (user.blocked) return tokenError(c, 'access_denied', BLOCKED_ACCOUNT_MESSAGE);
      const key = await revealApiKey(db, user.id);
      if (!key) return tokenError(c, 'access_denied', NO_API_KEY_MESSAGE);
      return c.json({ api_key: key.key, email: user.email, plan: user.planCode });
    })
    .get('/device', requireUser(), userCodeLimit, queryParams(userCodeQuerySchema), async (c) => {
      const read = readUserCode(c, c.req.valid('query').user_code);
      if (!read.ok) return read.response;
      const device = await findPendingDevice(c.var.db, read.code, options);
      if (!device) return apiError(c, 404, USER_CODE_INVALID_MESSAGE, { field: 'user_code' });
      return c.json({
        client_name: device.clientName,
        created_at: device.createdAt,
        expires_at: device.expiresAt,
      });
    })
    .post('/approve', requireUser(), userCodeLimit, jsonBody(userCodeBodySchema), (c) =>
      decide(c, c.req.valid('json').user_code, 'approved', options),
    )
    .post('/deny', requireUser(), userCodeLimit, jsonBody(userCodeBodySchema), (c) =>
      decide(c, c.req.valid('json').user_code, 'denied', options),
    );
}

/** The device-authorization routes on the real clock. */
export const devauthRoutes = createDevauthRoutes();
