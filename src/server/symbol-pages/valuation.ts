/**
 * What the valuation pages of a stock (DCF models, free cash flow, WACC, terminal, equity and
 * intrinsic value) compute from the market-data services: the default DCF models of both kinds, and
 * the free-cash-flow rows and build-up of the fiscal years. Kept apart from the component so the
 * arithmetic can be tested without rendering.
 */
import {
  dcfModelOf,
  safeDivide,
  upsidePercent,
  type DcfAssumptions,
  type DcfKind,
  type DcfModel,
} from '../../lib/dcf.ts';
import { PANEL_PAGES, type SymbolPage } from '../../lib/symbol-routes.ts';
import { dcfAssumptions, periodSeries } from '../services/market-data/fundamentals.ts';
import {
  defaultShares,
  effectiveTaxRate,
  workingCapital,
  type PeriodStatements,
} from '../services/market-data/formulas.ts';
import type { SymbolPageContext } from './resolver.ts';

/** The valuation pages, in the order their links are listed. */
export const VALUATION_PAGES: readonly SymbolPage[] = PANEL_PAGES.valuation;

/** Fiscal years the free-cash-flow pages show. */
export const FREE_CASH_FLOW_YEARS = 5;

/** A default DCF model with the assumptions it came from (the editable model starts from these). */
export interface LoadedDcf {
  assumptions: DcfAssumptions;
  model: DcfModel;
}

/** The symbol's default model of one kind; undefined without annual statements or a price. */
export async function loadDcf(context: SymbolPageContext, kind: DcfKind): Promise<LoadedDcf | undefined> {
  const assumptions = await dcfAssumptions(
    context.db,
    context.directory,
    context.security.symbol,
    context.now,
    kind,
  );
  return assumptions === undefined ? undefined : { assumptions, model: dcfModelOf(kind, assumptions) };
}

/** The fiscal years' statements, newest first, each with the year before it (for working-capital change). */
export async function loadFiscalYears(
  context: SymbolPageContext,
  years: number = FREE_CASH_FLOW_YEARS,
): Promise<{ current: PeriodStatements; previous: PeriodStatements | undefined }[]> {
  const series = await periodSeries(context.db, context.security.symbol, 'annual', years);
  return series.selected.map((period) => ({
    current: period.statements,
    previous: series.previousOf(period),
  }));
}

/** One fiscal year of the free-cash-flow page. */
export interface FreeCashFlowYear {
  fiscalYear: string;
  operatingCashFlow: number;
  /** Capital expenditure as a positive amount spent. */
  capitalExpenditure: number;
  freeCashFlow: number;
  /** Free cash flow / revenue; undefined without revenue. */
  margin: number | undefined;
  /** Free cash flow / the year's weighted average shares; undefined without shares. */
  perShare: number | undefined;
  /** Free cash flow / today's market value; undefined without one. */
  yieldAtPrice: number | undefined;
}

function ratioOrUndefined(numerator: number, denominator: number): number | undefined {
  return denominator > 0 && Number.isFinite(numerator) ? safeDivide(numerator, denominator) : undefined;
}

/**
 * Free cash flow of a fiscal year (operating cash flow less capital expenditure) with its margin, per
 * share and yield at today's market value (`marketCap`, price × current shares).
 */
export function freeCashFlowYear(statements: PeriodStatements, marketCap: number): FreeCashFlowYear {
  const { income, cashFlow } = statements;
  const capitalExpenditure = Math.abs(cashFlow.capitalExpenditure);
  const freeCashFlow = cashFlow.operatingCashFlow - capitalExpenditure;
  return {
    fiscalYear: income.fiscalYear,
    operatingCashFlow: cashFlow.operatingCashFlow,
    capitalExpenditure,
    freeCashFlow,
    margin: ratioOrUndefined(freeCashFlow, income.revenue),
    perShare: ratioOrUndefined(freeCashFlow, defaultShares(income)),
    yieldAtPrice: ratioOrUndefined(freeCashFlow, marketCap),
  };
}

/**
 * One fiscal year's free cash flow built up from operating profit, each step signed as it adds to
 * (positive) or takes from (negative) the cash flow, so the column sums to the totals shown.
 */
