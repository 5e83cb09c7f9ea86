import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  decrypt,
  encrypt,
  hmacHex,
  randomToken,
  serverSecret,
  sha256Hex,
} from '../../src/server/auth/crypto.ts';

const SECRET = 'unit-test-secret-that-is-long-enough-0123';

function tamper(encoded: string, index: number): string {
  const data = Buffer.from(encoded, 'base64url');
  data[index] = (data[index] ?? 0) ^ 0x01;
  return data.toString('base64url');
}

describe('encryption of stored secrets', () => {
  it('gives back the plaintext it was given, including non-ASCII text', () => {
    for (const plaintext of ['', 'k3y_with-symbols', 'Ünïcödé ✓ 𝄞']) {
      expect(decrypt(SECRET, encrypt(SECRET, plaintext))).toBe(plaintext);
    }
  });

  it('produces a different ciphertext each time, so equal keys do not look equal at rest', () => {
    expect(encrypt(SECRET, 'same')).not.toBe(encrypt(SECRET, 'same'));
  });

  it('refuses a ciphertext whose nonce, tag or body was altered', () => {
    const encoded = encrypt(SECRET, 'a secret api key');
    for (const index of [0, 12, 28]) {
      expect(() => decrypt(SECRET, tamper(encoded, index))).toThrow();
    }
  });

  it('refuses a ciphertext made under another secret', () => {
    expect(() => decrypt('another-secret', encrypt(SECRET, 'value'))).toThrow();
  });

  it('refuses text that is too short or not base64url', () => {
    expect(() => decrypt(SECRET, 'abc')).toThrow('malformed');
    expect(() => decrypt(SECRET, `${encrypt(SECRET, 'value')}!`)).toThrow();
  });
});

describe('random tokens', () => {
  it('carry at least 128 bits in url-safe characters', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(randomToken(16), 'base64url')).toHaveLength(16);
  });

  it('never repeat across many draws', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => randomToken()));
    expect(tokens.size).toBe(1000);
  });

  it('refuse sizes below 128 bits', () => {
    expect(() => randomToken(15)).toThrow(RangeError);
  });
});

describe('digests', () => {
  it('hash with SHA-256 as hex', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('key the HMAC with the secret, so another secret gives another digest', () => {
    expect(hmacHex('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
    expect(hmacHex('other', 'value')).not.toBe(hmacHex('key', 'value'));
  });
});

describe('the server secret', () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'app-secret-'));
    dirs.push(dir);
    return dir;
  };

  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is APP_SECRET when it is set', () => {
    expect(serverSecret({ APP_SECRET: 'configured-secret' })).toBe('configured-secret');
  });

  it('names APP_SECRET when production runs without it', () => {
    expect(() => serverSecret({ NODE_ENV: 'production' })).toThrow(/APP_SECRET must be set/);
    expect(() => serverSecret({ NODE_ENV: 'production', APP_SECRET: 'short' })).toThrow(
      /APP_SECRET must be at least 32/,
    );
  });

  it('is made once outside production and kept in the data directory, readable only by its owner', () => {
    const dataDir = tempDir();
    const first = serverSecret({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'app-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect(serverSecret({ DATA_DIR: dataDir })).toBe(first);
  });

  it('reuses the secret a previous run left in the data directory', () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'app-secret'), 'secret-from-an-earlier-run\n');
    expect(serverSecret({ DATA_DIR: dataDir })).toBe('secret-from-an-earlier-run');
  });

  it('differs between data directories, so two installs never share keys', () => {
    expect(serverSecret({ DATA_DIR: tempDir() })).not.toBe(serverSecret({ DATA_DIR: tempDir() }));
  });

  it('stays the same for a throwaway database for the life of the process', () => {
    expect(serverSecret({ DATA_DIR: 'memory://' })).toBe(serverSecret({ DATA_DIR: 'memory://' }));
  });
});
