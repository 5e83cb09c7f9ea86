import type { Db } from '../../db/client.ts';
import type { SymbolDirectory } from './directory.ts';
import { dcfModelOf } from '../../../lib/dcf.ts';
import {
  safeDivide,
  type DcfAssumptions,
  type DcfKind,
  type DcfModel,
  type PeriodStatements,
} from './formulas.ts';
import { dcfAssumptions, periodSeries } from './fundamentals.ts';

/**
 * FMP's custom DCF: the discounted-cash-flow models of the stored data with a client's own assumptions.
 * Revenue grows at revenueGrowthPct; the cash flow of each year is that year's revenue times a margin
 * (operating cash flow, plus after-tax interest for the unlevered model, less capital expenditure, each
 * as a share of revenue); discounting and the terminal value are the discounted-cash-flow endpoints'
 * own (docs: the DCF formula page). Every assumption left out takes the stored data's value, so with
 * none given the answer is the discounted-cash-flow (or levered-discounted-cash-flow) endpoint's.
 */

/**
 * A client's assumptions, as FMP names them: margins and growth as fractions of revenue (0.1 = 10 %),
 * taxRate as a fraction, and the rates (long-term growth, costs of debt and equity, market risk premium,
 * risk-free rate) in percent (4 = 4 %).
 */
export interface CustomDcfParams {
  revenueGrowthPct?: number | undefined;
  ebitdaPct?: number | undefined;
  depreciationAndAmortizationPct?: number | undefined;
  cashAndShortTermInvestmentsPct?: number | undefined;
  receivablesPct?: number | undefined;
  inventoriesPct?: number | undefined;
  payablePct?: number | undefined;
  ebitPct?: number | undefined;
  capitalExpenditurePct?: number | undefined;
  operatingCashFlowPct?: number | undefined;
  taxRate?: number | undefined;
  longTermGrowthRate?: number | undefined;
  costOfDebt?: number | undefined;
  costOfEquity?: number | undefined;
  marketRiskPremium?: number | undefined;
  beta?: number | undefined;
  riskFreeRate?: number | undefined;
}

/** The margins of revenue the projected lines are drawn at (fractions). */
interface Margins {
  ebitda: number;
  depreciation: number;
  cash: number;
  receivables: number;
  inventories: number;
  payable: number;
  ebit: number;
  /** Capital expenditure's size (positive) over revenue. */
  capex: number;
  operatingCashFlow: number;
}

function storedMargins(statements: PeriodStatements): Margins {
  const { income, balance, cashFlow } = statements;
  const share = (value: number): number => safeDivide(value, income.revenue);
  return {
    ebitda: share(income.ebitda),
    depreciation: share(cashFlow.depreciationAndAmortization),
    cash: share(balance.cashAndShortTermInvestments),
    receivables: share(balance.netReceivables),
    inventories: share(balance.inventory),
    payable: share(balance.accountPayables),
    ebit: share(income.ebit),
    capex: share(Math.abs(cashFlow.capitalExpenditure)),
    operatingCashFlow: share(cashFlow.operatingCashFlow),
  };
}

/** A custom model: the assumptions used, the margins and the model computed from them. */
export interface CustomDcf {
  kind: DcfKind;
  revenue: number;
  margins: Margins;
  assumptions: DcfAssumptions;
  model: DcfModel;
  /** The cost of equity when the client set it, else the model's CAPM one. */
  costOfEquity: number;
  /** The discount rate the model used: WACC (unlevered) or the cost of equity (levered). */
  discountRate: number;
}

const percent = (value: number | undefined): number | undefined =>
  value === undefined ? undefined : value / 100;

/**
 * The stored model's assumptions with the client's put in. The base cash flow moves only by the
 * margins the client changed, applied to the base year's revenue, so untouched assumptions keep the
 * stored model's numbers exactly.
 */
