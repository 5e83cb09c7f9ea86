import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { apiKeys, coupons, sessions, surveys, users, type User } from '../../src/server/db/schema.ts';
import {
  createApiKey,
  findActiveKey,
  revealApiKey,
  revokeApiKey,
} from '../../src/server/services/api-keys.ts';
import { listAudit } from '../../src/server/services/audit-log.ts';
import { saveCampaign } from '../../src/server/services/campaigns.ts';
import { listClientErrors, logClientError } from '../../src/server/services/client-errors.ts';
import { DEFAULT_PRICING_OPTION, listPricePlans } from '../../src/server/services/price-plans.ts';
import {
  getSurvey,
  InvalidSurveyError,
  SIGNUP_QUESTIONS,
  submitSurvey,
  validateSignupAnswers,
} from '../../src/server/services/surveys.ts';
import {
  createUser,
  DuplicateUserError,
  findUserByFirebaseUid,
  findUserByLogin,
  markEmailVerified,
  setBlocked,
  setPlan,
  setRole,
  UnknownPlanError,
} from '../../src/server/services/users.ts';
import { databaseTargets } from './databases.ts';

const SECRET = 'integration-test-secret-0123456789abcdef';

/** A valid questionnaire: the first option of every question. */
function answers(): Record<string, string> {
  return Object.fromEntries(SIGNUP_QUESTIONS.map(({ question, options }) => [question, options[0]]));
}

/** A fresh address per call, so tests sharing one database never collide. */
function email(name = 'user'): string {
  return `${name}.${randomUUID().slice(0, 8)}@example.com`;
}

