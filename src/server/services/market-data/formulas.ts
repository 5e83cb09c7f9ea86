/**
 * Computed fundamentals for the FMP-compatible data API: ratios, key metrics, enterprise values, financial
 * scores, owner earnings and discounted-cash-flow models. Every value is derived from the stored statements
 * and prices by the formulas written out on the documentation's Formulas pages (src/content/docs/formula.md and
 * the pages it links); nothing here reads or writes storage.
 *
 * Conventions (see src/content/docs/formula.md, "Conventions"):
 * - a ratio whose denominator is zero is 0, as FMP serves it; a negative denominator keeps its sign;
 * - no function returns NaN or ±Infinity: any non-finite result is replaced by 0;
 * - values keep full precision; rounding is the API layer's choice.
 */

import {
  DEFAULT_PROJECTION_YEARS,
  finite,
  leveredDcfModel,
  safeDivide,
  sanitize,
  unleveredDcfModel,
  type DcfAssumptions,
  type DcfKind,
} from '../../../lib/dcf.ts';
import type { BalanceSheet, CashFlowStatement, IncomeStatement } from '../../../lib/statement-fields.ts';

// The DCF model lives in src/lib so the browser can recompute it; it is re-exported here so every
// caller of the formulas keeps one import.
export {
  DEFAULT_PROJECTION_YEARS,
  leveredDcfModel,
  safeDivide,
  unleveredDcfModel,
  type DcfAssumptions,
  type DcfKind,
  type DcfModel,
  type DcfProjectionYear,
} from '../../../lib/dcf.ts';

// The statement rows' shapes come from the one catalogue of FMP's statement fields.
export type { BalanceSheet, CashFlowStatement, IncomeStatement } from '../../../lib/statement-fields.ts';

/** The three statements of one reporting period; the formulas always read them together. */
export interface PeriodStatements {
  income: IncomeStatement;
  balance: BalanceSheet;
  cashFlow: CashFlowStatement;
}

/** Market inputs for a statement period; valuation ratios need them and the statements do not carry them. */
export interface MarketInputs {
  /** Close of the last trading day on or before the statement date. */
  price: number;
  /** Share count for per-share values and market cap; defaults to `weightedAverageShsOutDil`. */
  sharesOutstanding?: number | undefined;
  /** Dividends declared per share in the period; defaults to dividends paid ÷ shares. */
  dividendPerShare?: number | undefined;
  /** Expected EPS growth for the next period (0.1 = 10 %); without it the forward PEG equals the trailing PEG. */
  forwardEpsGrowth?: number | undefined;
}

/** FMP `ratios` row; the key order is FMP's. */
export interface RatiosRow {
  symbol: string;
  date: string;
  fiscalYear: string;
  period: string;
  reportedCurrency: string;
  grossProfitMargin: number;
  ebitMargin: number;
  ebitdaMargin: number;
  operatingProfitMargin: number;
  pretaxProfitMargin: number;
  continuousOperationsProfitMargin: number;
  netProfitMargin: number;
  bottomLineProfitMargin: number;
  receivablesTurnover: number;
  payablesTurnover: number;
  inventoryTurnover: number;
  fixedAssetTurnover: number;
  assetTurnover: number;
  currentRatio: number;
  quickRatio: number;
  solvencyRatio: number;
  cashRatio: number;
  priceToEarningsRatio: number;
  priceToEarningsGrowthRatio: number;
  forwardPriceToEarningsGrowthRatio: number;
  priceToBookRatio: number;
  priceToSalesRatio: number;
  priceToFreeCashFlowRatio: number;
  priceToOperatingCashFlowRatio: number;
  debtToAssetsRatio: number;
  debtToEquityRatio: number;
  debtToCapitalRatio: number;
  longTermDebtToCapitalRatio: number;
  financialLeverageRatio: number;
  workingCapitalTurnoverRatio: number;
  operatingCashFlowRatio: number;
  operatingCashFlowSalesRatio: number;
  freeCashFlowOperatingCashFlowRatio: number;
  debtServiceCoverageRatio: number;
  interestCoverageRatio: number;
  shortTermOperatingCashFlowCoverageRatio: number;
  operatingCashFlowCoverageRatio: number;
  capitalExpenditureCoverageRatio: number;
  dividendPaidAndCapexCoverageRatio: number;
  dividendPayoutRatio: number;
  dividendYield: number;
  dividendYieldPercentage: number;
  revenuePerShare: number;
  netIncomePerShare: number;
  interestDebtPerShare: number;
  cashPerShare: number;
  bookValuePerShare: number;
  tangibleBookValuePerShare: number;
  shareholdersEquityPerShare: number;
  operatingCashFlowPerShare: number;
  capexPerShare: number;
  freeCashFlowPerShare: number;
  netIncomePerEBT: number;
  ebtPerEbit: number;
  priceToFairValue: number;
  debtToMarketCap: number;
  effectiveTaxRate: number;
  enterpriseValueMultiple: number;
  dividendPerShare: number;
}

