import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { isDirectLoopbackRequest } from '../app/request.ts';
import {
  COMMAND_SIGNATURE_HEADER,
  COMMAND_SIGNATURE_TTL_MS,
  verifyRoleCommand,
} from '../auth/command-signature.ts';
import { serverSecret } from '../auth/crypto.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody } from '../middleware/validate.ts';
import { changeRoleByEmail, parseRole, RoleCommandError } from '../services/role-command.ts';

// Calls that only this machine's own commands make, into the running server's process: on the
// embedded database no other process may open it while the server runs. Nothing here is part of the
// public API; every call must come straight from the loopback and be signed with the server secret.

export const LOCAL_ONLY_MESSAGE = 'This call is answered only to npm run user:role on the same machine.';
export const SIGNATURE_MISSING_MESSAGE = 'The command signature is missing.';
export const SIGNATURE_MISMATCH_MESSAGE =
  "The command signature does not match: run the command with the server's APP_SECRET and DATA_DIR.";
export const SIGNATURE_EXPIRED_MESSAGE =
  "The command signature has expired or comes from the future: check this machine's clock.";
export const SIGNATURE_REUSED_MESSAGE = 'This command signature was already used: run the command again.';

const roleCommandBody = z.strictObject({
  email: z.string().trim().min(1, 'email is required').max(320),
  role: z.string().max(64),
  issuedAt: z.number().int().nonnegative(),
  operator: z.string().max(256),
});

/** Signatures accepted while they are fresh, so a captured request cannot be played again. */
const usedSignatures = new Map<string, number>();

function firstUse(signature: string, now: number): boolean {
  for (const [seen, until] of usedSignatures) if (until <= now) usedSignatures.delete(seen);
  if (usedSignatures.has(signature)) return false;
  usedSignatures.set(signature, now + 2 * COMMAND_SIGNATURE_TTL_MS);
  return true;
}

/** Refuses, before the body is read, anything that is not a signed call from this machine. */
function localSignedOnly(): MiddlewareHandler<AccountsEnv> {
  return async (c, next) => {
    if (c.req.header(COMMAND_SIGNATURE_HEADER) === undefined) {
      return apiError(c, 403, SIGNATURE_MISSING_MESSAGE);
    }
    if (!isDirectLoopbackRequest(c)) return apiError(c, 403, LOCAL_ONLY_MESSAGE);
    return next();
  };
}

export const internalRoutes = new Hono<AccountsEnv>().post(
  '/user-role',
  noStore(),
  localSignedOnly(),
  jsonBody(roleCommandBody),
  async (c) => {
    const request = c.req.valid('json');
    const signature = c.req.header(COMMAND_SIGNATURE_HEADER) ?? '';
    const now = Date.now();
    const refusal = verifyRoleCommand(serverSecret(), request, signature, now);
    if (refusal === 'mismatch') return apiError(c, 403, SIGNATURE_MISMATCH_MESSAGE);
    if (refusal === 'expired') return apiError(c, 403, SIGNATURE_EXPIRED_MESSAGE);
    if (!firstUse(signature.toLowerCase(), now)) return apiError(c, 403, SIGNATURE_REUSED_MESSAGE);
    try {
      const role = parseRole(request.role);
      const change = await changeRoleByEmail(c.var.db, request.email, role, {
        operator: request.operator,
        through: 'server',
      });
      // The data API's verdicts about keys do not depend on the role, so it is not told; signed-in
      // requests read the role from the account as it is now.
      return c.json({ change });
    } catch (error) {
      if (error instanceof RoleCommandError) {
        return error.kind === 'role'
          ? apiError(c, 400, error.message, { field: 'role' })
          : apiError(c, 404, error.message, { field: 'email' });
      }
      throw error;
    }
  },
);
