import path from 'node:path';

// Every setting the server reads from the environment is read here, so one file lists them all (the
// README's configuration table describes each). Readers take an optional environment for tests and
// read the process's own otherwise; they are cheap, so callers may ask on every use and see changes.

/** The environment settings are read from: the process's own unless a caller passes another. */
export type Environment = Readonly<Record<string, string | undefined>>;

function current(env: Environment | undefined): Environment {
  return env ?? process.env;
}

/** Server settings, read from the environment once so every module agrees on ports, paths and identity. */
export interface ServerConfig {
  sitePort: number;
  dataApiPort: number;
  host: string;
  databaseUrl: string | undefined;
  /** PGlite data directory, or 'memory://' for a database that lives only as long as the process. */
  dataDir: string;
  migrationsDir: string;
  redisUrl: string | undefined;
  firebaseProjectId: string;
  authEmulatorHost: string | undefined;
  production: boolean;
}

function port(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    throw new Error(`${name} must be a port number between 1 and 65535, got "${value}"`);
  }
  return n;
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Reads the environment; throws a message naming the variable when a value is unusable. */
export function readConfig(given?: Environment): ServerConfig {
  const env = current(given);
  const root = process.cwd();
  const production = env.NODE_ENV === 'production';
  const authEmulatorHost = blankToUndefined(env.FIREBASE_AUTH_EMULATOR_HOST);
  if (production && authEmulatorHost) {
    throw new Error(
      'FIREBASE_AUTH_EMULATOR_HOST is set while NODE_ENV=production: refusing to trust emulator tokens in production',
    );
  }
  return {
    sitePort: port(env.PORT, 4321, 'PORT'),
    dataApiPort: port(env.DATA_API_PORT, 4322, 'DATA_API_PORT'),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: blankToUndefined(env.DATABASE_URL),
    dataDir: env.DATA_DIR === 'memory://' ? 'memory://' : path.resolve(root, env.DATA_DIR ?? '.data'),
    migrationsDir: path.resolve(root, env.MIGRATIONS_DIR ?? 'db/migrations'),
    redisUrl: blankToUndefined(env.REDIS_URL?.trim()),
    firebaseProjectId: env.FIREBASE_PROJECT_ID ?? env.PUBLIC_FIREBASE_PROJECT_ID ?? 'demo-marketdata',
    authEmulatorHost,
    production,
  };
}

/**
 * Where the browser SDK finds the Auth emulator the server uses (`http://host:port`), or null when
 * the server talks to a real Firebase project. /api/client-config tells the browser this address and
 * the pages' Content-Security-Policy lets it connect there and nowhere else of the kind.
 */
export function authEmulatorUrl(config: ServerConfig): string | null {
  return config.authEmulatorHost ? `http://${config.authEmulatorHost}` : null;
}

/**
 * The Firebase auth domain the browser SDK is built with (PUBLIC_FIREBASE_AUTH_DOMAIN, the same
 * default as src/lib/endpoints.ts): Google's sign-in window and its helper frame are served there.
 */
export function firebaseAuthDomain(env?: Environment): string {
  return (
    blankToUndefined(current(env).PUBLIC_FIREBASE_AUTH_DOMAIN)?.trim() ?? 'demo-marketdata.firebaseapp.com'
  );
}

/**
 * The origins of the accounts API calls the browser makes elsewhere than this site: PUBLIC_PORTAL_URL
 * and PUBLIC_APP_SERVER_URL when they are absolute (they are paths on this site by default).
 */
export function browserApiOrigins(env?: Environment): string[] {
  const values = current(env);
  const origins = (['PUBLIC_PORTAL_URL', 'PUBLIC_APP_SERVER_URL'] as const).flatMap((name) => {
    const url = blankToUndefined(values[name])?.trim();
    return url !== undefined && /^https?:\/\//i.test(url) ? [normalizeOrigin(url, name)] : [];
  });
  return [...new Set(origins)];
}

