import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  PUBLIC_TOKEN_TTL_SECONDS,
  REFRESH_ABSOLUTE_LIFETIME_SECONDS,
  REFRESH_COOKIE_MAX_AGE_SECONDS,
  REFRESH_COOKIE_NAME,
  REFRESH_IDLE_TIMEOUT_SECONDS,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  accessTokenKey,
  clearRefreshCookie,
  hashRefreshToken,
  isPublicToken,
  looksLikeRefreshToken,
  newRefreshToken,
  redactSecrets,
  refreshCookie,
  sessionExpiry,
  signAccessToken,
  signPublicToken,
  verifyAccessToken,
  type AccessTokenKey,
} from '../../src/server/auth/tokens.ts';

const SECRET = 'a-test-server-secret-that-is-long-enough-0123456789';
const KEY = accessTokenKey(SECRET);
const SUBJECT = { userId: 'user-42', role: 'analyst', plan: 'monthlyT2', sessionId: 'session-7' };
const NOW = new Date('2026-11-22T12:00:00Z');
const SECOND = 1000;

function at(offsetSeconds: number): Date {
  return new Date(NOW.getTime() + offsetSeconds * SECOND);
}

/** A token signed with our key but with claims of the test's choosing. */
async function signRaw(
  key: AccessTokenKey,
  claims: Record<string, unknown>,
  options: { issuer?: string; audience?: string; typ?: string } = {},
): Promise<string> {
  const iat = Math.floor(NOW.getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: options.typ ?? 'at+jwt' })
    .setIssuer(options.issuer ?? TOKEN_ISSUER)
    .setAudience(options.audience ?? TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 600)
    .sign(key);
}

/** The name=value pair and the attributes of one Set-Cookie value. */
function parseSetCookie(header: string): { pair: string; attributes: Record<string, string | true> } {
  const [pair = '', ...parts] = header.split('; ');
  const attributes: Record<string, string | true> = {};
  for (const part of parts) {
    const [name = '', value] = part.split('=');
    attributes[name.toLowerCase()] = value ?? true;
  }
  return { pair, attributes };
}

describe('access tokens', () => {
  it('round-trips the user, role, plan and session it was signed for', async () => {
    const token = await signAccessToken(KEY, SUBJECT, { now: NOW });
    const claims = await verifyAccessToken(KEY, token, { now: at(60) });
    expect(claims).toEqual({
      scope: 'user',
      ...SUBJECT,
      issuedAt: NOW,
      expiresAt: at(ACCESS_TOKEN_TTL_SECONDS),
    });
  });

  it('carries sub, sid, issuer and audience as standard JWT claims under HS256', async () => {
    const token = await signAccessToken(KEY, SUBJECT);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    expect(decodeJwt(token)).toMatchObject({
      sub: 'user-42',
      sid: 'session-7',
      role: 'analyst',
      plan: 'monthlyT2',
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
    });
  });

  it('lives fifteen minutes by default and never longer', async () => {
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(900);
    const { iat = 0, exp = 0 } = decodeJwt(await signAccessToken(KEY, SUBJECT));
    expect(exp - iat).toBe(900);
    await expect(signAccessToken(KEY, SUBJECT, { ttlSeconds: 901 })).rejects.toThrow(/1 to 900 seconds/);
  });

  it('is accepted up to its last second and refused from the moment it expires', async () => {
    const token = await signAccessToken(KEY, SUBJECT, { now: NOW, ttlSeconds: 60 });
    expect(await verifyAccessToken(KEY, token, { now: at(59) })).not.toBeNull();
    expect(await verifyAccessToken(KEY, token, { now: at(60) })).toBeNull();
  });

  it('is refused when it was signed in the past and has already expired', async () => {
    const token = await signAccessToken(KEY, SUBJECT, { now: new Date(Date.now() - 16 * 60 * SECOND) });
    expect(await verifyAccessToken(KEY, token)).toBeNull();
  });

  it('is refused when its payload was changed after signing', async () => {
    const [header, payload, signature] = (await signAccessToken(KEY, SUBJECT)).split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
    expect(await verifyAccessToken(KEY, `${header ?? ''}.${forged}.${signature ?? ''}`)).toBeNull();
  });

  it('is refused when signed with another secret', async () => {
    const otherKey = accessTokenKey(`${SECRET}-other`);
    const token = await signAccessToken(otherKey, SUBJECT);
    expect(await verifyAccessToken(KEY, token)).toBeNull();
  });

  it('is refused when unsigned (alg none)', async () => {
    const token = new UnsecuredJWT({ scope: 'user', role: 'admin', plan: 'pro', sid: 's' })
      .setSubject('user-42')
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .encode();
    expect(await verifyAccessToken(KEY, token)).toBeNull();
  });

  it('is refused when issued by someone else or for another audience', async () => {
    const claims = { scope: 'user', sub: 'user-42', role: 'user', plan: 'free', sid: 's' };
    const valid = await signRaw(KEY, claims);
    expect(await verifyAccessToken(KEY, valid, { now: NOW })).not.toBeNull();
    const wrongIssuer = await signRaw(KEY, claims, { issuer: 'someone-else' });
    const wrongAudience = await signRaw(KEY, claims, { audience: 'another-api' });
    expect(await verifyAccessToken(KEY, wrongIssuer, { now: NOW })).toBeNull();
    expect(await verifyAccessToken(KEY, wrongAudience, { now: NOW })).toBeNull();
  });

  it('is refused when a signed token lacks the session or claims to be public without the public scope', async () => {
    const noSession = await signRaw(KEY, { scope: 'user', sub: 'user-42', role: 'user', plan: 'free' });
    const fakePublic = await signRaw(KEY, {
      scope: 'user',
      sub: 'public',
      role: 'user',
      plan: 'free',
      sid: 's',
    });
    expect(await verifyAccessToken(KEY, noSession, { now: NOW })).toBeNull();
    expect(await verifyAccessToken(KEY, fakePublic, { now: NOW })).toBeNull();
  });

  it('is refused when it is not a JWT at all', async () => {
    expect(await verifyAccessToken(KEY, 'not-a-token')).toBeNull();
    expect(await verifyAccessToken(KEY, '')).toBeNull();
  });

  it('cannot be signed for the reserved public subject or without a session', async () => {
    await expect(signAccessToken(KEY, { ...SUBJECT, userId: 'public' })).rejects.toThrow(/reserved/);
    await expect(signAccessToken(KEY, { ...SUBJECT, sessionId: ' ' })).rejects.toThrow(/sessionId/);
  });

  it('needs a server secret to derive its key from', () => {
    expect(() => accessTokenKey('  ')).toThrow(/must not be empty/);
  });

  it('derives the same key from the same secret, so every process accepts the others’ tokens', async () => {
    const token = await signAccessToken(accessTokenKey(SECRET), SUBJECT);
    expect(await verifyAccessToken(accessTokenKey(SECRET), token)).not.toBeNull();
  });
});

