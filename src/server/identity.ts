import { readConfig } from './config.ts';

export type Check = { ok: true } | { ok: false; reason: string };

const GOOGLE_KEYS_URL =
  'https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com';

/** Whether the identity provider answers: the emulator's root locally, Google's token keys in production. */
export async function checkIdentityProvider(timeoutMs = 2000): Promise<Check> {
  const { authEmulatorHost } = readConfig();
  const url = authEmulatorHost ? `http://${authEmulatorHost}/` : GOOGLE_KEYS_URL;
  const name = authEmulatorHost ? `Firebase Auth emulator at ${authEmulatorHost}` : 'Firebase Auth';
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return { ok: false, reason: `${name} answered HTTP ${res.status}` };
    await res.body?.cancel();
    return { ok: true };
  } catch (error) {
    const detail =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : 'unreachable';
    return { ok: false, reason: `${name} ${detail}` };
  }
}
