import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMAIL_MESSAGE, FILL_ALL_FIELDS_MESSAGE, PASSWORD_MESSAGE } from '../../src/lib/messages.ts';
import {
  UTM_FIELDS,
  emailSchema,
  passwordSchema,
  safeRedirect,
  usernameOrEmailSchema,
  utmSchema,
} from '../../src/lib/validation.ts';

const ORIGIN = 'http://localhost:4321';

/** Error messages of a failed parse, or [] when the value was accepted. */
function messages(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  return result.error?.issues.map((issue) => issue.message) ?? [];
}

const validEmail = fc.emailAddress().filter((email) => email.length <= 254);

/** Percent-decodes every %XX escape, over and over, as a careless downstream might. */
function decodeFully(value: string): string {
  let current = value;
  for (let round = 0; round < 10; round += 1) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Ordinary paths on this site: plain and percent-encoded non-ASCII segments, a query, a fragment. */
const PATH_CHARACTERS =
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@".split('');
const pathCharacter = fc.oneof(
  fc.constantFrom(...PATH_CHARACTERS),
  fc.integer({ min: 0xa0, max: 0xd7ff }).map((code) => encodeURIComponent(String.fromCharCode(code))),
);
const segment = fc.string({ unit: pathCharacter, minLength: 1, maxLength: 12 });
const localPath = fc
  .tuple(
    fc.array(segment, { maxLength: 5 }),
    fc.boolean(),
    fc.option(fc.string({ unit: fc.oneof(pathCharacter, fc.constant('/'), fc.constant('?')) }), {
      nil: undefined,
    }),
    fc.option(fc.string({ unit: fc.oneof(pathCharacter, fc.constant('/')) }), { nil: undefined }),
  )
  .map(
    ([segments, trailingSlash, query, fragment]) =>
      `/${segments.join('/')}${trailingSlash && segments.length > 0 ? '/' : ''}` +
      `${query === undefined ? '' : `?${query}`}${fragment === undefined ? '' : `#${fragment}`}`,
  );

/** Strings assembled from the pieces of known open-redirect tricks. */
const hostileTarget = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '/',
        '//',
        '\\',
        '/\\',
        '%2F',
        '%2f',
        '%5C',
        '%252F',
        '%25252F',
        '%09',
        '%0A',
        '%00',
        '\t',
        '\n',
        '\r',
        ' ',
        '\u0000',
        '\u0085',
        'evil.example',
        'localhost:4321',
        '@',
        ':',
        '.',
        '..',
        '?',
        '#',
        'http:',
        'https:',
        'javascript:',
        'data:',
        'http://',
        'https://evil.example',
        'http://localhost:4321',
        '%',
        'alert(1)',
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 8 },
  )
  .chain((parts) => fc.constantFrom('', '/', '/%2F', '/%5C').map((lead) => `${lead}${parts.join('')}`));

describe('emailSchema', () => {
  it('accepts every well-formed address and returns it unchanged', () => {
    fc.assert(
      fc.property(validEmail, (email) => {
        expect(emailSchema.parse(email)).toBe(email);
      }),
    );
  });

  it('normalises case and surrounding spaces, and normalising twice changes nothing', () => {
    fc.assert(
      fc.property(validEmail, fc.constantFrom('', ' ', '  ', '\t'), (email, pad) => {
        const normalised = emailSchema.parse(`${pad}${email.toUpperCase()}${pad}`);
        expect(normalised).toBe(email.toLowerCase());
        expect(emailSchema.parse(normalised)).toBe(normalised);
      }),
    );
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'ann@',
    'ann@example',
    'ann@@example.com',
    'ann@exa mple.com',
    'ann.@example.com',
    '.ann@example.com',
    'an..n@example.com',
    'ann@-example.com',
    'ann@example.c',
    'ann@[127.0.0.1]',
    '"ann"@example.com',
    'ann@exa\nmple.com',
    'ann\u0000@example.com',
  ])('refuses %j with the sign-up message', (value) => {
    expect(messages(emailSchema.safeParse(value))).toEqual([EMAIL_MESSAGE]);
  });

  it('refuses addresses longer than 254 characters', () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;
    expect(long.length).toBeGreaterThan(254);
    expect(emailSchema.safeParse(long).success).toBe(false);
  });

  it('refuses a local part over 64 characters', () => {
    expect(emailSchema.safeParse(`${'a'.repeat(65)}@example.com`).success).toBe(false);
  });
});

