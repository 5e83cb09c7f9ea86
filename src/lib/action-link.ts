import { AUTH_LINKS } from './routes.ts';

/**
 * The links in the identity provider's emails, as the site handles them at /auth/action: which
 * kinds it takes and how a provider's link becomes a link to that page. Shared by the page's store
 * and the server's local mailbox, which rewrites the Auth emulator's links to the page.
 */

/** The provider's `mode` values of the links the page completes. */
export const ACTION_MODES = ['resetPassword', 'verifyEmail', 'verifyAndChangeEmail'] as const;
export type ActionMode = (typeof ACTION_MODES)[number];

/** Shown, and answered by the server, when a link arrives without its one-time code. */
export const MISSING_CODE_MESSAGE =
  'This link is incomplete: it has no code. Open the link from the email again, or ask for a new one.';

/** Whether a `mode` parameter names a kind of link the page completes. */
export function isActionMode(value: string | null | undefined): value is ActionMode {
  return (ACTION_MODES as readonly string[]).includes(value ?? '');
}

/**
 * The site's page for a provider action link (`…?mode=resetPassword&oobCode=…&continueUrl=…`), as a
 * path on this site with the same mode, code and continue URL; undefined for a link of another
 * kind or without a code, which is left for the provider to handle. A path rather than a full
 * address, because one build is served on different origins (development, tests, production).
 */
export function siteActionLink(providerLink: string): string | undefined {
  let url: URL;
  try {
    url = new URL(providerLink);
  } catch {
    return undefined;
  }
  const mode = url.searchParams.get('mode');
  const oobCode = url.searchParams.get('oobCode');
  if (!isActionMode(mode) || oobCode === null || oobCode === '') return undefined;
  const params = new URLSearchParams({ mode, oobCode });
  const continueUrl = url.searchParams.get('continueUrl');
  if (continueUrl !== null && continueUrl !== '') params.set('continueUrl', continueUrl);
  return `${AUTH_LINKS.action}?${params.toString()}`;
}
