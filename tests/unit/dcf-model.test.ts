import { beforeEach, describe, expect, it } from 'vitest';
import {
  dcfModelOf,
  formatRate,
  leveredDcfModel,
  unleveredDcfModel,
  upsidePercent,
  type DcfAssumptions,
} from '../../src/lib/dcf.ts';
import {
  $dcf,
  defaultDcfFields,
  editDcfField,
  initialDcfState,
  parseDcfFields,
  percentText,
  resetDcf,
  startDcf,
  withField,
} from '../../src/lib/stores/dcf.ts';
import * as formulas from '../../src/server/services/market-data/formulas.ts';
import {
  freeCashFlowBuildUp,
  freeCashFlowYear,
  intrinsicValueSummary,
  terminalValueShare,
} from '../../src/server/symbol-pages/valuation.ts';
import type { PeriodStatements } from '../../src/server/services/market-data/formulas.ts';

const DEFAULTS: DcfAssumptions = {
  symbol: 'TEST',
  date: '2026-11-20',
  stockPrice: 20,
  baseYear: 2025,
  baseCashFlow: 100,
  growthRate: 0.104321,
  terminalGrowthRate: 0.025,
  projectionYears: 5,
  riskFreeRate: 0.0409,
  beta: 1.2,
  equityRiskPremium: 0.0472,
  costOfDebt: 0.04,
  taxRate: 0.2,
  totalDebt: 200,
  netDebt: 150,
  sharesOutstanding: 100,
};

describe('the DCF model in src/lib', () => {
  it('is the very model the market-data formulas export', () => {
    expect(formulas.unleveredDcfModel).toBe(unleveredDcfModel);
    expect(formulas.leveredDcfModel).toBe(leveredDcfModel);
    expect(dcfModelOf('levered', DEFAULTS)).toEqual(leveredDcfModel(DEFAULTS));
  });

  it('states upside against the price in percent and has none without a price', () => {
    expect(upsidePercent(120, 100)).toBeCloseTo(20, 10);
    expect(upsidePercent(80, 100)).toBeCloseTo(-20, 10);
    expect(upsidePercent(80, 0)).toBeUndefined();
    expect(upsidePercent(Number.NaN, 100)).toBeUndefined();
  });

  it('formats rates as unsigned percents and missing rates as the missing mark', () => {
    expect(formatRate(0.08534)).toBe('8.53%');
    expect(formatRate(undefined)).toBe('–');
    expect(formatRate(Number.NaN)).toBe('–');
  });
});

