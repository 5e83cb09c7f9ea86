import { safeHttpUrl } from '../../src/lib/safe-url.ts';
import { describe, expect, it } from 'vitest';
import {
  calendarDate,
  countryName,
  excerpt,
  perShareDigits,
  postalAddress,
  splitRatio,
  surprisePercent,
  upsidePercent,
} from '../../src/server/symbol-pages/company-view.ts';

describe('excerpt', () => {
  it('keeps a short text whole', () => {
    expect(excerpt('Makes phones.', 300)).toBe('Makes phones.');
  });

  it('cuts a long text at a word boundary and adds an ellipsis', () => {
    const text = 'alpha beta gamma delta epsilon';
    expect(excerpt(text, 13)).toBe('alpha beta…');
  });
});

describe('splitRatio', () => {
  it('reads a forward split as new-for-old shares', () => {
    expect(splitRatio(4, 1)).toBe('4-for-1');
  });

  it('reads a reverse split with the old shares last', () => {
    expect(splitRatio(1, 10)).toBe('1-for-10');
  });
});

describe('surprisePercent', () => {
  it('is positive when the actual beats the estimate', () => {
    expect(surprisePercent(1.1, 1)).toBeCloseTo(10);
  });

  it('measures against the size of a negative estimate', () => {
    expect(surprisePercent(-0.5, -1)).toBeCloseTo(50);
  });

  it('is unknown before the report or against a zero estimate', () => {
    expect(surprisePercent(null, 1)).toBeUndefined();
    expect(surprisePercent(1, 0)).toBeUndefined();
  });
});

describe('upsidePercent', () => {
  it('is the move from the price to the target in percent', () => {
    expect(upsidePercent(120, 100)).toBeCloseTo(20);
  });

  it('is unknown without a price', () => {
    expect(upsidePercent(120, undefined)).toBeUndefined();
    expect(upsidePercent(120, 0)).toBeUndefined();
  });
});

describe('calendarDate', () => {
  it('keeps the calendar day in the local time zone', () => {
    const date = calendarDate('2024-03-05');
    expect([date.getFullYear(), date.getMonth(), date.getDate()]).toEqual([2024, 2, 5]);
  });

  it('is an invalid date for empty text', () => {
    expect(Number.isNaN(calendarDate('').getTime())).toBe(true);
  });
});

describe('perShareDigits', () => {
  it('shows cents at least and up to four decimals', () => {
    expect(perShareDigits(0.25)).toBe(2);
    expect(perShareDigits(0.802)).toBe(3);
    expect(perShareDigits(0.24751)).toBe(4);
  });
});

describe('safeHttpUrl', () => {
  it('accepts web addresses and adds a missing scheme', () => {
    expect(safeHttpUrl('https://www.apple.com')).toBe('https://www.apple.com/');
    expect(safeHttpUrl('apple.com')).toBe('https://apple.com/');
  });

  it('refuses other schemes and empty text', () => {
    expect(safeHttpUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeHttpUrl('  ')).toBeUndefined();
  });
});

describe('postalAddress', () => {
  it('joins the parts and leaves out blank ones', () => {
    expect(
      postalAddress({
        address: 'One Apple Park Way',
        city: 'Cupertino',
        state: 'CA',
        zip: '95014',
        country: '',
      }),
    ).toBe('One Apple Park Way, Cupertino, CA 95014');
  });
});

describe('countryName', () => {
  it('names a country from its two-letter code', () => {
    expect(countryName('US')).toBe('United States');
  });

  it('leaves text that is not a code unchanged', () => {
    expect(countryName('Atlantis')).toBe('Atlantis');
  });
});