export interface FreeCashFlowBuildUp {
  fiscalYear: string;
  ebit: number;
  /** Effective tax rate of the year (income tax / pre-tax income). */
  taxRate: number;
  taxesOnEbit: number;
  depreciationAndAmortization: number;
  capitalExpenditure: number;
  /** Minus the increase in working capital. */
  changeInWorkingCapital: number;
  freeCashFlowToFirm: number;
  afterTaxInterest: number;
  netBorrowing: number;
  freeCashFlowToEquity: number;
}

/**
 * The build-up of free cash flow to the firm the key metrics use (EBIT less taxes at the effective
 * rate, plus D&A, less capex, less the increase in balance-sheet working capital, or the cash-flow
 * statement's change without a previous year), then to equity: less after-tax interest, plus net
 * borrowing.
 */
export function freeCashFlowBuildUp(
  current: PeriodStatements,
  previous: PeriodStatements | undefined,
): FreeCashFlowBuildUp {
  const { income, balance, cashFlow } = current;
  const taxRate = effectiveTaxRate(income);
  const taxesOnEbit = -income.ebit * taxRate;
  const workingCapitalIncrease =
    previous === undefined
      ? -cashFlow.changeInWorkingCapital
      : workingCapital(balance) - workingCapital(previous.balance);
  const capitalExpenditure = -Math.abs(cashFlow.capitalExpenditure);
  const freeCashFlowToFirm =
    income.ebit +
    taxesOnEbit +
    cashFlow.depreciationAndAmortization +
    capitalExpenditure -
    workingCapitalIncrease;
  const afterTaxInterest = -income.interestExpense * (1 - taxRate);
  return {
    fiscalYear: income.fiscalYear,
    ebit: income.ebit,
    taxRate,
    taxesOnEbit,
    depreciationAndAmortization: cashFlow.depreciationAndAmortization,
    capitalExpenditure,
    changeInWorkingCapital: -workingCapitalIncrease,
    freeCashFlowToFirm,
    afterTaxInterest,
    netBorrowing: cashFlow.netDebtIssuance,
    freeCashFlowToEquity: freeCashFlowToFirm + afterTaxInterest + cashFlow.netDebtIssuance,
  };
}

/** The intrinsic value summary: each model's value per share, their average, and each against the price. */
export interface IntrinsicValueSummary {
  unlevered: number | undefined;
  levered: number | undefined;
  average: number | undefined;
  price: number | undefined;
  unleveredUpside: number | undefined;
  leveredUpside: number | undefined;
  averageUpside: number | undefined;
}

/** A model's value per share, or undefined when it has none (no terminal value, no shares). */
export function valuePerShare(model: DcfModel | undefined): number | undefined {
  if (model === undefined || !model.terminalValueDefined || model.assumptions.sharesOutstanding <= 0) {
    return undefined;
  }
  return model.equityValuePerShare;
}

/** Both models side by side; the average is of the models that have a value. */
export function intrinsicValueSummary(
  unlevered: DcfModel | undefined,
  levered: DcfModel | undefined,
): IntrinsicValueSummary {
  const values = [valuePerShare(unlevered), valuePerShare(levered)];
  const known = values.filter((value): value is number => value !== undefined);
  const average =
    known.length === 0 ? undefined : known.reduce((sum, value) => sum + value, 0) / known.length;
  const price = unlevered?.stockPrice ?? levered?.stockPrice;
  const against = (value: number | undefined): number | undefined =>
    value === undefined || price === undefined ? undefined : upsidePercent(value, price);
  return {
    unlevered: values[0],
    levered: values[1],
    average,
    price,
    unleveredUpside: against(values[0]),
    leveredUpside: against(values[1]),
    averageUpside: against(average),
  };
}

/** The present value of the terminal value as a share of the enterprise value; undefined when that is not positive. */
export function terminalValueShare(model: DcfModel): number | undefined {
  if (!model.terminalValueDefined || model.enterpriseValue <= 0) return undefined;
  return safeDivide(model.presentTerminalValue, model.enterpriseValue);
}

