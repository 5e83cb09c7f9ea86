import { describe, expect, it } from 'vitest';
import {
  assetComposition,
  balanceSheetRatios,
  daysInPeriod,
  formatShare,
  fundingComposition,
  intangiblesSchedule,
  operatingMetrics,
  percentChange,
  periodLabel,
  ppeRollForward,
  ratio,
  retainedEarningsRollForward,
} from '../../src/server/symbol-pages/statement-schedules.ts';
import { formatLineValue, lineLabel, statementLineRows } from '../../src/lib/statement-lines.ts';

const DASH = '–';

describe('period labels', () => {
  it('heads a fiscal year as FY and a quarter with its year', () => {
    expect(periodLabel('FY', '2025')).toBe('FY2025');
    expect(periodLabel('Q3', 2025)).toBe('Q3 2025');
  });

  it('counts 365 days in a fiscal year and a quarter of that in a quarter', () => {
    expect(daysInPeriod('FY')).toBe(365);
    expect(daysInPeriod('Q2')).toBe(91.25);
  });
});

describe('ratio and percent change', () => {
  it('has no ratio over a zero denominator', () => {
    expect(ratio(5, 0)).toBeNull();
    expect(ratio(5, 2)).toBe(2.5);
  });

  it('measures change in percent points against the size of the previous value', () => {
    expect(percentChange(120, 100)).toBeCloseTo(20);
    expect(percentChange(-50, -100)).toBeCloseTo(50);
    expect(percentChange(10, undefined)).toBeNull();
    expect(percentChange(10, 0)).toBeNull();
  });
});

describe('formatShare', () => {
  it('shows a fraction as an unsigned percent with two decimals', () => {
    expect(formatShare(0.4523)).toBe('45.23%');
    expect(formatShare(1)).toBe('100.00%');
  });

  it('shows the missing-value dash for a missing share', () => {
    expect(formatShare(null)).toBe(DASH);
    expect(formatShare(Number.NaN)).toBe(DASH);
  });
});

describe('retainedEarningsRollForward', () => {
  it('explains the change in retained earnings by net income, dividends and the remaining difference', () => {
    // 1,000 + 300 − 100 − 50 = 1,150
    const roll = retainedEarningsRollForward(
      {
        income: { netIncome: 300 },
        balance: { retainedEarnings: 1150 },
        cashFlow: { netDividendsPaid: -100 },
      },
      { retainedEarnings: 1000 },
    );
    expect(roll).toEqual({
      opening: 1000,
      netIncome: 300,
      dividendsPaid: 100,
      buybacksAndOther: 50,
      closing: 1150,
    });
  });

  it('has no opening balance or difference without a previous balance sheet', () => {
    const roll = retainedEarningsRollForward(
      {
        income: { netIncome: 300 },
        balance: { retainedEarnings: 1150 },
        cashFlow: { netDividendsPaid: -100 },
      },
      undefined,
    );
    expect(roll.opening).toBeNull();
    expect(roll.buybacksAndOther).toBeNull();
  });
});

describe('ppeRollForward', () => {
  it('explains the change in net PP&E by capex, depreciation and the remaining difference', () => {
    // 500 + 120 − 80 + (−10) = 530; capex is 120 / 2,400 = 5% of revenue
    const roll = ppeRollForward(
      {
        income: { revenue: 2400 },
        balance: { propertyPlantEquipmentNet: 530 },
        cashFlow: { capitalExpenditure: -120, depreciationAndAmortization: 80 },
      },
      { propertyPlantEquipmentNet: 500 },
    );
    expect(roll).toEqual({
      opening: 500,
      capex: 120,
      depreciation: 80,
      other: -10,
      closing: 530,
      capexToRevenue: 0.05,
    });
  });

  it('has no capex share without revenue', () => {
    const roll = ppeRollForward(
      {
        income: { revenue: 0 },
        balance: { propertyPlantEquipmentNet: 530 },
        cashFlow: { capitalExpenditure: -120, depreciationAndAmortization: 80 },
      },
      undefined,
    );
    expect(roll.capexToRevenue).toBeNull();
    expect(roll.other).toBeNull();
  });
});

describe('operatingMetrics', () => {
  const current = {
    income: {
      period: 'FY',
      revenue: 1000,
      costOfRevenue: 600,
      grossProfit: 400,
      operatingIncome: 150,
      netIncome: 100,
      researchAndDevelopmentExpenses: 50,
      sellingGeneralAndAdministrativeExpenses: 200,
    },
    balance: { netReceivables: 100, inventory: 60, accountPayables: 30 },
    cashFlow: {},
  };

  it('computes growth, margins and cost shares of revenue', () => {
    const metrics = operatingMetrics(current, { revenue: 800 }, 4);
    expect(metrics.revenueGrowth).toBeCloseTo(25);
    expect(metrics.grossMargin).toBeCloseTo(0.4);
    expect(metrics.operatingMargin).toBeCloseTo(0.15);
    expect(metrics.netMargin).toBeCloseTo(0.1);
    expect(metrics.researchToRevenue).toBeCloseTo(0.05);
    expect(metrics.sgaToRevenue).toBeCloseTo(0.2);
    expect(metrics.revenuePerEmployee).toBe(250);
  });

  it('computes working-capital days on period-end balances and the cash conversion cycle', () => {
    const metrics = operatingMetrics(current, undefined);
    // 100 / 1,000 × 365 = 36.5; 60 / 600 × 365 = 36.5; 30 / 600 × 365 = 18.25
    expect(metrics.daysSalesOutstanding).toBeCloseTo(36.5);
    expect(metrics.daysInventoryOutstanding).toBeCloseTo(36.5);
    expect(metrics.daysPayablesOutstanding).toBeCloseTo(18.25);
    expect(metrics.cashConversionCycle).toBeCloseTo(54.75);
  });

  it('leaves growth and revenue per employee missing without a previous period or a head count', () => {
    const metrics = operatingMetrics(current, undefined);
    expect(metrics.revenueGrowth).toBeNull();
    expect(metrics.revenuePerEmployee).toBeNull();
  });

  it('counts a quarter as a quarter of a year of days', () => {
    const quarter = { ...current, income: { ...current.income, period: 'Q1' } };
    expect(operatingMetrics(quarter, undefined).daysSalesOutstanding).toBeCloseTo(9.125);
  });

  it('has no inventory days and no cycle without cost of revenue', () => {
    const noCost = { ...current, income: { ...current.income, costOfRevenue: 0 } };
    const metrics = operatingMetrics(noCost, undefined);
    expect(metrics.daysInventoryOutstanding).toBeNull();
    expect(metrics.cashConversionCycle).toBeNull();
  });
});

