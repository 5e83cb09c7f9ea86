import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { secretSettings, type Environment } from '../app/config.ts';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const MIN_TOKEN_BYTES = 16;
const SECRET_FILE = 'app-secret';
const ENCRYPTION_INFO = 'market-data/aes-256-gcm/v1';

/** Opaque secrets (API keys, refresh tokens) handed to clients; never fewer than 128 random bits. */
export function randomToken(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < MIN_TOKEN_BYTES) {
    throw new RangeError(`randomToken needs at least ${MIN_TOKEN_BYTES} bytes, got ${bytes}`);
  }
  return randomBytes(bytes).toString('base64url');
}

/** Digest for high-entropy tokens, which need no secret to be safe to store. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Keyed digest: a stolen table of hashes cannot be checked against guesses without the server secret. */
export function hmacHex(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value, 'utf8').digest('hex');
}

function encryptionKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', ENCRYPTION_INFO, 32));
}

/** Authenticated encryption, so data we must show again (API keys) is unreadable and tamper-evident at rest. */
export function encrypt(secret: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(secret), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/** Inverse of encrypt; throws when the text was altered or encrypted under another secret. */
export function decrypt(secret: string, encoded: string): string {
  const data = Buffer.from(encoded, 'base64url');
  if (data.length < IV_BYTES + TAG_BYTES || data.toString('base64url') !== encoded) {
    throw new Error('Encrypted value is malformed');
  }
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(secret), data.subarray(0, IV_BYTES));
  decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(data.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}

// A throwaway database needs no secret that outlives the process.
let memorySecret: string | undefined;
const fileSecrets = new Map<string, string>();

function developmentSecret(dataDir: string): string {
  if (dataDir === 'memory://') {
    memorySecret ??= randomToken(32);
    return memorySecret;
  }
  const file = path.join(dataDir, SECRET_FILE);
  const cached = fileSecrets.get(file);
  if (cached) return cached;
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dataDir, { recursive: true });
    try {
      // 'wx' fails if another process wrote the file first; then its secret wins.
      writeFileSync(file, `${randomToken(32)}\n`, { mode: 0o600, flag: 'wx' });
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
    }
    secret = readFileSync(file, 'utf8').trim();
  }
  if (secret === '') throw new Error(`${file} is empty: delete it to have a new development secret made`);
  fileSecrets.set(file, secret);
  return secret;
}

/**
 * The key behind API-key hashes and encryption. Production must set APP_SECRET; elsewhere a secret is made
 * once and kept in the data directory, so that stored keys keep working across restarts.
 */
export function serverSecret(env?: Environment): string {
  const { appSecret: configured, production, dataDir } = secretSettings(env);
  if (configured !== '') {
    if (production && configured.length < 32) {
      throw new Error('APP_SECRET must be at least 32 characters long when NODE_ENV=production');
    }
    return configured;
  }
  if (production) {
    throw new Error('APP_SECRET must be set when NODE_ENV=production: it protects stored API keys');
  }
  return developmentSecret(dataDir);
}