describe('public fallback tokens', () => {
  it('verifies as a public token, not a signed-in user', async () => {
    const token = await signPublicToken(KEY, { now: NOW });
    const claims = await verifyAccessToken(KEY, token, { now: at(3600) });
    expect(claims).not.toBeNull();
    expect(claims && isPublicToken(claims)).toBe(true);
    expect(claims).toMatchObject({ scope: 'public', expiresAt: at(PUBLIC_TOKEN_TTL_SECONDS) });
    expect(decodeJwt(token)).toMatchObject({ sub: 'public', scope: 'public' });
  });

  it('tells visitors apart, so each can be rate-limited on its own', async () => {
    const first = await verifyAccessToken(KEY, await signPublicToken(KEY));
    const second = await verifyAccessToken(KEY, await signPublicToken(KEY));
    expect(first?.scope === 'public' && second?.scope === 'public').toBe(true);
    if (first?.scope === 'public' && second?.scope === 'public') {
      expect(first.tokenId).not.toBe(second.tokenId);
    }
  });

  it('is not mistaken for a public token when a user signs in', async () => {
    const claims = await verifyAccessToken(KEY, await signAccessToken(KEY, SUBJECT));
    expect(claims && isPublicToken(claims)).toBe(false);
  });

  it('expires like any other token', async () => {
    const token = await signPublicToken(KEY, { now: NOW });
    expect(await verifyAccessToken(KEY, token, { now: at(PUBLIC_TOKEN_TTL_SECONDS) })).toBeNull();
  });
});

describe('refresh tokens', () => {
  it('are 32 random bytes in base64url, at least 128 bits', () => {
    const { token } = newRefreshToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(looksLikeRefreshToken(token)).toBe(true);
  });

  it('are never repeated', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newRefreshToken().token));
    expect(tokens.size).toBe(1000);
  });

  it('come with the SHA-256 hex hash that is stored in their place', () => {
    const { token, hash } = newRefreshToken();
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRefreshToken(token)).toBe(hash);
    expect(hashRefreshToken(`${token.slice(0, -1)}x`)).not.toBe(hash);
  });

  it('are told apart from junk before any lookup', () => {
    expect(looksLikeRefreshToken('')).toBe(false);
    expect(looksLikeRefreshToken('abc')).toBe(false);
    expect(looksLikeRefreshToken(`${'a'.repeat(42)};`)).toBe(false);
    expect(looksLikeRefreshToken(randomBytes(32).toString('hex'))).toBe(false);
  });
});

