import path from 'node:path';

/** Server settings, read from the environment once so every module agrees on ports, paths and identity. */
export interface ServerConfig {
  sitePort: number;
  dataApiPort: number;
  host: string;
  databaseUrl: string | undefined;
  /** PGlite data directory, or 'memory://' for a database that lives only as long as the process. */
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
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
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
    redisUrl: blankToUndefined(env.REDIS_URL),
    firebaseProjectId: env.FIREBASE_PROJECT_ID ?? env.PUBLIC_FIREBASE_PROJECT_ID ?? 'demo-marketdata',
    authEmulatorHost,
    production,
  };
}

/** Whether the data API prints one redacted line per request (DATA_API_ACCESS_LOG=1). */
export function dataApiAccessLogEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.DATA_API_ACCESS_LOG === '1';
}