/**
 * The data API's address as browsers must call it (the API viewer sends its requests there):
 * PUBLIC_DATA_API_URL when set, else the data API's port on the host the page was asked from, so
 * the same build works against any port the data API is started on.
 */
export function browserDataApiUrl(pageUrl: URL, env?: Environment): string {
  const configured = blankToUndefined(current(env).PUBLIC_DATA_API_URL)?.trim();
  if (configured !== undefined) return configured.replace(/\/+$/, '');
  return `${pageUrl.protocol}//${pageUrl.hostname}:${String(readConfig(env).dataApiPort)}`;
}

/**
 * The origins the pages' Content-Security-Policy lets the browser call the data API at: the
 * configured address's, else the data API's port on this machine's own names (a server answering
 * on another name sets PUBLIC_DATA_API_URL, as its published examples need anyway).
 */
export function browserDataApiOrigins(env?: Environment): string[] {
  const configured = blankToUndefined(current(env).PUBLIC_DATA_API_URL)?.trim();
  if (configured !== undefined) return [normalizeOrigin(configured, 'PUBLIC_DATA_API_URL')];
  const port = String(readConfig(env).dataApiPort);
  // CSP host sources take names and IPv4 addresses only; an IPv6 literal would be ignored with a warning.
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
}

/** The server a separately started instance runs (`npm run serve:site`, `npm run serve:data-api`). */
export type InstanceRole = 'site' | 'data-api';

/**
 * Why this environment cannot run one instance beside others, or undefined when it can: instances share
 * one PostgreSQL database (the embedded PGlite serves a single process) and one identity provider (a demo
 * project's Auth emulator must be started once, apart, and named by every instance).
 */
export function instanceRefusal(role: InstanceRole, given?: Environment): string | undefined {
  const config = readConfig(given);
  if (config.databaseUrl === undefined) {
    return `npm run serve:${role} runs one instance beside others and needs a shared PostgreSQL database: set DATABASE_URL (then run npm run db:migrate and npm run db:seed once). The embedded PGlite database serves a single process; npm start runs the site and the data API together on it.`;
  }
  if (config.firebaseProjectId.startsWith('demo-') && config.authEmulatorHost === undefined) {
    return `npm run serve:${role} with the demo project "${config.firebaseProjectId}" needs the Auth emulator every instance shares: set FIREBASE_AUTH_EMULATOR_HOST (host:port), or FIREBASE_PROJECT_ID to a real Firebase project.`;
  }
  return undefined;
}

/**
 * Where a site instance reaches the data API for its status probes: DATA_API_INTERNAL_URL (the data API's
 * instances or their balancer, as seen from the site's network), else the data API's port on this machine.
 */
export function internalDataApiUrl(env?: Environment): string {
  const configured = blankToUndefined(current(env).DATA_API_INTERNAL_URL)?.trim();
  if (configured !== undefined) return configured.replace(/\/+$/, '');
  return `http://127.0.0.1:${String(readConfig(env).dataApiPort)}`;
}

/**
 * How long a stopping instance keeps serving while its readiness says it is not ready (SHUTDOWN_DRAIN_MS),
 * so a load balancer polling readiness stops sending to it before its port closes; `fallback` when unset.
 */
export function shutdownDrainMs(fallback: number, env?: Environment): number {
  const value = blankToUndefined(current(env).SHUTDOWN_DRAIN_MS);
  if (value === undefined) return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 600_000) {
    throw new Error(
      `SHUTDOWN_DRAIN_MS must be a whole number of milliseconds from 0 to 600000, got "${value}"`,
    );
  }
  return ms;
}

/**
 * Whether forwarded headers (X-Forwarded-Proto, -Host, -For) are believed. Only a proxy in front of
 * the site can make them trustworthy, so they are ignored unless the operator sets TRUST_PROXY=1.
 */
export function trustsProxy(env?: Environment): boolean {
  const value = current(env).TRUST_PROXY?.trim().toLowerCase();
  return value === '1' || value === 'true';
}

