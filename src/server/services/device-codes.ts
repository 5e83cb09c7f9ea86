import { randomInt } from 'node:crypto';
import { and, eq, gt, lte } from 'drizzle-orm';
import {
  formatUserCode,
  isWellFormedUserCode,
  normalizeUserCode,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
} from '../../lib/user-code.ts';
import { hmacHex, randomToken, serverSecret, sha256Hex } from '../auth/crypto.ts';
import type { Db } from '../db/client.ts';
import { deviceCodes, type DeviceCode } from '../db/schema.ts';
import { audit } from './audit-log.ts';

/** How long a tool's request waits for its owner: ten minutes, as RFC 8628 suggests. */
export const DEVICE_CODE_TTL_SECONDS = 600;

/** Seconds a tool waits between polls; polling sooner is answered with slow_down. */
export const POLL_INTERVAL_SECONDS = 5;

/** 32 random bytes: 256 bits, so a device code cannot be guessed and needs no secret to be hashed. */
export const DEVICE_CODE_BYTES = 32;

/**
 * Polls this much early still count as on time: a tool that waits five seconds after each answer can
 * still arrive a little early when network delays bunch its requests together.
 */
export const POLL_TOLERANCE_MS = 500;

// Longer input cannot be one of our device codes; refusing it early saves hashing attacker-sized strings.
const MAX_DEVICE_CODE_LENGTH = 128;

// A clash of user codes among live requests is rare (2^34.6 codes); a few fresh draws always find a free one.
const INSERT_ATTEMPTS = 5;

export interface DeviceCodeOptions {
  /** The clock; tests move it to reach the poll interval and the expiry without waiting. */
  now?: (() => Date) | undefined;
  /** The key behind user-code digests; defaults to the server secret, tests pass their own. */
  secret?: string | undefined;
}

/** A new request as the tool is told about it: the secrets in plain text, which are never stored. */
export interface IssuedDeviceCode {
  deviceCode: string;
  /** Formatted for reading, XXXX-XXXX. */
  userCode: string;
  createdAt: Date;
  expiresAt: Date;
}

/** What the account owner is shown before deciding. */
export interface PendingDevice {
  clientName: string;
  createdAt: Date;
  expiresAt: Date;
}

/** What a poll learns: RFC 8628's answers, with the approving account when the key may be delivered. */
export type PollOutcome =
  | { result: 'pending' }
  | { result: 'slow_down' }
  | { result: 'denied' }
  | { result: 'expired' }
  | { result: 'approved'; userId: string; clientName: string };

export type DeviceDecision = 'approved' | 'denied';

function clock(options: DeviceCodeOptions): Date {
  return options.now?.() ?? new Date();
}

/**
 * A fresh user code, normalised (no dash). Each letter is drawn without modulo bias; `random` answers
 * an integer below its argument and is replaceable so tests can pin the letters.
 */
export function generateUserCode(random: (max: number) => number = randomInt): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i += 1) {
    code += USER_CODE_ALPHABET.charAt(random(USER_CODE_ALPHABET.length));
  }
  return code;
}

/**
 * A user code has too few bits to be safe as a plain hash (every code can be hashed in minutes), so
 * its digest is keyed with the server secret; the prefix keeps it apart from other keyed digests.
 */
export function userCodeDigest(normalized: string, options: DeviceCodeOptions = {}): string {
  return hmacHex(options.secret ?? serverSecret(), `device-user-code:${normalized}`);
}

/** The stored digest of a device code; 256 random bits need no key. */
export function deviceCodeDigest(deviceCode: string): string {
  return sha256Hex(deviceCode);
}

/**
 * Opens a request for a tool: stores only digests of both codes, with the tool's name and expiry.
 * Requests that expired unanswered are cleared out on the way, so the table stays small.
 */
export async function createDeviceCode(
  db: Db,
  clientName: string,
  options: DeviceCodeOptions = {},
): Promise<IssuedDeviceCode> {
  const createdAt = clock(options);
  const expiresAt = new Date(createdAt.getTime() + DEVICE_CODE_TTL_SECONDS * 1000);
  await db.delete(deviceCodes).where(lte(deviceCodes.expiresAt, createdAt));
  for (let attempt = 0; attempt < INSERT_ATTEMPTS; attempt += 1) {
    const userCode = generateUserCode();
    const deviceCode = randomToken(DEVICE_CODE_BYTES);
    const [row] = await db
      .insert(deviceCodes)
      .values({
        deviceCodeHash: deviceCodeDigest(deviceCode),
        userCodeHash: userCodeDigest(userCode, options),
        clientName,
        createdAt,
        expiresAt,
      })
      .onConflictDoNothing()
      .returning({ id: deviceCodes.id });
    if (row) return { deviceCode, userCode: formatUserCode(userCode), createdAt, expiresAt };
  }
  throw new Error(`No free user code after ${String(INSERT_ATTEMPTS)} attempts`);
}

