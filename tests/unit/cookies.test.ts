import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NEW_REGISTRATION_COOKIE,
  NEW_REGISTRATION_EXPIRES_DAYS,
  NEW_REGISTRATION_LIFETIME_SECONDS,
  cookieAttributes,
  getCookie,
  removeCookie,
  setCookie,
} from '../../src/lib/cookies.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;

/** The name=value pair and the attributes of one written cookie string, in any order. */
function parseWrite(written: string | undefined): {
  pair: string;
  attributes: Record<string, string | true>;
} {
  const [pair = '', ...parts] = (written ?? '').split('; ');
  const attributes: Record<string, string | true> = {};
  for (const part of parts) {
    const [key = '', value] = part.split('=');
    attributes[key.toLowerCase()] = value ?? true;
  }
  return { pair, attributes };
}

/** A stand-in for document.cookie that keeps every write, as a browser would receive them. */
class CookieJar {
  readonly writes: string[] = [];
  private readonly values = new Map<string, string>();

  get cookie(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  set cookie(written: string) {
    this.writes.push(written);
    const [pair = '', ...attributes] = written.split('; ');
    const [name = '', value = ''] = pair.split('=');
    const expires = attributes.find((attribute) => attribute.startsWith('expires='));
    if (expires && new Date(expires.slice('expires='.length)).getTime() <= Date.now())
      this.values.delete(name);
    else this.values.set(name, value);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('cookieAttributes', () => {
  it('keeps a cookie for one day on the whole site by default', () => {
    const attributes = cookieAttributes({}, 'http:');
    expect(attributes.expires).toBe(1);
    expect(attributes.path).toBe('/');
    expect(attributes.sameSite).toBe('Lax');
  });

  it('lets the caller override any default and add attributes', () => {
    const attributes = cookieAttributes({ expires: 7, path: '/developer', domain: 'example.com' }, 'http:');
    expect(attributes).toMatchObject({
      expires: 7,
      path: '/developer',
      domain: 'example.com',
      sameSite: 'Lax',
    });
  });

  it('marks cookies Secure only when the page is served over https', () => {
    expect(cookieAttributes({}, 'https:').secure).toBe(true);
    expect(cookieAttributes({}, 'HTTPS').secure).toBe(true);
    expect(cookieAttributes({}, 'http:').secure).toBe(false);
    expect(cookieAttributes({}, undefined).secure).toBe(false);
  });

  it('lets the caller turn Secure off even over https', () => {
    expect(cookieAttributes({ secure: false }, 'https:').secure).toBe(false);
  });

  it('reads the protocol of the current page when none is given', () => {
    vi.stubGlobal('location', { protocol: 'https:' });
    expect(cookieAttributes().secure).toBe(true);
    vi.stubGlobal('location', { protocol: 'http:' });
    expect(cookieAttributes().secure).toBe(false);
  });
});

describe('new_registration cookie', () => {
  it('is named new_registration', () => {
    expect(NEW_REGISTRATION_COOKIE).toBe('new_registration');
  });

  it('lives 300 seconds, expressed in the days js-cookie expects', () => {
    expect(NEW_REGISTRATION_LIFETIME_SECONDS).toBe(300);
    expect(NEW_REGISTRATION_EXPIRES_DAYS * DAY_MS).toBeCloseTo(300_000, 6);
  });
});

describe('setCookie, getCookie and removeCookie', () => {
  let jar: CookieJar;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
    jar = new CookieJar();
    vi.stubGlobal('document', jar);
    vi.stubGlobal('location', { protocol: 'https:' });
  });

  it('writes a cookie for one day on path / with SameSite Lax and Secure over https', () => {
    setCookie('theme', 'dark');
    expect(jar.writes).toHaveLength(1);
    expect(parseWrite(jar.writes[0])).toEqual({
      pair: 'theme=dark',
      attributes: {
        expires: new Date(NOW.getTime() + DAY_MS).toUTCString(),
        path: '/',
        samesite: 'Lax',
        secure: true,
      },
    });
    expect(getCookie('theme')).toBe('dark');
  });

  it('writes the new_registration cookie to expire 300 seconds from now', () => {
    setCookie(NEW_REGISTRATION_COOKIE, 'true', { expires: NEW_REGISTRATION_EXPIRES_DAYS });
    const { expires } = parseWrite(jar.writes[0]).attributes;
    expect(typeof expires).toBe('string');
    expect(new Date(String(expires)).getTime() - NOW.getTime()).toBe(300_000);
  });

  it('removes a cookie on the same path it was written on', () => {
    setCookie('theme', 'dark');
    removeCookie('theme');
    const removal = parseWrite(jar.writes[1]);
    expect(removal.pair).toBe('theme=');
    expect(removal.attributes.path).toBe('/');
    expect(new Date(String(removal.attributes.expires)).getTime()).toBeLessThan(NOW.getTime());
    expect(getCookie('theme')).toBeUndefined();
  });

  it('removes on the caller’s path when one is given', () => {
    removeCookie('theme', { path: '/developer' });
    expect(parseWrite(jar.writes[0]).attributes.path).toBe('/developer');
  });

  it('returns undefined for a cookie that was never set', () => {
    expect(getCookie('missing')).toBeUndefined();
  });
});