describe('passwordSchema', () => {
  it('refuses passwords under 6 characters with the identity provider message', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5 }), (password) => {
        expect(messages(passwordSchema.safeParse(password))).toEqual([PASSWORD_MESSAGE]);
      }),
    );
  });

  it('accepts any password of 6 characters or more as typed, spaces included', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 6, maxLength: 200 }), (password) => {
        expect(passwordSchema.parse(password)).toBe(password);
      }),
    );
    expect(passwordSchema.parse('  abc  ')).toBe('  abc  ');
  });
});

describe('utmSchema', () => {
  const controlCharacter = fc.oneof(
    fc.integer({ min: 0, max: 0x1f }),
    fc.constant(0x7f),
    fc.integer({ min: 0x80, max: 0x9f }),
  );
  const withControl = fc
    .tuple(fc.string({ maxLength: 50 }), controlCharacter, fc.string({ maxLength: 50 }))
    .map(([before, code, after]) => `${before}${String.fromCharCode(code)}${after}`);

  it('refuses a value with a control character in any field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...UTM_FIELDS), withControl, (field, value) => {
        const result = utmSchema.safeParse({ [field]: value });
        expect(result.success).toBe(false);
        expect(result.error?.issues[0]?.path).toEqual([field]);
      }),
    );
  });

  it('keeps printable values up to 200 characters and fills missing fields with empty strings', () => {
    const printable = fc.string({ maxLength: 200 }).filter((value) => !/\p{Cc}/u.test(value));
    fc.assert(
      fc.property(printable, (value) => {
        expect(utmSchema.parse({ utm_source: value })).toEqual({
          utm_source: value,
          utm_medium: '',
          utm_campaign: '',
          utm_term: '',
          utm_content: '',
        });
      }),
    );
  });

  it('refuses values over 200 characters and unknown keys', () => {
    expect(utmSchema.safeParse({ utm_term: 'x'.repeat(201) }).success).toBe(false);
    expect(utmSchema.safeParse({ utm_source: 'news', gclid: 'abc' }).success).toBe(false);
  });
});

describe('usernameOrEmailSchema', () => {
  it('normalises e-mail logins like emailSchema', () => {
    fc.assert(
      fc.property(validEmail, (email) => {
        expect(usernameOrEmailSchema.parse(` ${email.toUpperCase()} `)).toBe(email);
      }),
    );
  });

  it('keeps usernames as typed apart from surrounding spaces', () => {
    expect(usernameOrEmailSchema.parse('  TraderJoe ')).toBe('TraderJoe');
  });

  it('asks for the fields when the login is blank', () => {
    expect(messages(usernameOrEmailSchema.safeParse('   '))).toEqual([FILL_ALL_FIELDS_MESSAGE]);
  });

  it('refuses malformed e-mail logins and usernames with spaces or control characters', () => {
    expect(messages(usernameOrEmailSchema.safeParse('ann@'))).toEqual([EMAIL_MESSAGE]);
    expect(usernameOrEmailSchema.safeParse('trader joe').success).toBe(false);
    expect(usernameOrEmailSchema.safeParse('trader\u0000joe').success).toBe(false);
    expect(usernameOrEmailSchema.safeParse('x'.repeat(65)).success).toBe(false);
  });
});

describe('safeRedirect', () => {
  it('never sends the browser to another origin, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), hostileTarget, fc.webUrl()),
        (target) => {
          const result = safeRedirect(target, ORIGIN);
          expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
          expect(new URL(decodeFully(result), ORIGIN).origin).toBe(ORIGIN);
          expect(result.startsWith('/')).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('returns paths on this site unchanged', () => {
    fc.assert(
      fc.property(localPath, (path) => {
        expect(safeRedirect(path, ORIGIN)).toBe(path);
      }),
    );
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/%2F/evil.example',
    '/%2fevil.example',
    '/%5Cevil.example',
    '/%252F%252Fevil.example',
    '/\t/evil.example',
    '/%09/evil.example',
    'https://evil.example/account',
    'https:evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' /account',
    'account',
    '',
  ])('refuses %j', (target) => {
    expect(safeRedirect(target, ORIGIN)).toBe('/');
  });

  it('turns an absolute URL on this origin into its path', () => {
    expect(safeRedirect(`${ORIGIN}/account?tab=keys#top`, ORIGIN)).toBe('/account?tab=keys#top');
  });

  it('falls back to the home page when there is no target', () => {
    expect(safeRedirect(undefined, ORIGIN)).toBe('/');
    expect(safeRedirect(null, ORIGIN)).toBe('/');
  });
});
