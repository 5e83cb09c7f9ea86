import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { decodeJwt } from 'jose';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  checkPassword,
  createCustomToken,
  getIdentityUser,
  isEmailVerified,
  setIdentityDisabled,
  verifyIdToken,
} from '../../src/server/auth/identity.ts';

const saved = { ...process.env };
const PASSWORD = 'correct-horse-battery';

beforeEach(() => {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
});

afterEach(() => {
  process.env = { ...saved };
});

/** Calls an end-user endpoint of the emulator's Identity Toolkit REST API. */
async function toolkit(method: string, body: object): Promise<Record<string, unknown>> {
  const url = `http://${inject('authEmulatorHost')}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=any`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Signs up a fresh account; unique emails keep tests independent of each other and of other files. */
async function signUp(): Promise<{ uid: string; email: string; idToken: string }> {
  const email = `user-${randomUUID()}@example.test`;
  const json = await toolkit('signUp', { email, password: PASSWORD, returnSecureToken: true });
  return { uid: String(json.localId), email, idToken: String(json.idToken) };
}

describe('password check', () => {
  it('accepts the right password and names the account', async () => {
    const user = await signUp();
    expect(await checkPassword(user.email, PASSWORD)).toEqual({
      ok: true,
      uid: user.uid,
      email: user.email,
      emailVerified: false,
    });
  });

  it('refuses a wrong password as invalid credentials', async () => {
    const user = await signUp();
    expect(await checkPassword(user.email, 'wrong-password')).toEqual({
      ok: false,
      code: 'invalid-credentials',
    });
  });

  it('refuses an unknown email with the same code, so accounts cannot be probed', async () => {
    expect(await checkPassword(`nobody-${randomUUID()}@example.test`, PASSWORD)).toEqual({
      ok: false,
      code: 'invalid-credentials',
    });
  });

  it('refuses a blocked account as user-disabled and accepts it again once unblocked', async () => {
    const user = await signUp();
    expect(await setIdentityDisabled(user.uid, true)).toEqual({ ok: true });
    expect(await checkPassword(user.email, PASSWORD)).toEqual({ ok: false, code: 'user-disabled' });
    expect(await setIdentityDisabled(user.uid, false)).toEqual({ ok: true });
    expect(await checkPassword(user.email, PASSWORD)).toMatchObject({ ok: true, uid: user.uid });
  });

  it('answers unavailable at once when the provider cannot be reached', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
    const started = Date.now();
    expect(await checkPassword('someone@example.test', PASSWORD)).toEqual({
      ok: false,
      code: 'unavailable',
    });
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('gives up on a provider that accepts the connection but never answers', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${address.port}`;
    try {
      const started = Date.now();
      expect(await checkPassword('someone@example.test', PASSWORD)).toEqual({
        ok: false,
        code: 'unavailable',
      });
      expect(Date.now() - started).toBeLessThan(6000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('ID tokens', () => {
  it('verifies a token from a password sign-in and reports its email and provider', async () => {
    const user = await signUp();
    const signIn = await toolkit('signInWithPassword', {
      email: user.email,
      password: PASSWORD,
      returnSecureToken: true,
    });
    expect(await verifyIdToken(String(signIn.idToken))).toEqual({
      ok: true,
      uid: user.uid,
      email: user.email,
      emailVerified: false,
      provider: 'password',
    });
  });

  it('refuses a garbage token', async () => {
    expect(await verifyIdToken('garbage')).toEqual({ ok: false, code: 'invalid-token' });
    expect(await verifyIdToken('')).toEqual({ ok: false, code: 'invalid-token' });
  });

  it('refuses the token of an account blocked after it was issued', async () => {
    const user = await signUp();
    expect(await setIdentityDisabled(user.uid, true)).toEqual({ ok: true });
    expect(await verifyIdToken(user.idToken)).toEqual({ ok: false, code: 'user-disabled' });
  });
});

describe('custom tokens', () => {
  it('mints a token the provider accepts for signing the same account in', async () => {
    const user = await signUp();
    const minted = await createCustomToken(user.uid, { role: 'analyst' });
    if (!minted.ok) throw new Error(`createCustomToken failed: ${minted.code}`);
    const signIn = await toolkit('signInWithCustomToken', { token: minted.token, returnSecureToken: true });
    const verified = await verifyIdToken(String(signIn.idToken));
    expect(verified).toMatchObject({ ok: true, uid: user.uid, email: user.email, provider: 'custom' });
    expect(decodeJwt(String(signIn.idToken)).role).toBe('analyst');
  });

  it('refuses claims the provider reserves for itself', async () => {
    const user = await signUp();
    expect(await createCustomToken(user.uid, { aud: 'elsewhere' })).toEqual({
      ok: false,
      code: 'invalid-argument',
    });
  });
});

describe('accounts at the provider', () => {
  it('looks an account up with its email, providers and state', async () => {
    const user = await signUp();
    expect(await getIdentityUser(user.uid)).toEqual({
      ok: true,
      user: {
        uid: user.uid,
        email: user.email,
        emailVerified: false,
        disabled: false,
        providers: ['password'],
      },
    });
  });

  it('reports an unknown account as not found', async () => {
    expect(await getIdentityUser(`missing-${randomUUID()}`)).toEqual({ ok: false, code: 'not-found' });
    expect(await isEmailVerified(`missing-${randomUUID()}`)).toEqual({ ok: false, code: 'not-found' });
    expect(await setIdentityDisabled(`missing-${randomUUID()}`, true)).toEqual({
      ok: false,
      code: 'not-found',
    });
  });

  it('sees the email as verified once the verification link is used', async () => {
    const user = await signUp();
    expect(await isEmailVerified(user.uid)).toEqual({ ok: true, emailVerified: false });

    await toolkit('sendOobCode', { requestType: 'VERIFY_EMAIL', idToken: user.idToken });
    const codesUrl = `http://${inject('authEmulatorHost')}/emulator/v1/projects/demo-marketdata/oobCodes`;
    const { oobCodes } = (await (await fetch(codesUrl)).json()) as {
      oobCodes: { email: string; oobCode: string; requestType: string }[];
    };
    const code = oobCodes.find((c) => c.email === user.email && c.requestType === 'VERIFY_EMAIL');
    if (code === undefined) throw new Error('the emulator listed no verification code');
    await toolkit('update', { oobCode: code.oobCode });

    expect(await isEmailVerified(user.uid)).toEqual({ ok: true, emailVerified: true });
    expect(await checkPassword(user.email, PASSWORD)).toMatchObject({ ok: true, emailVerified: true });
  });

  it('answers unavailable rather than throwing when the provider cannot be reached', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
    const started = Date.now();
    expect(await getIdentityUser('anyone')).toEqual({ ok: false, code: 'unavailable' });
    expect(await setIdentityDisabled('anyone', true)).toEqual({ ok: false, code: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(6000);
  });
});
