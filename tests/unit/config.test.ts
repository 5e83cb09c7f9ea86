import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/app/config.ts';

describe('server configuration', () => {
  it('runs on the documented defaults when nothing is set', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      sitePort: 4321,
      dataApiPort: 4322,
      host: '127.0.0.1',
      databaseUrl: undefined,
      redisUrl: undefined,
      firebaseProjectId: 'demo-marketdata',
      production: false,
    });
    expect(config.dataDir.endsWith('.data')).toBe(true);
  });

  it('names the variable when a port is not a port', () => {
    expect(() => readConfig({ DATA_API_PORT: 'abc' })).toThrow('DATA_API_PORT must be a port number');
    expect(() => readConfig({ PORT: '70000' })).toThrow('PORT must be a port number');
  });

  it('treats an empty DATABASE_URL as unset, so the embedded database is used', () => {
    expect(readConfig({ DATABASE_URL: '  ' }).databaseUrl).toBeUndefined();
  });

  it('keeps memory:// as an in-memory database rather than a folder name', () => {
    expect(readConfig({ DATA_DIR: 'memory://' }).dataDir).toBe('memory://');
  });

  it('refuses emulator tokens in production', () => {
    expect(() =>
      readConfig({ NODE_ENV: 'production', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST is set while NODE_ENV=production/);
  });
});
