import { describe, expect, it } from 'vitest';
import { isMobileUserAgent } from '../../src/lib/device.ts';

describe('mobile detection by user agent', () => {
  it.each([
    [
      'an iPhone',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    ],
    [
      'an Android phone',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36',
    ],
    ['an iPad', 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15'],
  ])('recognises %s', (_name, ua) => {
    expect(isMobileUserAgent(ua)).toBe(true);
  });

  it.each([
    ['desktop Chrome', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36'],
    [
      'desktop Safari',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15',
    ],
    ['a missing user agent', ''],
  ])('treats %s as desktop', (_name, ua) => {
    expect(isMobileUserAgent(ua)).toBe(false);
  });
});
