import { MAX_UTM_LENGTH } from './form-rules.ts';

/**
 * The campaign a visitor arrived from (SPEC §3 campaign record, §7 save-campaign): the UTM
 * parameters of the landing URL, kept in session storage until an account is created, so a
 * visitor who browses a few pages before signing up is still attributed to the link they followed.
 */

/** Session storage key of the captured parameters (SPEC §7). */
export const UTM_STORAGE_KEY = 'ft_utms';

/** The five parameters, named as the URL and the accounts API name them. */
export const UTM_PARAMETERS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const;
export type UtmParameter = (typeof UTM_PARAMETERS)[number];

/** Every parameter, an empty string when the landing URL did not carry it. */
export type Utms = Record<UtmParameter, string>;

/** The campaign record sent to the accounts API: the parameters and the new account's address. */
export type Campaign = Utms & { email: string };

/** The storage the parameters live in; a parameter so tests and private modes can do without one. */
export type UtmStorage = Pick<Storage, 'getItem' | 'setItem'>;

const EMPTY_UTMS: Utms = { utm_source: '', utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '' };

/** ASCII and Unicode control characters, which the accounts API refuses in UTM values. */
const CONTROL_CHARACTERS = /\p{Cc}/gu;

/**
 * A value as the accounts API accepts it: trimmed, without control characters and cut to the
 * length limit. A mangled link must never make the registration that carries it fail.
 */
function cleanValue(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.replace(CONTROL_CHARACTERS, '').trim().slice(0, MAX_UTM_LENGTH);
}

function sessionStore(): UtmStorage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // Some browsers throw on any access to storage when it is disabled.
    return undefined;
  }
}

/**
 * Stores the landing URL's UTM parameters, only when at least one is present: a later page
 * without them must not wipe out the campaign the visitor came from.
 */
export function captureUtms(
  search: string = typeof location === 'undefined' ? '' : location.search,
  storage: UtmStorage | undefined = sessionStore(),
): void {
  const params = new URLSearchParams(search);
  const utms: Utms = { ...EMPTY_UTMS };
  for (const name of UTM_PARAMETERS) utms[name] = cleanValue(params.get(name));
  if (!UTM_PARAMETERS.some((name) => utms[name] !== '')) return;
  try {
    storage?.setItem(UTM_STORAGE_KEY, JSON.stringify(utms));
  } catch {
    // Storage full or refused: the visit simply goes unattributed.
  }
}

/** The captured parameters, each an empty string when absent or unreadable. */
export function readUtms(storage: UtmStorage | undefined = sessionStore()): Utms {
  let stored: unknown;
  try {
    stored = JSON.parse(storage?.getItem(UTM_STORAGE_KEY) ?? 'null');
  } catch {
    return { ...EMPTY_UTMS };
  }
  if (typeof stored !== 'object' || stored === null) return { ...EMPTY_UTMS };
  const record = stored as Record<string, unknown>;
  const utms: Utms = { ...EMPTY_UTMS };
  for (const name of UTM_PARAMETERS) utms[name] = cleanValue(record[name]);
  return utms;
}

/**
 * The campaign record for a new account, or undefined when it is not to be saved: SPEC §5 skips
 * the save when utm_source or the email is empty, since such a row could not be attributed.
 */
export function campaignFor(email: string, utms: Utms = readUtms()): Campaign | undefined {
  const address = email.trim();
  if (address === '' || utms.utm_source === '') return undefined;
  return { email: address, ...utms };
}