describe('the editable DCF fields', () => {
  it('start from the defaults rounded to two decimals, the discount rate being the derived one', () => {
    const model = unleveredDcfModel(DEFAULTS);
    expect(defaultDcfFields('unlevered', DEFAULTS)).toEqual({
      growthRate: '10.43',
      discountRate: percentText(model.wacc),
      terminalGrowthRate: '2.5',
      projectionYears: '5',
    });
    expect(defaultDcfFields('levered', DEFAULTS).discountRate).toBe(percentText(model.costOfEquity));
  });

  it('give exactly the server model while every field shows its default', () => {
    for (const kind of ['unlevered', 'levered'] as const) {
      const state = initialDcfState(kind, DEFAULTS);
      const parsed = parseDcfFields(kind, DEFAULTS, state.defaultFields, state.fields);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      expect(dcfModelOf(kind, parsed.assumptions).equityValuePerShare).toBe(
        dcfModelOf(kind, DEFAULTS).equityValuePerShare,
      );
    }
  });

  it('recompute the model when the growth rate changes', () => {
    const state = initialDcfState('unlevered', DEFAULTS);
    const next = withField(state, 'growthRate', '20');
    expect(next.errors).toEqual({});
    expect(next.model.assumptions.growthRate).toBeCloseTo(0.2, 12);
    expect(next.model.equityValuePerShare).toBeGreaterThan(state.model.equityValuePerShare);
  });

  it('use a typed discount rate in place of the WACC', () => {
    const next = withField(initialDcfState('unlevered', DEFAULTS), 'discountRate', '12.5');
    expect(next.model.discountRate).toBeCloseTo(0.125, 12);
  });

  it('project as many years as typed', () => {
    const next = withField(initialDcfState('levered', DEFAULTS), 'projectionYears', '10');
    expect(next.model.projections).toHaveLength(10);
  });

  it('keep the last valid model and say what to type when a field is empty', () => {
    const valid = withField(initialDcfState('unlevered', DEFAULTS), 'growthRate', '7');
    const empty = withField(valid, 'growthRate', '  ');
    expect(empty.errors.growthRate).toBe('Enter a growth rate.');
    expect(empty.model).toBe(valid.model);
    expect(empty.fields.growthRate).toBe('  ');
  });

  it('refuse text that is not a plain number', () => {
    const state = initialDcfState('unlevered', DEFAULTS);
    for (const text of ['abc', '1e3', '5%', 'Infinity', '0x10', '--2']) {
      const next = withField(state, 'growthRate', text);
      expect(next.errors.growthRate).toBe('Growth rate must be a number in percent, like 4.5.');
      expect(Number.isFinite(next.model.equityValuePerShare)).toBe(true);
    }
    expect(withField(state, 'projectionYears', 'five').errors.projectionYears).toBe(
      'Projection years must be a whole number, like 5.',
    );
  });

  it('refuse fractional or out-of-range projection years', () => {
    const state = initialDcfState('unlevered', DEFAULTS);
    for (const text of ['2.5', '0', '51', '-3']) {
      expect(withField(state, 'projectionYears', text).errors.projectionYears).toBe(
        'Projection years must be a whole number from 1 to 50.',
      );
    }
  });

  it('refuse a discount rate that does not exceed the terminal growth rate, on the field just changed', () => {
    const state = initialDcfState('unlevered', DEFAULTS);
    const lowDiscount = withField(state, 'discountRate', '2.5');
    expect(lowDiscount.errors).toEqual({
      discountRate: 'Discount rate must be above the terminal growth rate (2.5%).',
    });
    expect(lowDiscount.model).toBe(state.model);

    const highTerminal = withField(state, 'terminalGrowthRate', '9.9');
    expect(highTerminal.errors.discountRate).toBeUndefined();
    expect(highTerminal.errors.terminalGrowthRate).toMatch(
      /^Terminal growth rate must be below the discount rate/,
    );
  });

  it('refuse a discount rate of zero or less and rates out of bounds', () => {
    const state = initialDcfState('unlevered', DEFAULTS);
    expect(withField(state, 'discountRate', '0').errors.discountRate).toBe('Discount rate must be above 0%.');
    expect(withField(state, 'terminalGrowthRate', '-20').errors.terminalGrowthRate).toBe(
      'Terminal growth rate must be between -10% and 10%.',
    );
    expect(withField(state, 'growthRate', '150').errors.growthRate).toBe(
      'Growth rate must be between -99% and 100%.',
    );
  });

  it('clear the error and recompute once the field is fixed', () => {
    const broken = withField(initialDcfState('unlevered', DEFAULTS), 'growthRate', 'x');
    const fixed = withField(broken, 'growthRate', '3');
    expect(fixed.errors).toEqual({});
    expect(fixed.model.assumptions.growthRate).toBeCloseTo(0.03, 12);
  });
});

describe('the DCF store', () => {
  beforeEach(() => {
    $dcf.set(null);
  });

  it('ignores edits before a model is started', () => {
    editDcfField('growthRate', '5');
    expect($dcf.get()).toBeNull();
  });

  it('starts from the defaults, applies edits and resets to the defaults', () => {
    startDcf('unlevered', DEFAULTS);
    const initial = $dcf.get();
    editDcfField('growthRate', '1');
    expect($dcf.get()?.model.equityValuePerShare).not.toBe(initial?.model.equityValuePerShare);
    resetDcf();
    expect($dcf.get()?.fields).toEqual(initial?.fields);
    expect($dcf.get()?.model.equityValuePerShare).toBe(initial?.model.equityValuePerShare);
  });

  it('keeps edits when the same model starts again and starts afresh for another one', () => {
    startDcf('unlevered', DEFAULTS);
    editDcfField('growthRate', '1');
    startDcf('unlevered', DEFAULTS);
    expect($dcf.get()?.fields.growthRate).toBe('1');
    startDcf('levered', DEFAULTS);
    expect($dcf.get()?.kind).toBe('levered');
    expect($dcf.get()?.fields.growthRate).toBe('10.43');
  });
});

function statements(overrides: {
  revenue?: number;
  ebit?: number;
  incomeBeforeTax?: number;
  incomeTaxExpense?: number;
  interestExpense?: number;
  shares?: number;
  operatingCashFlow?: number;
  capitalExpenditure?: number;
  depreciationAndAmortization?: number;
  changeInWorkingCapital?: number;
  netDebtIssuance?: number;
  currentAssets?: number;
  currentLiabilities?: number;
}): PeriodStatements {
  return {
    income: {
      fiscalYear: '2025',
      revenue: overrides.revenue ?? 1000,
      ebit: overrides.ebit ?? 200,
      incomeBeforeTax: overrides.incomeBeforeTax ?? 190,
      incomeTaxExpense: overrides.incomeTaxExpense ?? 38,
      interestExpense: overrides.interestExpense ?? 10,
      weightedAverageShsOut: overrides.shares ?? 50,
    },
    balance: {
      totalCurrentAssets: overrides.currentAssets ?? 300,
      totalCurrentLiabilities: overrides.currentLiabilities ?? 200,
    },
    cashFlow: {
      operatingCashFlow: overrides.operatingCashFlow ?? 250,
      capitalExpenditure: overrides.capitalExpenditure ?? -50,
      depreciationAndAmortization: overrides.depreciationAndAmortization ?? 40,
      changeInWorkingCapital: overrides.changeInWorkingCapital ?? -15,
      netDebtIssuance: overrides.netDebtIssuance ?? 20,
    },
  } as unknown as PeriodStatements;
}

