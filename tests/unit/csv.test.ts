import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/lib/csv.ts';

describe('the CSV writer', () => {
  it('quotes fields holding a comma, a quote, a line feed or a carriage return (RFC 4180)', () => {
    const rows = [{ comma: 'a,b', quote: 'say "hi"', lf: 'a\nb', cr: 'a\rb', crlf: 'a\r\nb', plain: 'ab' }];
    expect(toCsv(rows, ['comma', 'quote', 'lf', 'cr', 'crlf', 'plain'])).toBe(
      'comma,quote,lf,cr,crlf,plain\r\n"a,b","say ""hi""","a\nb","a\rb","a\r\nb",ab\r\n',
    );
  });

  it.each(['=', '+', '-', '@', '\t', '\r'])(
    'neutralises a text cell starting with %j with a leading single quote',
    (prefix) => {
      const line = toCsv([{ cell: `${prefix}SUM(A1)` }], ['cell']).split('\r\n')[1] ?? '';
      const unquoted = line.startsWith('"') ? line.slice(1, -1) : line;
      expect(unquoted).toBe(`'${prefix}SUM(A1)`);
    },
  );

  it('writes the classic injection payload as inert text', () => {
    expect(toCsv([{ name: '=HYPERLINK("http://x","y")' }], ['name'])).toBe(
      'name\r\n"\'=HYPERLINK(""http://x"",""y"")"\r\n',
    );
  });

  it('leaves numbers as numbers, negative ones included', () => {
    expect(toCsv([{ change: -1.25, volume: 0, price: 12.5 }], ['change', 'volume', 'price'])).toBe(
      'change,volume,price\r\n-1.25,0,12.5\r\n',
    );
  });

  it('neutralises a header that would run as a formula', () => {
    expect(toCsv([], [{ key: 'a', label: '=cmd' }])).toBe("'=cmd\r\n");
  });

  it('writes booleans as true and false, dates in ISO 8601 and objects as JSON', () => {
    const rows = [{ flag: true, off: false, at: new Date(Date.UTC(2026, 0, 2)), extra: { a: 1 } }];
    expect(toCsv(rows, ['flag', 'off', 'at', 'extra'])).toBe(
      'flag,off,at,extra\r\ntrue,false,2026-01-02T00:00:00.000Z,"{""a"":1}"\r\n',
    );
  });
});
