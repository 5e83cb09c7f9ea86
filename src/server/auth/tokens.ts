import {
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  type KeyObject,
} from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { serverSecret } from './crypto.ts';

/** Access tokens live at most this long, so a stolen one is useful only briefly; refresh renews them. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/**
 * Public fallback tokens are handed to every signed-out visitor. They grant nothing beyond public
 * data, so they may live long; expiry only bounds how long one can be replayed against rate limits.
 */
export const PUBLIC_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** Who issues our tokens; a token from anywhere else is refused. */
export const TOKEN_ISSUER = 'market-data-accounts';

/** Who our tokens are for; the accounts API and the data API both accept this audience. */
export const TOKEN_AUDIENCE = 'market-data-api';

/** The cookie that carries the refresh token; only the accounts API under /api ever reads it. */
export const REFRESH_COOKIE_NAME = 'refreshToken';

/** The refresh cookie's Max-Age from the product constants (browsers cap it at about 400 days). */
export const REFRESH_COOKIE_MAX_AGE_SECONDS = 609638400;

/** The refresh cookie is sent only to API paths, never with page or asset requests. */
export const REFRESH_COOKIE_PATH = '/api';

/** A session ends this long after sign-in however active it is, matching what browsers keep a cookie. */
export const REFRESH_ABSOLUTE_LIFETIME_SECONDS = 400 * 24 * 3600;

/** A session unused for this long ends, so a forgotten device does not stay signed in. */
export const REFRESH_IDLE_TIMEOUT_SECONDS = 30 * 24 * 3600;

const REFRESH_TOKEN_BYTES = 32;
const REFRESH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const TOKEN_TYPE = 'at+jwt';
const ALGORITHM = 'HS256';

/** The HMAC key for access and public tokens; a KeyObject so it never prints its bytes into logs. */
export type AccessTokenKey = KeyObject;

/** Who an access token speaks for. */
export interface AccessTokenSubject {
  userId: string;
  role: string;
  plan: string;
  sessionId: string;
}

/** The verified claims of a signed-in user's access token. */
export interface UserClaims extends AccessTokenSubject {
  scope: 'user';
  issuedAt: Date;
  expiresAt: Date;
}

/** The verified claims of a public fallback token; `tokenId` tells visitors apart for rate limits. */
export interface PublicClaims {
  scope: 'public';
  tokenId: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Whatever a bearer token verified as. */
export type TokenClaims = UserClaims | PublicClaims;

/** Clock override, so tests and callers can sign or verify as of a given moment. */
export interface ClockOptions {
  now?: Date;
}

/**
 * Derives the token-signing key from the server secret. The derivation keeps token keys apart from
 * anything else the same secret protects; callers pass the secret (APP_SECRET, whose production
 * length the secret's owner enforces, or a development secret) rather than this module reading
 * the environment.
 */
export function accessTokenKey(secret: string): AccessTokenKey {
  if (secret.trim() === '') throw new Error('the server secret must not be empty');
  const bytes = hkdfSync('sha256', secret, 'market-data', 'access-token HS256 v1', 32);
  return createSecretKey(new Uint8Array(bytes));
}

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function nonEmpty(value: string, name: string): void {
  if (value.trim() === '') throw new Error(`${name} must not be empty`);
}

/**
 * Signs a short-lived access token for a signed-in session. `sid` ties it to the session so
 * revoking the session can be checked where it matters; the token itself cannot be revoked.
 */
export async function signAccessToken(
  key: AccessTokenKey,
  subject: AccessTokenSubject,
  options: ClockOptions & { ttlSeconds?: number } = {},
): Promise<string> {
  const ttl = options.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > ACCESS_TOKEN_TTL_SECONDS) {
    throw new Error(`access token lifetime must be 1 to ${ACCESS_TOKEN_TTL_SECONDS} seconds`);
  }
  nonEmpty(subject.userId, 'userId');
  nonEmpty(subject.sessionId, 'sessionId');
  if (subject.userId === 'public') throw new Error('userId "public" is reserved for public tokens');
  const iat = epochSeconds(options.now ?? new Date());
  return new SignJWT({ scope: 'user', role: subject.role, plan: subject.plan, sid: subject.sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: TOKEN_TYPE })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(subject.userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(key);
}

/**
 * Signs a public fallback token: signed-out visitors get a real credential, so the data API treats
 * every caller alike and can rate-limit each visitor by its token.
 */
export async function signPublicToken(key: AccessTokenKey, options: ClockOptions = {}): Promise<string> {
  const iat = epochSeconds(options.now ?? new Date());
  return new SignJWT({ scope: 'public' })
    .setProtectedHeader({ alg: ALGORITHM, typ: TOKEN_TYPE })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setSubject('public')
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + PUBLIC_TOKEN_TTL_SECONDS)
    .sign(key);
}

const timestamps = { iat: z.number(), exp: z.number() };

const payloadSchema = z.discriminatedUnion('scope', [
  z.object({
    scope: z.literal('user'),
    sub: z
      .string()
      .min(1)
      .refine((sub) => sub !== 'public'),
    role: z.string(),
    plan: z.string(),
    sid: z.string().min(1),
    ...timestamps,
  }),
  z.object({ scope: z.literal('public'), sub: z.literal('public'), jti: z.string().min(1), ...timestamps }),
]);

