import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  COMPANY_REQUIRED_MESSAGE,
  COMPANY_SIZE_MESSAGE,
  COMPANY_SIZES,
  COMPANY_TOO_LONG_MESSAGE,
  CONSENT_MESSAGE,
  JOB_TITLE_TOO_LONG_MESSAGE,
  MESSAGE_CHARACTERS_MESSAGE,
  MESSAGE_REQUIRED_MESSAGE,
  MESSAGE_TOO_LONG_MESSAGE,
  MESSAGE_TOO_SHORT_MESSAGE,
  NAME_CHARACTERS_MESSAGE,
  NAME_REQUIRED_MESSAGE,
  NAME_TOO_LONG_MESSAGE,
  WORK_EMAIL_REQUIRED_MESSAGE,
  enquiryFieldErrors,
  enterpriseEnquirySchema,
} from '../../src/lib/enterprise-schema.ts';
import { EMAIL_TOO_LONG_MESSAGE } from '../../src/lib/form-rules.ts';
import { EMAIL_MESSAGE } from '../../src/lib/messages.ts';

const portalMock = vi.hoisted(() => vi.fn());

vi.mock('../../src/lib/http.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/lib/http.ts')>();
  return { ...original, portal: portalMock };
});

const { ApiError, NETWORK_ERROR_MESSAGE } = await import('../../src/lib/http.ts');
const { $auth } = await import('../../src/lib/stores/auth.ts');
const { EMPTY_USER } = await import('../../src/lib/stores/user.ts');
const {
  $enterpriseForm,
  ENQUIRY_FAILED_MESSAGE,
  FIX_FIELDS_MESSAGE,
  prefillEnquiry,
  resetEnquiry,
  setEnquiryValue,
  submitEnquiry,
} = await import('../../src/lib/stores/enterprise.ts');

const VALID = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  company: 'Analytical Engines Ltd',
  jobTitle: 'Head of Data',
  companySize: '51-200',
  message: 'We want to display end-of-day prices in our client portal.',
  consent: true,
};

/** The messages of a parse, keyed by field; {} when the enquiry was accepted. */
function errorsOf(input: Record<string, unknown>): Record<string, string> {
  const result = enterpriseEnquirySchema.safeParse(input);
  return result.success ? {} : enquiryFieldErrors(result.error.issues);
}

describe('the enterprise enquiry rules', () => {
  it('accept a complete enquiry, trimming text and lower-casing the email', () => {
    const result = enterpriseEnquirySchema.parse({
      ...VALID,
      name: '  Ada Lovelace ',
      email: ' Ada@Example.COM ',
      jobTitle: undefined,
    });
    expect(result).toEqual({
      ...VALID,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      jobTitle: '',
    });
  });

  it('accept every company size the form offers', () => {
    for (const { value } of COMPANY_SIZES) {
      expect(errorsOf({ ...VALID, companySize: value }), value).toEqual({});
    }
  });

  it.each([
    ['name', '   ', NAME_REQUIRED_MESSAGE],
    ['name', 'a'.repeat(101), NAME_TOO_LONG_MESSAGE],
    ['name', 'Ada\u0000Lovelace', NAME_CHARACTERS_MESSAGE],
    ['email', '', WORK_EMAIL_REQUIRED_MESSAGE],
    ['email', 'ada-at-example.com', EMAIL_MESSAGE],
    ['email', `${'a'.repeat(250)}@example.com`, EMAIL_TOO_LONG_MESSAGE],
    ['company', '', COMPANY_REQUIRED_MESSAGE],
    ['company', 'c'.repeat(121), COMPANY_TOO_LONG_MESSAGE],
    ['jobTitle', 't'.repeat(101), JOB_TITLE_TOO_LONG_MESSAGE],
    ['companySize', '', COMPANY_SIZE_MESSAGE],
    ['companySize', 'huge', COMPANY_SIZE_MESSAGE],
    ['message', '  ', MESSAGE_REQUIRED_MESSAGE],
    ['message', 'Prices, please.', MESSAGE_TOO_SHORT_MESSAGE],
    ['message', 'm'.repeat(5001), MESSAGE_TOO_LONG_MESSAGE],
    ['message', 'We need prices\u0007 for our portal.', MESSAGE_CHARACTERS_MESSAGE],
    ['consent', false, CONSENT_MESSAGE],
  ])('refuse %s = %j with its own message', (field, value, message) => {
    expect(errorsOf({ ...VALID, [field]: value })).toEqual({ [field]: message });
  });

  it('count characters as people do, so emoji do not use up the limits twice', () => {
    expect(errorsOf({ ...VALID, name: '📈'.repeat(100) })).toEqual({});
    expect(errorsOf({ ...VALID, name: '📈'.repeat(101) })).toEqual({ name: NAME_TOO_LONG_MESSAGE });
  });

  it('let a message keep its line breaks and tabs', () => {
    expect(errorsOf({ ...VALID, message: 'Line one of our use case\r\n\tand line two.' })).toEqual({});
  });

  it('report every wrong field of an empty form at once, one message each', () => {
    expect(
      errorsOf({
        name: '',
        email: '',
        company: '',
        jobTitle: '',
        companySize: '',
        message: '',
        consent: false,
      }),
    ).toEqual({
      name: NAME_REQUIRED_MESSAGE,
      email: WORK_EMAIL_REQUIRED_MESSAGE,
      company: COMPANY_REQUIRED_MESSAGE,
      companySize: COMPANY_SIZE_MESSAGE,
      message: MESSAGE_REQUIRED_MESSAGE,
      consent: CONSENT_MESSAGE,
    });
  });

  it('read field messages from the accounts API issues as well as from zod', () => {
    expect(
      enquiryFieldErrors([
        { path: 'company', message: COMPANY_REQUIRED_MESSAGE },
        { path: 'company', message: 'a later message' },
        { path: 'website', message: 'not a visible field' },
      ]),
    ).toEqual({ company: COMPANY_REQUIRED_MESSAGE });
  });

  it('refuse fields the form does not have', () => {
    expect(enterpriseEnquirySchema.safeParse({ ...VALID, phone: '123' }).success).toBe(false);
  });
});

