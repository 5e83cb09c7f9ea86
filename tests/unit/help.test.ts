import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMAIL_TOO_LONG_MESSAGE } from '../../src/lib/form-rules.ts';
import { faqPageJsonLd } from '../../src/lib/help-json-ld.ts';
import {
  HELP_EMAIL_REQUIRED_MESSAGE,
  HELP_MESSAGE_CHARACTERS_MESSAGE,
  HELP_MESSAGE_REQUIRED_MESSAGE,
  HELP_MESSAGE_TOO_LONG_MESSAGE,
  HELP_MESSAGE_TOO_SHORT_MESSAGE,
  HELP_NAME_CHARACTERS_MESSAGE,
  HELP_NAME_REQUIRED_MESSAGE,
  HELP_NAME_TOO_LONG_MESSAGE,
  HELP_TOPIC_MESSAGE,
  helpFieldErrors,
  helpRequestSchema,
} from '../../src/lib/help-schema.ts';
import {
  byTopicThenOrder,
  HELP_TOPIC_IDS,
  HELP_TOPICS,
  helpAnchor,
  helpTopicLabel,
  type HelpTopic,
} from '../../src/lib/help-topics.ts';
import { EMAIL_MESSAGE } from '../../src/lib/messages.ts';
import { siteUrl } from '../../src/server/app/config.ts';
import { REVOKED_KEY_MESSAGE, UNVERIFIED_KEY_MESSAGE } from '../../src/server/data-api/access.ts';
import {
  confirmationBody,
  confirmationSubject,
  newReference,
  REFERENCE_PATTERN,
} from '../../src/server/services/support-requests.ts';

const portalMock = vi.hoisted(() => vi.fn());

vi.mock('../../src/lib/http.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/lib/http.ts')>();
  return { ...original, portal: portalMock };
});

const { ApiError, NETWORK_ERROR_MESSAGE } = await import('../../src/lib/http.ts');
const { EMPTY_USER } = await import('../../src/lib/stores/user.ts');
const {
  $helpForm,
  HELP_FAILED_MESSAGE,
  HELP_FIX_FIELDS_MESSAGE,
  prefillHelp,
  resetHelp,
  setHelpValue,
  submitHelp,
} = await import('../../src/lib/stores/help-form.ts');

const VALID = {
  name: 'Grace Hopper',
  email: 'grace@example.com',
  topic: 'limits',
  message: 'I get 429 after five calls. Is that my plan?',
};

/** The messages of a parse, keyed by field; {} when the request was accepted. */
function errorsOf(input: Record<string, unknown>): Record<string, string> {
  const result = helpRequestSchema.safeParse(input);
  return result.success ? {} : helpFieldErrors(result.error.issues);
}

describe('the help request rules', () => {
  it('accept a complete request, trimming text and lower-casing the email', () => {
    expect(
      helpRequestSchema.parse({ ...VALID, name: '  Grace Hopper ', email: ' Grace@Example.COM ' }),
    ).toEqual(VALID);
  });

  it('accept every topic and only those', () => {
    for (const topic of HELP_TOPIC_IDS) expect(errorsOf({ ...VALID, topic }), topic).toEqual({});
    expect(errorsOf({ ...VALID, topic: 'weather' })).toEqual({ topic: HELP_TOPIC_MESSAGE });
    expect(errorsOf({ ...VALID, topic: '' })).toEqual({ topic: HELP_TOPIC_MESSAGE });
  });

  it.each([
    ['name', '', HELP_NAME_REQUIRED_MESSAGE],
    ['name', 'n'.repeat(101), HELP_NAME_TOO_LONG_MESSAGE],
    ['name', 'Grace\nHopper', HELP_NAME_CHARACTERS_MESSAGE],
    ['email', ' ', HELP_EMAIL_REQUIRED_MESSAGE],
    ['email', 'grace@', EMAIL_MESSAGE],
    ['email', `${'a'.repeat(250)}@example.com`, EMAIL_TOO_LONG_MESSAGE],
    ['message', '', HELP_MESSAGE_REQUIRED_MESSAGE],
    ['message', 'Help me', HELP_MESSAGE_TOO_SHORT_MESSAGE],
    ['message', 'm'.repeat(5001), HELP_MESSAGE_TOO_LONG_MESSAGE],
    ['message', 'A question with a \u0007 bell', HELP_MESSAGE_CHARACTERS_MESSAGE],
  ])('name the %s field with its own message (%#)', (field, value, message) => {
    expect(errorsOf({ ...VALID, [field]: value })).toEqual({ [field]: message });
  });

  it('keep line breaks in a message and count characters as code points', () => {
    expect(errorsOf({ ...VALID, message: 'First line\nsecond line\r\n\tthird' })).toEqual({});
    expect(errorsOf({ ...VALID, message: '📈'.repeat(5000) })).toEqual({});
  });

  it('read the accounts API issues (dotted paths) like its own, first message per field', () => {
    expect(
      helpFieldErrors([
        { path: 'email', message: 'first' },
        { path: 'email', message: 'second' },
        { path: 'website', message: 'not a visible field' },
      ]),
    ).toEqual({ email: 'first' });
  });
});

