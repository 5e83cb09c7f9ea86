import { randomUUID } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type {
  AdminAuditEntry,
  AdminOverview,
  AdminUserDetail,
  AdminUserPage,
  ClientErrorGroup,
} from '../../src/lib/admin.ts';
import { signSessionToken } from '../../src/server/auth/sign-in.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import {
  apiKeys,
  apiRequests,
  apiUsage,
  auditLog,
  clientErrors,
  outboxEmails,
  pricePlans,
  sessions,
  users,
} from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import {
  ADMIN_ONLY_MESSAGE,
  SIGN_IN_REQUIRED_MESSAGE,
  STAFF_ONLY_MESSAGE,
} from '../../src/server/middleware/caller.ts';
import {
  ALREADY_VERIFIED_MESSAGE,
  NO_SUCH_USER_MESSAGE,
  REASON_MESSAGE,
  SELF_BLOCK_MESSAGE,
  SELF_ROLE_MESSAGE,
  adminRoutes,
} from '../../src/server/routes/admin.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { logClientError } from '../../src/server/services/client-errors.ts';
import { onAccountKeysChanged } from '../../src/server/services/key-events.ts';
import { createUser, setRole } from '../../src/server/services/users.ts';
import { accountsAppOn, bearer, post } from './accounts-app.ts';
import { databaseTargets } from './databases.ts';

const saved = { ...process.env };

/** The environment the tokens are signed in: set before each database's accounts and each test. */
function testEnvironment(): void {
  process.env.DATA_DIR = 'memory://';
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
  delete process.env.REDIS_URL;
}

beforeEach(async () => {
  testEnvironment();
  await closeSharedRateLimitStore();
});

afterEach(() => {
  process.env = { ...saved };
});

interface Signed {
  id: string;
  email: string;
  username: string;
  token: string;
}

