import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const apiMock = vi.hoisted(() => vi.fn());

vi.mock('../../src/lib/http.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/lib/http.ts')>();
  return { ...original, api: apiMock };
});

const { ApiError } = await import('../../src/lib/http.ts');
const { answerText, downloadFromUrl, fallbackText, toCsv, UNEXPECTED_ANSWER_MESSAGE } =
  await import('../../src/lib/download.ts');

describe('toCsv', () => {
  it('writes a header line of the column keys and one CRLF-terminated line per row', () => {
    const rows = [
      { date: '2026-01-02', close: 12.5 },
      { date: '2026-01-01', close: 12 },
    ];
    expect(toCsv(rows, ['date', 'close'])).toBe('date,close\r\n2026-01-02,12.5\r\n2026-01-01,12\r\n');
  });

  it('uses column labels as the header when given and keeps the column order', () => {
    expect(toCsv([{ a: 1, b: 2 }], [{ key: 'b', label: 'Bee' }, { key: 'a' }])).toBe('Bee,a\r\n2,1\r\n');
  });

  it('quotes fields holding commas, quotes or line breaks and doubles the quotes inside', () => {
    const rows = [{ name: 'Apple, Inc.', note: 'say "hi"', text: 'two\nlines', crlf: 'a\r\nb' }];
    expect(toCsv(rows, ['name', 'note', 'text', 'crlf'])).toBe(
      'name,note,text,crlf\r\n"Apple, Inc.","say ""hi""","two\nlines","a\r\nb"\r\n',
    );
  });

  it('quotes fields with leading or trailing spaces so they survive a round trip', () => {
    expect(toCsv([{ a: ' x', b: 'y ' }], ['a', 'b'])).toBe('a,b\r\n" x","y "\r\n');
  });

  it('writes missing, null and non-finite values as empty fields', () => {
    expect(toCsv([{ a: null, b: Number.NaN, c: Infinity }], ['a', 'b', 'c', 'd'])).toBe('a,b,c,d\r\n,,,\r\n');
  });

  it('writes only the header line when there are no rows', () => {
    expect(toCsv([], ['date', 'close'])).toBe('date,close\r\n');
  });

  it('writes nothing without columns', () => {
    expect(toCsv([{ a: 1 }], [])).toBe('');
  });

  it('quotes a header that needs it', () => {
    expect(toCsv([], [{ key: 'a', label: 'Price, USD' }])).toBe('"Price, USD"\r\n');
  });
});

describe('answerText', () => {
  it('re-serialises a parsed JSON answer', () => {
    expect(answerText('json', [{ a: 1 }])).toBe(JSON.stringify([{ a: 1 }], null, 2));
  });

  it('accepts JSON that arrived as text and refuses text that is not JSON', () => {
    expect(answerText('json', '[1,2]')).toBe(JSON.stringify([1, 2], null, 2));
    expect(answerText('json', '<html>')).toBeUndefined();
  });

  it('takes CSV and TXT answers only as text', () => {
    expect(answerText('csv', 'a,b\r\n')).toBe('a,b\r\n');
    expect(answerText('csv', { a: 1 })).toBeUndefined();
    expect(answerText('txt', 'hello')).toBe('hello');
  });
});

describe('fallbackText', () => {
  it('is an empty JSON array without fallback data', () => {
    expect(fallbackText('json', undefined)).toBe('[]');
  });

  it('is the CSV header alone without fallback rows', () => {
    expect(fallbackText('csv', undefined, ['date', 'close'])).toBe('date,close\r\n');
  });

  it('writes the supplied rows in the file format', () => {
    expect(fallbackText('csv', [{ date: '2026-01-02', close: 3 }], ['date', 'close'])).toBe(
      'date,close\r\n2026-01-02,3\r\n',
    );
    expect(JSON.parse(fallbackText('json', [{ a: 1 }]))).toEqual([{ a: 1 }]);
  });

  it('saves supplied text as it is', () => {
    expect(fallbackText('txt', 'plain words')).toBe('plain words');
  });
});

describe('downloadFromUrl', () => {
  const saved: { text: string; type: string; filename: string }[] = [];

  beforeEach(() => {
    saved.length = 0;
    apiMock.mockReset();
    let blob: Blob | undefined;
    vi.stubGlobal('URL', {
      createObjectURL: (value: Blob) => {
        blob = value;
        return 'blob:test';
      },
      revokeObjectURL: () => undefined,
    });
    const link = {
      href: '',
      download: '',
      rel: '',
      style: { display: '' },
      click: async () => {
        saved.push({ text: (await blob?.text()) ?? '', type: blob?.type ?? '', filename: link.download });
      },
      remove: () => undefined,
    };
    vi.stubGlobal('document', { createElement: () => link, body: { append: () => undefined } });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  async function settle(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }

  it('fetches the URL by GET and saves the answer under the file name', async () => {
    apiMock.mockResolvedValue('date,close\r\n2026-01-02,3\r\n');
    const result = await downloadFromUrl('/api/file?format=csv', { format: 'csv', filename: 'prices.csv' });
    await settle();
    expect(apiMock).toHaveBeenCalledWith('/api/file?format=csv', expect.objectContaining({ method: 'GET' }));
    expect(result).toEqual({ filename: 'prices.csv', usedFallback: false, error: '', status: 0 });
    expect(saved).toEqual([
      { text: 'date,close\r\n2026-01-02,3\r\n', type: 'text/csv;charset=utf-8', filename: 'prices.csv' },
    ]);
  });

  it('saves the supplied rows and reports the fallback when the request fails', async () => {
    apiMock.mockRejectedValue(new ApiError(500, 'Server trouble.', undefined));
    const result = await downloadFromUrl('/api/file', {
      format: 'json',
      filename: 'prices.json',
      fallback: [{ date: '2026-01-02', close: 3 }],
    });
    await settle();
    expect(result).toEqual({
      filename: 'prices.json',
      usedFallback: true,
      error: 'Server trouble.',
      status: 500,
    });
    expect(JSON.parse(saved[0]?.text ?? '')).toEqual([{ date: '2026-01-02', close: 3 }]);
  });

  it('saves an empty array when the request fails without fallback data', async () => {
    apiMock.mockRejectedValue(new Error('offline'));
    const result = await downloadFromUrl('/api/file', { format: 'json', filename: 'empty.json' });
    await settle();
    expect(result.usedFallback).toBe(true);
    expect(saved[0]?.text).toBe('[]');
  });

  it('treats an answer of the wrong shape as a failure', async () => {
    apiMock.mockResolvedValue({ not: 'csv' });
    const result = await downloadFromUrl('/api/file', { format: 'csv', filename: 'x.csv', columns: ['a'] });
    await settle();
    expect(result).toEqual({
      filename: 'x.csv',
      usedFallback: true,
      error: UNEXPECTED_ANSWER_MESSAGE,
      status: 0,
    });
    expect(saved[0]?.text).toBe('a\r\n');
  });
});
