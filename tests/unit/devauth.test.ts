import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  formatUserCode,
  isWellFormedUserCode,
  normalizeUserCode,
  USER_CODE_ALPHABET,
  USER_CODE_FORMAT_MESSAGE,
  USER_CODE_INVALID_MESSAGE,
  USER_CODE_LENGTH,
} from '../../src/lib/user-code.ts';
import {
  deviceCodeDigest,
  generateUserCode,
  userCodeDigest,
} from '../../src/server/services/device-codes.ts';

const apiMock = vi.hoisted(() => vi.fn());

vi.mock('../../src/lib/http.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/lib/http.ts')>();
  return { ...original, api: apiMock };
});

const { ApiError, NETWORK_ERROR_MESSAGE } = await import('../../src/lib/http.ts');
const { $auth } = await import('../../src/lib/stores/auth.ts');
const {
  $devauth,
  approveDevice,
  denyDevice,
  EMPTY_CODE_MESSAGE,
  lookUpDevice,
  resetDevauth,
  setDevauthCode,
  SIGN_IN_AGAIN_MESSAGE,
  startDevauth,
} = await import('../../src/lib/stores/devauth.ts');

const INITIAL_AUTH = $auth.get();
const DEVICE = {
  client_name: 'Tickerlake CLI',
  created_at: '2025-01-01T10:00:00.000Z',
  expires_at: '2025-01-01T10:10:00.000Z',
};