export function customDcfOf(
  kind: DcfKind,
  stored: DcfAssumptions,
  statements: PeriodStatements,
  params: CustomDcfParams,
): CustomDcf {
  const base = storedMargins(statements);
  const revenue = statements.income.revenue;
  const margins: Margins = {
    ebitda: params.ebitdaPct ?? base.ebitda,
    depreciation: params.depreciationAndAmortizationPct ?? base.depreciation,
    cash: params.cashAndShortTermInvestmentsPct ?? base.cash,
    receivables: params.receivablesPct ?? base.receivables,
    inventories: params.inventoriesPct ?? base.inventories,
    payable: params.payablePct ?? base.payable,
    ebit: params.ebitPct ?? base.ebit,
    capex: params.capitalExpenditurePct ?? base.capex,
    operatingCashFlow: params.operatingCashFlowPct ?? base.operatingCashFlow,
  };
  const taxRate = params.taxRate ?? stored.taxRate;
  const interest = statements.income.interestExpense;
  let baseCashFlow = stored.baseCashFlow;
  if (margins.operatingCashFlow !== base.operatingCashFlow)
    baseCashFlow += revenue * (margins.operatingCashFlow - base.operatingCashFlow);
  if (margins.capex !== base.capex) baseCashFlow -= revenue * (margins.capex - base.capex);
  if (kind === 'unlevered' && taxRate !== stored.taxRate)
    baseCashFlow += interest * (stored.taxRate - taxRate);
  const assumptions: DcfAssumptions = {
    ...stored,
    baseCashFlow,
    growthRate: params.revenueGrowthPct ?? stored.growthRate,
    terminalGrowthRate: percent(params.longTermGrowthRate) ?? stored.terminalGrowthRate,
    riskFreeRate: percent(params.riskFreeRate) ?? stored.riskFreeRate,
    beta: params.beta ?? stored.beta,
    equityRiskPremium: percent(params.marketRiskPremium) ?? stored.equityRiskPremium,
    costOfDebt: percent(params.costOfDebt) ?? stored.costOfDebt,
    taxRate,
  };
  const capm = dcfModelOf(kind, assumptions);
  const costOfEquity = percent(params.costOfEquity) ?? capm.costOfEquity;
  if (params.costOfEquity === undefined)
    return {
      kind,
      revenue,
      margins,
      assumptions,
      model: capm,
      costOfEquity,
      discountRate: capm.discountRate,
    };
  // The client's cost of equity replaces CAPM's: in the WACC (unlevered) or as the rate itself (levered).
  const discountRate =
    kind === 'unlevered'
      ? capm.equityWeight * costOfEquity + capm.debtWeight * capm.afterTaxCostOfDebt
      : costOfEquity;
  const model = dcfModelOf(kind, { ...assumptions, discountRate });
  return { kind, revenue, margins, assumptions, model, costOfEquity, discountRate };
}

/** The stored model of a symbol with the client's assumptions; undefined without statements or prices. */
export async function customDcf(
  db: Db,
  symbols: SymbolDirectory,
  symbol: string,
  now: Date,
  kind: DcfKind,
  params: CustomDcfParams,
): Promise<CustomDcf | undefined> {
  const [stored, series] = await Promise.all([
    dcfAssumptions(db, symbols, symbol, now, kind),
    periodSeries(db, symbol, 'annual', 1),
  ]);
  const [latest] = series.selected;
  if (stored === undefined || latest === undefined) return undefined;
  return customDcfOf(kind, stored, latest.statements, params);
}

const pct = (fraction: number): number => fraction * 100;