/** FMP `key-metrics` row; the key order is FMP's (including its spelling of `researchAndDevelopementToRevenue`). */
export interface KeyMetricsRow {
  symbol: string;
  date: string;
  fiscalYear: string;
  period: string;
  reportedCurrency: string;
  marketCap: number;
  enterpriseValue: number;
  evToSales: number;
  evToOperatingCashFlow: number;
  evToFreeCashFlow: number;
  evToEBITDA: number;
  netDebtToEBITDA: number;
  currentRatio: number;
  incomeQuality: number;
  grahamNumber: number;
  grahamNetNet: number;
  taxBurden: number;
  interestBurden: number;
  workingCapital: number;
  investedCapital: number;
  returnOnAssets: number;
  operatingReturnOnAssets: number;
  returnOnTangibleAssets: number;
  returnOnEquity: number;
  returnOnInvestedCapital: number;
  returnOnCapitalEmployed: number;
  earningsYield: number;
  freeCashFlowYield: number;
  capexToOperatingCashFlow: number;
  capexToDepreciation: number;
  capexToRevenue: number;
  salesGeneralAndAdministrativeToRevenue: number;
  researchAndDevelopementToRevenue: number;
  stockBasedCompensationToRevenue: number;
  intangiblesToTotalAssets: number;
  averageReceivables: number;
  averagePayables: number;
  averageInventory: number;
  daysOfSalesOutstanding: number;
  daysOfPayablesOutstanding: number;
  daysOfInventoryOutstanding: number;
  operatingCycle: number;
  cashConversionCycle: number;
  freeCashFlowToEquity: number;
  freeCashFlowToFirm: number;
  tangibleAssetValue: number;
  netCurrentAssetValue: number;
}

/** FMP `enterprise-values` row. */
export interface EnterpriseValueRow {
  symbol: string;
  date: string;
  stockPrice: number;
  numberOfShares: number;
  marketCapitalization: number;
  minusCashAndCashEquivalents: number;
  addTotalDebt: number;
  enterpriseValue: number;
}

/** FMP `financial-scores` row. */
export interface FinancialScoresRow {
  symbol: string;
  reportedCurrency: string;
  altmanZScore: number;
  piotroskiScore: number;
  workingCapital: number;
  totalAssets: number;
  retainedEarnings: number;
  ebit: number;
  marketCap: number;
  totalLiabilities: number;
  revenue: number;
}

/** FMP `owner-earnings` row (capex amounts keep the cash-flow sign: negative). */
export interface OwnerEarningsRow {
  symbol: string;
  reportedCurrency: string;
  fiscalYear: string;
  period: string;
  date: string;
  averagePPE: number;
  maintenanceCapex: number;
  ownersEarnings: number;
  growthCapex: number;
  ownersEarningsPerShare: number;
}

/** FMP `discounted-cash-flow` / `levered-discounted-cash-flow` row. */
export interface DiscountedCashFlowRow {
  symbol: string;
  date: string;
  dcf: number;
  'Stock Price': number;
}

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

function average(current: number, previous: number | undefined): number {
  return previous === undefined ? current : (current + previous) / 2;
}

/** Days a reporting period covers; FY rows count 365 days and quarterly rows a quarter of that. */
export function periodDays(period: string): number {
  return /^Q[1-4]$/i.test(period) ? 365 / 4 : 365;
}

/** The share count the per-share values use unless the caller supplies one. */
export function defaultShares(income: IncomeStatement): number {
  return income.weightedAverageShsOut;
}

function sharesFor(current: PeriodStatements, market: MarketInputs): number {
  return market.sharesOutstanding ?? defaultShares(current.income);
}

/** Working capital as the balance sheet states it: current assets less current liabilities. */
export function workingCapital(balance: BalanceSheet): number {
  return balance.totalCurrentAssets - balance.totalCurrentLiabilities;
}