describe('user codes', () => {
  it('use only unambiguous consonants', () => {
    expect(USER_CODE_ALPHABET).toBe('BCDFGHJKLMNPQRSTVWXZ');
    expect(USER_CODE_ALPHABET).not.toMatch(/[AEIOUY0-9]/);
    expect(new Set(USER_CODE_ALPHABET).size).toBe(USER_CODE_ALPHABET.length);
  });

  it('are generated as eight letters of the alphabet, drawn without bias', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = generateUserCode();
      expect(code).toHaveLength(USER_CODE_LENGTH);
      expect(isWellFormedUserCode(code)).toBe(true);
    }
    const draws: number[] = [];
    const code = generateUserCode((max) => {
      draws.push(max);
      return draws.length - 1;
    });
    expect(code).toBe('BCDFGHJK');
    expect(draws).toEqual(Array<number>(USER_CODE_LENGTH).fill(USER_CODE_ALPHABET.length));
  });

  it('differ from one draw to the next', () => {
    const codes = new Set(Array.from({ length: 100 }, () => generateUserCode()));
    expect(codes.size).toBe(100);
  });

  it.each([
    ['bcdf-ghjk', 'BCDFGHJK'],
    [' BCDF GHJK ', 'BCDFGHJK'],
    ['bcdfghjk', 'BCDFGHJK'],
    ['BCDF–GHJK', 'BCDFGHJK'],
    ['BC-DF-GH-JK', 'BCDFGHJK'],
    ['\tbcdf\n-ghjk', 'BCDFGHJK'],
  ])('normalise %j to %j', (typed, normalized) => {
    expect(normalizeUserCode(typed)).toBe(normalized);
    expect(isWellFormedUserCode(normalizeUserCode(typed))).toBe(true);
  });

  it.each(['', 'BCDFGHJ', 'BCDFGHJKL', 'ABCDEFGH', 'BCDF0HJK', 'bcdfghjk'])(
    'recognise %j as not a code (before normalising, lower case is not)',
    (value) => {
      expect(isWellFormedUserCode(value)).toBe(false);
    },
  );

  it('are shown as two groups of four, and anything else as typed, normalised', () => {
    expect(formatUserCode('bcdfghjk')).toBe('BCDF-GHJK');
    expect(formatUserCode('bcd-f')).toBe('BCDF');
    expect(formatUserCode('aeiou')).toBe('AEIOU');
  });

  it('survive formatting and normalising in any order', () => {
    const letter = fc.constantFrom(...USER_CODE_ALPHABET.split(''));
    fc.assert(
      fc.property(fc.array(letter, { minLength: 8, maxLength: 8 }), (letters) => {
        const code = letters.join('');
        expect(normalizeUserCode(formatUserCode(code.toLowerCase()))).toBe(code);
        expect(formatUserCode(formatUserCode(code))).toBe(formatUserCode(code));
      }),
    );
  });

  it('are stored as digests keyed by the server secret, the device code as a plain hash', () => {
    const digest = userCodeDigest('BCDFGHJK', { secret: 'first-secret-of-at-least-32-chars' });
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(userCodeDigest('BCDFGHJK', { secret: 'first-secret-of-at-least-32-chars' })).toBe(digest);
    expect(userCodeDigest('BCDFGHJK', { secret: 'other-secret-of-at-least-32-chars' })).not.toBe(digest);
    expect(userCodeDigest('BCDFGHJL', { secret: 'first-secret-of-at-least-32-chars' })).not.toBe(digest);
    expect(deviceCodeDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('the /devauth page state', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    apiMock.mockReset();
    $auth.set({ ...INITIAL_AUTH });
    resetDevauth();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes the code from the link the tool printed, formatted', () => {
    startDevauth('?code=bcdfghjk');
    expect($devauth.get()).toMatchObject({ step: 'enter', code: 'BCDF-GHJK' });
  });

  it('keeps a code the visitor already typed over the one in the link', () => {
    setDevauthCode('ZZZZ');
    startDevauth('?code=bcdfghjk');
    expect($devauth.get().code).toBe('ZZZZ');
  });

  it('asks for a code before calling the server, and says what a code looks like', async () => {
    await lookUpDevice();
    expect($devauth.get()).toMatchObject({ step: 'enter', message: EMPTY_CODE_MESSAGE });
    expect($auth.get().flashMessage).toEqual({ type: 'error', text: EMPTY_CODE_MESSAGE });
    setDevauthCode('BCD');
    expect($devauth.get().message).toBe('');
    await lookUpDevice();
    expect($devauth.get().message).toBe(USER_CODE_FORMAT_MESSAGE);
    expect(apiMock).not.toHaveBeenCalled();
  });

  it('looks the code up and names the tool that asks', async () => {
    apiMock.mockResolvedValueOnce(DEVICE);
    setDevauthCode(' bcdf ghjk ');
    const pending = lookUpDevice();
    expect($devauth.get()).toMatchObject({ step: 'looking-up', code: 'BCDF-GHJK' });
    await pending;
    expect(apiMock).toHaveBeenCalledWith('/api/devauth/device', { query: { user_code: 'BCDF-GHJK' } });
    expect($devauth.get()).toMatchObject({
      step: 'confirm',
      clientName: 'Tickerlake CLI',
      expiresAt: DEVICE.expires_at,
      message: '',
    });
  });

  it('shows the server words for an unknown or expired code and lets the visitor type another', async () => {
    apiMock.mockRejectedValueOnce(new ApiError(404, USER_CODE_INVALID_MESSAGE, {}));
    setDevauthCode('BCDF-GHJK');
    await lookUpDevice();
    expect($devauth.get()).toMatchObject({ step: 'enter', message: USER_CODE_INVALID_MESSAGE });
    expect($auth.get().flashMessage?.text).toBe(USER_CODE_INVALID_MESSAGE);
  });

  it('explains an unreachable server and an ended session in plain words', async () => {
    setDevauthCode('BCDF-GHJK');
    apiMock.mockRejectedValueOnce(new ApiError(0, NETWORK_ERROR_MESSAGE, undefined));
    await lookUpDevice();
    expect($devauth.get().message).toBe(NETWORK_ERROR_MESSAGE);
    apiMock.mockRejectedValueOnce(new ApiError(401, 'Please sign in.', {}));
    await lookUpDevice();
    expect($devauth.get().message).toBe(SIGN_IN_AGAIN_MESSAGE);
  });

  it('approves the request and reaches the done state', async () => {
    apiMock.mockResolvedValueOnce(DEVICE).mockResolvedValueOnce({ status: 'approved' });
    setDevauthCode('BCDF-GHJK');
    await lookUpDevice();
    const pending = approveDevice();
    expect($devauth.get()).toMatchObject({ step: 'answering', answering: 'approve' });
    await pending;
    expect(apiMock).toHaveBeenLastCalledWith('/api/devauth/approve', {
      method: 'POST',
      body: { user_code: 'BCDF-GHJK' },
    });
    expect($devauth.get()).toMatchObject({ step: 'approved', clientName: 'Tickerlake CLI', answering: null });
  });

  it('denies the request', async () => {
    apiMock.mockResolvedValueOnce(DEVICE).mockResolvedValueOnce({ status: 'denied' });
    setDevauthCode('BCDF-GHJK');
    await lookUpDevice();
    await denyDevice();
    expect(apiMock).toHaveBeenLastCalledWith('/api/devauth/deny', {
      method: 'POST',
      body: { user_code: 'BCDF-GHJK' },
    });
    expect($devauth.get().step).toBe('denied');
  });

  it('goes back to typing a code when it expired before the answer arrived', async () => {
    apiMock
      .mockResolvedValueOnce(DEVICE)
      .mockRejectedValueOnce(new ApiError(404, USER_CODE_INVALID_MESSAGE, {}));
    setDevauthCode('BCDF-GHJK');
    await lookUpDevice();
    await approveDevice();
    expect($devauth.get()).toMatchObject({
      step: 'enter',
      clientName: '',
      message: USER_CODE_INVALID_MESSAGE,
    });
  });

  it('stays on the question when answering fails for another reason, so it can be retried', async () => {
    apiMock
      .mockResolvedValueOnce(DEVICE)
      .mockRejectedValueOnce(
        new ApiError(503, 'The service is temporarily unavailable. Please try again shortly.', {}),
      );
    setDevauthCode('BCDF-GHJK');
    await lookUpDevice();
    await approveDevice();
    expect($devauth.get()).toMatchObject({
      step: 'confirm',
      answering: null,
      message: 'The service is temporarily unavailable. Please try again shortly.',
    });
  });

  it('ignores answers while nothing has been looked up', async () => {
    await approveDevice();
    await denyDevice();
    expect(apiMock).not.toHaveBeenCalled();
    expect($devauth.get().step).toBe('enter');
  });
});
