import { afterEach, describe, expect, it } from 'vitest';
import { registerExcelFunctions } from '../../src/lib/spreadsheet/excel-runtime.ts';
import { memoryKeyStore } from '../../src/lib/spreadsheet/key-store.ts';
import { functionsMetadata } from '../../src/lib/spreadsheet/metadata.ts';

/** Excel's custom-functions runtime as far as the entry uses it: associate, and the error type. */
class FakeExcelError {
  readonly code: string;
  readonly message: string | undefined;
  constructor(code: string, message?: string) {
    this.code = code;
    this.message = message;
  }
}

const holder = globalThis as { CustomFunctions?: unknown };

afterEach(() => {
  delete holder.CustomFunctions;
});

function fakeExcel(): Map<string, (...args: unknown[]) => Promise<unknown>> {
  const associated = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  holder.CustomFunctions = {
    Error: FakeExcelError,
    associate: (id: string, fn: (...args: unknown[]) => Promise<unknown>) => associated.set(id, fn),
  };
  return associated;
}

const answering =
  (status: number, body: unknown): typeof fetch =>
  () =>
    Promise.resolve(Response.json(body, { status }));

describe('the Excel entry', () => {
  it('does nothing outside Excel', () => {
    expect(registerExcelFunctions({ baseUrl: 'http://api.test' })).toBe(false);
  });

  it('registers every function under its functions.json id', () => {
    const associated = fakeExcel();
    expect(registerExcelFunctions({ baseUrl: 'http://api.test', keys: memoryKeyStore() })).toBe(true);
    expect([...associated.keys()]).toEqual(functionsMetadata('https://x.test').functions.map((fn) => fn.id));
  });

  it('answers values, and turns refusals into Excel errors with their code and message', async () => {
    const keys = memoryKeyStore({ apiKey: 'k', email: 'a@example.com', plan: 'free' });
    let associated = fakeExcel();
    registerExcelFunctions({ baseUrl: 'http://api.test', keys, fetch: answering(200, [{ price: 12.5 }]) });
    expect(await associated.get('QUOTE')?.('AAPL', null)).toBe(12.5);

    associated = fakeExcel();
    const message =
      'Your Free plan does not cover the symbol X. It is included in the Starter plan and above.';
    registerExcelFunctions({
      baseUrl: 'http://api.test',
      keys,
      fetch: answering(402, { 'Error Message': message }),
    });
    await expect(associated.get('QUOTE')?.('X', null)).rejects.toEqual(
      new FakeExcelError('notAvailable', message),
    );
    await expect(associated.get('STATEMENT')?.('X', 'nope', null, null)).rejects.toMatchObject({
      code: 'invalidValue',
    });
  });
});