function toClaims(payload: z.infer<typeof payloadSchema>): TokenClaims {
  const issuedAt = new Date(payload.iat * 1000);
  const expiresAt = new Date(payload.exp * 1000);
  if (payload.scope === 'public') return { scope: 'public', tokenId: payload.jti, issuedAt, expiresAt };
  const { sub: userId, role, plan, sid: sessionId } = payload;
  return { scope: 'user', userId, role, plan, sessionId, issuedAt, expiresAt };
}

/**
 * Verifies an access or public token. Anything not signed by us with HS256 for our audience and
 * still in date is refused as null, so callers have one answer for every bad token.
 * `expiredForSeconds` also accepts a token that ran out at most that long ago, for the one call
 * that only closes what such a token opened (ending an administrator's switch that ran out).
 */
export async function verifyAccessToken(
  key: AccessTokenKey,
  token: string,
  options: ClockOptions & { expiredForSeconds?: number } = {},
): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      typ: TOKEN_TYPE,
      requiredClaims: ['sub', 'iat', 'exp'],
      ...(options.now === undefined ? {} : { currentDate: options.now }),
      ...(options.expiredForSeconds === undefined ? {} : { clockTolerance: options.expiredForSeconds }),
    });
    const parsed = payloadSchema.safeParse(payload);
    return parsed.success ? toClaims(parsed.data) : null;
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}

/** Tells the signed-out fallback apart from a signed-in user's token ("signed in" means not public). */
export function isPublicToken(claims: TokenClaims): claims is PublicClaims {
  return claims.scope === 'public';
}

/** A refresh token for the cookie and the hash that is the only form ever stored. */
export interface RefreshToken {
  token: string;
  hash: string;
}

/** Hashes a refresh token for storage and lookup; the tokens are random, so a fast hash suffices. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Mints an opaque refresh token of 256 random bits, so it cannot be guessed or derived. */
export function newRefreshToken(): RefreshToken {
  const token = randomBytes(REFRESH_TOKEN_BYTES).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

/**
 * The token that replaces a refresh token when it is rotated, derived from it with the server secret
 * (HMAC-SHA256, 256 bits like a fresh one). Deriving rather than drawing it lets two refreshes that
 * race with the same token both be answered with the same next token, without storing any token.
 */
export function childRefreshToken(parentToken: string, secret: string): RefreshToken {
  const token = createHmac('sha256', secret)
    .update(`refresh-child:${parentToken}`, 'utf8')
    .digest('base64url');
  return { token, hash: hashRefreshToken(token) };
}

/** Whether a value could be one of our refresh tokens, so junk is refused before any lookup. */
export function looksLikeRefreshToken(value: string): boolean {
  return REFRESH_TOKEN_PATTERN.test(value);
}

function cookieHeader(value: string, maxAge: number, secure: boolean): string {
  const parts = [
    `${REFRESH_COOKIE_NAME}=${value}`,
    `Max-Age=${maxAge}`,
    ...(maxAge === 0 ? ['Expires=Thu, 01 Jan 1970 00:00:00 GMT'] : []),
    `Path=${REFRESH_COOKIE_PATH}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * The complete Set-Cookie header value for a refresh token; append it as a header. It is built
 * here because Hono's setCookie refuses a Max-Age beyond 400 days. Secure only over https, so
 * plain-http development still works.
 */
export function refreshCookie(token: string, options: { secure: boolean }): string {
  if (!looksLikeRefreshToken(token)) throw new Error('not a refresh token');
  return cookieHeader(token, REFRESH_COOKIE_MAX_AGE_SECONDS, options.secure);
}

/** The Set-Cookie header value that removes the refresh cookie, with the same name and path. */
export function clearRefreshCookie(options: { secure?: boolean } = {}): string {
  return cookieHeader('', 0, options.secure ?? false);
}

/** Whether a session may still be refreshed: 'expired' past its absolute life, 'idle' past its idle limit. */
export type SessionExpiry = 'valid' | 'idle' | 'expired';

/**
 * Applies both session limits; a session is over from the exact moment a limit is reached, and
 * the absolute limit wins when both are.
 */
export function sessionExpiry(createdAt: Date, lastUsedAt: Date, now: Date): SessionExpiry {
  const nowMs = now.getTime();
  if (nowMs - createdAt.getTime() >= REFRESH_ABSOLUTE_LIFETIME_SECONDS * 1000) return 'expired';
  if (nowMs - lastUsedAt.getTime() >= REFRESH_IDLE_TIMEOUT_SECONDS * 1000) return 'idle';
  return 'valid';
}

/** Every server log goes through the one redactor, which the browser's error reports use too. */
export { redactSecrets } from '../../lib/redact.ts';

let signingKey: { secret: string; key: AccessTokenKey } | undefined;

/**
 * The key that signs and verifies access and public tokens, derived once per server secret rather
 * than on every request.
 */
export function accessKey(): AccessTokenKey {
  const secret = serverSecret();
  if (signingKey?.secret !== secret) signingKey = { secret, key: accessTokenKey(secret) };
  return signingKey.key;
}
