import { describe, expect, it } from 'vitest';
import {
  ADD_IN_CLIENT_NAME,
  DeviceFlowError,
  pollForConnection,
  requestDeviceCode,
} from '../../src/lib/spreadsheet/device-flow.ts';
import { CONNECTION_STORAGE_KEY, itemKeyStore } from '../../src/lib/spreadsheet/key-store.ts';

/** A stand-in for the accounts API: answers each POST in turn, recording what was asked. */
function scriptedFetch(answers: { status: number; body: unknown }[]) {
  const asked: { url: string; body: unknown }[] = [];
  const send: typeof fetch = (url, init) => {
    const body = typeof init?.body === 'string' ? init.body : 'null';
    asked.push({ url: url instanceof Request ? url.url : url.toString(), body: JSON.parse(body) as unknown });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('asked more often than scripted');
    return Promise.resolve(Response.json(answer.body, { status: answer.status }));
  };
  return { asked, fetch: send };
}

const pending = { status: 400, body: { error: 'authorization_pending', error_description: 'Not yet.' } };

describe('the task pane’s device flow', () => {
  it('asks for a code as "Excel add-in"', async () => {
    const api = scriptedFetch([
      { status: 200, body: { device_code: 'd', user_code: 'BCDF-GHJK', interval: 5 } },
    ]);
    const grant = await requestDeviceCode({ fetch: api.fetch });
    expect(grant.user_code).toBe('BCDF-GHJK');
    expect(api.asked).toEqual([{ url: '/api/devauth/code', body: { client_name: ADD_IN_CLIENT_NAME } }]);
  });

  it('polls at the server’s interval, slows down when told, and returns the delivered key', async () => {
    const waits: number[] = [];
    const api = scriptedFetch([
      pending,
      { status: 400, body: { error: 'slow_down' } },
      pending,
      { status: 200, body: { api_key: 'key-1', email: 'dev@example.com', plan: 'free' } },
    ]);
    const connection = await pollForConnection(
      { device_code: 'd', interval: 5, expires_in: 600 },
      { fetch: api.fetch, sleep: (ms) => Promise.resolve(void waits.push(ms)) },
    );
    expect(connection).toEqual({ apiKey: 'key-1', email: 'dev@example.com', plan: 'free' });
    expect(waits).toEqual([5000, 5000, 10_000, 10_000]);
    expect(api.asked.every((call) => call.url === '/api/devauth/token')).toBe(true);
  });

  it('stops with the server’s words when the owner denies, and when the code expires', async () => {
    const denied = scriptedFetch([
      {
        status: 400,
        body: { error: 'access_denied', error_description: 'The account owner denied access.' },
      },
    ]);
    const sleep = (): Promise<void> => Promise.resolve();
    await expect(
      pollForConnection({ device_code: 'd', interval: 5, expires_in: 600 }, { fetch: denied.fetch, sleep }),
    ).rejects.toThrow(new DeviceFlowError('The account owner denied access.'));
    const expiring = scriptedFetch([pending, pending]);
    await expect(
      pollForConnection({ device_code: 'd', interval: 5, expires_in: 9 }, { fetch: expiring.fetch, sleep }),
    ).rejects.toThrow('The code has expired');
  });

  it('keeps the connection in the storage it is given, and forgets it', async () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
    const keys = itemKeyStore(storage);
    await keys.set({ apiKey: 'key-1', email: 'dev@example.com', plan: 'free' });
    expect(JSON.parse(items.get(CONNECTION_STORAGE_KEY) ?? '{}')).toMatchObject({ apiKey: 'key-1' });
    expect(await keys.get()).toEqual({ apiKey: 'key-1', email: 'dev@example.com', plan: 'free' });
    await keys.clear();
    expect(await keys.get()).toBeUndefined();
    items.set(CONNECTION_STORAGE_KEY, 'not json');
    expect(await keys.get()).toBeUndefined();
  });
});
