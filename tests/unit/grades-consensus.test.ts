import { describe, expect, it } from 'vitest';
import {
  consensusOf,
  gradesConsensusOf,
  recommendationOf,
} from '../../src/server/services/market-data/analysts.ts';

const none = { strongBuy: 0, buy: 0, hold: 0, sell: 0, strongSell: 0 };

describe('the recommendations consensus', () => {
  it('counts brokers’ different words for the same opinion in one bucket', () => {
    expect(recommendationOf('Overweight')).toBe('buy');
    expect(recommendationOf('OUTPERFORM')).toBe('buy');
    expect(recommendationOf(' Equal  Weight ')).toBe('hold');
    expect(recommendationOf('Underweight')).toBe('sell');
    expect(recommendationOf('Strong Buy')).toBe('strongBuy');
    expect(recommendationOf('Moderate Buy')).toBe('buy');
    expect(recommendationOf('In Line')).toBe('hold');
    expect(recommendationOf('Speculative')).toBeUndefined();
  });

  it('rounds the mean score half up to a bucket', () => {
    expect(consensusOf({ ...none, strongBuy: 1, buy: 1 })).toBe('Strong Buy'); // 4.5
    expect(consensusOf({ ...none, buy: 1, hold: 1 })).toBe('Buy'); // 3.5
    expect(consensusOf({ ...none, buy: 2, hold: 3 })).toBe('Hold'); // 3.4
    expect(consensusOf({ ...none, hold: 1, sell: 1 })).toBe('Hold'); // 2.5
    expect(consensusOf({ ...none, sell: 1, strongSell: 1 })).toBe('Sell'); // 1.5
    expect(consensusOf({ ...none, strongSell: 3, sell: 1 })).toBe('Strong Sell'); // 1.25
    expect(consensusOf(none)).toBeUndefined();
  });

  it('counts each broker once, by its latest rating of the past year', () => {
    const rows = gradesConsensusOf(
      'MSFT',
      [
        { date: '2026-10-01', gradingCompany: 'A', newGrade: 'Buy' },
        { date: '2026-03-01', gradingCompany: 'A', newGrade: 'Sell' },
        { date: '2026-06-01', gradingCompany: 'B', newGrade: 'Neutral' },
        { date: '2025-11-19', gradingCompany: 'C', newGrade: 'Strong Sell' },
        { date: '2026-11-21', gradingCompany: 'D', newGrade: 'Strong Buy' },
      ],
      '2026-11-20',
    );
    expect(rows).toEqual([
      { symbol: 'MSFT', strongBuy: 0, buy: 1, hold: 1, sell: 0, strongSell: 0, consensus: 'Buy' },
    ]);
  });

  it('answers no row, not zeros, when nobody rated the symbol in the past year', () => {
    expect(
      gradesConsensusOf('XYZ', [{ date: '2024-01-01', gradingCompany: 'A', newGrade: 'Buy' }], '2026-11-20'),
    ).toEqual([]);
  });
});
