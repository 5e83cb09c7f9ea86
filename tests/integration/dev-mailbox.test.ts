import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { closeDatabase, getDatabase } from '../../src/server/db/client.ts';

const saved = { ...process.env };
const MAILBOX_URL = 'http://localhost:4321/dev/mailbox';
const PASSWORD = 'correct-horse-battery';

interface Message {
  email: string;
  requestType: string;
  link: string;
  createdAt?: string;
}

beforeEach(() => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
});

afterEach(() => {
  process.env = { ...saved };
});

// Opening and migrating the embedded database takes a while; it happens once, before the tests.
beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
  await getDatabase();
});

afterAll(async () => {
  await closeDatabase();
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

/** An identity that asked for a password reset and then for a verification email, in that order. */
async function accountWithMail(): Promise<string> {
  const email = `mailbox.${randomUUID().slice(0, 8)}@example.com`;
  const { idToken } = await toolkit('signUp', { email, password: PASSWORD, returnSecureToken: true });
  await toolkit('sendOobCode', { requestType: 'PASSWORD_RESET', email });
  await toolkit('sendOobCode', { requestType: 'VERIFY_EMAIL', idToken });
  return email;
}

async function mailbox(): Promise<Response> {
  return accountsApp.request(MAILBOX_URL);
}

describe('GET /api/dev/mailbox', () => {
  it('lists the messages the Auth emulator would have mailed, newest first, linking to the site', async () => {
    const email = await accountWithMail();
    const res = await mailbox();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { messages } = (await res.json()) as { messages: Message[] };
    const mine = messages.filter((message) => message.email === email);
    expect(mine.map((message) => message.requestType)).toEqual(['VERIFY_EMAIL', 'PASSWORD_RESET']);
    const modes = [];
    for (const message of mine) {
      expect(Object.keys(message).sort()).toEqual(['email', 'link', 'requestType']);
      // The site's own page for the emails' links, as a real project's custom action URL makes them.
      const link = new URL(message.link, MAILBOX_URL);
      expect(link.origin).toBe(new URL(MAILBOX_URL).origin);
      expect(link.pathname).toBe('/auth/action');
      expect(link.searchParams.get('oobCode')).toMatch(/\S/);
      modes.push(link.searchParams.get('mode'));
    }
    expect(modes).toEqual(['verifyEmail', 'resetPassword']);
  });

  it('drops a message once its link has been followed', async () => {
    const email = await accountWithMail();
    const before = ((await (await mailbox()).json()) as { messages: Message[] }).messages;
    const verification = before.find((m) => m.email === email && m.requestType === 'VERIFY_EMAIL');
    if (verification === undefined) throw new Error('the mailbox listed no verification email');
    // What the page the link opens does with it.
    const oobCode = new URL(verification.link, MAILBOX_URL).searchParams.get('oobCode');
    const followed = await accountsApp.request(new URL('/portal/auth/verify-email', MAILBOX_URL).href, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ oobCode }),
    });
    expect(followed.status).toBe(200);
    const after = ((await (await mailbox()).json()) as { messages: Message[] }).messages;
    expect(after.filter((m) => m.email === email).map((m) => m.requestType)).toEqual(['PASSWORD_RESET']);
  });

  it('does not exist when the site runs against a real Firebase project', async () => {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const res = await mailbox();
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: 'The local mailbox exists only when the site runs against the Auth emulator.',
    });
  });

  it('answers 503 with Retry-After, not a hang, when the emulator does not answer', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
    const res = await mailbox();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({
      error:
        'The local mailbox could not reach the Auth emulator at 127.0.0.1:1. Check that it is running, then refresh.',
    });
  });

  it('refuses query parameters it does not take', async () => {
    const res = await accountsApp.request(`${MAILBOX_URL}?email=someone@example.com`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'Unknown parameter: email' });
  });
});