describe.each(databaseTargets())('account data services on $name', (target) => {
  let database: Database;
  const db = (): Database['db'] => database.db;
  const newUser = (
    overrides: { email?: string; username?: string; emailVerified?: boolean } = {},
  ): Promise<User> =>
    createUser(db(), { firebaseUid: randomUUID(), email: overrides.email ?? email(), ...overrides });

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  describe('surveys', () => {
    it('stores one survey per address however the address is capitalised, keeping the first answers', async () => {
      const address = email('Survey');
      const first = await submitSurvey(db(), { email: address, type: 'signup', answers: answers() });
      const changed = { ...answers(), 'Role in organization': 'Student' };
      const second = await submitSurvey(db(), {
        email: address.toUpperCase(),
        type: 'signup',
        answers: changed,
      });
      expect(first.created).toBe(true);
      expect(second).toMatchObject({ created: false, survey: { id: first.survey.id, answers: answers() } });
      const rows = await db().select().from(surveys).where(eq(surveys.id, first.survey.id));
      expect(rows).toHaveLength(1);
    });

    it('finds a survey by address in any case and answers null when there is none', async () => {
      const address = email();
      await submitSurvey(db(), { email: address, type: 'signup', answers: answers() });
      expect(await getSurvey(db(), address.toUpperCase(), 'signup')).toMatchObject({ email: address });
      expect(await getSurvey(db(), email('nobody'), 'signup')).toBeNull();
    });

    it('refuses answers with a missing question, an unknown question or an option not offered', async () => {
      const missing: Record<string, string> = answers();
      delete missing['How did you hear about us'];
      const unknown = { ...answers(), 'Favourite colour': 'Blue' };
      const wrong = { ...answers(), 'Dataset most interested in': 'Crypto' };
      expect(validateSignupAnswers(missing)).toEqual(['Missing answer: How did you hear about us']);
      expect(validateSignupAnswers(unknown)).toEqual(['Unknown question: Favourite colour']);
      expect(validateSignupAnswers(wrong)).toEqual(['Not an option for "Dataset most interested in"']);
      expect(validateSignupAnswers(null)).toEqual(['Answers must be an object keyed by question text']);
      const address = email();
      await expect(submitSurvey(db(), { email: address, type: 'signup', answers: wrong })).rejects.toThrow(
        InvalidSurveyError,
      );
      expect(await getSurvey(db(), address, 'signup')).toBeNull();
    });

    it('accepts every listed option of every question', () => {
      for (const { question, options } of SIGNUP_QUESTIONS) {
        for (const option of options) {
          expect(validateSignupAnswers({ ...answers(), [question]: option })).toEqual([]);
        }
      }
    });

    it.runIf(target.name === 'PostgreSQL')('keeps one row when twenty submissions race', async () => {
      const address = email('race');
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          submitSurvey(db(), {
            email: i % 2 ? address.toUpperCase() : address,
            type: 'signup',
            answers: answers(),
          }),
        ),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.survey.id)).size).toBe(1);
    });
  });

  describe('campaigns', () => {
    it('saves a campaign with absent UTM fields as empty strings', async () => {
      const result = await saveCampaign(db(), {
        email: email(),
        utm_source: 'newsletter',
        utm_medium: 'email',
      });
      expect(result).toMatchObject({
        saved: true,
        campaign: {
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: '',
          utm_term: '',
          utm_content: '',
        },
      });
    });

    it('skips a campaign without utm_source or without an email', async () => {
      expect(await saveCampaign(db(), { email: email(), utm_source: '', utm_medium: 'cpc' })).toEqual({
        saved: false,
        reason: 'missing_utm_source',
      });
      expect(await saveCampaign(db(), { email: ' ', utm_source: 'google' })).toEqual({
        saved: false,
        reason: 'missing_email',
      });
    });
  });

  describe('price plans', () => {
    const lastYear = new Date('2020-01-01T00:00:00Z');

    beforeAll(async () => {
      await db()
        .insert(coupons)
        .values([
          { code: 'TESTHALF', percentOff: 50, planCodes: ['monthlyT2'] },
          { code: 'TESTFIVE', amountOffCents: 500 },
          { code: 'TESTOLD', percentOff: 10, validUntil: lastYear },
          { code: 'TESTOFF', percentOff: 10, active: false },
        ]);
    });

    it('lists the active catalogue in order, free first, including the default pricing option', async () => {
      const answer = await listPricePlans(db());
      expect(answer.couponCode).toBe('');
      expect(answer.couponCodeError).toBe('');
      expect(answer.plans[0]).toMatchObject({ code: 'free', priceCents: 0, callsPerDay: 250 });
      expect(answer.plans.map((p) => p.code)).toContain(DEFAULT_PRICING_OPTION);
      const orders = answer.plans.map((p) => p.sortOrder);
      expect(orders).toEqual([...orders].sort((a, b) => a - b));
      expect(answer.plans.every((p) => p.discountedPriceCents === null)).toBe(true);
    });

    it('discounts only the plans a coupon names, whatever case the code is typed in', async () => {
      const answer = await listPricePlans(db(), ' testhalf ');
      expect(answer).toMatchObject({ couponCode: 'TESTHALF', couponCodeError: '' });
      const t2 = answer.plans.find((p) => p.code === 'monthlyT2');
      expect(t2?.discountedPriceCents).toBe(Math.round((t2?.priceCents ?? 0) / 2));
      expect(answer.plans.find((p) => p.code === 'annualT2')?.discountedPriceCents).toBeNull();
    });

    it('takes a fixed amount off every paid plan and leaves the free plan alone', async () => {
      const answer = await listPricePlans(db(), 'TESTFIVE');
      for (const plan of answer.plans) {
        expect(plan.discountedPriceCents).toBe(plan.priceCents === 0 ? null : plan.priceCents - 500);
      }
    });

    it('explains an unknown, an inactive and an expired coupon and lists full prices', async () => {
      expect(await listPricePlans(db(), 'nope')).toMatchObject({
        couponCode: '',
        couponCodeError: 'Coupon code NOPE is not valid.',
      });
      expect((await listPricePlans(db(), 'TESTOFF')).couponCodeError).toBe(
        'Coupon code TESTOFF is not valid.',
      );
      const expired = await listPricePlans(db(), 'TESTOLD');
      expect(expired).toMatchObject({ couponCode: '', couponCodeError: 'Coupon code TESTOLD has expired.' });
      expect(expired.plans.every((p) => p.discountedPriceCents === null)).toBe(true);
    });

    it('refuses coupon codes that are not stored upper-case or that offer two discounts', async () => {
      await expect(db().insert(coupons).values({ code: 'lower', percentOff: 5 })).rejects.toThrow();
      await expect(
        db().insert(coupons).values({ code: 'BOTH', percentOff: 5, amountOffCents: 100 }),
      ).rejects.toThrow();
    });
  });

  describe('client errors', () => {
    it('lists errors newest first and pages through them without gaps', async () => {
      const logged = [];
      for (const n of [1, 2, 3]) {
        logged.push(await logClientError(db(), { type: `page-test-${n}`, stackTrace: 'at x' }));
        // The embedded database's clock counts whole milliseconds: entries logged within one are tied.
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      const firstPage = await listClientErrors(db(), { limit: 2 });
      expect(firstPage.entries.map((e) => e.type)).toEqual(['page-test-3', 'page-test-2']);
      expect(firstPage.nextBefore).toBe(logged[1]?.id);
      const secondPage = await listClientErrors(db(), { limit: 2, before: firstPage.nextBefore ?? '' });
      expect(secondPage.entries[0]?.type).toBe('page-test-1');
    });

    it('keeps a 3000-character stack trace whole and cuts a longer one, marked as cut', async () => {
      const kept = await logClientError(db(), {
        type: 'long',
        stackTrace: 'x'.repeat(3000),
        server: 'web-1',
      });
      expect(kept.stackTrace).toBe('x'.repeat(3000));
      const cut = await logClientError(db(), { type: 'long', stackTrace: 'y'.repeat(5000) });
      expect(cut.stackTrace).toHaveLength(3000);
      expect(cut.stackTrace.startsWith('y'.repeat(2990))).toBe(true);
      expect(cut.stackTrace.endsWith(' …[cut]')).toBe(true);
    });

    it('stores reports with credentials redacted and line breaks escaped', async () => {
      const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXBhcnQ';
      const apiKey = randomBytes(32).toString('base64url');
      const saved = await logClientError(db(), {
        type: 'TypeError\r\nFAKE 200 admin signed in',
        stackTrace: `fetch /stable/quote?apikey=${apiKey} failed\nBearer ${jwt}\n  at load (app.js:1:2)`,
        server: `web\n${apiKey}`,
      });
      expect(saved.type).toBe('TypeError\\r\\nFAKE 200 admin signed in');
      expect(saved.stackTrace).toBe(
        'fetch /stable/quote?apikey=[redacted] failed\\nBearer [redacted]\\n  at load (app.js:1:2)',
      );
      expect(saved.server).toBe('web\\n[redacted]');
      expect(JSON.stringify(saved)).not.toContain(apiKey);
    });

    it('counts characters as the database does, so astral characters fit the limit', async () => {
      const trace = '𝄞'.repeat(3000);
      expect((await logClientError(db(), { type: 'astral', stackTrace: trace })).stackTrace).toBe(trace);
    });
  });

  describe('users', () => {
    it('derives a username from the email and appends digits when it is taken', async () => {
      const local = `jo.smith${randomUUID().slice(0, 6)}`;
      const first = await newUser({ email: `${local}@example.com` });
      const second = await newUser({ email: `${local}+work@example.org` });
      const third = await newUser({ email: `${local.toUpperCase()}@example.net` });
      expect([first.username, second.username, third.username]).toEqual([local, `${local}2`, `${local}3`]);
    });

    it('finds a user by email in any case or by username, and by identity', async () => {
      const user = await newUser({ email: email('Finder') });
      expect((await findUserByLogin(db(), user.email.toUpperCase()))?.id).toBe(user.id);
      expect((await findUserByLogin(db(), user.username))?.id).toBe(user.id);
      expect((await findUserByFirebaseUid(db(), user.firebaseUid))?.id).toBe(user.id);
      expect(await findUserByLogin(db(), 'no-such-user')).toBeNull();
    });

    it('refuses a second account for the same email or a taken chosen username', async () => {
      const user = await newUser();
      await expect(newUser({ email: user.email.toUpperCase() })).rejects.toThrow(DuplicateUserError);
      await expect(newUser({ username: user.username })).rejects.toMatchObject({ field: 'username' });
      await expect(newUser({ username: 'has@sign' })).rejects.toThrow(RangeError);
    });

    it('audits blocking, unblocking, role and plan changes with who did them', async () => {
      const admin = await newUser();
      const user = await newUser();
      expect((await setBlocked(db(), user.id, true, admin.id))?.blocked).toBe(true);
      expect((await setBlocked(db(), user.id, false, admin.id))?.blocked).toBe(false);
      expect((await setRole(db(), user.id, 'analyst', admin.id))?.role).toBe('analyst');
      expect(await setPlan(db(), user.id, 'monthlyT2', admin.id)).toMatchObject({
        planCode: 'monthlyT2',
        isPremium: true,
      });
      const entries = (await listAudit(db(), { limit: 500 })).filter((e) => e.targetUserId === user.id);
      expect(entries.map((e) => [e.action, e.actorUserId, e.details])).toEqual([
        ['plan_change', admin.id, { from: 'free', to: 'monthlyT2' }],
        ['role_change', admin.id, { from: 'user', to: 'analyst' }],
        ['unblock', admin.id, { from: true, to: false }],
        ['block', admin.id, { from: false, to: true }],
      ]);
    });

    it('ends existing sign-ins when an account is blocked', async () => {
      const user = await newUser();
      await db()
        .insert(sessions)
        .values({
          userId: user.id,
          familyId: randomUUID(),
          tokenHash: randomUUID(),
          expiresAt: new Date(Date.now() + 60_000),
        });
      await setBlocked(db(), user.id, true, null);
      const [session] = await db().select().from(sessions).where(eq(sessions.userId, user.id));
      expect(session?.revokedAt).toBeInstanceOf(Date);
    });

    it('changes nothing and audits nothing for an unknown plan or an unknown user', async () => {
      const user = await newUser();
      await expect(setPlan(db(), user.id, 'noSuchPlan', null)).rejects.toThrow(UnknownPlanError);
      expect(await setRole(db(), randomUUID(), 'admin', null)).toBeNull();
      const entries = (await listAudit(db(), { limit: 500 })).filter((e) => e.targetUserId === user.id);
      expect(entries).toEqual([]);
      await expect(
        db().update(users).set({ planCode: 'noSuchPlan' }).where(eq(users.id, user.id)),
      ).rejects.toThrow();
    });
  });

  describe('API keys', () => {
    it('hands out the key once and stores only its hash, its ciphertext and its last four characters', async () => {
      const user = await newUser({ emailVerified: true });
      const issued = await createApiKey(db(), user.id, { secret: SECRET });
      expect(issued?.key).toMatch(/^tlk_[A-Za-z0-9]{38}$/);
      const [row] = await db().select().from(apiKeys).where(eq(apiKeys.userId, user.id));
      expect(row?.last4).toBe(issued?.key.slice(-4));
      expect(JSON.stringify(row)).not.toContain(issued?.key);
      expect((await revealApiKey(db(), user.id, { secret: SECRET }))?.key).toBe(issued?.key);
    });

    it('works only once the owner has verified the email', async () => {
      const user = await newUser();
      const issued = await createApiKey(db(), user.id, { secret: SECRET });
      const key = issued?.key ?? '';
      expect(await findActiveKey(db(), key, { secret: SECRET })).toEqual({ ok: false, reason: 'unverified' });
      await markEmailVerified(db(), user.id);
      expect(await findActiveKey(db(), key, { secret: SECRET })).toMatchObject({
        ok: true,
        user: { id: user.id },
      });
    });

    it('stops working while the owner is blocked and again when unblocked', async () => {
      const user = await newUser({ emailVerified: true });
      const key = (await createApiKey(db(), user.id, { secret: SECRET }))?.key ?? '';
      await setBlocked(db(), user.id, true, null);
      expect(await findActiveKey(db(), key, { secret: SECRET })).toEqual({ ok: false, reason: 'blocked' });
      await setBlocked(db(), user.id, false, null);
      expect((await findActiveKey(db(), key, { secret: SECRET })).ok).toBe(true);
    });

    it('revokes the old key when a new one is issued, and knows no key it never issued', async () => {
      const user = await newUser({ emailVerified: true });
      const old = (await createApiKey(db(), user.id, { secret: SECRET }))?.key ?? '';
      const current = (await createApiKey(db(), user.id, { secret: SECRET }))?.key ?? '';
      expect(await findActiveKey(db(), old, { secret: SECRET })).toEqual({ ok: false, reason: 'revoked' });
      expect((await findActiveKey(db(), current, { secret: SECRET })).ok).toBe(true);
      expect((await revealApiKey(db(), user.id, { secret: SECRET }))?.key).toBe(current);
      expect(await findActiveKey(db(), 'not-a-key', { secret: SECRET })).toEqual({
        ok: false,
        reason: 'unknown',
      });
      expect(await findActiveKey(db(), current, { secret: 'another-secret' })).toEqual({
        ok: false,
        reason: 'unknown',
      });
    });

    it('has nothing to reveal once the key is revoked, and issues nothing for an unknown account', async () => {
      const user = await newUser({ emailVerified: true });
      await createApiKey(db(), user.id, { secret: SECRET });
      expect(await revokeApiKey(db(), user.id)).toBe(true);
      expect(await revealApiKey(db(), user.id, { secret: SECRET })).toBeNull();
      expect(await createApiKey(db(), randomUUID(), { secret: SECRET })).toBeNull();
    });

    it('deletes keys and sessions with their owner', async () => {
      const user = await newUser();
      await createApiKey(db(), user.id, { secret: SECRET });
      await db()
        .insert(sessions)
        .values({ userId: user.id, familyId: randomUUID(), tokenHash: randomUUID(), expiresAt: new Date() });
      await db().delete(users).where(eq(users.id, user.id));
      expect(await db().select().from(apiKeys).where(eq(apiKeys.userId, user.id))).toEqual([]);
      expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    });
  });
});