describe('the enterprise form store', () => {
  const fill = (): void => {
    for (const [field, value] of Object.entries(VALID)) {
      setEnquiryValue(field as keyof typeof VALID, value as never);
    }
  };

  beforeEach(() => {
    resetEnquiry();
    portalMock.mockReset();
    $auth.setKey('flashMessage', null);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows every field problem without sending, keeping what was typed', async () => {
    setEnquiryValue('name', 'Ada');
    setEnquiryValue('message', 'Too short');
    await submitEnquiry();
    const state = $enterpriseForm.get();
    expect(portalMock).not.toHaveBeenCalled();
    expect(state.status).toBe('error');
    expect(state.message).toBe(FIX_FIELDS_MESSAGE);
    expect(state.errors).toMatchObject({
      email: WORK_EMAIL_REQUIRED_MESSAGE,
      message: MESSAGE_TOO_SHORT_MESSAGE,
    });
    expect(state.errors.name).toBeUndefined();
    expect(state.values).toMatchObject({ name: 'Ada', message: 'Too short' });
    expect(state.attempt).toBe(1);
  });

  it('clears a field message as soon as the visitor changes that field', async () => {
    await submitEnquiry();
    expect($enterpriseForm.get().errors.name).toBe(NAME_REQUIRED_MESSAGE);
    setEnquiryValue('name', 'A');
    expect($enterpriseForm.get().errors.name).toBeUndefined();
    expect($enterpriseForm.get().errors.company).toBe(COMPANY_REQUIRED_MESSAGE);
  });

  it('sends the checked enquiry with the honeypot and shows the thank-you state', async () => {
    portalMock.mockResolvedValue({ id: 'enquiry-1' });
    fill();
    setEnquiryValue('email', ' Ada@Example.com ');
    await submitEnquiry('');
    expect(portalMock).toHaveBeenCalledWith('enterprise/enquiry', {
      method: 'POST',
      body: { ...VALID, website: '' },
    });
    expect($enterpriseForm.get().status).toBe('sent');
  });

  it('shows the fields the server refused next to them, keeping the values', async () => {
    portalMock.mockRejectedValue(
      new ApiError(400, `company: ${COMPANY_REQUIRED_MESSAGE}`, {
        error: `company: ${COMPANY_REQUIRED_MESSAGE}`,
        field: 'company',
        issues: [{ path: 'company', message: COMPANY_REQUIRED_MESSAGE }],
      }),
    );
    fill();
    await submitEnquiry();
    const state = $enterpriseForm.get();
    expect(state.errors).toEqual({ company: COMPANY_REQUIRED_MESSAGE });
    expect(state.message).toBe(FIX_FIELDS_MESSAGE);
    expect(state.values.company).toBe(VALID.company);
  });

  it.each([
    [new ApiError(0, NETWORK_ERROR_MESSAGE, undefined), NETWORK_ERROR_MESSAGE],
    [new ApiError(503, 'The service is temporarily unavailable.', {}), ENQUIRY_FAILED_MESSAGE],
    [
      new ApiError(429, 'Too many requests. Try again in 540 seconds.', {}),
      'Too many requests. Try again in 540 seconds.',
    ],
    [new Error('boom'), ENQUIRY_FAILED_MESSAGE],
  ])('explains a failed request (%s) inline and as a flash, keeping the values', async (error, message) => {
    portalMock.mockRejectedValue(error);
    fill();
    await submitEnquiry();
    const state = $enterpriseForm.get();
    expect(state.status).toBe('error');
    expect(state.message).toBe(message);
    expect(state.values).toMatchObject({ name: VALID.name, message: VALID.message, consent: true });
    expect($auth.get().flashMessage).toEqual({ type: 'error', text: message });
  });

  it("fills a signed-in visitor's name and email, never over what they typed", () => {
    const user = {
      ...EMPTY_USER,
      authenticated: true,
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@example.com',
    };
    setEnquiryValue('email', 'work@example.com');
    prefillEnquiry(user);
    expect($enterpriseForm.get().values).toMatchObject({ name: 'Ada Lovelace', email: 'work@example.com' });
    prefillEnquiry({ ...user, authenticated: false, firstname: 'Someone' });
    expect($enterpriseForm.get().values.name).toBe('Ada Lovelace');
  });

  it('uses the username when the account has no real name, and nothing for signed-out visitors', () => {
    prefillEnquiry({ ...EMPTY_USER, authenticated: false, username: 'ghost', email: 'g@example.com' });
    expect($enterpriseForm.get().values).toMatchObject({ name: '', email: '' });
    prefillEnquiry({ ...EMPTY_USER, authenticated: true, username: 'ada', email: 'ada@example.com' });
    expect($enterpriseForm.get().values).toMatchObject({ name: 'ada', email: 'ada@example.com' });
  });
});