describe('the help topics', () => {
  it('are Account, API keys, Billing, Data, API and Limits, in that order', () => {
    expect(HELP_TOPICS.map((topic) => topic.label)).toEqual([
      'Account',
      'API keys',
      'Billing',
      'Data',
      'API',
      'Limits',
    ]);
    expect(helpTopicLabel('keys')).toBe('API keys');
  });

  it('sort entries by topic, then order, then anchor', () => {
    const entry = (id: string, group: HelpTopic, order: number) => ({ id, data: { group, order } });
    const sorted = byTopicThenOrder([
      entry('limits/a', 'limits', 1),
      entry('account/b', 'account', 2),
      entry('account/c', 'account', 1),
      entry('account/a', 'account', 1),
    ]);
    expect(sorted.map((item) => item.id)).toEqual(['account/a', 'account/c', 'account/b', 'limits/a']);
    expect(helpAnchor('account/create-an-account')).toBe('create-an-account');
  });
});

/** Frontmatter and body of each Markdown file under a content folder. */
function contentFiles(folder: string): { folder: string; anchor: string; front: string; body: string }[] {
  const base = path.resolve('src/content', folder);
  return readdirSync(base, { withFileTypes: true })
    .filter((dir) => dir.isDirectory())
    .flatMap((dir) =>
      readdirSync(path.join(base, dir.name))
        .filter((name) => name.endsWith('.md'))
        .map((name) => {
          const text = readFileSync(path.join(base, dir.name, name), 'utf8');
          const [, front = '', body = ''] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text) ?? [];
          return { folder: dir.name, anchor: name.replace(/\.md$/, ''), front, body };
        }),
    );
}

describe.each(['faqs', 'help'])('the %s content', (collection) => {
  const files = contentFiles(collection);

  it('has entries in every topic, each in the folder of its group', () => {
    expect(new Set(files.map((file) => file.folder))).toEqual(new Set(HELP_TOPIC_IDS));
    for (const file of files) expect(file.front, file.anchor).toContain(`\ngroup: ${file.folder}\n`);
  });

  it('gives every entry an anchor of its own that no topic or the form uses', () => {
    const anchors = files.map((file) => file.anchor);
    expect(new Set(anchors).size).toBe(anchors.length);
    for (const anchor of anchors) {
      expect(anchor).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect([...HELP_TOPIC_IDS, 'contact', 'main']).not.toContain(anchor);
    }
  });

  it('links within the help pages only to anchors that exist', () => {
    const anchorsOf = (folder: string) => new Set([...contentFiles(folder).map((f) => f.anchor), 'contact']);
    for (const file of files) {
      for (const [, page, anchor] of file.body.matchAll(/\]\((\/faqs|\/help-center|)#([a-z0-9-]+)\)/g)) {
        const target = page === '/faqs' ? 'faqs' : page === '/help-center' ? 'help' : collection;
        expect(anchorsOf(target).has(anchor ?? ''), `${file.anchor} → ${page ?? ''}#${anchor ?? ''}`).toBe(
          true,
        );
      }
    }
  });

  it('never promises what is not built', () => {
    for (const file of files) expect(file.body.toLowerCase(), file.anchor).not.toMatch(/coming soon|todo/);
  });
});

describe('the answers quote the API as it answers', () => {
  const all = [...contentFiles('faqs'), ...contentFiles('help')].map((file) =>
    file.body.replace(/\s+/g, ' '),
  );
  const said = (text: string): boolean => all.some((body) => body.includes(text));

  it('with the messages of a replaced key and an unverified address', () => {
    expect(REVOKED_KEY_MESSAGE).toContain('This API key has been replaced or revoked');
    expect(said('This API key has been replaced or revoked')).toBe(true);
    expect(UNVERIFIED_KEY_MESSAGE).toMatch(/^Please verify your email address to use this API key/);
    expect(said('Please verify your email address to use this API key')).toBe(true);
  });
});

describe('the FAQ page data for search engines', () => {
  it('is FAQPage JSON-LD that no answer can break out of', () => {
    const text = faqPageJsonLd([
      { question: 'Q?', answerHtml: ' <p>A</p><script>alert(1)</script> ', url: 'http://localhost/faqs#q' },
    ]);
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: [
        {
          '@type': 'Question',
          name: 'Q?',
          url: 'http://localhost/faqs#q',
          acceptedAnswer: { '@type': 'Answer', text: '<p>A</p><script>alert(1)</script>' },
        },
      ],
    });
  });
});