describe.each(databaseTargets())('the admin console’s API on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;
  const app = accountsAppOn(db, [['/admin', adminRoutes]]);
  let admin: Signed;
  let analyst: Signed;
  let ordinary: Signed;

  /** An account with the role and a signed-in session's access token. */
  async function account(
    role: 'user' | 'analyst' | 'admin',
    fields: { email?: string; username?: string } = {},
  ): Promise<Signed> {
    const created = await createUser(db(), {
      firebaseUid: `uid-${randomUUID()}`,
      email: fields.email ?? `${role}.${randomUUID().slice(0, 8)}@example.com`,
      ...(fields.username === undefined ? {} : { username: fields.username }),
    });
    const user = role === 'user' ? created : ((await setRole(db(), created.id, role, null)) ?? created);
    const session = await startSession(db(), user.id);
    return {
      id: user.id,
      email: user.email,
      username: user.username,
      token: await signSessionToken(user, session.sessionId),
    };
  }

  const as = (who: Signed): RequestInit => bearer(who.token);
  const act = (who: Signed, body: object): RequestInit =>
    post(body, { Authorization: `Bearer ${who.token}` });
  const get = async <T>(path: string, who: Signed = admin): Promise<T> => {
    const res = await app.request(path, as(who));
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    return (await res.json()) as T;
  };
  const auditOf = (userId: string, action: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetUserId, userId), eq(auditLog.action, action as 'block')));

  beforeAll(async () => {
    testEnvironment();
    database = await target.open();
    admin = await account('admin');
    analyst = await account('analyst');
    ordinary = await account('user');
  });

  afterAll(async () => {
    await database.close();
  });

  describe('who may read and who may act', () => {
    const reads = [
      '/admin/users',
      '/admin/overview',
      '/admin/audit',
      '/admin/client-errors',
      '/admin/client-errors/groups',
      '/admin/enterprise-enquiries',
      '/admin/support-requests',
    ];

    it('lets administrators and analysts read every list, and refuses ordinary users and visitors', async () => {
      for (const path of [...reads, `/admin/users/${ordinary.id}`]) {
        expect((await app.request(path, as(admin))).status, path).toBe(200);
        expect((await app.request(path, as(analyst))).status, path).toBe(200);
        const refused = await app.request(path, as(ordinary));
        expect(refused.status, path).toBe(403);
        expect(await refused.json()).toMatchObject({ error: STAFF_ONLY_MESSAGE });
        const anonymous = await app.request(path);
        expect(anonymous.status, path).toBe(401);
        expect(await anonymous.json()).toMatchObject({ error: SIGN_IN_REQUIRED_MESSAGE });
      }
    });

    it('refuses every action to analysts and ordinary users, and changes nothing', async () => {
      const targetUser = await account('user');
      const [key] = await db().select().from(apiKeys).where(eq(apiKeys.userId, targetUser.id));
      const writes: [string, object][] = [
        [`/admin/users/${targetUser.id}/block`, { reason: 'r' }],
        [`/admin/users/${targetUser.id}/unblock`, { reason: 'r' }],
        [`/admin/users/${targetUser.id}/role`, { role: 'admin', reason: 'r' }],
        [`/admin/users/${targetUser.id}/plan`, { planCode: 'starter-monthly', reason: 'r' }],
        [`/admin/users/${targetUser.id}/legacy`, { legacy: true, reason: 'r' }],
        [`/admin/users/${targetUser.id}/resend-verification`, { reason: 'r' }],
        [`/admin/users/${targetUser.id}/keys/${key?.id ?? randomUUID()}/revoke`, { reason: 'r' }],
        [`/admin/users/${targetUser.id}/sessions/end`, { reason: 'r' }],
      ];
      for (const [path, body] of writes) {
        const byAnalyst = await app.request(path, act(analyst, body));
        expect(byAnalyst.status, path).toBe(403);
        expect(await byAnalyst.json()).toMatchObject({ error: ADMIN_ONLY_MESSAGE });
        expect((await app.request(path, act(ordinary, body))).status, path).toBe(403);
        expect((await app.request(path, post(body))).status, path).toBe(401);
      }
      const [row] = await db().select().from(users).where(eq(users.id, targetUser.id));
      expect(row).toMatchObject({ blocked: false, role: 'user', planCode: 'free', legacy: false });
      expect(await db().select().from(auditLog).where(eq(auditLog.targetUserId, targetUser.id))).toEqual([]);
    });

    it('asks every action for a reason, and says so', async () => {
      const targetUser = await account('user');
      const missing = await app.request(`/admin/users/${targetUser.id}/block`, act(admin, {}));
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ error: 'reason: Required', field: 'reason' });
      for (const body of [{ reason: '' }, { reason: '   ' }]) {
        const res = await app.request(`/admin/users/${targetUser.id}/block`, act(admin, body));
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ error: `reason: ${REASON_MESSAGE}` });
      }
      const tooLong = await app.request(
        `/admin/users/${targetUser.id}/block`,
        act(admin, { reason: 'x'.repeat(501) }),
      );
      expect(tooLong.status).toBe(400);
    });
  });

  describe('actions', () => {
    it('blocks with a reason: the account is blocked, its sessions end, the data API is told, and the audit says who, what and why', async () => {
      const targetUser = await account('user');
      const told: string[] = [];
      const stop = onAccountKeysChanged((userId) => told.push(userId));
      const res = await app.request(
        `/admin/users/${targetUser.id}/block`,
        act(admin, { reason: 'Chargeback fraud' }),
      );
      stop();
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, user: { id: targetUser.id, blocked: true } });
      expect(told).toContain(targetUser.id);
      const live = await db()
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, targetUser.id)));
      expect(live.every((session) => session.revokedAt !== null)).toBe(true);
      const [entry] = await auditOf(targetUser.id, 'block');
      expect(entry).toMatchObject({
        actorUserId: admin.id,
        details: { reason: 'Chargeback fraud', from: false, to: true },
      });

      const unblocked = await app.request(
        `/admin/users/${targetUser.id}/unblock`,
        act(admin, { reason: 'Refund settled' }),
      );
      expect(await unblocked.json()).toMatchObject({ user: { blocked: false } });
      expect((await auditOf(targetUser.id, 'unblock'))[0]?.details).toMatchObject({
        reason: 'Refund settled',
      });
    });

    it('refuses to block oneself or to change one’s own role', async () => {
      const self = await app.request(`/admin/users/${admin.id}/block`, act(admin, { reason: 'oops' }));
      expect(self.status).toBe(400);
      expect(await self.json()).toMatchObject({ error: SELF_BLOCK_MESSAGE });
      const role = await app.request(
        `/admin/users/${admin.id}/role`,
        act(admin, { role: 'user', reason: 'oops' }),
      );
      expect(role.status).toBe(400);
      expect(await role.json()).toMatchObject({ error: SELF_ROLE_MESSAGE });
    });

    it('answers 404 for an unknown account on every action', async () => {
      const nobody = randomUUID();
      for (const path of [
        `/admin/users/${nobody}/block`,
        `/admin/users/${nobody}/legacy`,
        `/admin/users/not-an-id/sessions/end`,
      ]) {
        const res = await app.request(path, act(admin, { reason: 'r', legacy: true }));
        expect([400, 404], path).toContain(res.status);
      }
      const res = await app.request(`/admin/users/${nobody}/block`, act(admin, { reason: 'r' }));
      expect(await res.json()).toMatchObject({ error: NO_SUCH_USER_MESSAGE });
      expect((await app.request(`/admin/users/${nobody}`, as(admin))).status).toBe(404);
    });

    it('changes the role, audited with the reason', async () => {
      const targetUser = await account('user');
      const res = await app.request(
        `/admin/users/${targetUser.id}/role`,
        act(admin, { role: 'analyst', reason: 'Joins the data team' }),
      );
      expect(await res.json()).toMatchObject({ user: { role: 'analyst' } });
      expect((await auditOf(targetUser.id, 'role_change'))[0]).toMatchObject({
        actorUserId: admin.id,
        details: { reason: 'Joins the data team', from: 'user', to: 'analyst', via: 'console' },
      });
      const bad = await app.request(
        `/admin/users/${targetUser.id}/role`,
        act(admin, { role: 'owner', reason: 'r' }),
      );
      expect(bad.status).toBe(400);
    });

    it('changes the plan, tells the data API at once, and refuses a plan that does not exist', async () => {
      const targetUser = await account('user');
      const told: string[] = [];
      const stop = onAccountKeysChanged((userId) => told.push(userId));
      // A paid plan of the seeded catalogue, whichever it is.
      const [plan] = await db()
        .select({ code: pricePlans.code })
        .from(pricePlans)
        .where(gt(pricePlans.priceCents, 0))
        .orderBy(pricePlans.sortOrder)
        .limit(1);
      const planCode = plan?.code ?? 'free';
      const res = await app.request(
        `/admin/users/${targetUser.id}/plan`,
        act(admin, { planCode, reason: 'Sponsored account' }),
      );
      stop();
      expect(await res.json()).toMatchObject({ user: { planCode } });
      expect(told).toContain(targetUser.id);
      expect((await auditOf(targetUser.id, 'plan_change'))[0]?.details).toMatchObject({
        reason: 'Sponsored account',
        to: planCode,
      });
      const unknown = await app.request(
        `/admin/users/${targetUser.id}/plan`,
        act(admin, { planCode: 'gold-forever', reason: 'r' }),
      );
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toMatchObject({ error: 'There is no plan gold-forever.' });
    });

    it('sets and clears the legacy flag', async () => {
      const targetUser = await account('user');
      const set = await app.request(
        `/admin/users/${targetUser.id}/legacy`,
        act(admin, { legacy: true, reason: 'Customer since v3' }),
      );
      expect(await set.json()).toMatchObject({ user: { legacy: true } });
      const cleared = await app.request(
        `/admin/users/${targetUser.id}/legacy`,
        act(admin, { legacy: false, reason: 'Migrated' }),
      );
      expect(await cleared.json()).toMatchObject({ user: { legacy: false } });
      const entries = await auditOf(targetUser.id, 'legacy_change');
      expect(entries.map((entry) => entry.details.reason).sort()).toEqual(['Customer since v3', 'Migrated']);
    });

    it('refuses to resend the verification link of a verified address', async () => {
      const targetUser = await account('user');
      await db().update(users).set({ emailVerified: true }).where(eq(users.id, targetUser.id));
      const res = await app.request(
        `/admin/users/${targetUser.id}/resend-verification`,
        act(admin, { reason: 'Asked by phone' }),
      );
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ error: ALREADY_VERIFIED_MESSAGE });
      expect(await auditOf(targetUser.id, 'verification_resend')).toEqual([]);
    });

    it('revokes an additional key, replaces a primary one, mails the owner, and refuses a key already ended', async () => {
      const targetUser = await account('user');
      const issued = await createApiKey(db(), targetUser.id);
      if (issued === null) throw new Error('no key issued');
      const res = await app.request(
        `/admin/users/${targetUser.id}/keys/${issued.id}/revoke`,
        act(admin, { reason: 'Key posted on a forum' }),
      );
      expect(res.status).toBe(200);
      const keys = await db().select().from(apiKeys).where(eq(apiKeys.userId, targetUser.id));
      expect(keys.find((key) => key.id === issued.id)?.revokedAt).not.toBeNull();
      const replacement = keys.find((key) => key.revokedAt === null && key.primary);
      expect(replacement).toBeDefined();
      const [entry] = await auditOf(targetUser.id, 'api_key_revoke');
      expect(entry).toMatchObject({
        actorUserId: admin.id,
        details: { reason: 'Key posted on a forum', keyId: issued.id, replacedBy: replacement?.last4 },
      });
      const mails = await db().select().from(outboxEmails).where(eq(outboxEmails.email, targetUser.email));
      expect(mails.some((mail) => mail.body.includes('Key posted on a forum'))).toBe(true);
      const again = await app.request(
        `/admin/users/${targetUser.id}/keys/${issued.id}/revoke`,
        act(admin, { reason: 'again' }),
      );
      expect(again.status).toBe(409);
      const elsewhere = await app.request(
        `/admin/users/${ordinary.id}/keys/${replacement?.id ?? ''}/revoke`,
        act(admin, { reason: 'r' }),
      );
      expect(elsewhere.status).toBe(404);
    });

    it('ends every session of the account', async () => {
      const targetUser = await account('user');
      await startSession(db(), targetUser.id);
      const res = await app.request(
        `/admin/users/${targetUser.id}/sessions/end`,
        act(admin, { reason: 'Lost laptop' }),
      );
      expect(res.status).toBe(200);
      const rows = await db().select().from(sessions).where(eq(sessions.userId, targetUser.id));
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
      expect((await auditOf(targetUser.id, 'sessions_end'))[0]?.details).toMatchObject({
        reason: 'Lost laptop',
        sessions: rows.length,
      });
    });
  });

  describe('the users list', () => {
    const tag = randomUUID().slice(0, 6);
    let listed: Signed[];

    beforeAll(async () => {
      listed = [];
      for (let index = 0; index < 7; index += 1) {
        listed.push(
          await account('user', {
            email: `zz${tag}.${String(index)}@corp-${tag}.com`,
            username: `zz${tag}_${String(index)}`,
          }),
        );
      }
      await db()
        .update(users)
        .set({ emailVerified: true })
        .where(eq(users.id, listed[0]?.id ?? ''));
      await db()
        .update(users)
        .set({ createdAt: new Date('2021-03-04T12:00:00Z') })
        .where(eq(users.id, listed[1]?.id ?? ''));
    });

    it('finds accounts by the start of the address or username, whatever the case, and by whole id', async () => {
      const byEmail = await get<AdminUserPage>(`/admin/users?q=ZZ${tag}.3`);
      expect(byEmail.users.map((user) => user.id)).toEqual([listed[3]?.id]);
      const byUsername = await get<AdminUserPage>(`/admin/users?q=zz${tag}_`);
      expect(byUsername.users).toHaveLength(7);
      const byId = await get<AdminUserPage>(`/admin/users?q=${listed[5]?.id ?? ''}`);
      expect(byId.users.map((user) => user.email)).toEqual([listed[5]?.email]);
      // LIKE's wildcards are plain text: "_" does not stand for any character.
      expect((await get<AdminUserPage>(`/admin/users?q=zz${tag}_%25`)).users).toEqual([]);
    });

    it('filters by verified, role and sign-up dates', async () => {
      const verified = await get<AdminUserPage>(`/admin/users?q=zz${tag}&verified=true`);
      expect(verified.users.map((user) => user.id)).toEqual([listed[0]?.id]);
      const old = await get<AdminUserPage>(`/admin/users?q=zz${tag}&from=2021-03-04&to=2021-03-04`);
      expect(old.users.map((user) => user.id)).toEqual([listed[1]?.id]);
      const analysts = await get<AdminUserPage>('/admin/users?role=analyst');
      expect(analysts.users.every((user) => user.role === 'analyst')).toBe(true);
      expect(analysts.users.map((user) => user.id)).toContain(analyst.id);
    });

    it('pages through a sorted list by cursor, each account once and in order', async () => {
      for (const sort of ['email', 'username', 'createdAt'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const seen: string[] = [];
          let cursor: string | null = null;
          do {
            const query = `/admin/users?q=zz${tag}&sort=${sort}&order=${order}&limit=3${cursor === null ? '' : `&cursor=${cursor}`}`;
            const page: AdminUserPage = await get<AdminUserPage>(query);
            seen.push(...page.users.map((user) => user[sort === 'createdAt' ? 'createdAt' : sort]));
            cursor = page.nextCursor;
          } while (cursor !== null);
          expect(seen, `${sort} ${order}`).toHaveLength(7);
          const sorted = [...seen].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
          expect(seen, `${sort} ${order}`).toEqual(order === 'asc' ? sorted : sorted.reverse());
        }
      }
    });

    it('explains a query it cannot run', async () => {
      for (const [query, words] of [
        ['cursor=nonsense', 'cursor must be the nextCursor of an earlier page.'],
        ['from=2024-02-30', 'from must be a date written YYYY-MM-DD.'],
        ['from=2024-03-02&to=2024-03-01', 'from must not be after to.'],
        ['sort=password', 'sort'],
        ['blocked=maybe', 'blocked'],
      ] as const) {
        const res = await app.request(`/admin/users?${query}`, as(admin));
        expect(res.status, query).toBe(400);
        expect(JSON.stringify(await res.json()), query).toContain(words);
      }
    });
  });

  describe('a user’s page', () => {
    it('shows keys by their last four characters only, 30 days of usage, requests, sessions and the audit trail', async () => {
      const targetUser = await account('user');
      const issued = await createApiKey(db(), targetUser.id);
      if (issued === null) throw new Error('no key issued');
      const today = new Date().toISOString().slice(0, 10);
      await db()
        .insert(apiUsage)
        .values({ apiKeyId: issued.id, day: today, endpoint: '/stable/quote', calls: 42 });
      await db().insert(apiRequests).values({
        userId: targetUser.id,
        apiKeyId: issued.id,
        at: new Date(),
        endpoint: '/stable/quote',
        params: 'symbol=AAPL',
        status: 200,
        latencyMs: 12,
        bytes: 300,
      });
      await app.request(
        `/admin/users/${targetUser.id}/legacy`,
        act(admin, { legacy: true, reason: 'Old customer' }),
      );
      const detail = await get<AdminUserDetail>(`/admin/users/${targetUser.id}`, analyst);
      expect(JSON.stringify(detail)).not.toContain(issued.key);
      expect(detail.keys.find((key) => key.id === issued.id)).toMatchObject({
        last4: issued.key.slice(-4),
        status: 'active',
        primary: true,
      });
      expect(detail.usage).toHaveLength(30);
      expect(detail.usage.at(-1)).toEqual({ day: today, calls: 42 });
      expect(detail.requests[0]).toMatchObject({ endpoint: '/stable/quote', status: 200, durationMs: 12 });
      expect(detail.sessions.length).toBeGreaterThanOrEqual(1);
      expect(detail.audit.find((entry: AdminAuditEntry) => entry.action === 'legacy_change')).toMatchObject({
        actor: admin.username,
        target: targetUser.username,
        details: { reason: 'Old customer' },
      });
      expect(detail.user).toMatchObject({ id: targetUser.id, legacy: true, blocked: false });
    });
  });

  describe('operations', () => {
    it('counts sign-ups, calls and errors per day in the overview', async () => {
      const before = await get<AdminOverview>('/admin/overview?days=7');
      expect(before.signUps).toHaveLength(7);
      await account('user');
      await logClientError(db(), { type: 'TypeError', stackTrace: 'TypeError: x is undefined\n  at a.js:1' });
      const after = await get<AdminOverview>('/admin/overview?days=7');
      expect((after.signUps.at(-1)?.count ?? 0) - (before.signUps.at(-1)?.count ?? 0)).toBe(1);
      expect((after.errors.at(-1)?.browser ?? 0) - (before.errors.at(-1)?.browser ?? 0)).toBe(1);
      expect(after.totalUsers - before.totalUsers).toBe(1);
      expect((await app.request('/admin/overview?days=0', as(admin))).status).toBe(400);
    });

    it('groups browser errors by their message, with how often and for how many users', async () => {
      const message = `ReferenceError: chart${randomUUID().slice(0, 6)} is not defined`;
      for (const userId of [admin.id, admin.id, analyst.id]) {
        await logClientError(db(), {
          type: 'ReferenceError',
          stackTrace: `${message}\n    at draw (chart.js:10:5)`,
          userId,
        });
      }
      const { groups } = await get<{ groups: ClientErrorGroup[] }>(
        '/admin/client-errors/groups?days=1',
        analyst,
      );
      expect(groups.find((group) => group.message === message)).toMatchObject({
        type: 'ReferenceError',
        count: 3,
        users: 2,
      });
    });

    it('lists the reports of one group, newest first, and asks for both its type and message', async () => {
      const message = `TypeError: rows${randomUUID().slice(0, 6)} is undefined`;
      for (const [at, minutesAgo] of [
        ['first', 2],
        ['second', 1],
      ] as const) {
        const report = await logClientError(db(), {
          type: 'TypeError',
          stackTrace: `${message}\n    at ${at} (table.js:1:1)`,
        });
        // Reports logged back to back can share a timestamp; these are a minute apart, as reports are.
        await db()
          .update(clientErrors)
          .set({ createdAt: new Date(Date.now() - minutesAgo * 60_000) })
          .where(eq(clientErrors.id, report.id));
      }
      await logClientError(db(), { type: 'Error', stackTrace: `${message}\n    at other (table.js:1:1)` });
      const query = new URLSearchParams({ type: 'TypeError', message, limit: '5' });
      const page = await get<{ entries: { stackTrace: string }[] }>(
        `/admin/client-errors?${query.toString()}`,
      );
      expect(page.entries.map((entry) => /at (\w+)/.exec(entry.stackTrace)?.[1])).toEqual([
        'second',
        'first',
      ]);
      const half = await app.request(`/admin/client-errors?type=TypeError`, as(admin));
      expect(half.status).toBe(400);
      expect(await half.json()).toMatchObject({
        error: 'type and message name an error group together: give both or neither.',
      });
    });

    it('pages through audit entries that share a millisecond, each once', async () => {
      const targetUser = await account('user');
      for (const micro of ['100', '200', '300']) {
        await db()
          .insert(auditLog)
          .values({
            actorUserId: admin.id,
            action: 'sessions_end',
            targetUserId: targetUser.id,
            details: { reason: micro },
            createdAt: sql`${`2026-01-02T03:04:05.006${micro}Z`}::timestamptz`,
          });
      }
      const reasons: unknown[] = [];
      let before: string | null = null;
      do {
        const query = `/admin/audit?userId=${targetUser.id}&limit=1${before === null ? '' : `&before=${before}`}`;
        const page: { entries: AdminAuditEntry[]; nextCursor: string | null } = await get(query);
        reasons.push(...page.entries.map((entry) => entry.details.reason));
        before = page.nextCursor;
      } while (before !== null);
      expect(reasons).toEqual(['300', '200', '100']);
    });

    it('pages the audit trail and filters it by account', async () => {
      const targetUser = await account('user');
      for (const reason of ['one', 'two', 'three']) {
        await app.request(`/admin/users/${targetUser.id}/sessions/end`, act(admin, { reason }));
      }
      const first = await get<{ entries: AdminAuditEntry[]; nextCursor: string | null }>(
        `/admin/audit?userId=${targetUser.id}&limit=2`,
      );
      expect(first.entries.map((entry) => entry.details.reason)).toEqual(['three', 'two']);
      const second = await get<{ entries: AdminAuditEntry[]; nextCursor: string | null }>(
        `/admin/audit?userId=${targetUser.id}&limit=2&before=${first.nextCursor ?? ''}`,
      );
      expect(second.entries.map((entry) => entry.details.reason)).toEqual(['one']);
      expect(second.nextCursor).toBeNull();
      expect((await app.request('/admin/audit?before=zzz', as(admin))).status).toBe(400);
    });
  });
});