/** What protects stored API keys and signs tokens: APP_SECRET, and where a development secret is kept. */
export interface SecretSettings {
  /** APP_SECRET trimmed; empty when unset. */
  appSecret: string;
  production: boolean;
  dataDir: string;
}

/** The secret's settings; `serverSecret` in the auth folder decides what they mean. */
export function secretSettings(env?: Environment): SecretSettings {
  const values = current(env);
  return {
    appSecret: values.APP_SECRET?.trim() ?? '',
    production: values.NODE_ENV === 'production',
    dataDir: readConfig(values).dataDir,
  };
}

/** The web API key the server checks passwords with at the identity provider (FIREBASE_WEB_API_KEY). */
export function firebaseWebApiKey(env?: Environment): string | undefined {
  const values = current(env);
  return values.FIREBASE_WEB_API_KEY ?? values.PUBLIC_FIREBASE_API_KEY;
}

/** The PostgreSQL schema for tables and the migration journal (DATABASE_SCHEMA), if one is set. */
export function databaseSchema(env?: Environment): string | undefined {
  return blankToUndefined(current(env).DATABASE_SCHEMA?.trim());
}

/** The demo data an empty database is given at start (SEED_DEMO_DATA, SEED_SCALE). */
export interface SeedSettings {
  /** False with SEED_DEMO_DATA=0: an empty database stays empty (for imported data). */
  seedDemoData: boolean;
  scale: 'test' | 'full';
}

/** The start-up seeding settings. */
export function seedSettings(env?: Environment): SeedSettings {
  const values = current(env);
  return {
    seedDemoData: values.SEED_DEMO_DATA !== '0',
    scale: values.SEED_SCALE === 'test' ? 'test' : 'full',
  };
}

/** The rich-text editor keys this deployment may hand out (EDITOR_KEYS, comma-separated). */
export function editorKeys(env?: Environment): string[] {
  return (current(env).EDITOR_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}

/**
 * The PUBLIC_* settings as `NAME=value` lines in name order: they are built into the pages, so a
 * change to one makes the build stale.
 */
export function publicSettings(env?: Environment): string[] {
  const values = current(env);
  return Object.keys(values)
    .filter((name) => name.startsWith('PUBLIC_'))
    .sort()
    .map((name) => `${name}=${values[name]}`);
}

const DEFAULT_SITE_PORT = '4321';

/** An origin in its serialised form (`https://example.com`, no path, default port dropped). */
export function normalizeOrigin(value: string, source = 'SITE_ORIGINS'): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`${source} must list origins such as https://example.com, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${source} must list http or https origins, got "${value}"`);
  }
  return url.origin;
}

/**
 * The site's own origins, which alone may call the accounts API with credentials: SITE_ORIGINS
 * (comma-separated) when set, else the local site on its default port and on PORT, plus
 * PUBLIC_SITE_URL. A wildcard is refused, because credentials must never be shared with every site.
 */
export function siteOrigins(given?: Environment): string[] {
  const env = current(given);
  const configured = env.SITE_ORIGINS?.trim();
  if (configured !== undefined && configured !== '') {
    const entries = configured
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    if (entries.includes('*')) {
      throw new Error('SITE_ORIGINS cannot be "*": the accounts API sends credentials only to named origins');
    }
    return [...new Set(entries.map((entry) => normalizeOrigin(entry)))];
  }
  const port = env.PORT?.trim() === undefined || env.PORT.trim() === '' ? DEFAULT_SITE_PORT : env.PORT.trim();
  const origins = [DEFAULT_SITE_PORT, port].flatMap((p) => [
    `http://localhost:${p}`,
    `http://127.0.0.1:${p}`,
  ]);
  const publicUrl = env.PUBLIC_SITE_URL?.trim();
  if (publicUrl !== undefined && publicUrl !== '')
    origins.push(normalizeOrigin(publicUrl, 'PUBLIC_SITE_URL'));
  return [...new Set(origins.map((origin) => normalizeOrigin(origin)))];
}