describe('the confirmation email', () => {
  it('names the reference in its subject and body, with the topic and the sender’s words', () => {
    const reference = newReference();
    expect(reference).toMatch(REFERENCE_PATTERN);
    expect(confirmationSubject(reference)).toBe(`We received your question (${reference})`);
    const body = confirmationBody({
      name: 'Grace Hopper',
      topic: 'billing',
      message: 'Invoice, please.',
      reference,
    });
    expect(body).toMatch(/^Hello Grace,\n/);
    expect(body).toContain(`Your reference is ${reference}.`);
    expect(body).toContain('about Billing');
    expect(body).toContain('\nInvoice, please.\n');
    expect(body).toContain(`in the help center: ${siteUrl()}/help-center\n`);
  });

  it('draws references at random from letters and digits that cannot be confused', () => {
    const references = new Set(Array.from({ length: 200 }, () => newReference()));
    expect(references.size).toBe(200);
    for (const reference of references) expect(reference).not.toMatch(/[01OIL]/);
  });
});

describe('the help form store', () => {
  beforeEach(() => {
    resetHelp();
    portalMock.mockReset();
  });

  afterEach(() => {
    resetHelp();
  });

  function fill(values: Partial<typeof VALID>): void {
    for (const [field, value] of Object.entries({ ...VALID, ...values })) {
      setHelpValue(field as keyof typeof VALID, value as never);
    }
  }

  it('sends a valid request with the honeypot and shows the reference', async () => {
    portalMock.mockResolvedValue({ id: 'id-1', reference: 'HC-ABCDEFGH' });
    fill({});
    await submitHelp('');
    expect(portalMock).toHaveBeenCalledWith('help/request', {
      method: 'POST',
      body: { ...VALID, website: '' },
    });
    expect($helpForm.get()).toMatchObject({ status: 'sent', reference: 'HC-ABCDEFGH' });
  });

  it('names every wrong field, sends nothing and keeps what was typed', async () => {
    fill({ topic: '', message: 'short' });
    await submitHelp();
    expect(portalMock).not.toHaveBeenCalled();
    const state = $helpForm.get();
    expect(state.errors).toEqual({ topic: HELP_TOPIC_MESSAGE, message: HELP_MESSAGE_TOO_SHORT_MESSAGE });
    expect(state.message).toBe(HELP_FIX_FIELDS_MESSAGE);
    expect(state.values.message).toBe('short');
    expect(state.attempt).toBe(1);
    setHelpValue('message', 'short but now long enough');
    expect($helpForm.get().errors).toEqual({ topic: HELP_TOPIC_MESSAGE });
  });

  it('shows the server’s field messages and its 429 in its own words, keeping the values', async () => {
    fill({});
    portalMock.mockRejectedValueOnce(
      new ApiError(400, 'email: bad', { issues: [{ path: 'email', message: EMAIL_MESSAGE }] }),
    );
    await submitHelp();
    expect($helpForm.get()).toMatchObject({ status: 'error', errors: { email: EMAIL_MESSAGE } });
    portalMock.mockRejectedValueOnce(new ApiError(429, 'Too many requests. Try again in 500 seconds.', {}));
    await submitHelp();
    expect($helpForm.get()).toMatchObject({
      status: 'error',
      message: 'Too many requests. Try again in 500 seconds.',
      values: VALID,
    });
  });

  it('says when the server cannot be reached or fails, and lets the visitor send again', async () => {
    fill({});
    portalMock.mockRejectedValueOnce(new ApiError(0, NETWORK_ERROR_MESSAGE, undefined));
    await submitHelp();
    expect($helpForm.get().message).toBe(NETWORK_ERROR_MESSAGE);
    portalMock.mockRejectedValueOnce(new ApiError(500, 'boom', {}));
    await submitHelp();
    expect($helpForm.get()).toMatchObject({ message: HELP_FAILED_MESSAGE, values: VALID });
    portalMock.mockResolvedValueOnce({ id: 'id-2', reference: 'HC-23456789' });
    await submitHelp();
    expect($helpForm.get().status).toBe('sent');
  });

  it('fills name and email from a signed-in account without overwriting what was typed', () => {
    setHelpValue('name', 'Typed Name');
    prefillHelp({
      ...EMPTY_USER,
      authenticated: true,
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
    });
    expect($helpForm.get().values).toMatchObject({ name: 'Typed Name', email: 'ada@example.com' });
    resetHelp();
    prefillHelp({ ...EMPTY_USER, authenticated: true, username: 'ada42', email: 'ada@example.com' });
    expect($helpForm.get().values).toMatchObject({ name: 'ada42', email: 'ada@example.com' });
    resetHelp();
    prefillHelp({ ...EMPTY_USER, authenticated: false, username: 'ada42', email: 'ada@example.com' });
    expect($helpForm.get().values).toMatchObject({ name: '', email: '' });
  });
});
