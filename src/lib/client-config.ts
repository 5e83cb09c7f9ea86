/**
 * The settings a build cannot know, asked once per page of the running server
 * (src/server/routes/client-config.ts): one build is served against different Auth emulators and
 * data API addresses (development, end-to-end runs, production), so only the server knows them.
 * Every browser module that needs one reads it here, so a page asks at most once.
 */

/** Where the running server publishes them. */
export const CLIENT_CONFIG_URL = '/api/client-config';

/** What the server says; a field it did not send is undefined. */
export interface ClientConfig {
  /** The Auth emulator's address; null when the server uses the real identity provider. */
  authEmulatorUrl?: string | null;
  /** Where this browser reaches the data API. */
  dataApiUrl?: string;
}

let pending: Promise<ClientConfig> | undefined;

function read(body: unknown): ClientConfig {
  if (typeof body !== 'object' || body === null) return {};
  const config: ClientConfig = {};
  if ('authEmulatorUrl' in body) {
    const { authEmulatorUrl } = body;
    if (authEmulatorUrl === null) config.authEmulatorUrl = null;
    else if (typeof authEmulatorUrl === 'string' && authEmulatorUrl !== '') {
      config.authEmulatorUrl = authEmulatorUrl;
    }
  }
  if ('dataApiUrl' in body && typeof body.dataApiUrl === 'string' && body.dataApiUrl !== '') {
    config.dataApiUrl = body.dataApiUrl;
  }
  return config;
}

async function load(): Promise<ClientConfig> {
  // Plain fetch: the HTTP client itself depends on the identity provider, which depends on this.
  const response = await fetch(CLIENT_CONFIG_URL, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`The client configuration answered ${String(response.status)}.`);
  return read(await response.json());
}

/**
 * The running server's client configuration, fetched once per page. A failure is forgotten, so
 * the next caller asks again; callers fall back to the build's defaults meanwhile.
 */
export function clientConfig(): Promise<ClientConfig> {
  pending ??= load().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}