/**
 * The site's canonical address (PUBLIC_SITE_URL, without a trailing slash): where messages of the
 * data API, which runs on another port, send a reader of the documentation.
 */
export function siteUrl(env?: Environment): string {
  const value = current(env).PUBLIC_SITE_URL?.trim() ?? '';
  return (value === '' ? 'http://localhost:4321' : value).replace(/\/+$/, '');
}

/** Whether the data API prints one redacted line per request (DATA_API_ACCESS_LOG=1). */
export function dataApiAccessLogEnabled(env?: Environment): boolean {
  return current(env).DATA_API_ACCESS_LOG === '1';
}

/** How often the status probes run when STATUS_PROBE_INTERVAL_MS is not set: once a minute. */
export const DEFAULT_STATUS_PROBE_INTERVAL_MS = 60_000;

/**
 * How often the server probes itself for the status page (STATUS_PROBE_INTERVAL_MS, milliseconds):
 * an outage shows within one interval. Tests set a short one; below a second is refused, since a
 * round makes a real call to every endpoint group.
 */
export function statusProbeIntervalMs(env?: Environment): number {
  const value = blankToUndefined(current(env).STATUS_PROBE_INTERVAL_MS?.trim());
  if (value === undefined) return DEFAULT_STATUS_PROBE_INTERVAL_MS;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1000) {
    throw new Error(
      `STATUS_PROBE_INTERVAL_MS must be a whole number of milliseconds, at least 1000, got "${value}"`,
    );
  }
  return n;
}

/** How often the test-mode renewals run when BILLING_RENEWAL_INTERVAL_MS is not set: once a minute. */
export const DEFAULT_BILLING_RENEWAL_INTERVAL_MS = 60_000;

/**
 * How often the server renews the test-mode subscriptions whose period ended or whose failed
 * payment is due again (BILLING_RENEWAL_INTERVAL_MS, milliseconds): a renewal happens within one
 * interval of its time. Below a second is refused.
 */
export function billingRenewalIntervalMs(env?: Environment): number {
  const value = blankToUndefined(current(env).BILLING_RENEWAL_INTERVAL_MS?.trim());
  if (value === undefined) return DEFAULT_BILLING_RENEWAL_INTERVAL_MS;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1000) {
    throw new Error(
      `BILLING_RENEWAL_INTERVAL_MS must be a whole number of milliseconds, at least 1000, got "${value}"`,
    );
  }
  return n;
}

/**
 * The secret the payment provider signs its webhook events with (BILLING_WEBHOOK_SECRET), or
 * undefined when unset: the test-mode provider then signs with a secret derived from APP_SECRET
 * (generated in development), so the webhook is verified without any setup.
 */
export function billingWebhookSecret(env?: Environment): string | undefined {
  return blankToUndefined(current(env).BILLING_WEBHOOK_SECRET?.trim());
}

/**
 * Stripe's secret API key (STRIPE_SECRET_KEY): when set, payments go through Stripe instead of the
 * test-mode provider.
 */
export function stripeSecretKey(env?: Environment): string | undefined {
  return blankToUndefined(current(env).STRIPE_SECRET_KEY?.trim());
}

/** The signing secret of the Stripe webhook endpoint (STRIPE_WEBHOOK_SECRET, `whsec_…`). */
export function stripeWebhookSecret(env?: Environment): string | undefined {
  return blankToUndefined(current(env).STRIPE_WEBHOOK_SECRET?.trim());
}

/**
 * Where the Stripe SDK sends its requests (STRIPE_API_URL), for Stripe's own mock server
 * (stripe-mock) or a stand-in in tests; unset, Stripe's API.
 */
export function stripeApiUrl(env?: Environment): string | undefined {
  const value = blankToUndefined(current(env).STRIPE_API_URL?.trim());
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new Error(`STRIPE_API_URL must be an http(s) URL, got "${value}"`);
  }
  return value;
}