/** Net debt computed from the balance sheet rather than read, so it always matches the debt and cash shown. */
export function netDebt(balance: BalanceSheet): number {
  return balance.totalDebt - balance.cashAndCashEquivalents;
}

/** Income tax as a share of pre-tax income (0 when there is no pre-tax income). */
export function effectiveTaxRate(income: IncomeStatement): number {
  return safeDivide(income.incomeTaxExpense, income.incomeBeforeTax);
}

function marketCapOf(price: number, shares: number): number {
  return finite(price * shares);
}

function enterpriseValueOf(marketCap: number, balance: BalanceSheet): number {
  return marketCap + balance.totalDebt - balance.cashAndCashEquivalents;
}

/** Year-over-year growth as a fraction of the absolute prior value, so growth from a loss reads sensibly. */
export function growthRate(current: number, previous: number): number {
  return safeDivide(current - previous, Math.abs(previous));
}

// ---------------------------------------------------------------------------------------------------------
// Ratios
// ---------------------------------------------------------------------------------------------------------

/** The amounts both the ratios and the key metrics of a period start from. */
function periodBasics(
  current: PeriodStatements,
  market: MarketInputs,
): {
  shares: number;
  marketCap: number;
  enterpriseValue: number;
  revenue: number;
  equity: number;
  capex: number;
} {
  const shares = sharesFor(current, market);
  const marketCap = marketCapOf(market.price, shares);
  return {
    shares,
    marketCap,
    enterpriseValue: enterpriseValueOf(marketCap, current.balance),
    revenue: current.income.revenue,
    equity: current.balance.totalStockholdersEquity,
    // Capital expenditure is reported negative; the ratios use its size.
    capex: Math.abs(current.cashFlow.capitalExpenditure),
  };
}

/**
 * The FMP `ratios` row for one period. `previous` (the prior period of the same kind) feeds EPS growth and the
 * average working capital; without it those fall back to the current period alone.
 */
