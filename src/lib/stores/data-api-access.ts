import { atom, computed } from 'nanostores';
import { clientConfig } from '../client-config.ts';
import { publicToken } from '../http.ts';
import { $signedIn } from './auth.ts';
import { $user } from './user.ts';

/*
 * How the browser's own tools (the API viewer, the spreadsheet explorer) call the data API: where
 * it is, and whose key a call carries. Both tools send requests as their reader would from code, so
 * they share this one answer to both questions.
 */

/**
 * Where requests go: the address the page was built with until the running server says where
 * this browser reaches the data API (/api/client-config), which a build cannot know.
 */
export const $apiUrl = atom('');

/**
 * Starts with the page's built address and asks the running server for the real one; settles once
 * the answer (or the failure to get one) is known, so a request sent at once can wait for it.
 */
export function startApiUrl(builtUrl: string): Promise<void> {
  if ($apiUrl.get() === '') $apiUrl.set(builtUrl);
  return clientConfig()
    .then(({ dataApiUrl }) => {
      if (dataApiUrl !== undefined) $apiUrl.set(dataApiUrl);
    })
    .catch(() => {
      // The built address stays: right wherever the data API runs where the build expected it.
    });
}

/** Whose key the requests carry: the signed-in account's, or the site's visitor token. */
export const $keyOwner = computed([$signedIn, $user], (signedIn, user) =>
  signedIn && user.apiKey !== ''
    ? { kind: 'account' as const, key: user.apiKey }
    : { kind: 'visitor' as const },
);

/** The key a request carries now: the account's own, or the site's visitor token. */
export async function requestKey(): Promise<string> {
  const owner = $keyOwner.get();
  return owner.kind === 'account' ? owner.key : publicToken();
}