/** The columns both custom models share, in FMP's order (the capital structure and rates). */
function capitalColumns(dcf: CustomDcf): Record<string, number> {
  const { model, assumptions } = dcf;
  return {
    price: model.stockPrice,
    beta: assumptions.beta,
    dilutedSharesOutstanding: assumptions.sharesOutstanding,
    costofDebt: pct(assumptions.costOfDebt),
    taxRate: pct(assumptions.taxRate),
    afterTaxCostOfDebt: pct(model.afterTaxCostOfDebt),
    riskFreeRate: pct(assumptions.riskFreeRate),
    marketRiskPremium: pct(assumptions.equityRiskPremium),
    costOfEquity: pct(dcf.costOfEquity),
    totalDebt: assumptions.totalDebt,
    totalEquity: model.marketCap,
    totalCapital: model.marketCap + assumptions.totalDebt,
    debtWeighting: pct(model.debtWeight),
    equityWeighting: pct(model.equityWeight),
    wacc: pct(dcf.discountRate),
  };
}

/** FMP's custom-discounted-cash-flow rows: one per projected year, the valuation repeated on each. */
export function customDcfRows(dcf: CustomDcf): Record<string, string | number>[] {
  const { model, margins, assumptions } = dcf;
  return model.projections.map((year, index) => {
    const revenue = dcf.revenue * (1 + assumptions.growthRate) ** (index + 1);
    const ebit = revenue * margins.ebit;
    return {
      year: String(year.year),
      symbol: model.symbol,
      revenue,
      revenuePercentage: pct(assumptions.growthRate),
      ebitda: revenue * margins.ebitda,
      ebitdaPercentage: pct(margins.ebitda),
      ebit,
      ebitPercentage: pct(margins.ebit),
      depreciation: revenue * margins.depreciation,
      depreciationPercentage: pct(margins.depreciation),
      totalCash: revenue * margins.cash,
      totalCashPercentage: pct(margins.cash),
      receivables: revenue * margins.receivables,
      receivablesPercentage: pct(margins.receivables),
      inventories: revenue * margins.inventories,
      inventoriesPercentage: pct(margins.inventories),
      payable: revenue * margins.payable,
      payablePercentage: pct(margins.payable),
      capitalExpenditure: -revenue * margins.capex,
      capitalExpenditurePercentage: pct(margins.capex),
      ...capitalColumns(dcf),
      taxRateCash: pct(assumptions.taxRate),
      ebiat: ebit * (1 - assumptions.taxRate),
      ufcf: year.cashFlow,
      sumPvUfcf: model.sumPresentValue,
      longTermGrowthRate: pct(assumptions.terminalGrowthRate),
      terminalValue: model.terminalValue,
      presentTerminalValue: model.presentTerminalValue,
      enterpriseValue: model.enterpriseValue,
      netDebt: model.netDebt,
      equityValue: model.equityValue,
      equityValuePerShare: model.equityValuePerShare,
      freeCashFlowT1: model.terminalYearCashFlow,
    };
  });
}

/** FMP's custom-levered-discounted-cash-flow rows: one per projected year, the valuation on each. */
export function customLeveredDcfRows(dcf: CustomDcf): Record<string, string | number>[] {
  const { model, margins, assumptions } = dcf;
  return model.projections.map((year, index) => {
    const revenue = dcf.revenue * (1 + assumptions.growthRate) ** (index + 1);
    return {
      year: String(year.year),
      symbol: model.symbol,
      revenue,
      revenuePercentage: pct(assumptions.growthRate),
      capitalExpenditure: -revenue * margins.capex,
      capitalExpenditurePercentage: pct(margins.capex),
      ...capitalColumns(dcf),
      operatingCashFlow: revenue * margins.operatingCashFlow,
      pvLfcf: year.presentValue,
      sumPvLfcf: model.sumPresentValue,
      longTermGrowthRate: pct(assumptions.terminalGrowthRate),
      freeCashFlow: year.cashFlow,
      terminalValue: model.terminalValue,
      presentTerminalValue: model.presentTerminalValue,
      enterpriseValue: model.enterpriseValue,
      netDebt: model.netDebt,
      equityValue: model.equityValue,
      equityValuePerShare: model.equityValuePerShare,
      freeCashFlowT1: model.terminalYearCashFlow,
      operatingCashFlowPercentage: pct(margins.operatingCashFlow),
    };
  });
}
