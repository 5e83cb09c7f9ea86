/**
 * The one check for addresses that come from data (news links, company websites and logos, and the
 * links of text posts): only http and https may become a link or an image, so a `javascript:` or
 * `data:` address in imported or generated data can never run in a visitor's page.
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The address as an absolute http(s) URL, or undefined for anything else (`javascript:`, `data:`,
 * blank). A bare host such as `apple.com` is taken as https, as company websites are often written.
 */
export function safeHttpUrl(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') return undefined;
  const candidate = SCHEME.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const parsed = new URL(candidate);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a value from data is blank or an http(s) address: what the importer accepts in URL fields. */
export function isBlankOrHttpUrl(value: string | null | undefined): boolean {
  return (value?.trim() ?? '') === '' || safeHttpUrl(value) !== undefined;
}
