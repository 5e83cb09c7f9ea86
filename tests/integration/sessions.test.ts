import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccountsEnv } from '../../src/server/app/context.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import { sessions, type User } from '../../src/server/db/schema.ts';
import { accessKey } from '../../src/server/auth/tokens.ts';
import { requireAdmin, requireUser } from '../../src/server/middleware/caller.ts';
import { createUser, setBlocked, setRole } from '../../src/server/services/users.ts';
import {
  REFRESH_REUSE_GRACE_MS,
  isSessionActive,
  revokeSession,
  revokeUserSessions,
  rotateSession,
  sessionOwner,
  startSession,
} from '../../src/server/auth/sessions.ts';
import {
  REFRESH_ABSOLUTE_LIFETIME_SECONDS,
  REFRESH_IDLE_TIMEOUT_SECONDS,
  hashRefreshToken,
  looksLikeRefreshToken,
  newRefreshToken,
  signAccessToken,
  signPublicToken,
} from '../../src/server/auth/tokens.ts';
import { accountsAppOn } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

const saved = { ...process.env };
const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;
const T0 = new Date('2026-01-01T00:00:00Z');

function after(ms: number, from: Date = T0): Date {
  return new Date(from.getTime() + ms);
}

beforeEach(() => {
  process.env.DATA_DIR = 'memory://';
});

afterEach(() => {
  process.env = { ...saved };
});

