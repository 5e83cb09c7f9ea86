import { $auth, PUBLIC_TOKEN, setAccessToken, signedIn, signedOut } from './auth.ts';
import { $user, type UserData } from './user.ts';

/** localStorage key of the last known session, so static pages draw the right header at once. */
export const SESSION_STORAGE_KEY = 'session';

interface Snapshot {
  accessToken: string;
  user: Partial<UserData>;
}

function read(): Snapshot | undefined {
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<Snapshot>;
    if (typeof parsed.accessToken !== 'string' || typeof parsed.user !== 'object') return undefined;
    return { accessToken: parsed.accessToken, user: parsed.user };
  } catch {
    return undefined;
  }
}

let started = false;

/**
 * Restores the last known session from storage (marking auth initialised) and keeps storage in
 * step with the stores from then on. Safe to call from every island; only the first call acts.
 */
export function startSession(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const snapshot = read();
  if (snapshot && snapshot.accessToken !== PUBLIC_TOKEN) signedIn(snapshot.accessToken, snapshot.user);
  else setAccessToken(PUBLIC_TOKEN);
  const save = (): void => {
    const { accessToken } = $auth.get();
    if (accessToken === PUBLIC_TOKEN) {
      localStorage.removeItem(SESSION_STORAGE_KEY);
      return;
    }
    const user: Partial<UserData> & { authenticated?: boolean; draft?: unknown } = { ...$user.get() };
    delete user.authenticated;
    delete user.draft;
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ accessToken, user }));
  };
  $auth.listen(save);
  $user.listen(save);
  window.addEventListener('storage', (event) => {
    if (event.key !== SESSION_STORAGE_KEY) return;
    const next = read();
    if (next && next.accessToken !== PUBLIC_TOKEN) signedIn(next.accessToken, next.user);
    else signedOut();
  });
}