/** Digest of a typed code, or null when it cannot be a code at all. */
function typedCodeDigest(typed: string, options: DeviceCodeOptions): string | null {
  const code = normalizeUserCode(typed);
  return isWellFormedUserCode(code) ? userCodeDigest(code, options) : null;
}

/**
 * The request behind a typed user code (any case, with or without dash and spaces), while it still
 * waits for a decision; null for unknown, decided or expired codes alike.
 */
export async function findPendingDevice(
  db: Db,
  typedUserCode: string,
  options: DeviceCodeOptions = {},
): Promise<PendingDevice | null> {
  const digest = typedCodeDigest(typedUserCode, options);
  if (digest === null) return null;
  const [row] = await db
    .select({
      clientName: deviceCodes.clientName,
      createdAt: deviceCodes.createdAt,
      expiresAt: deviceCodes.expiresAt,
    })
    .from(deviceCodes)
    .where(
      and(
        eq(deviceCodes.userCodeHash, digest),
        eq(deviceCodes.status, 'pending'),
        gt(deviceCodes.expiresAt, clock(options)),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Records the account owner's answer to a waiting request. An approval is audited in the same
 * transaction, so no tool receives a key without a record of who let it. Null when the code is
 * unknown, already decided or expired.
 */
export function decideDeviceCode(
  db: Db,
  input: { userCode: string; userId: string; decision: DeviceDecision },
  options: DeviceCodeOptions = {},
): Promise<DeviceCode | null> {
  const digest = typedCodeDigest(input.userCode, options);
  if (digest === null) return Promise.resolve(null);
  const now = clock(options);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(deviceCodes)
      .set({ status: input.decision, userId: input.userId, decidedAt: now })
      .where(
        and(
          eq(deviceCodes.userCodeHash, digest),
          eq(deviceCodes.status, 'pending'),
          gt(deviceCodes.expiresAt, now),
        ),
      )
      .returning();
    if (!row) return null;
    if (input.decision === 'approved') {
      await audit(tx, {
        actorUserId: input.userId,
        action: 'device_authorize',
        targetUserId: input.userId,
        details: { clientName: row.clientName, deviceCodeId: row.id },
      });
    }
    return row;
  });
}

/**
 * One poll by the tool (RFC 8628 §3.4). A decided request is deleted as it is reported, under a row
 * lock, so an approval is delivered exactly once and any later poll finds nothing (expired). Every
 * poll of a waiting request is timed; one sooner than the interval is told to slow down.
 */
export function pollDeviceCode(
  db: Db,
  deviceCode: string,
  options: DeviceCodeOptions = {},
): Promise<PollOutcome> {
  if (deviceCode === '' || deviceCode.length > MAX_DEVICE_CODE_LENGTH) {
    return Promise.resolve({ result: 'expired' });
  }
  const now = clock(options);
  return db.transaction(async (tx): Promise<PollOutcome> => {
    const [row] = await tx
      .select()
      .from(deviceCodes)
      .where(eq(deviceCodes.deviceCodeHash, deviceCodeDigest(deviceCode)))
      .for('update');
    if (!row) return { result: 'expired' };
    const remove = (): Promise<unknown> => tx.delete(deviceCodes).where(eq(deviceCodes.id, row.id));
    if (row.expiresAt.getTime() <= now.getTime()) {
      await remove();
      return { result: 'expired' };
    }
    if (row.status === 'pending') {
      const last = row.lastPolledAt?.getTime();
      const tooSoon =
        last !== undefined && now.getTime() - last < POLL_INTERVAL_SECONDS * 1000 - POLL_TOLERANCE_MS;
      await tx.update(deviceCodes).set({ lastPolledAt: now }).where(eq(deviceCodes.id, row.id));
      return { result: tooSoon ? 'slow_down' : 'pending' };
    }
    await remove();
    if (row.status === 'denied' || row.userId === null) return { result: 'denied' };
    return { result: 'approved', userId: row.userId, clientName: row.clientName };
  });
}