describe.each(databaseTargets())('sessions on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;
  const newUser = (): Promise<User> =>
    createUser(db(), { firebaseUid: randomUUID(), email: `s.${randomUUID().slice(0, 8)}@example.com` });
  const familyRows = (familyId: string): Promise<(typeof sessions.$inferSelect)[]> =>
    db().select().from(sessions).where(eq(sessions.familyId, familyId));

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  describe('starting and rotating', () => {
    it('hands out a refresh token once and stores only its hash', async () => {
      const user = await newUser();
      const started = await startSession(db(), user.id, { userAgent: 'test-agent', ip: '203.0.113.9' });
      expect(looksLikeRefreshToken(started.refreshToken)).toBe(true);
      const [row] = await familyRows(started.familyId);
      expect(row).toMatchObject({
        id: started.sessionId,
        userId: user.id,
        tokenHash: hashRefreshToken(started.refreshToken),
        userAgent: 'test-agent',
        ip: '203.0.113.9',
        replacedAt: null,
        revokedAt: null,
      });
      expect(JSON.stringify(row)).not.toContain(started.refreshToken);
    });

    it('rotates to a new token in the same family and marks the old one replaced', async () => {
      const user = await newUser();
      const started = await startSession(db(), user.id, { now: T0 });
      const rotated = await rotateSession(db(), started.refreshToken, after(DAY));
      if (!rotated.ok) throw new Error(`rotation refused: ${rotated.reason}`);
      expect(rotated.userId).toBe(user.id);
      expect(rotated.familyId).toBe(started.familyId);
      expect(rotated.sessionId).not.toBe(started.sessionId);
      expect(rotated.refreshToken).not.toBe(started.refreshToken);
      const rows = await familyRows(started.familyId);
      expect(rows.find((r) => r.id === started.sessionId)?.replacedAt).toEqual(after(DAY));
      expect(rows.find((r) => r.id === rotated.sessionId)).toMatchObject({
        replacedAt: null,
        createdAt: T0,
        lastUsedAt: after(DAY),
      });
    });

    it('ends the whole family when a rotated token is presented again after the grace', async () => {
      const user = await newUser();
      const first = await startSession(db(), user.id, { now: T0 });
      const second = await rotateSession(db(), first.refreshToken, after(SECOND));
      if (!second.ok) throw new Error(`rotation refused: ${second.reason}`);
      const late = after(SECOND + REFRESH_REUSE_GRACE_MS + 1);
      expect(await rotateSession(db(), first.refreshToken, late)).toEqual({ ok: false, reason: 'reused' });
      expect(await rotateSession(db(), second.refreshToken, late)).toEqual({ ok: false, reason: 'revoked' });
      const rows = await familyRows(first.familyId);
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
    });

    it('answers concurrent rotations of one token with the same next session, so racing tabs stay signed in', async () => {
      const user = await newUser();
      const started = await startSession(db(), user.id);
      const results = await Promise.all(
        Array.from({ length: 8 }, async () => rotateSession(db(), started.refreshToken)),
      );
      expect(results.every((result) => result.ok)).toBe(true);
      const tokens = new Set(results.map((result) => (result.ok ? result.refreshToken : '')));
      const sessionIds = new Set(results.map((result) => (result.ok ? result.sessionId : '')));
      expect(tokens.size).toBe(1);
      expect(sessionIds.size).toBe(1);
      expect(await familyRows(started.familyId)).toHaveLength(2);
      const [next] = tokens;
      const third = await rotateSession(db(), String(next));
      expect(third.ok).toBe(true);
    });

    it('answers a token rotated moments ago with its successor, following later rotations within the grace', async () => {
      const user = await newUser();
      const first = await startSession(db(), user.id, { now: T0 });
      const second = await rotateSession(db(), first.refreshToken, after(SECOND));
      if (!second.ok) throw new Error(`rotation refused: ${second.reason}`);
      const again = await rotateSession(db(), first.refreshToken, after(5 * SECOND));
      expect(again).toEqual(second);
      const third = await rotateSession(db(), second.refreshToken, after(6 * SECOND));
      if (!third.ok) throw new Error(`rotation refused: ${third.reason}`);
      const late = await rotateSession(db(), first.refreshToken, after(7 * SECOND));
      expect(late).toMatchObject({ ok: true, sessionId: third.sessionId, refreshToken: third.refreshToken });
      const rows = await familyRows(first.familyId);
      expect(rows).toHaveLength(3);
      expect(rows.every((row) => row.revokedAt === null)).toBe(true);
    });

    it('does not answer a late copy of a rotated token once the sign-in was ended', async () => {
      const user = await newUser();
      const first = await startSession(db(), user.id, { now: T0 });
      const second = await rotateSession(db(), first.refreshToken, after(SECOND));
      if (!second.ok) throw new Error(`rotation refused: ${second.reason}`);
      await revokeSession(db(), second.sessionId, after(2 * SECOND));
      expect((await rotateSession(db(), first.refreshToken, after(3 * SECOND))).ok).toBe(false);
    });

    it('refuses unknown and malformed tokens without touching any session', async () => {
      expect(await rotateSession(db(), newRefreshToken().token)).toEqual({ ok: false, reason: 'unknown' });
      expect(await rotateSession(db(), 'not a token')).toEqual({ ok: false, reason: 'unknown' });
      expect(await rotateSession(db(), '')).toEqual({ ok: false, reason: 'unknown' });
    });
  });

  describe('expiry', () => {
    it('ends a session left unused for the idle limit, and not a second before', async () => {
      const user = await newUser();
      const idle = REFRESH_IDLE_TIMEOUT_SECONDS * SECOND;
      const a = await startSession(db(), user.id, { now: T0 });
      expect(await rotateSession(db(), a.refreshToken, after(idle))).toEqual({
        ok: false,
        reason: 'expired',
      });
      const b = await startSession(db(), user.id, { now: T0 });
      expect(await rotateSession(db(), b.refreshToken, after(idle - SECOND))).toMatchObject({ ok: true });
    });

    it('ends a session at its absolute limit however often it was refreshed', async () => {
      const user = await newUser();
      const started = await startSession(db(), user.id, { now: T0 });
      const lifetime = REFRESH_ABSOLUTE_LIFETIME_SECONDS * SECOND;
      let token = started.refreshToken;
      for (let day = 20; day * DAY < lifetime; day += 20) {
        const rotated = await rotateSession(db(), token, after(day * DAY));
        if (!rotated.ok) throw new Error(`rotation on day ${day} refused: ${rotated.reason}`);
        token = rotated.refreshToken;
      }
      const end = after(lifetime);
      expect(await rotateSession(db(), token, end)).toEqual({ ok: false, reason: 'expired' });
      expect(await isSessionActive(db(), started.sessionId, end)).toBe(false);
      expect(await isSessionActive(db(), started.sessionId, after(DAY))).toBe(true);
    });

    it('honours a shorter lifetime chosen at the start', async () => {
      const user = await newUser();
      const short = await startSession(db(), user.id, { now: T0, lifetimeSeconds: 900 });
      expect(await isSessionActive(db(), short.sessionId, after(899 * SECOND))).toBe(true);
      expect(await isSessionActive(db(), short.sessionId, after(900 * SECOND))).toBe(false);
      expect(await rotateSession(db(), short.refreshToken, after(900 * SECOND))).toEqual({
        ok: false,
        reason: 'expired',
      });
    });
  });

  describe('revocation', () => {
    it('ends every session of the family, rotated ones included, and refuses its tokens', async () => {
      const user = await newUser();
      const first = await startSession(db(), user.id);
      const second = await rotateSession(db(), first.refreshToken);
      if (!second.ok) throw new Error(`rotation refused: ${second.reason}`);
      expect(await isSessionActive(db(), first.sessionId)).toBe(true);
      expect(await revokeSession(db(), first.sessionId)).toBe(true);
      expect(await isSessionActive(db(), first.sessionId)).toBe(false);
      expect(await isSessionActive(db(), second.sessionId)).toBe(false);
      expect(await rotateSession(db(), second.refreshToken)).toEqual({ ok: false, reason: 'revoked' });
      expect(await revokeSession(db(), first.sessionId)).toBe(false);
    });

    it("ends all of one account's sessions and no one else's", async () => {
      const [user, other] = [await newUser(), await newUser()];
      const a = await startSession(db(), user.id);
      const b = await startSession(db(), user.id);
      const c = await startSession(db(), other.id);
      expect(await revokeUserSessions(db(), user.id)).toBe(2);
      expect(await isSessionActive(db(), a.sessionId)).toBe(false);
      expect(await isSessionActive(db(), b.sessionId)).toBe(false);
      expect(await isSessionActive(db(), c.sessionId)).toBe(true);
    });

    it('answers false for unknown or malformed session ids', async () => {
      expect(await isSessionActive(db(), randomUUID())).toBe(false);
      expect(await isSessionActive(db(), 'nope')).toBe(false);
      expect(await revokeSession(db(), 'nope')).toBe(false);
    });
  });

  describe('session owner', () => {
    it('names the account with its current role and plan, and sees a revocation here at once', async () => {
      const user = await newUser();
      const started = await startSession(db(), user.id);
      expect(await sessionOwner(db(), started.sessionId)).toEqual({
        userId: user.id,
        role: 'user',
        planCode: 'free',
      });
      await revokeSession(db(), started.sessionId);
      expect(await sessionOwner(db(), started.sessionId)).toBeNull();
    });

    it('refuses the session of a blocked account', async () => {
      const user = await newUser();
      const started = await startSession(db(), user.id);
      await setBlocked(db(), user.id, true, null);
      await revokeUserSessions(db(), user.id);
      expect(await sessionOwner(db(), started.sessionId)).toBeNull();
    });
  });

  describe('caller middleware', () => {
    const app = (): Hono<AccountsEnv> =>
      accountsAppOn(db, [
        [
          '/',
          new Hono<AccountsEnv>()
            .get('/who', (c) => c.json(c.var.caller))
            .get('/private', requireUser(), (c) => c.json({ ok: true }))
            .get('/admin', requireAdmin(), (c) => c.json({ ok: true })),
        ],
      ]);
    const bearer = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } });
    const tokenFor = async (user: User, sessionId: string, now?: Date): Promise<string> =>
      signAccessToken(
        accessKey(),
        { userId: user.id, role: user.role, plan: user.planCode, sessionId },
        now === undefined ? {} : { now },
      );

    it('sees nobody without a token and refuses private routes with 401', async () => {
      expect(await (await app().request('/who')).json()).toEqual({ kind: 'anonymous' });
      const res = await app().request('/private');
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Please sign in to continue.' });
    });

    it('recognises the public token, which still opens no private route', async () => {
      const token = await signPublicToken(accessKey());
      expect(await (await app().request('/who', bearer(token))).json()).toEqual({ kind: 'public' });
      expect((await app().request('/private', bearer(token))).status).toBe(401);
    });

    it('treats a garbage token as anonymous and answers 403 on private routes so the client refreshes', async () => {
      expect(await (await app().request('/who', bearer('garbage'))).json()).toEqual({ kind: 'anonymous' });
      const res = await app().request('/private', bearer('garbage'));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: 'Your session has expired. Please sign in again.' });
    });

    it('recognises a signed-in user with the role and plan the account has now', async () => {
      const user = await newUser();
      const { sessionId } = await startSession(db(), user.id);
      const token = await tokenFor(user, sessionId);
      await setRole(db(), user.id, 'analyst', null);
      const who: unknown = await (await app().request('/who', bearer(token))).json();
      expect(who).toEqual({ kind: 'user', userId: user.id, role: 'analyst', plan: 'free', sessionId });
      expect((await app().request('/private', bearer(token))).status).toBe(200);
      expect((await app().request('/admin', bearer(token))).status).toBe(403);
    });

    it('treats the token of a revoked session as not signed in', async () => {
      const user = await newUser();
      const { sessionId } = await startSession(db(), user.id);
      const token = await tokenFor(user, sessionId);
      expect((await app().request('/private', bearer(token))).status).toBe(200);
      await revokeSession(db(), sessionId);
      expect(await (await app().request('/who', bearer(token))).json()).toEqual({ kind: 'anonymous' });
      expect((await app().request('/private', bearer(token))).status).toBe(403);
    });

    it('treats an expired token as not signed in', async () => {
      const user = await newUser();
      const { sessionId } = await startSession(db(), user.id);
      const token = await tokenFor(user, sessionId, after(-DAY, new Date()));
      expect((await app().request('/private', bearer(token))).status).toBe(403);
    });

    it('refuses a token whose subject is not the owner of the session it names', async () => {
      const [owner, other] = [await newUser(), await newUser()];
      const { sessionId } = await startSession(db(), owner.id);
      const token = await tokenFor(other, sessionId);
      expect(await (await app().request('/who', bearer(token))).json()).toEqual({ kind: 'anonymous' });
    });

    it('lets administrators through the admin gate', async () => {
      const user = await newUser();
      await setRole(db(), user.id, 'admin', null);
      const { sessionId } = await startSession(db(), user.id);
      const token = await tokenFor({ ...user, role: 'admin' }, sessionId);
      expect((await app().request('/admin', bearer(token))).status).toBe(200);
    });
  });
});
