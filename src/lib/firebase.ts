import type { Auth } from 'firebase/auth';
import { FIREBASE_AUTH_EMULATOR_URL, FIREBASE_WEB_CONFIG } from './endpoints.ts';

/** Where the running server publishes the settings a build cannot know (src/server/routes/client-config.ts). */
export const CLIENT_CONFIG_URL = '/api/client-config';

/**
 * The Auth emulator to use, asked of the running server: one build is served against different
 * emulators (development and end-to-end runs use different ports), so only the server knows.
 * When the server cannot be asked, the build-time default is the best remaining guess.
 */
async function authEmulatorUrl(): Promise<string | undefined> {
  try {
    const response = await fetch(CLIENT_CONFIG_URL, { headers: { Accept: 'application/json' } });
    if (!response.ok) return FIREBASE_AUTH_EMULATOR_URL;
    const body: unknown = await response.json();
    if (typeof body !== 'object' || body === null || !('authEmulatorUrl' in body)) {
      return FIREBASE_AUTH_EMULATOR_URL;
    }
    const { authEmulatorUrl: url } = body;
    if (url === null) return undefined;
    return typeof url === 'string' && url !== '' ? url : FIREBASE_AUTH_EMULATOR_URL;
  } catch {
    return FIREBASE_AUTH_EMULATOR_URL;
  }
}

let pending: Promise<Auth> | undefined;

async function createAuth(): Promise<Auth> {
  // Loaded on first use only, so pages that never touch the identity provider never ship its SDK.
  const [{ getApps, initializeApp }, { connectAuthEmulator, getAuth }, emulatorUrl] = await Promise.all([
    import('firebase/app'),
    import('firebase/auth'),
    authEmulatorUrl(),
  ]);
  const app = getApps()[0] ?? initializeApp(FIREBASE_WEB_CONFIG);
  const auth = getAuth(app);
  // The emulator must be connected before the first call; the memoised promise guarantees that.
  if (emulatorUrl !== undefined) connectAuthEmulator(auth, emulatorUrl, { disableWarnings: true });
  return auth;
}

/**
 * The browser's Firebase Auth instance, created once and connected to the emulator the server
 * names. A failed start (the SDK could not load) is forgotten, so the next call tries again.
 */
export function getClientAuth(): Promise<Auth> {
  pending ??= createAuth().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}