describe('the free cash flow pages', () => {
  it('take capital expenditure from operating cash flow and relate it to revenue, shares and market value', () => {
    const year = freeCashFlowYear(statements({}), 4000);
    expect(year.freeCashFlow).toBe(200);
    expect(year.capitalExpenditure).toBe(50);
    expect(year.margin).toBeCloseTo(0.2, 12);
    expect(year.perShare).toBeCloseTo(4, 12);
    expect(year.yieldAtPrice).toBeCloseTo(0.05, 12);
  });

  it('leave margin, per-share value and yield missing without revenue, shares or a market value', () => {
    const year = freeCashFlowYear(statements({ revenue: 0, shares: 0 }), 0);
    expect(year.margin).toBeUndefined();
    expect(year.perShare).toBeUndefined();
    expect(year.yieldAtPrice).toBeUndefined();
  });

  it('build free cash flow to the firm the way the key metrics compute it', () => {
    const current = statements({ currentAssets: 330 });
    const previous = statements({});
    const buildUp = freeCashFlowBuildUp(current, previous);
    expect(buildUp.taxRate).toBeCloseTo(0.2, 12);
    expect(buildUp.taxesOnEbit).toBeCloseTo(-40, 10);
    expect(buildUp.changeInWorkingCapital).toBeCloseTo(-30, 10);
    expect(buildUp.capitalExpenditure).toBe(-50);
    expect(buildUp.freeCashFlowToFirm).toBeCloseTo(200 - 40 + 40 - 50 - 30, 10);
    expect(buildUp.freeCashFlowToFirm).toBeCloseTo(formulas.freeCashFlowToFirm(current, previous), 10);
    expect(buildUp.afterTaxInterest).toBeCloseTo(-8, 10);
    expect(buildUp.freeCashFlowToEquity).toBeCloseTo(buildUp.freeCashFlowToFirm - 8 + 20, 10);
  });

  it('use the cash flow statement working-capital change for the oldest year', () => {
    const current = statements({});
    const buildUp = freeCashFlowBuildUp(current, undefined);
    expect(buildUp.changeInWorkingCapital).toBe(-15);
    expect(buildUp.freeCashFlowToFirm).toBeCloseTo(formulas.freeCashFlowToFirm(current, undefined), 10);
  });
});

describe('the value summaries', () => {
  it('average the two models and compare each with the price', () => {
    const unlevered = unleveredDcfModel({ ...DEFAULTS, growthRate: 0.05 });
    const levered = leveredDcfModel({ ...DEFAULTS, growthRate: 0.05 });
    const summary = intrinsicValueSummary(unlevered, levered);
    expect(summary.average).toBeCloseTo(
      (unlevered.equityValuePerShare + levered.equityValuePerShare) / 2,
      10,
    );
    expect(summary.price).toBe(20);
    expect(summary.averageUpside).toBeCloseTo(((summary.average ?? 0) / 20 - 1) * 100, 10);
  });

  it('leave out a model without a terminal value', () => {
    const undefinedModel = unleveredDcfModel({ ...DEFAULTS, discountRate: 0.01 });
    const levered = leveredDcfModel(DEFAULTS);
    const summary = intrinsicValueSummary(undefinedModel, levered);
    expect(summary.unlevered).toBeUndefined();
    expect(summary.average).toBe(levered.equityValuePerShare);
    expect(terminalValueShare(undefinedModel)).toBeUndefined();
  });

  it('give the present terminal value as a share of the enterprise value', () => {
    const model = unleveredDcfModel(DEFAULTS);
    expect(terminalValueShare(model)).toBeCloseTo(model.presentTerminalValue / model.enterpriseValue, 12);
  });

  it('have no values without models', () => {
    expect(intrinsicValueSummary(undefined, undefined)).toEqual({
      unlevered: undefined,
      levered: undefined,
      average: undefined,
      price: undefined,
      unleveredUpside: undefined,
      leveredUpside: undefined,
      averageUpside: undefined,
    });
  });
});