describe('intangiblesSchedule', () => {
  it('reports the yearly change of goodwill and intangibles and their share of total assets', () => {
    const row = intangiblesSchedule(
      { goodwill: 110, intangibleAssets: 40, totalAssets: 1000 },
      { goodwill: 100, intangibleAssets: 50, totalAssets: 900 },
    );
    expect(row.goodwillChange).toBe(10);
    expect(row.goodwillChangePercent).toBeCloseTo(10);
    expect(row.intangiblesChange).toBe(-10);
    expect(row.intangiblesChangePercent).toBeCloseTo(-20);
    expect(row.combined).toBe(150);
    expect(row.shareOfAssets).toBeCloseTo(0.15);
  });

  it('has no change in the first year of a series', () => {
    const row = intangiblesSchedule({ goodwill: 110, intangibleAssets: 40, totalAssets: 1000 }, undefined);
    expect(row.goodwillChange).toBeNull();
    expect(row.intangiblesChangePercent).toBeNull();
  });
});

describe('balance sheet composition', () => {
  const balance = {
    cashAndCashEquivalents: 100,
    shortTermInvestments: 50,
    netReceivables: 80,
    inventory: 0,
    totalCurrentAssets: 250,
    propertyPlantEquipmentNet: 400,
    goodwill: 200,
    intangibleAssets: 50,
    longTermInvestments: 60,
    totalAssets: 1000,
    accountPayables: 70,
    shortTermDebt: 30,
    deferredRevenue: 0,
    totalCurrentLiabilities: 150,
    longTermDebt: 270,
    totalLiabilities: 500,
    totalStockholdersEquity: 480,
    totalLiabilitiesAndTotalEquity: 1000,
    totalDebt: 300,
  };

  it('breaks assets into lines that add up to total assets, leaving out lines of zero', () => {
    const side = assetComposition(balance);
    expect(side.items.map((item) => [item.label, item.amount])).toEqual([
      ['Cash and cash equivalents', 100],
      ['Short-term investments', 50],
      ['Receivables', 80],
      ['Other current assets', 20],
      ['Property, plant and equipment', 400],
      ['Goodwill', 200],
      ['Intangible assets', 50],
      ['Long-term investments', 60],
      ['Other non-current assets', 40],
    ]);
    expect(side.items.reduce((sum, item) => sum + item.amount, 0)).toBe(side.total);
    expect(side.items[0]?.share).toBeCloseTo(0.1);
  });

  it('breaks liabilities and equity into lines that add up to their total, minority interest included', () => {
    const side = fundingComposition(balance);
    expect(side.items.map((item) => [item.label, item.amount])).toEqual([
      ['Accounts payable', 70],
      ['Short-term debt', 30],
      ['Other current liabilities', 50],
      ['Long-term debt', 270],
      ['Other non-current liabilities', 80],
      ['Shareholders’ equity', 480],
      ['Minority interest', 20],
    ]);
    expect(side.items.reduce((sum, item) => sum + item.amount, 0)).toBe(side.total);
  });

  it('reads current, quick and debt-to-equity ratios off the balance sheet', () => {
    const ratios = balanceSheetRatios({ ...balance, inventory: 25 });
    expect(ratios.currentRatio).toBeCloseTo(250 / 150);
    expect(ratios.quickRatio).toBeCloseTo(225 / 150);
    expect(ratios.debtToEquity).toBeCloseTo(300 / 480);
  });
});

describe('statement lines', () => {
  it('labels a field by the statement it is on', () => {
    expect(lineLabel('balance', 'inventory')).toBe('Inventory');
    expect(lineLabel('cashFlow', 'inventory')).toBe('Change in inventory');
  });

  it('shows per-share lines like prices and amounts abbreviated', () => {
    expect(formatLineValue('eps', 6.1)).toBe('6.10');
    expect(formatLineValue('revenue', 391_035_000_000)).toBe('391.04B');
    expect(formatLineValue('revenue', null)).toBe(DASH);
  });

  it('builds one row per field with the label first and a cell per period', () => {
    const rows = statementLineRows(
      'income',
      ['revenue', 'eps'],
      [
        { revenue: 2_000_000, eps: 1.5 },
        { revenue: 1_000_000, eps: 1 },
      ],
    );
    expect(rows).toEqual([
      ['Revenue', '2M', '1M'],
      ['EPS', '1.50', '1.00'],
    ]);
  });
});
