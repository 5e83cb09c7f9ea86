import type { Auth } from 'firebase/auth';
import { clientConfig } from './client-config.ts';
import { FIREBASE_AUTH_EMULATOR_URL, FIREBASE_WEB_CONFIG } from './endpoints.ts';

/**
 * The Auth emulator to use, as the running server names it (see {@link clientConfig}). When the
 * server cannot be asked, the build-time default is the best remaining guess.
 */
async function authEmulatorUrl(): Promise<string | undefined> {
  try {
    const { authEmulatorUrl: url } = await clientConfig();
    if (url === null) return undefined;
    return url ?? FIREBASE_AUTH_EMULATOR_URL;
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
