import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

// `npm run user:role` reaches a running server's internal route on the loopback. Being on the same
// machine is not enough (behind a local reverse proxy every visitor arrives from the loopback), so
// the command also proves it can read the server secret: it signs what it asks for with a key
// derived from that secret, and the signature is good for a short while only.

/** How long a signed request is accepted, either side of the server's clock. */
export const COMMAND_SIGNATURE_TTL_MS = 60_000;

/** The header that carries the signature. */
export const COMMAND_SIGNATURE_HEADER = 'x-command-signature';

const KEY_INFO = 'market-data/user-role-command/v1';

/** What the command asks for, every field covered by the signature. */
export interface RoleCommandRequest {
  email: string;
  role: string;
  /** When the command signed it, in milliseconds since the epoch. */
  issuedAt: number;
  /** The operating-system account that ran the command, for the audit trail. */
  operator: string;
}

/** Why a signature was refused. */
export type SignatureRefusal = 'expired' | 'mismatch';

/** A key for this purpose only, so a signature here is worth nothing anywhere else the secret is used. */
function signingKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', KEY_INFO, 32));
}

/** The hex HMAC-SHA256 of the request's fields, encoded without ambiguity (a JSON array). */
export function signRoleCommand(secret: string, request: RoleCommandRequest): string {
  const message = JSON.stringify([request.email, request.role, request.issuedAt, request.operator]);
  return createHmac('sha256', signingKey(secret)).update(message, 'utf8').digest('hex');
}

/**
 * Checks a signature in constant time; null when it is good and fresh, else why not. A request
 * signed more than {@link COMMAND_SIGNATURE_TTL_MS} away from `now` is refused whatever it says.
 */
export function verifyRoleCommand(
  secret: string,
  request: RoleCommandRequest,
  signature: string,
  now: number = Date.now(),
): SignatureRefusal | null {
  const expected = Buffer.from(signRoleCommand(secret, request), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  const matches = given.length === expected.length && timingSafeEqual(given, expected);
  if (!matches) return 'mismatch';
  if (Math.abs(now - request.issuedAt) > COMMAND_SIGNATURE_TTL_MS) return 'expired';
  return null;
}
