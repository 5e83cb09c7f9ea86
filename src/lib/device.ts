/**
 * Phones and tablets announce themselves in the user-agent string. On-demand pages check it on the
 * server so the first paint already uses the mobile layout (SPEC §9: mobile detection is by
 * user-agent); prerendered pages cannot, and leave it to the viewport width measured in the browser.
 */
const MOBILE_UA =
  /Mobi|Android|iPhone|iPad|iPod|BlackBerry|BB10|IEMobile|Windows Phone|Opera Mini|Kindle|Silk|webOS|Tablet/i;

/** Whether a user-agent string belongs to a phone or tablet browser; an empty string is not mobile. */
export function isMobileUserAgent(ua: string): boolean {
  return MOBILE_UA.test(ua);
}

const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/Edg(?:e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/node|undici/i, 'Node.js'],
  [/python/i, 'Python'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/**
 * A sign-in's browser in words ("Chrome on macOS") from its user agent, so the owner recognises
 * their devices; the order matters, as Edge and Opera also name Chrome, and Chrome names Safari.
 * Written here rather than with a parser library: the list only needs the common browsers.
 */
export function describeUserAgent(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser === undefined && system === undefined)
    return userAgent === '' ? 'Unknown browser' : 'Another app';
  if (browser === undefined) return `A browser on ${system ?? ''}`;
  return system === undefined ? browser : `${browser} on ${system}`;
}
