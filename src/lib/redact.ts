/*
 * The one redactor of credentials in text: every server log line goes through it, and so does every error
 * report a browser sends, before it leaves the page. Plain patterns only, so it runs in both.
 */

/** What every data API key starts with (fixed for good: secret scanners' patterns rely on it). */
export const API_KEY_PREFIX = 'tlk_';
/** Random characters of a key's body. */
export const API_KEY_BODY_LENGTH = 32;
/** Characters of a key's checksum. */
export const API_KEY_CHECKSUM_LENGTH = 6;

const REDACTED = '[redacted]';
const SECRET_NAME = String.raw`[A-Za-z_]*(?:api[-_]?key|token|password|passwd|pwd|secret)`;
const SECRET_JSON_FIELD = new RegExp(String.raw`("${SECRET_NAME}"\s*:\s*")(?:[^"\\]|\\.)*(")`, 'gi');
// A parameter also counts inside an encoded query (`symbol=AAPL%26apikey%3D…`, or encoded twice):
// after an encoded `&` it starts without a word boundary, and its value ends at the next encoded `&`.
const ENCODED_AMPERSAND = '%(?:25)*26';
const SECRET_PARAMETER = new RegExp(
  String.raw`(?:\b|(?<=${ENCODED_AMPERSAND}))(${SECRET_NAME}(?:=|%(?:25)*3D))(?:(?!${ENCODED_AMPERSAND})[^&\s;,"'<>])+`,
  'gi',
);
const BEARER_CREDENTIAL = /\b(Bearer\s+)[A-Za-z0-9._~+/-]+=*/gi;
const JWT = /\beyJ[\w-]*\.[\w-]+\.[\w-]*(?:\.[\w-]*){0,2}/g;
const BARE_REFRESH_TOKEN = /(?<![\w-])[A-Za-z0-9_-]{43}(?![\w-])/g;
const BARE_API_KEY = new RegExp(
  String.raw`\b${API_KEY_PREFIX}[0-9A-Za-z]{${String(API_KEY_BODY_LENGTH + API_KEY_CHECKSUM_LENGTH)}}\b`,
  'g',
);
// scheme://user:password@host in connection strings
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi;
const BASIC_CREDENTIAL = /\b(Basic\s+)[A-Za-z0-9+/]+=*/gi;
// ORM query errors list the bound parameters, which can hold passwords and e-mail addresses
const QUERY_PARAMETERS = /(\bparams: ).*/g;

/**
 * Removes credentials from a log line: JWTs, refresh tokens, API keys, bearer and basic credentials,
 * passwords in connection strings, bound query parameters, and the values of parameters or JSON
 * fields named like apikey, refreshToken, accessToken or password.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(SECRET_JSON_FIELD, `$1${REDACTED}$2`)
    .replace(SECRET_PARAMETER, `$1${REDACTED}`)
    .replace(BEARER_CREDENTIAL, `$1${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(BARE_API_KEY, REDACTED)
    .replace(BARE_REFRESH_TOKEN, REDACTED)
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
    .replace(BASIC_CREDENTIAL, `$1${REDACTED}`)
    .replace(QUERY_PARAMETERS, `$1${REDACTED}`);
}