describe('refresh cookie', () => {
  it('is HttpOnly, SameSite=Lax, limited to /api, with the product max age', () => {
    const { token } = newRefreshToken();
    const { pair, attributes } = parseSetCookie(refreshCookie(token, { secure: false }));
    expect(pair).toBe(`${REFRESH_COOKIE_NAME}=${token}`);
    expect(REFRESH_COOKIE_NAME).toBe('refreshToken');
    expect(attributes).toEqual({
      'max-age': String(REFRESH_COOKIE_MAX_AGE_SECONDS),
      path: '/api',
      httponly: true,
      samesite: 'Lax',
    });
    expect(REFRESH_COOKIE_MAX_AGE_SECONDS).toBe(609638400);
  });

  it('is Secure only when served over https', () => {
    const { token } = newRefreshToken();
    expect(parseSetCookie(refreshCookie(token, { secure: true })).attributes.secure).toBe(true);
    expect(parseSetCookie(refreshCookie(token, { secure: false })).attributes.secure).toBeUndefined();
  });

  it('refuses a value that could break out of the header', () => {
    expect(() => refreshCookie('x; Path=/\r\nSet-Cookie: evil=1', { secure: true })).toThrow();
  });

  it('is cleared with an empty value, zero max age and the same path', () => {
    const { pair, attributes } = parseSetCookie(clearRefreshCookie());
    expect(pair).toBe('refreshToken=');
    expect(attributes).toMatchObject({ 'max-age': '0', path: '/api', httponly: true, samesite: 'Lax' });
    expect(attributes.secure).toBeUndefined();
    expect(parseSetCookie(clearRefreshCookie({ secure: true })).attributes.secure).toBe(true);
  });
});

describe('session expiry', () => {
  const created = NOW;

  it('uses 400 days of absolute life and 30 days of idleness', () => {
    expect(REFRESH_ABSOLUTE_LIFETIME_SECONDS).toBe(34_560_000);
    expect(REFRESH_IDLE_TIMEOUT_SECONDS).toBe(2_592_000);
  });

  it('is valid just before the idle limit and idle from the moment it is reached', () => {
    const idle = REFRESH_IDLE_TIMEOUT_SECONDS;
    expect(sessionExpiry(created, created, new Date(at(idle).getTime() - 1))).toBe('valid');
    expect(sessionExpiry(created, created, at(idle))).toBe('idle');
  });

  it('stays valid while used, until the absolute limit ends it', () => {
    const life = REFRESH_ABSOLUTE_LIFETIME_SECONDS;
    const justUsed = at(life - 60);
    expect(sessionExpiry(created, justUsed, new Date(at(life).getTime() - 1))).toBe('valid');
    expect(sessionExpiry(created, justUsed, at(life))).toBe('expired');
  });

  it('reports expired rather than idle when both limits have passed', () => {
    expect(sessionExpiry(created, created, at(REFRESH_ABSOLUTE_LIFETIME_SECONDS + 1))).toBe('expired');
  });
});

describe('secret redaction in log lines', () => {
  it('removes JWTs, including unsigned ones', async () => {
    const jwt = await signAccessToken(KEY, SUBJECT);
    const unsigned = new UnsecuredJWT({ sub: 'x' }).encode();
    const line = redactSecrets(`verify failed for ${jwt} and ${unsigned} in 3 ms`);
    expect(line).toBe('verify failed for [redacted] and [redacted] in 3 ms');
  });

  it('removes bare refresh tokens', () => {
    const { token } = newRefreshToken();
    expect(redactSecrets(`session rotated from ${token}`)).toBe('session rotated from [redacted]');
  });

  it('removes an API key hidden in an encoded query, and keeps what follows it', () => {
    const key = 'Zk3qP9sT2vXw8yBn4cLm';
    expect(redactSecrets(`GET /stable/quote?symbol=AAPL%26apikey%3D${key} 200`)).toBe(
      'GET /stable/quote?symbol=AAPL%26apikey%3D[redacted] 200',
    );
    expect(redactSecrets(`GET /stable/quote?q=x%2526apiKey%253D${key}%2526limit%253D5 200`)).toBe(
      'GET /stable/quote?q=x%2526apiKey%253D[redacted]%2526limit%253D5 200',
    );
    expect(redactSecrets(`GET /stable/quote?symbol=AAPL%26apikey%3D${key}%26limit%3D5`)).toBe(
      'GET /stable/quote?symbol=AAPL%26apikey%3D[redacted]%26limit%3D5',
    );
  });

  it('removes apikey, refreshToken and accessToken query values', () => {
    const line = redactSecrets(
      'GET /api/auth/refresh-token?refreshToken=abc123&apikey=KEY9&accessToken=xyz&symbol=AAPL 200',
    );
    expect(line).toBe(
      'GET /api/auth/refresh-token?refreshToken=[redacted]&apikey=[redacted]&accessToken=[redacted]&symbol=AAPL 200',
    );
  });

  it('removes secrets in cookies, JSON fields and bearer headers', () => {
    expect(redactSecrets('cookie: refreshToken=abc; theme=dark')).toBe(
      'cookie: refreshToken=[redacted]; theme=dark',
    );
    expect(redactSecrets('{"login":"a@b.c","password":"hunter2","firebaseAccessToken":"t"}')).toBe(
      '{"login":"a@b.c","password":"[redacted]","firebaseAccessToken":"[redacted]"}',
    );
    expect(redactSecrets('authorization: Bearer opaque.value')).toBe('authorization: Bearer [redacted]');
  });

  it('leaves ordinary log lines untouched', () => {
    const line = 'GET /api/quotes?symbol=AAPL&range=1d 200 12ms user=user-42 session=session-7';
    expect(redactSecrets(line)).toBe(line);
  });
});
