import type { SpreadsheetConnection } from './key-store.ts';

/**
 * The task pane's side of the site's device flow (RFC 8628, /api/devauth): it asks for a code pair
 * under the client name "Excel add-in", shows the user code with the /devauth link, and polls at the
 * server's interval until the account owner approves (the key arrives once), denies or lets the code
 * expire. The API key is never typed or pasted. HTTP and the clock are injected for tests.
 */

/** The name the account owner sees on /devauth when asked to approve. */
export const ADD_IN_CLIENT_NAME = 'Excel add-in';

/** The device-authorization routes of the accounts API. */
export const DEVAUTH_BASE = '/api/devauth';

/** The code pair the accounts API issues. */
export interface DeviceCodeGrant {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export interface DeviceFlowOptions {
  fetch?: typeof fetch;
  /** Waits this many milliseconds (tests pass one that does not). */
  sleep?: (ms: number) => Promise<void>;
  /** Stops polling when aborted (the reader pressed Cancel). */
  signal?: AbortSignal;
  /** The accounts API's base (default: this site's). */
  base?: string;
}

/** Why connecting stopped without a key, in words for the task pane. */
export class DeviceFlowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeviceFlowError';
  }
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function post(options: DeviceFlowOptions, path: string, body: unknown): Promise<Response> {
  const send = options.fetch ?? globalThis.fetch.bind(globalThis);
  return send(`${options.base ?? DEVAUTH_BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

async function errorText(response: Response, fallback: string): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown; error_description?: unknown };
    if (typeof body.error_description === 'string') return body.error_description;
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Not JSON: the fallback says enough.
  }
  return fallback;
}

/** Asks the accounts API for a code pair for the add-in. */
export async function requestDeviceCode(options: DeviceFlowOptions = {}): Promise<DeviceCodeGrant> {
  const response = await post(options, '/code', { client_name: ADD_IN_CLIENT_NAME });
  if (!response.ok) {
    throw new DeviceFlowError(
      await errorText(response, `Could not start connecting (${String(response.status)}).`),
    );
  }
  return (await response.json()) as DeviceCodeGrant;
}

/**
 * Polls until the owner decides: the connection (key, email, plan) after an approval, or a
 * {@link DeviceFlowError} saying why not. Waits the server's interval before each poll, five more
 * seconds after a slow_down, and gives up when the code expires.
 */
export async function pollForConnection(
  grant: Pick<DeviceCodeGrant, 'device_code' | 'interval' | 'expires_in'>,
  options: DeviceFlowOptions = {},
): Promise<SpreadsheetConnection> {
  const sleep = options.sleep ?? wait;
  let interval = Math.max(1, grant.interval);
  let waited = 0;
  while (waited <= grant.expires_in) {
    await sleep(interval * 1000);
    waited += interval;
    if (options.signal?.aborted === true) throw new DeviceFlowError('Connecting was cancelled.');
    const response = await post(options, '/token', { device_code: grant.device_code });
    if (response.ok) {
      const body = (await response.json()) as { api_key: string; email: string; plan: string };
      return { apiKey: body.api_key, email: body.email, plan: body.plan };
    }
    let error = '';
    let description = '';
    try {
      const body = (await response.json()) as { error?: string; error_description?: string };
      error = body.error ?? '';
      description = body.error_description ?? '';
    } catch {
      // Keep polling on an answer without a body: a proxy's hiccup is not the owner's decision.
    }
    if (error === 'authorization_pending' || error === '') continue;
    if (error === 'slow_down') {
      interval += 5;
      continue;
    }
    throw new DeviceFlowError(description === '' ? error : description);
  }
  throw new DeviceFlowError('The code has expired. Choose Connect to get a new one.');
}