export function ratios(
  current: PeriodStatements,
  previous: PeriodStatements | undefined,
  market: MarketInputs,
): RatiosRow {
  const { income, balance, cashFlow } = current;
  const { shares, marketCap, enterpriseValue, revenue, equity, capex } = periodBasics(current, market);
  const dividends = Math.abs(cashFlow.netDividendsPaid);
  const ocf = cashFlow.operatingCashFlow;

  const priceToEarningsRatio = safeDivide(marketCap, income.netIncome);
  const epsGrowth = previous === undefined ? 0 : growthRate(income.eps, previous.income.eps);
  const priceToEarningsGrowthRatio = safeDivide(priceToEarningsRatio, epsGrowth * 100);
  const forwardPriceToEarningsGrowthRatio =
    market.forwardEpsGrowth === undefined
      ? priceToEarningsGrowthRatio
      : safeDivide(priceToEarningsRatio, market.forwardEpsGrowth * 100);
  const priceToBookRatio = safeDivide(marketCap, equity);
  const dividendYield = safeDivide(dividends, marketCap);
  const averageWorkingCapital = average(
    workingCapital(balance),
    previous === undefined ? undefined : workingCapital(previous.balance),
  );

  return sanitize({
    symbol: income.symbol,
    date: income.date,
    fiscalYear: income.fiscalYear,
    period: income.period,
    reportedCurrency: income.reportedCurrency,
    grossProfitMargin: safeDivide(income.grossProfit, revenue),
    ebitMargin: safeDivide(income.ebit, revenue),
    ebitdaMargin: safeDivide(income.ebitda, revenue),
    operatingProfitMargin: safeDivide(income.operatingIncome, revenue),
    pretaxProfitMargin: safeDivide(income.incomeBeforeTax, revenue),
    continuousOperationsProfitMargin: safeDivide(income.netIncomeFromContinuingOperations, revenue),
    netProfitMargin: safeDivide(income.netIncome, revenue),
    bottomLineProfitMargin: safeDivide(income.bottomLineNetIncome, revenue),
    receivablesTurnover: safeDivide(revenue, balance.netReceivables),
    payablesTurnover: safeDivide(income.costOfRevenue, balance.accountPayables),
    inventoryTurnover: safeDivide(income.costOfRevenue, balance.inventory),
    fixedAssetTurnover: safeDivide(revenue, balance.propertyPlantEquipmentNet),
    assetTurnover: safeDivide(revenue, balance.totalAssets),
    currentRatio: safeDivide(balance.totalCurrentAssets, balance.totalCurrentLiabilities),
    quickRatio: safeDivide(balance.totalCurrentAssets - balance.inventory, balance.totalCurrentLiabilities),
    solvencyRatio: safeDivide(
      income.netIncome + cashFlow.depreciationAndAmortization,
      balance.totalLiabilities,
    ),
    cashRatio: safeDivide(balance.cashAndCashEquivalents, balance.totalCurrentLiabilities),
    priceToEarningsRatio,
    priceToEarningsGrowthRatio,
    forwardPriceToEarningsGrowthRatio,
    priceToBookRatio,
    priceToSalesRatio: safeDivide(marketCap, revenue),
    priceToFreeCashFlowRatio: safeDivide(marketCap, cashFlow.freeCashFlow),
    priceToOperatingCashFlowRatio: safeDivide(marketCap, ocf),
    debtToAssetsRatio: safeDivide(balance.totalDebt, balance.totalAssets),
    debtToEquityRatio: safeDivide(balance.totalDebt, equity),
    debtToCapitalRatio: safeDivide(balance.totalDebt, balance.totalDebt + equity),
    longTermDebtToCapitalRatio: safeDivide(balance.longTermDebt, balance.longTermDebt + equity),
    financialLeverageRatio: safeDivide(balance.totalAssets, equity),
    workingCapitalTurnoverRatio: safeDivide(revenue, averageWorkingCapital),
    operatingCashFlowRatio: safeDivide(ocf, balance.totalCurrentLiabilities),
    operatingCashFlowSalesRatio: safeDivide(ocf, revenue),
    freeCashFlowOperatingCashFlowRatio: safeDivide(cashFlow.freeCashFlow, ocf),
    debtServiceCoverageRatio: safeDivide(
      income.ebitda - income.incomeTaxExpense,
      balance.shortTermDebt + income.interestExpense,
    ),
    interestCoverageRatio: safeDivide(income.operatingIncome, income.interestExpense),
    shortTermOperatingCashFlowCoverageRatio: safeDivide(ocf, balance.shortTermDebt),
    operatingCashFlowCoverageRatio: safeDivide(ocf, balance.totalDebt),
    capitalExpenditureCoverageRatio: safeDivide(ocf, capex),
    dividendPaidAndCapexCoverageRatio: safeDivide(ocf, capex + dividends),
    dividendPayoutRatio: safeDivide(dividends, income.netIncome),
    dividendYield,
    dividendYieldPercentage: dividendYield * 100,
    revenuePerShare: safeDivide(revenue, shares),
    netIncomePerShare: safeDivide(income.netIncome, shares),
    interestDebtPerShare: safeDivide(income.interestExpense + balance.totalDebt, shares),
    cashPerShare: safeDivide(balance.cashAndShortTermInvestments, shares),
    bookValuePerShare: safeDivide(equity, shares),
    tangibleBookValuePerShare: safeDivide(equity - balance.goodwillAndIntangibleAssets, shares),
    shareholdersEquityPerShare: safeDivide(equity, shares),
    operatingCashFlowPerShare: safeDivide(ocf, shares),
    capexPerShare: safeDivide(capex, shares),
    freeCashFlowPerShare: safeDivide(cashFlow.freeCashFlow, shares),
    netIncomePerEBT: safeDivide(income.netIncome, income.incomeBeforeTax),
    ebtPerEbit: safeDivide(income.incomeBeforeTax, income.ebit),
    priceToFairValue: priceToBookRatio,
    debtToMarketCap: safeDivide(balance.totalDebt, marketCap),
    effectiveTaxRate: effectiveTaxRate(income),
    enterpriseValueMultiple: safeDivide(enterpriseValue, income.ebitda),
    dividendPerShare: market.dividendPerShare ?? safeDivide(dividends, shares),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Key metrics
// ---------------------------------------------------------------------------------------------------------

/**
 * Free cash flow to the firm as FMP's key metrics state it: after-tax operating profit plus depreciation, less
 * capital spending and the growth in balance-sheet working capital. Without a previous period the working
 * capital change comes from the cash flow statement instead.
 */
export function freeCashFlowToFirm(
  current: PeriodStatements,
  previous: PeriodStatements | undefined,
): number {
  const { income, balance, cashFlow } = current;
  const afterTaxEbit = income.ebit * (1 - effectiveTaxRate(income));
  const workingCapitalIncrease =
    previous === undefined
      ? -cashFlow.changeInWorkingCapital
      : workingCapital(balance) - workingCapital(previous.balance);
  return finite(
    afterTaxEbit +
      cashFlow.depreciationAndAmortization +
      cashFlow.capitalExpenditure -
      workingCapitalIncrease,
  );
}

/** Cash left for shareholders: operating cash flow less capital spending plus net borrowing. */
export function freeCashFlowToEquity(cashFlow: CashFlowStatement): number {
  return finite(cashFlow.operatingCashFlow + cashFlow.capitalExpenditure + cashFlow.netDebtIssuance);
}

/**
 * The FMP `key-metrics` row for one period. `previous` feeds the averages (receivables, payables, inventory,
 * total assets) and the working-capital change; without it the current values stand in.
 */
export function keyMetrics(
  current: PeriodStatements,
  previous: PeriodStatements | undefined,
  market: MarketInputs,
): KeyMetricsRow {
  const { income, balance, cashFlow } = current;
  const { shares, marketCap, enterpriseValue, revenue, equity, capex } = periodBasics(current, market);
  const ocf = cashFlow.operatingCashFlow;
  const days = periodDays(income.period);
  const prior = previous?.balance;

  const grahamProduct = 22.5 * safeDivide(income.netIncome, shares) * safeDivide(equity, shares);
  const nopat = income.operatingIncome * (1 - effectiveTaxRate(income));
  const capitalForReturn =
    balance.totalAssets -
    balance.totalCurrentLiabilities +
    balance.shortTermDebt +
    balance.capitalLeaseObligationsCurrent;
  const daysOfSalesOutstanding = safeDivide(balance.netReceivables, revenue) * days;
  const daysOfPayablesOutstanding = safeDivide(balance.accountPayables, income.costOfRevenue) * days;
  const daysOfInventoryOutstanding = safeDivide(balance.inventory, income.costOfRevenue) * days;
  const operatingCycle = daysOfSalesOutstanding + daysOfInventoryOutstanding;

  return sanitize({
    symbol: income.symbol,
    date: income.date,
    fiscalYear: income.fiscalYear,
    period: income.period,
    reportedCurrency: income.reportedCurrency,
    marketCap,
    enterpriseValue,
    evToSales: safeDivide(enterpriseValue, revenue),
    evToOperatingCashFlow: safeDivide(enterpriseValue, ocf),
    evToFreeCashFlow: safeDivide(enterpriseValue, cashFlow.freeCashFlow),
    evToEBITDA: safeDivide(enterpriseValue, income.ebitda),
    netDebtToEBITDA: safeDivide(netDebt(balance), income.ebitda),
    currentRatio: safeDivide(balance.totalCurrentAssets, balance.totalCurrentLiabilities),
    incomeQuality: safeDivide(ocf, income.netIncome),
    grahamNumber: grahamProduct > 0 ? Math.sqrt(grahamProduct) : 0,
    grahamNetNet: safeDivide(
      balance.cashAndShortTermInvestments +
        0.75 * balance.netReceivables +
        0.5 * balance.inventory -
        balance.totalLiabilities,
      shares,
    ),
    taxBurden: safeDivide(income.netIncome, income.incomeBeforeTax),
    interestBurden: safeDivide(income.incomeBeforeTax, income.ebit),
    workingCapital: workingCapital(balance),
    investedCapital: workingCapital(balance) + balance.propertyPlantEquipmentNet,
    returnOnAssets: safeDivide(income.netIncome, balance.totalAssets),
    operatingReturnOnAssets: safeDivide(
      income.operatingIncome,
      average(balance.totalAssets, prior?.totalAssets),
    ),
    returnOnTangibleAssets: safeDivide(
      income.netIncome,
      balance.totalAssets - balance.goodwillAndIntangibleAssets,
    ),
    returnOnEquity: safeDivide(income.netIncome, equity),
    returnOnInvestedCapital: safeDivide(nopat, capitalForReturn),
    returnOnCapitalEmployed: safeDivide(
      income.operatingIncome,
      balance.totalAssets - balance.totalCurrentLiabilities,
    ),
    earningsYield: safeDivide(income.netIncome, marketCap),
    freeCashFlowYield: safeDivide(cashFlow.freeCashFlow, marketCap),
    capexToOperatingCashFlow: safeDivide(capex, ocf),
    capexToDepreciation: safeDivide(capex, cashFlow.depreciationAndAmortization),
    capexToRevenue: safeDivide(capex, revenue),
    salesGeneralAndAdministrativeToRevenue: safeDivide(
      income.sellingGeneralAndAdministrativeExpenses,
      revenue,
    ),
    researchAndDevelopementToRevenue: safeDivide(income.researchAndDevelopmentExpenses, revenue),
    stockBasedCompensationToRevenue: safeDivide(cashFlow.stockBasedCompensation, revenue),
    intangiblesToTotalAssets: safeDivide(balance.goodwillAndIntangibleAssets, balance.totalAssets),
    averageReceivables: average(balance.netReceivables, prior?.netReceivables),
    averagePayables: average(balance.accountPayables, prior?.accountPayables),
    averageInventory: average(balance.inventory, prior?.inventory),
    daysOfSalesOutstanding,
    daysOfPayablesOutstanding,
    daysOfInventoryOutstanding,
    operatingCycle,
    cashConversionCycle: operatingCycle - daysOfPayablesOutstanding,
    freeCashFlowToEquity: freeCashFlowToEquity(cashFlow),
    freeCashFlowToFirm: freeCashFlowToFirm(current, previous),
    tangibleAssetValue: balance.totalAssets - balance.goodwillAndIntangibleAssets - balance.totalLiabilities,
    netCurrentAssetValue: balance.totalCurrentAssets - balance.totalLiabilities,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Enterprise value
// ---------------------------------------------------------------------------------------------------------

/** The FMP `enterprise-values` row: what buying the whole company would cost, net of its cash. */
export function enterpriseValue(
  balance: BalanceSheet,
  price: number,
  shares: number,
  date: string,
): EnterpriseValueRow {
  const marketCapitalization = marketCapOf(price, shares);
  return sanitize({
    symbol: balance.symbol,
    date,
    stockPrice: price,
    numberOfShares: shares,
    marketCapitalization,
    minusCashAndCashEquivalents: balance.cashAndCashEquivalents,
    addTotalDebt: balance.totalDebt,
    enterpriseValue: enterpriseValueOf(marketCapitalization, balance),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Financial scores
// ---------------------------------------------------------------------------------------------------------

/** The nine Piotroski tests, each true when the period earns its point (see src/content/docs/piotroski-score.md). */
export interface PiotroskiCriteria {
  positiveNetIncome: boolean;
  positiveOperatingCashFlow: boolean;
  higherReturnOnAssets: boolean;
  cashFlowAboveNetIncome: boolean;
  lowerLongTermLeverage: boolean;
  higherCurrentRatio: boolean;
  noShareDilution: boolean;
  higherGrossMargin: boolean;
  higherAssetTurnover: boolean;
}

/**
 * Each Piotroski test separately, so a page can show which ones a company passed. Tests that compare with the
 * prior year fail when there is no prior year.
 */
export function piotroskiCriteria(
  current: PeriodStatements,
  previous: PeriodStatements | undefined,
): PiotroskiCriteria {
  const { income, balance, cashFlow } = current;
  const roa = (s: PeriodStatements): number => safeDivide(s.income.netIncome, s.balance.totalAssets);
  const leverage = (s: PeriodStatements): number => safeDivide(s.balance.longTermDebt, s.balance.totalAssets);
  const currentRatio = (s: PeriodStatements): number =>
    safeDivide(s.balance.totalCurrentAssets, s.balance.totalCurrentLiabilities);
  const grossMargin = (s: PeriodStatements): number => safeDivide(s.income.grossProfit, s.income.revenue);
  const assetTurnover = (s: PeriodStatements): number => safeDivide(s.income.revenue, s.balance.totalAssets);

  const compared = previous !== undefined;
  return {
    positiveNetIncome: income.netIncome > 0,
    positiveOperatingCashFlow: cashFlow.operatingCashFlow > 0,
    higherReturnOnAssets: compared && roa(current) > roa(previous),
    cashFlowAboveNetIncome: cashFlow.operatingCashFlow > income.netIncome,
    lowerLongTermLeverage:
      compared &&
      (leverage(current) < leverage(previous) ||
        (balance.longTermDebt === 0 && previous.balance.longTermDebt === 0)),
    higherCurrentRatio: compared && currentRatio(current) > currentRatio(previous),
    noShareDilution: compared && income.weightedAverageShsOut <= previous.income.weightedAverageShsOut,
    higherGrossMargin: compared && grossMargin(current) > grossMargin(previous),
    higherAssetTurnover: compared && assetTurnover(current) > assetTurnover(previous),
  };
}

/** Piotroski F-score, 0..9: one point for each test in {@link piotroskiCriteria} that the period passes. */
export function piotroskiScore(current: PeriodStatements, previous: PeriodStatements | undefined): number {
  return Object.values(piotroskiCriteria(current, previous)).filter(Boolean).length;
}

/**
 * Altman's original (1968) Z-score for listed manufacturers, the variant FMP publishes; each term whose
 * denominator is zero contributes 0.
 */
export function altmanZScore(current: PeriodStatements, marketCap: number): number {
  const { income, balance } = current;
  const totalAssets = balance.totalAssets;
  return finite(
    1.2 * safeDivide(workingCapital(balance), totalAssets) +
      1.4 * safeDivide(balance.retainedEarnings, totalAssets) +
      3.3 * safeDivide(income.ebit, totalAssets) +
      0.6 * safeDivide(marketCap, balance.totalLiabilities) +
      1.0 * safeDivide(income.revenue, totalAssets),
  );
}

/** The FMP `financial-scores` row: both scores plus the inputs of the Altman Z-score. */
export function financialScores(
  current: PeriodStatements,
  previous: PeriodStatements | undefined,
  marketCap: number,
): FinancialScoresRow {
  const { income, balance } = current;
  return sanitize({
    symbol: income.symbol,
    reportedCurrency: income.reportedCurrency,
    altmanZScore: altmanZScore(current, marketCap),
    piotroskiScore: piotroskiScore(current, previous),
    workingCapital: workingCapital(balance),
    totalAssets: balance.totalAssets,
    retainedEarnings: balance.retainedEarnings,
    ebit: income.ebit,
    marketCap,
    totalLiabilities: balance.totalLiabilities,
    revenue: income.revenue,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Owner earnings
// ---------------------------------------------------------------------------------------------------------

/**
 * The FMP `owner-earnings` row. Maintenance capex is estimated by the revenue-growth method: the part of capex
 * that the revenue growth since `previous` (the same fiscal period a year earlier) would have needed at the
 * company's PPE-to-revenue ratio is growth capex; the rest keeps the business as it is.
 */
export function ownerEarnings(
  current: PeriodStatements,
  previous: PeriodStatements | undefined,
): OwnerEarningsRow {
  const { income, balance, cashFlow } = current;
  const capex = Math.abs(cashFlow.capitalExpenditure);
  const ppeToRevenue = safeDivide(balance.propertyPlantEquipmentNet, income.revenue);
  const averagePPE =
    previous === undefined
      ? ppeToRevenue
      : (ppeToRevenue + safeDivide(previous.balance.propertyPlantEquipmentNet, previous.income.revenue)) / 2;
  const revenueIncrease = previous === undefined ? 0 : income.revenue - previous.income.revenue;
  const growthCapex = Math.min(capex, Math.max(0, finite(averagePPE * revenueIncrease)));
  const maintenanceCapex = capex - growthCapex;
  const ownersEarnings = cashFlow.operatingCashFlow - maintenanceCapex;
  return sanitize({
    symbol: income.symbol,
    reportedCurrency: income.reportedCurrency,
    fiscalYear: income.fiscalYear,
    period: income.period,
    date: income.date,
    averagePPE,
    maintenanceCapex: -maintenanceCapex,
    ownersEarnings,
    growthCapex: -growthCapex,
    ownersEarningsPerShare: safeDivide(ownersEarnings, defaultShares(income)),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Discounted cash flow
// ---------------------------------------------------------------------------------------------------------

/** Risk-free rate used when the caller has no treasury yield to hand. */
export const DEFAULT_RISK_FREE_RATE = 0.04;
/** Equity risk premium used unless the caller supplies one (the market risk premium FMP's DCF output shows). */
export const DEFAULT_EQUITY_RISK_PREMIUM = 0.0472;
/** Beta used when no beta is known: the market's own. */
export const DEFAULT_BETA = 1;
/** Long-run growth of cash flows after the projection years, roughly long-run nominal GDP growth. */
export const DEFAULT_TERMINAL_GROWTH_RATE = 0.025;
/** Tax rate used when the latest year had no pre-tax profit (US federal statutory rate). */
export const DEFAULT_TAX_RATE = 0.21;
/** Bounds on the default growth assumption, so one exceptional year does not dominate the valuation. */
export const DEFAULT_GROWTH_BOUNDS = { min: -0.05, max: 0.15 } as const;

/** Statement history and market inputs from which default DCF assumptions are derived. */
export interface DcfStatementInputs {
  /** Annual statements, newest first; at least one. */
  annual: readonly PeriodStatements[];
  /** Latest price and its date (the valuation is "now"). */
  price: number;
  date: string;
  sharesOutstanding?: number | undefined;
  riskFreeRate?: number | undefined;
  beta?: number | undefined;
  equityRiskPremium?: number | undefined;
  terminalGrowthRate?: number | undefined;
  growthRate?: number | undefined;
  projectionYears?: number | undefined;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, finite(value)));
}

/**
 * Mean year-over-year revenue growth over up to five consecutive annual pairs, clamped to
 * {@link DEFAULT_GROWTH_BOUNDS}; 0 with fewer than two years.
 */
export function defaultGrowthRate(annual: readonly PeriodStatements[]): number {
  const rates: number[] = [];
  for (let i = 0; i + 1 < annual.length && rates.length < 5; i++) {
    const newer = annual[i];
    const older = annual[i + 1];
    if (newer && older) rates.push(growthRate(newer.income.revenue, older.income.revenue));
  }
  if (rates.length === 0) return 0;
  const mean = rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
  return clamp(mean, DEFAULT_GROWTH_BOUNDS.min, DEFAULT_GROWTH_BOUNDS.max);
}

/**
 * Default assumptions from the statements, so a model exists before anyone edits it. Each default is written
 * out in src/content/docs/dcf-formula.md ("Default assumptions").
 */
export function defaultDcfAssumptions(input: DcfStatementInputs, kind: DcfKind): DcfAssumptions {
  const latest = input.annual[0];
  if (!latest) throw new Error('A DCF needs at least one annual period');
  const { income, balance, cashFlow } = latest;
  const riskFreeRate = input.riskFreeRate ?? DEFAULT_RISK_FREE_RATE;
  const taxRate = income.incomeBeforeTax > 0 ? clamp(effectiveTaxRate(income), 0, 0.5) : DEFAULT_TAX_RATE;
  const costOfDebt =
    income.interestExpense > 0 && balance.totalDebt > 0
      ? clamp(income.interestExpense / balance.totalDebt, 0, 0.2)
      : riskFreeRate;
  const baseCashFlow =
    kind === 'unlevered'
      ? cashFlow.operatingCashFlow + income.interestExpense * (1 - taxRate) + cashFlow.capitalExpenditure
      : freeCashFlowToEquity(cashFlow);
  const fiscalYear = Number.parseInt(income.fiscalYear, 10);
  return {
    symbol: income.symbol,
    date: input.date,
    stockPrice: input.price,
    baseYear: Number.isFinite(fiscalYear) ? fiscalYear : Number.parseInt(income.date.slice(0, 4), 10) || 0,
    baseCashFlow: finite(baseCashFlow),
    growthRate: input.growthRate ?? defaultGrowthRate(input.annual),
    terminalGrowthRate: input.terminalGrowthRate ?? DEFAULT_TERMINAL_GROWTH_RATE,
    projectionYears: input.projectionYears ?? DEFAULT_PROJECTION_YEARS,
    riskFreeRate,
    beta: input.beta ?? DEFAULT_BETA,
    equityRiskPremium: input.equityRiskPremium ?? DEFAULT_EQUITY_RISK_PREMIUM,
    costOfDebt,
    taxRate,
    totalDebt: balance.totalDebt,
    netDebt: netDebt(balance),
    sharesOutstanding: input.sharesOutstanding ?? defaultShares(income),
  };
}

/** The FMP `discounted-cash-flow` row: the unlevered model's value per share beside the price. */
export function discountedCashFlow(assumptions: DcfAssumptions): DiscountedCashFlowRow {
  const model = unleveredDcfModel(assumptions);
  return {
    symbol: model.symbol,
    date: model.date,
    dcf: model.equityValuePerShare,
    'Stock Price': model.stockPrice,
  };
}

/** The FMP `levered-discounted-cash-flow` row: the levered model's value per share beside the price. */
export function leveredDiscountedCashFlow(assumptions: DcfAssumptions): DiscountedCashFlowRow {
  const model = leveredDcfModel(assumptions);
  return {
    symbol: model.symbol,
    date: model.date,
    dcf: model.equityValuePerShare,
    'Stock Price': model.stockPrice,
  };
}
