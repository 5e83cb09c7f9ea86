import { describe, expect, it } from 'vitest';
import {
  dupontRow,
  dupontRows,
  ratioOrNull,
  type DupontInput,
} from '../../src/server/symbol-pages/dupont.ts';

/**
 * Worked by hand: revenue 1,000, EBIT 150, pre-tax income 125, net income 100, total assets 2,000,
 * equity 800.
 * Three-step: 100/1,000 = 0.10 × 1,000/2,000 = 0.50 × 2,000/800 = 2.5 → 0.125.
 * Five-step: 100/125 = 0.80 × 125/150 = 0.8333… × 150/1,000 = 0.15 × 0.50 × 2.5 → 0.125.
 * ROE: 100/800 = 0.125.
 */
const example: DupontInput = {
  date: '2024-12-31',
  fiscalYear: '2024',
  period: 'FY',
  income: { revenue: 1000, netIncome: 100, incomeBeforeTax: 125, ebit: 150 },
  balance: { totalAssets: 2000, totalStockholdersEquity: 800 },
};

describe('dupontRow', () => {
  it('splits ROE into net margin, asset turnover and equity multiplier', () => {
    const row = dupontRow(example);
    expect(row.threeStep.netProfitMargin).toBeCloseTo(0.1, 12);
    expect(row.threeStep.assetTurnover).toBeCloseTo(0.5, 12);
    expect(row.threeStep.equityMultiplier).toBeCloseTo(2.5, 12);
    expect(row.threeStep.product).toBeCloseTo(0.125, 12);
  });

  it('splits the net margin into tax burden, interest burden and EBIT margin', () => {
    const row = dupontRow(example);
    expect(row.fiveStep.taxBurden).toBeCloseTo(0.8, 12);
    expect(row.fiveStep.interestBurden).toBeCloseTo(125 / 150, 12);
    expect(row.fiveStep.ebitMargin).toBeCloseTo(0.15, 12);
    expect(row.fiveStep.assetTurnover).toBeCloseTo(0.5, 12);
    expect(row.fiveStep.equityMultiplier).toBeCloseTo(2.5, 12);
    expect(row.fiveStep.product).toBeCloseTo(0.125, 12);
  });

  it('computes ROE directly from net income and year-end equity and confirms both products match it', () => {
    const row = dupontRow(example);
    expect(row.returnOnEquity).toBeCloseTo(0.125, 12);
    expect(row.matches).toBe(true);
  });

  it('keeps the period it was given', () => {
    const row = dupontRow(example);
    expect([row.date, row.fiscalYear, row.period]).toEqual(['2024-12-31', '2024', 'FY']);
  });

  it('reproduces a negative ROE from a loss', () => {
    const row = dupontRow({
      ...example,
      income: { ...example.income, netIncome: -40, incomeBeforeTax: -50 },
    });
    expect(row.returnOnEquity).toBeCloseTo(-0.05, 12);
    expect(row.threeStep.product).toBeCloseTo(-0.05, 12);
    expect(row.fiveStep.product).toBeCloseTo(-0.05, 12);
    expect(row.matches).toBe(true);
  });

  it('leaves a factor with a zero denominator missing, and the product and the check with it', () => {
    const row = dupontRow({ ...example, income: { ...example.income, ebit: 0 } });
    expect(row.fiveStep.interestBurden).toBeNull();
    expect(row.fiveStep.ebitMargin).toBe(0);
    expect(row.fiveStep.product).toBeNull();
    expect(row.threeStep.product).toBeCloseTo(0.125, 12);
    expect(row.matches).toBeNull();
  });

  it('has no ROE and no equity multiplier when equity is zero', () => {
    const row = dupontRow({ ...example, balance: { totalAssets: 2000, totalStockholdersEquity: 0 } });
    expect(row.returnOnEquity).toBeNull();
    expect(row.threeStep.equityMultiplier).toBeNull();
    expect(row.matches).toBeNull();
  });
});

describe('dupontRows', () => {
  it('returns one breakdown per period in the order given', () => {
    const older = { ...example, date: '2023-12-31', fiscalYear: '2023' };
    expect(dupontRows([example, older]).map((row) => row.fiscalYear)).toEqual(['2024', '2023']);
  });
});

describe('ratioOrNull', () => {
  it('returns null instead of Infinity or NaN', () => {
    expect(ratioOrNull(1, 0)).toBeNull();
    expect(ratioOrNull(Number.NaN, 2)).toBeNull();
    expect(ratioOrNull(3, 2)).toBe(1.5);
  });
});