/** One default model of the pages that put both side by side, with what they show of it. */
export interface ValuationModel {
  /** "Unlevered DCF (FCFF at WACC)" or "Levered DCF (FCFE at cost of equity)". */
  label: string;
  model: DcfModel;
  terminalValueShare: number | undefined;
  valuePerShare: number | undefined;
  /** Value per share against the current price, in percent. */
  upside: number | undefined;
}

/** What a valuation page shows; each page fills the parts it needs. */
export interface ValuationView {
  page: SymbolPage;
  symbol: string;
  name: string;
  /** The security's currency, upper case. */
  currency: string;
  unlevered: LoadedDcf | undefined;
  levered: LoadedDcf | undefined;
  /** The models that exist, unlevered first (pages with both). */
  models: ValuationModel[];
  /** Today's market value (price × shares) the free-cash-flow yield uses; 0 without one. */
  marketCap: number;
  freeCashFlows: FreeCashFlowYear[];
  buildUps: FreeCashFlowBuildUp[];
  summary: IntrinsicValueSummary;
  /** The price both models compare with, and the day of that close. */
  price: { value: number; date: string } | undefined;
  /** The other valuation pages, in their listing order. */
  related: SymbolPage[];
}

/** Pages that show the unlevered and the levered model side by side. */
const BOTH_MODELS: readonly SymbolPage[] = [
  'terminal-value',
  'equity-value',
  'stock-value',
  'intrinsic-value',
];

/** The default models of both kinds as the side-by-side pages show them. */
function sideBySide(unlevered: LoadedDcf | undefined, levered: LoadedDcf | undefined): ValuationModel[] {
  const both: { label: string; loaded: LoadedDcf | undefined }[] = [
    { label: 'Unlevered DCF (FCFF at WACC)', loaded: unlevered },
    { label: 'Levered DCF (FCFE at cost of equity)', loaded: levered },
  ];
  return both.flatMap(({ label, loaded }) => {
    if (loaded === undefined) return [];
    const model = loaded.model;
    const value = valuePerShare(model);
    return [
      {
        label,
        model,
        terminalValueShare: terminalValueShare(model),
        valuePerShare: value,
        upside: value === undefined ? undefined : upsidePercent(value, model.stockPrice),
      },
    ];
  });
}

/** Reads what a valuation page shows: only the models and fiscal years the page needs are computed. */
export async function loadValuation(context: SymbolPageContext): Promise<ValuationView> {
  const { page, header } = context;
  const needsUnlevered =
    BOTH_MODELS.includes(page) ||
    page === 'discounted-cash-flow-model' ||
    page === 'free-cash-flow' ||
    page === 'weighted-average-cost-of-capital';
  const needsLevered = BOTH_MODELS.includes(page) || page === 'discounted-cash-flow-model-levered';
  const needsYears = page === 'free-cash-flow' || page === 'free-cash-flow-build-up';
  const [unlevered, levered, years] = await Promise.all([
    needsUnlevered ? loadDcf(context, 'unlevered') : Promise.resolve(undefined),
    needsLevered ? loadDcf(context, 'levered') : Promise.resolve(undefined),
    needsYears ? loadFiscalYears(context) : Promise.resolve([]),
  ]);
  const marketCap =
    unlevered === undefined ? 0 : unlevered.assumptions.stockPrice * unlevered.assumptions.sharesOutstanding;
  const anyModel = unlevered ?? levered;
  return {
    page,
    symbol: context.security.symbol,
    name: header.name,
    currency: header.currency.toUpperCase(),
    unlevered,
    levered,
    models: sideBySide(unlevered, levered),
    marketCap,
    freeCashFlows:
      page === 'free-cash-flow' ? years.map(({ current }) => freeCashFlowYear(current, marketCap)) : [],
    buildUps:
      page === 'free-cash-flow-build-up'
        ? years.map(({ current, previous }) => freeCashFlowBuildUp(current, previous))
        : [],
    summary: intrinsicValueSummary(unlevered?.model, levered?.model),
    price:
      anyModel === undefined
        ? undefined
        : { value: anyModel.assumptions.stockPrice, date: anyModel.assumptions.date },
    related: VALUATION_PAGES.filter((other) => other !== page),
  };
}
