import {
  lineNames,
  type BalanceLineName,
  type CashFlowLineName,
  type IncomeLineName,
} from '../../../../lib/statement-fields.ts';
import {
  addMonths,
  addWeekdays,
  dayOf,
  fromDay,
  lastIndexAtOrBefore,
  monthEnd,
  monthOf,
  yearOf,
} from './calendar.ts';
import type { SymbolSeries } from './prices.ts';
import { createRandom, round, type Random } from './random.ts';
import { ANCHOR_DAY, type FundamentalsSpec, type SecuritySpec } from './universe.ts';

/**
 * Quarterly financial statements that hold together: every balance sheet balances, the cash flow statement
 * explains the change in cash, net income and dividends agree across statements and with the dividend history.
 * Quarters are generated forward from a fixed first fiscal year, each from its own random stream; fiscal years
 * are the sums of their quarters (flows) and the fourth quarter's balance sheet.
 */

/** Each statement's line names, in FMP's order: the generator fills them all, the fiscal year sums its flows. */
const INCOME_FIELDS = lineNames('income');
const BALANCE_FIELDS = lineNames('balance');
const CASH_FLOW_FIELDS = lineNames('cashFlow');

export interface PeriodStatements {
  fiscalYear: number;
  /** 1–4 for quarters, 0 for the fiscal year. */
  quarter: number;
  startDay: number;
  endDay: number;
  announcementDay: number;
  filingDay: number;
  /** Split factor at the period end: share counts are reported in the terms of that date. */
  shareFactor: number;
  income: Record<IncomeLineName, number>;
  balance: Record<BalanceLineName, number>;
  cashFlow: Record<CashFlowLineName, number>;
}

export interface CompanyFundamentals {
  quarters: PeriodStatements[];
  years: PeriodStatements[];
}

/** The end of fiscal quarter k (1–4) of fiscal year `fy` for a year ending in month `m`. */
export function fiscalQuarterEnd(fy: number, k: number, m: number): number {
  const yearEnd = dayOf(fy, m, 1);
  const month = addMonths(yearEnd, -3 * (4 - k));
  return monthEnd(yearOf(month), monthOf(month));
}

interface State {
  cash: number;
  sti: number;
  ar: number;
  otherReceivables: number;
  inventory: number;
  prepaids: number;
  otherCurrentAssets: number;
  ppe: number;
  goodwill: number;
  intangibles: number;
  lti: number;
  taxAssets: number;
  otherNonCurrentAssets: number;
  ap: number;
  otherPayables: number;
  accrued: number;
  std: number;
  leaseCurrent: number;
  taxPayables: number;
  deferredRevenue: number;
  otherCurrentLiabilities: number;
  ltd: number;
  leaseNonCurrent: number;
  deferredRevenueNonCurrent: number;
  dtl: number;
  otherNonCurrentLiabilities: number;
  treasury: number;
  commonStock: number;
  retained: number;
  apic: number;
  aoci: number;
  minority: number;
}

const r0 = Math.round;

function debtRatio(sector: string): number {
  switch (sector) {
    case 'Utilities':
      return 2.2;
    case 'Real Estate':
      return 3.5;
    case 'Financial Services':
      return 1.4;
    case 'Technology':
      return 0.3;
    case 'Healthcare':
      return 0.5;
    default:
      return 0.6;
  }
}

function sbcRatio(sector: string): number {
  if (sector === 'Technology') return 0.05;
  if (sector === 'Communication Services') return 0.04;
  if (sector === 'Healthcare') return 0.025;
  return 0.01;
}

function balanceSheet(s: State): Record<BalanceLineName, number> {
  const cashAndShortTermInvestments = s.cash + s.sti;
  const netReceivables = s.ar + s.otherReceivables;
  const totalCurrentAssets =
    cashAndShortTermInvestments + netReceivables + s.inventory + s.prepaids + s.otherCurrentAssets;
  const goodwillAndIntangibleAssets = s.goodwill + s.intangibles;
  const totalNonCurrentAssets =
    s.ppe + goodwillAndIntangibleAssets + s.lti + s.taxAssets + s.otherNonCurrentAssets;
  const totalAssets = totalCurrentAssets + totalNonCurrentAssets;
  const totalPayables = s.ap + s.otherPayables;
  const totalCurrentLiabilities =
    totalPayables +
    s.accrued +
    s.std +
    s.leaseCurrent +
    s.taxPayables +
    s.deferredRevenue +
    s.otherCurrentLiabilities;
  const totalNonCurrentLiabilities =
    s.ltd + s.leaseNonCurrent + s.deferredRevenueNonCurrent + s.dtl + s.otherNonCurrentLiabilities;
  const totalLiabilities = totalCurrentLiabilities + totalNonCurrentLiabilities;
  const totalStockholdersEquity = s.treasury + s.commonStock + s.retained + s.apic + s.aoci;
  const totalEquity = totalStockholdersEquity + s.minority;
  const totalDebt = s.std + s.ltd;
  return {
    cashAndCashEquivalents: s.cash,
    shortTermInvestments: s.sti,
    cashAndShortTermInvestments,
    netReceivables,
    accountsReceivables: s.ar,
    otherReceivables: s.otherReceivables,
    inventory: s.inventory,
    prepaids: s.prepaids,
    otherCurrentAssets: s.otherCurrentAssets,
    totalCurrentAssets,
    propertyPlantEquipmentNet: s.ppe,
    goodwill: s.goodwill,
    intangibleAssets: s.intangibles,
    goodwillAndIntangibleAssets,
    longTermInvestments: s.lti,
    taxAssets: s.taxAssets,
    otherNonCurrentAssets: s.otherNonCurrentAssets,
    totalNonCurrentAssets,
    otherAssets: 0,
    totalAssets,
    totalPayables,
    accountPayables: s.ap,
    otherPayables: s.otherPayables,
    accruedExpenses: s.accrued,
    shortTermDebt: s.std,
    capitalLeaseObligationsCurrent: s.leaseCurrent,
    taxPayables: s.taxPayables,
    deferredRevenue: s.deferredRevenue,
    otherCurrentLiabilities: s.otherCurrentLiabilities,
    totalCurrentLiabilities,
    longTermDebt: s.ltd,
    capitalLeaseObligationsNonCurrent: s.leaseNonCurrent,
    deferredRevenueNonCurrent: s.deferredRevenueNonCurrent,
    deferredTaxLiabilitiesNonCurrent: s.dtl,
    otherNonCurrentLiabilities: s.otherNonCurrentLiabilities,
    totalNonCurrentLiabilities,
    otherLiabilities: 0,
    capitalLeaseObligations: s.leaseCurrent + s.leaseNonCurrent,
    totalLiabilities,
    treasuryStock: s.treasury,
    preferredStock: 0,
    commonStock: s.commonStock,
    retainedEarnings: s.retained,
    additionalPaidInCapital: s.apic,
    accumulatedOtherComprehensiveIncomeLoss: s.aoci,
    otherTotalStockholdersEquity: 0,
    totalStockholdersEquity,
    totalEquity,
    minorityInterest: s.minority,
    totalLiabilitiesAndTotalEquity: totalLiabilities + totalEquity,
    totalInvestments: s.sti + s.lti,
    totalDebt,
    netDebt: totalDebt - s.cash,
  };
}

/** What a company's statements derive from: its character, its price history and the path of its share count. */
interface CompanyModel {
  spec: SecuritySpec;
  f: FundamentalsSpec;
  series: SymbolSeries;
  /** Split factor on a day (the first one before the price history starts). */
  splitFactorAt: (day: number) => number;
  /** As-traded price around a day, extrapolated before the price history starts. */
  rawPriceAt: (day: number) => number;
  /** Shares outstanding in anchor-date terms (buybacks shrink the count over time). */
  anchorShares: (day: number) => number;
  /** Yearly revenue around a day. */
  annualRevenueAt: (day: number) => number;
  /** The debt a company of this sector carries for a yearly revenue. */
  debtTarget: (annual: number) => number;
}

function companyModel(spec: SecuritySpec, f: FundamentalsSpec, series: SymbolSeries): CompanyModel {
  const sharesAnchor = spec.sharesOutstanding ?? 1e8;
  const { grid } = series;
  const firstDay = grid.days[0] ?? 0;
  const firstClose = grid.anchorClose[0] ?? 1;
  const splitFactorAt = (day: number): number => {
    if (day < firstDay) return grid.splitFactor[0] ?? 1;
    return grid.splitFactor[Math.max(0, lastIndexAtOrBefore(grid.days, day))] ?? 1;
  };
  const rawPriceAt = (day: number): number => {
    if (day < firstDay)
      return (
        firstClose * Math.exp((-Math.max(f.growth, 0.03) * (firstDay - day)) / 365.25) * splitFactorAt(day)
      );
    const index = Math.max(0, lastIndexAtOrBefore(grid.days, day));
    return grid.close[index] ?? firstClose;
  };
  return {
    spec,
    f,
    series,
    splitFactorAt,
    rawPriceAt,
    anchorShares: (day) => sharesAnchor * Math.exp((f.shareChange * (day - ANCHOR_DAY)) / 365.25),
    annualRevenueAt: (day) =>
      f.revenue * Math.exp((day <= ANCHOR_DAY ? f.growth : f.growth * 0.7) * ((day - ANCHOR_DAY) / 365.25)),
    debtTarget: (annual) => annual * debtRatio(spec.sector) * 0.9,
  };
}

/** The balances before the first quarter, sized from the revenue then; equity makes the sheet balance. */
function openingState(seed: number, model: CompanyModel, firstStart: number): State {
  const { spec, f, debtTarget } = model;
  const sharesAnchor = spec.sharesOutstanding ?? 1e8;
  const startRandom = createRandom(seed, 'fundamentals', spec.symbol, 'start');
  const r = model.annualRevenueAt(firstStart);
  const state: State = {
    cash: r0(r * startRandom.range(0.08, 0.25)),
    sti: r0(r * startRandom.range(0.02, 0.15)),
    ar: r0((r / 4) * 0.5),
    otherReceivables: r0(r * 0.01),
    inventory: r0(((r * (1 - f.grossMargin)) / 365) * f.inventoryDays),
    prepaids: r0(r * 0.015),
    otherCurrentAssets: r0(r * 0.02),
    ppe: r0(r * f.capexRatio * 5 + r * 0.05),
    goodwill: r0(r * startRandom.range(0.05, 0.4)),
    intangibles: r0(r * startRandom.range(0.01, 0.1)),
    lti: r0(r * startRandom.range(0.05, 0.3)),
    taxAssets: r0(r * 0.02),
    otherNonCurrentAssets: r0(r * 0.04),
    ap: r0(((r * (1 - f.grossMargin)) / 365) * 45),
    otherPayables: r0(r * 0.005),
    accrued: r0(r * 0.04),
    std: r0(debtTarget(r) * 0.08),
    leaseCurrent: r0(r * 0.004),
    taxPayables: r0(r * 0.005),
    deferredRevenue: r0(r * (spec.industry.startsWith('Software') ? 0.2 : 0.02)),
    otherCurrentLiabilities: r0(r * 0.03),
    ltd: r0(debtTarget(r) * 0.92),
    leaseNonCurrent: r0(r * 0.03),
    deferredRevenueNonCurrent: r0(r * (spec.industry.startsWith('Software') ? 0.03 : 0.002)),
    dtl: r0(r * 0.02),
    otherNonCurrentLiabilities: r0(r * 0.03),
    treasury: 0,
    commonStock: r0(sharesAnchor * 0.01),
    retained: 0,
    apic: 0,
    aoci: r0(-r * 0.005),
    minority: r0(r * startRandom.range(0, 0.01)),
  };
  const sheet = balanceSheet(state);
  const equity = sheet.totalAssets - sheet.totalLiabilities - state.minority - state.commonStock - state.aoci;
  state.apic = r0(Math.abs(equity) * 0.4 + r * 0.05);
  state.retained = equity - state.apic;
  return state;
}

/** A quarter's income statement figures. */
interface QuarterIncome {
  revenue: number;
  costOfRevenue: number;
  grossProfit: number;
  research: number;
  generalAndAdministrative: number;
  sellingAndMarketing: number;
  sga: number;
  otherExpenses: number;
  operatingExpenses: number;
  operatingIncome: number;
  depreciation: number;
  amortization: number;
  da: number;
  interestIncome: number;
  interestExpense: number;
  netInterestIncome: number;
  nonOperating: number;
  totalOther: number;
  incomeBeforeTax: number;
  incomeTax: number;
  netIncome: number;
}

/** The quarter's income: seasonal revenue around the trend (`dev` is the quarter's deviation), margins drawn. */
function quarterIncome(
  model: CompanyModel,
  state: State,
  random: Random,
  start: number,
  end: number,
  dev: number,
): QuarterIncome {
  const { f } = model;
  const mid = (start + end) / 2;
  const holiday = monthOf(end) === 12 || monthOf(end) === 1;
  const season = f.seasonal ? (holiday ? 1.22 : 0.93) : 1;
  const R = r0((model.annualRevenueAt(mid) / 4) * Math.exp(dev) * season);
  const gm = Math.min(0.95, Math.max(0.03, f.grossMargin + 0.01 * random.normal()));
  const costOfRevenue = r0(R * (1 - gm));
  const grossProfit = R - costOfRevenue;
  const research = r0(R * f.researchRatio * (1 + 0.04 * random.normal()));
  const opMargin = f.netMargin / (1 - f.taxRate) + 0.012 * random.normal();
  const otherExpenses = r0(R * 0.004 * Math.abs(random.normal()));
  const sga = Math.max(r0(R * 0.02), r0(R * (gm - opMargin)) - research - otherExpenses);
  const generalAndAdministrative = r0(sga * 0.42);
  const sellingAndMarketing = sga - generalAndAdministrative;
  const operatingExpenses = research + sga + otherExpenses;
  const operatingIncome = grossProfit - operatingExpenses;
  const depreciation = r0(state.ppe * 0.035);
  const amortization = r0(state.intangibles * 0.03);
  const da = depreciation + amortization;
  const interestIncome = r0((state.cash + state.sti) * 0.006);
  const interestExpense = r0((state.std + state.ltd) * 0.011);
  const netInterestIncome = interestIncome - interestExpense;
  const nonOperating = r0(R * 0.003 * random.normal());
  const totalOther = netInterestIncome + nonOperating;
  const incomeBeforeTax = operatingIncome + totalOther;
  const taxRate = Math.max(0.05, f.taxRate + 0.02 * random.normal());
  const incomeTax = incomeBeforeTax > 0 ? r0(incomeBeforeTax * taxRate) : r0(incomeBeforeTax * 0.05);
  const netIncome = incomeBeforeTax - incomeTax;
  return {
    revenue: R,
    costOfRevenue,
    grossProfit,
    research,
    generalAndAdministrative,
    sellingAndMarketing,
    sga,
    otherExpenses,
    operatingExpenses,
    operatingIncome,
    depreciation,
    amortization,
    da,
    interestIncome,
    interestExpense,
    netInterestIncome,
    nonOperating,
    totalOther,
    incomeBeforeTax,
    incomeTax,
    netIncome,
  };
}

/** A quarter's share counts and dividends, in the terms of the quarter's end (as reported). */
interface QuarterShares {
  endFactor: number;
  weighted: number;
  diluted: number;
  /** Dividends paid by ex-date inside the quarter (negative). */
  dividendsPaid: number;
}

function quarterShares(model: CompanyModel, start: number, end: number): QuarterShares {
  const { f, series, splitFactorAt, anchorShares } = model;
  const endFactor = splitFactorAt(end);
  const sharesStart = anchorShares(start) / endFactor;
  const sharesEnd = anchorShares(end) / endFactor;
  const weighted = r0((sharesStart + sharesEnd) / 2);
  const diluted = r0(weighted * (1 + (f.shareChange > 0 ? 0.02 : 0.008)));
  let dividendsPerShare = 0;
  for (const dv of series.dividends) {
    if (dv.day >= start && dv.day <= end)
      dividendsPerShare += dv.dividend * (splitFactorAt(dv.day) / endFactor);
  }
  return { endFactor, weighted, diluted, dividendsPaid: -r0(dividendsPerShare * weighted) };
}

/** A balance drawn around its target level. */
function drift(random: Random, target: number): number {
  return r0(target * (1 + 0.04 * random.normal()));
}

/** The cash flow statement's working capital lines. */
interface WorkingCapitalChange {
  receivablesChange: number;
  inventoryChange: number;
  payablesChange: number;
  otherWorkingCapital: number;
  changeInWorkingCapital: number;
}

/** Working capital and other balances move toward levels set by the quarter's activity. */
function moveWorkingCapital(
  model: CompanyModel,
  state: State,
  before: State,
  random: Random,
  income: QuarterIncome,
): WorkingCapitalChange {
  const { f, spec } = model;
  const { revenue: R, costOfRevenue, operatingExpenses, incomeTax } = income;
  state.ar = drift(random, R * random.range(0.45, 0.6));
  state.otherReceivables = drift(random, R * 0.04);
  state.inventory = drift(random, (costOfRevenue / 91.25) * f.inventoryDays);
  state.prepaids = drift(random, R * 0.06);
  state.otherCurrentAssets = drift(random, R * 0.08);
  state.ap = drift(random, (costOfRevenue / 91.25) * random.range(35, 55));
  state.otherPayables = drift(random, R * 0.02);
  state.accrued = drift(random, operatingExpenses * 0.35 + R * 0.04);
  state.taxPayables = Math.max(0, drift(random, Math.max(incomeTax, 0) * 0.35));
  state.deferredRevenue = drift(random, R * (spec.industry.startsWith('Software') ? 0.8 : 0.08));
  state.otherCurrentLiabilities = drift(random, R * 0.12);
  state.deferredRevenueNonCurrent = drift(random, R * (spec.industry.startsWith('Software') ? 0.12 : 0.008));
  const receivablesChange = -(state.ar - before.ar + state.otherReceivables - before.otherReceivables);
  const inventoryChange = -(state.inventory - before.inventory);
  const payablesChange = state.ap - before.ap + state.otherPayables - before.otherPayables;
  const otherWorkingCapital =
    state.accrued -
    before.accrued +
    state.taxPayables -
    before.taxPayables +
    state.deferredRevenue -
    before.deferredRevenue +
    state.otherCurrentLiabilities -
    before.otherCurrentLiabilities +
    state.deferredRevenueNonCurrent -
    before.deferredRevenueNonCurrent -
    (state.prepaids - before.prepaids) -
    (state.otherCurrentAssets - before.otherCurrentAssets);
  const changeInWorkingCapital = receivablesChange + inventoryChange + payablesChange + otherWorkingCapital;
  return { receivablesChange, inventoryChange, payablesChange, otherWorkingCapital, changeInWorkingCapital };
}

/** The operating section's non-cash lines and its total. */
interface OperatingCash {
  deferredTaxApplied: number;
  stockBasedCompensation: number;
  otherNonCashNoise: number;
  otherNonCashItems: number;
  operatingCashFlow: number;
}

/** Net income adjusted for non-cash items (deferred tax and tax assets move the balances) and working capital. */
function operatingCash(
  model: CompanyModel,
  state: State,
  before: State,
  random: Random,
  income: QuarterIncome,
  workingCapital: WorkingCapitalChange,
): OperatingCash {
  const { revenue: R, incomeTax, netIncome, da } = income;
  const deferredIncomeTax = r0(Math.abs(incomeTax) * 0.06 * random.normal());
  state.dtl = Math.max(0, before.dtl + deferredIncomeTax);
  const deferredTaxApplied = state.dtl - before.dtl;
  const stockBasedCompensation = r0(R * sbcRatio(model.spec.sector) * (1 + 0.05 * random.normal()));
  state.taxAssets = Math.max(0, drift(random, R * 0.08));
  const otherNonCashNoise = r0(R * 0.004 * random.normal());
  const otherNonCashItems = -(state.taxAssets - before.taxAssets) + otherNonCashNoise;
  const operatingCashFlow =
    netIncome +
    da +
    deferredTaxApplied +
    stockBasedCompensation +
    workingCapital.changeInWorkingCapital +
    otherNonCashItems;
  return {
    deferredTaxApplied,
    stockBasedCompensation,
    otherNonCashNoise,
    otherNonCashItems,
    operatingCashFlow,
  };
}

/** The quarter's investing draws (outflows positive). */
interface Investing {
  capex: number;
  acquisition: number;
  otherInvesting: number;
  purchases: number;
  sales: number;
}

function investingDraws(model: CompanyModel, before: State, random: Random, R: number): Investing {
  const capex = r0(R * model.f.capexRatio * (1 + 0.12 * random.normal()));
  const acquisition = random.chance(0.03) ? r0(R * random.range(0.2, 0.8)) : 0;
  const otherInvesting = r0(R * 0.003 * random.normal());
  const purchases = r0(R * random.range(0.05, 0.25));
  const sales = Math.min(before.sti + before.lti + purchases, r0(R * random.range(0.05, 0.22)));
  return { capex, acquisition, otherInvesting, purchases, sales };
}

/** The quarter's financing draws and the other balance movements that do not touch income. */
interface Financing {
  paidDividends: number;
  issuance: number;
  newShareIssuance: number;
  repurchase: number;
  otherFinancing: number;
  longTermDebtChange: number;
  shortTermDebtChange: number;
  fx: number;
  leaseChange: number;
  revaluation: number;
}

function financingDraws(
  model: CompanyModel,
  before: State,
  random: Random,
  income: QuarterIncome,
  shares: QuarterShares,
  stockBasedCompensation: number,
  start: number,
  end: number,
): Financing {
  const { revenue: R, netIncome } = income;
  const { endFactor } = shares;
  const paidDividends = shares.dividendsPaid;
  const employeeIssuance = r0(R * 0.003 * Math.abs(random.normal()));
  const shareDelta = model.anchorShares(end) - model.anchorShares(start);
  const quarterPrice = model.rawPriceAt(end);
  // Buybacks are paid from earnings: the share count follows its path, the amount spent is capped.
  const affordable = Math.max(0, 0.85 * (netIncome + stockBasedCompensation) + paidDividends);
  const repurchase =
    shareDelta < 0 ? -Math.min(r0((-shareDelta / endFactor) * quarterPrice), r0(affordable)) : 0;
  const newShareIssuance = shareDelta > 0 ? r0((shareDelta / endFactor) * quarterPrice * 0.3) : 0;
  // A company whose equity runs low raises capital.
  const equityAfter =
    before.treasury +
    before.commonStock +
    before.retained +
    before.apic +
    before.aoci +
    netIncome +
    paidDividends +
    repurchase;
  const issuance = employeeIssuance + (equityAfter < R * 0.6 ? r0(R * 1.2) : 0);
  const otherFinancing = r0(R * 0.002 * random.normal());
  const annual = R * 4;
  const longTermDebtChange = r0(
    (model.debtTarget(annual) * 0.92 - before.ltd) * 0.15 + annual * 0.01 * random.normal(),
  );
  const shortTermDebtChange = Math.max(-before.std, r0((model.debtTarget(annual) * 0.08 - before.std) * 0.3));
  const fx =
    model.spec.currency === 'USD'
      ? r0(before.cash * 0.002 * random.normal())
      : r0(before.cash * 0.008 * random.normal());
  const leaseChange = Math.max(
    -(before.leaseCurrent + before.leaseNonCurrent) + 1,
    r0(R * 0.004 * random.normal()),
  );
  const revaluation = Math.max(-r0(before.lti * 0.05), r0(before.lti * 0.01 * random.normal()));
  return {
    paidDividends,
    issuance,
    newShareIssuance,
    repurchase,
    otherFinancing,
    longTermDebtChange,
    shortTermDebtChange,
    fx,
    leaseChange,
    revaluation,
  };
}

/** Cash must stay within sensible bounds: borrow when short, invest the excess (adjusts the draws in place). */
function keepCashInBounds(
  before: State,
  R: number,
  operatingCashFlow: number,
  investing: Investing,
  financing: Financing,
): void {
  const provisional =
    before.cash +
    operatingCashFlow -
    investing.capex -
    investing.acquisition -
    investing.purchases +
    investing.sales +
    investing.otherInvesting +
    financing.longTermDebtChange +
    financing.shortTermDebtChange +
    financing.issuance +
    financing.newShareIssuance +
    financing.repurchase +
    financing.paidDividends +
    financing.otherFinancing +
    financing.fx;
  const annual = R * 4;
  const minCash = annual * 0.05;
  const maxCash = annual * 0.5;
  if (provisional < minCash) financing.longTermDebtChange += r0(minCash - provisional + annual * 0.02);
  else if (provisional > maxCash) investing.purchases += r0((provisional - maxCash) * 0.6);
  if (before.ltd + financing.longTermDebtChange < 0) financing.longTermDebtChange = -before.ltd;
}

/** The cash flow statement's section totals. */
interface CashTotals {
  investingCashFlow: number;
  netDebtIssuance: number;
  commonStockIssuance: number;
  netCommonStockIssuance: number;
  financingCashFlow: number;
  netChangeInCash: number;
}

function cashTotals(operatingCashFlow: number, investing: Investing, financing: Financing): CashTotals {
  const { capex, acquisition, purchases, sales, otherInvesting } = investing;
  const investingCashFlow = -capex - acquisition - purchases + sales + otherInvesting;
  const netDebtIssuance = financing.longTermDebtChange + financing.shortTermDebtChange;
  const commonStockIssuance = financing.issuance + financing.newShareIssuance;
  const netCommonStockIssuance = commonStockIssuance + financing.repurchase;
  const financingCashFlow =
    netDebtIssuance + netCommonStockIssuance + financing.paidDividends + financing.otherFinancing;
  const netChangeInCash = operatingCashFlow + investingCashFlow + financingCashFlow + financing.fx;
  return {
    investingCashFlow,
    netDebtIssuance,
    commonStockIssuance,
    netCommonStockIssuance,
    financingCashFlow,
    netChangeInCash,
  };
}

/** Balances follow the flows (the pairs that keep assets = liabilities + equity). */
function applyFlows(
  state: State,
  before: State,
  income: QuarterIncome,
  operating: OperatingCash,
  investing: Investing,
  financing: Financing,
  totals: CashTotals,
): void {
  const { acquisition, capex, otherInvesting } = investing;
  const { fx, leaseChange, revaluation } = financing;
  state.cash = before.cash + totals.netChangeInCash;
  state.ppe = before.ppe + capex - income.depreciation;
  state.goodwill = before.goodwill + r0(acquisition * 0.6);
  state.intangibles = before.intangibles + (acquisition - r0(acquisition * 0.6)) - income.amortization;
  const investmentChange = investing.purchases - investing.sales + revaluation;
  const stiShare = r0(investmentChange * 0.4);
  state.sti = before.sti + stiShare;
  state.lti = before.lti + (investmentChange - stiShare);
  if (state.sti < 0) {
    state.lti += state.sti;
    state.sti = 0;
  }
  const leaseCurrentChange = r0(leaseChange * 0.12);
  state.leaseCurrent = before.leaseCurrent + leaseCurrentChange;
  state.leaseNonCurrent = before.leaseNonCurrent + (leaseChange - leaseCurrentChange);
  state.otherNonCurrentAssets = before.otherNonCurrentAssets - otherInvesting + leaseChange;
  state.otherNonCurrentLiabilities =
    before.otherNonCurrentLiabilities + operating.otherNonCashNoise + financing.otherFinancing;
  state.ltd = before.ltd + financing.longTermDebtChange;
  state.std = before.std + financing.shortTermDebtChange;
  state.retained = before.retained + income.netIncome + financing.paidDividends;
  state.apic = before.apic + operating.stockBasedCompensation + totals.commonStockIssuance;
  state.treasury = before.treasury + financing.repurchase;
  state.aoci = before.aoci + fx + revaluation;
}

function incomeStatement(income: QuarterIncome, shares: QuarterShares): Record<IncomeLineName, number> {
  const { netIncome, incomeBeforeTax, interestExpense, da } = income;
  const { weighted, diluted } = shares;
  return {
    revenue: income.revenue,
    costOfRevenue: income.costOfRevenue,
    grossProfit: income.grossProfit,
    researchAndDevelopmentExpenses: income.research,
    generalAndAdministrativeExpenses: income.generalAndAdministrative,
    sellingAndMarketingExpenses: income.sellingAndMarketing,
    sellingGeneralAndAdministrativeExpenses: income.sga,
    otherExpenses: income.otherExpenses,
    operatingExpenses: income.operatingExpenses,
    costAndExpenses: income.costOfRevenue + income.operatingExpenses,
    netInterestIncome: income.netInterestIncome,
    interestIncome: income.interestIncome,
    interestExpense,
    depreciationAndAmortization: da,
    ebitda: incomeBeforeTax + interestExpense + da,
    ebit: incomeBeforeTax + interestExpense,
    nonOperatingIncomeExcludingInterest: income.nonOperating,
    operatingIncome: income.operatingIncome,
    totalOtherIncomeExpensesNet: income.totalOther,
    incomeBeforeTax,
    incomeTaxExpense: income.incomeTax,
    netIncomeFromContinuingOperations: netIncome,
    netIncomeFromDiscontinuedOperations: 0,
    otherAdjustmentsToNetIncome: 0,
    netIncome,
    netIncomeDeductions: 0,
    bottomLineNetIncome: netIncome,
    eps: round(netIncome / weighted, 2),
    epsDiluted: round(netIncome / diluted, 2),
    weightedAverageShsOut: weighted,
    weightedAverageShsOutDil: diluted,
  };
}

/** Everything a quarter's cash flow statement reads. */
interface QuarterFlows {
  income: QuarterIncome;
  workingCapital: WorkingCapitalChange;
  operating: OperatingCash;
  investing: Investing;
  financing: Financing;
  totals: CashTotals;
}

function cashFlowStatement(
  flows: QuarterFlows,
  state: State,
  before: State,
): Record<CashFlowLineName, number> {
  const { income, workingCapital, operating, investing, financing, totals } = flows;
  const { capex } = investing;
  const { operatingCashFlow, deferredTaxApplied } = operating;
  const paidDividends = financing.paidDividends;
  return {
    netIncome: income.netIncome,
    depreciationAndAmortization: income.da,
    deferredIncomeTax: deferredTaxApplied,
    stockBasedCompensation: operating.stockBasedCompensation,
    changeInWorkingCapital: workingCapital.changeInWorkingCapital,
    accountsReceivables: workingCapital.receivablesChange,
    inventory: workingCapital.inventoryChange,
    accountsPayables: workingCapital.payablesChange,
    otherWorkingCapital: workingCapital.otherWorkingCapital,
    otherNonCashItems: operating.otherNonCashItems,
    netCashProvidedByOperatingActivities: operatingCashFlow,
    investmentsInPropertyPlantAndEquipment: -capex,
    acquisitionsNet: -investing.acquisition,
    purchasesOfInvestments: -investing.purchases,
    salesMaturitiesOfInvestments: investing.sales,
    otherInvestingActivities: investing.otherInvesting,
    netCashProvidedByInvestingActivities: totals.investingCashFlow,
    netDebtIssuance: totals.netDebtIssuance,
    longTermNetDebtIssuance: financing.longTermDebtChange,
    shortTermNetDebtIssuance: financing.shortTermDebtChange,
    netStockIssuance: totals.netCommonStockIssuance,
    netCommonStockIssuance: totals.netCommonStockIssuance,
    commonStockIssuance: totals.commonStockIssuance,
    commonStockRepurchased: financing.repurchase,
    netPreferredStockIssuance: 0,
    netDividendsPaid: paidDividends,
    commonDividendsPaid: paidDividends,
    preferredDividendsPaid: 0,
    otherFinancingActivities: financing.otherFinancing,
    netCashProvidedByFinancingActivities: totals.financingCashFlow,
    effectOfForexChangesOnCash: financing.fx,
    netChangeInCash: totals.netChangeInCash,
    cashAtEndOfPeriod: state.cash,
    cashAtBeginningOfPeriod: before.cash,
    operatingCashFlow,
    capitalExpenditure: -capex,
    freeCashFlow: operatingCashFlow - capex,
    incomeTaxesPaid: Math.max(
      0,
      income.incomeTax - deferredTaxApplied - (state.taxPayables - before.taxPayables),
    ),
    interestPaid: income.interestExpense,
  };
}

/** One fiscal quarter's three statements; moves `state` to the quarter's closing balances. */
function quarterStatements(
  model: CompanyModel,
  state: State,
  random: Random,
  quarter: { fy: number; k: number; start: number; end: number; dev: number },
): PeriodStatements {
  const { fy, k, start, end } = quarter;
  const income = quarterIncome(model, state, random, start, end, quarter.dev);
  const shares = quarterShares(model, start, end);
  const before = { ...state };
  const workingCapital = moveWorkingCapital(model, state, before, random, income);
  const operating = operatingCash(model, state, before, random, income, workingCapital);
  const investing = investingDraws(model, before, random, income.revenue);
  const financing = financingDraws(
    model,
    before,
    random,
    income,
    shares,
    operating.stockBasedCompensation,
    start,
    end,
  );
  keepCashInBounds(before, income.revenue, operating.operatingCashFlow, investing, financing);
  const totals = cashTotals(operating.operatingCashFlow, investing, financing);
  applyFlows(state, before, income, operating, investing, financing, totals);
  const balance = balanceSheet(state);
  const cashFlow = cashFlowStatement(
    { income, workingCapital, operating, investing, financing, totals },
    state,
    before,
  );
  const announcementDay = addWeekdays(end, random.int(18, 30));
  const filingDay = addWeekdays(announcementDay, random.int(0, 3) + (k === 4 ? 5 : 0));
  return {
    fiscalYear: fy,
    quarter: k,
    startDay: start,
    endDay: end,
    announcementDay,
    filingDay,
    shareFactor: shares.endFactor,
    income: incomeStatement(income, shares),
    balance,
    cashFlow,
  };
}

/** Generates every quarter from the first fiscal year to the generation end (statements are cut when written). */
export function generateFundamentals(
  seed: number,
  series: SymbolSeries,
  endDay: number,
): CompanyFundamentals | null {
  const spec: SecuritySpec = series.spec;
  const f = spec.fundamentals;
  if (!f) return null;
  const model = companyModel(spec, f, series);
  const m = f.fiscalYearEndMonth;
  const firstStart = fiscalQuarterEnd(f.firstFiscalYear, 1, m) - 90;
  const state = openingState(seed, model, firstStart);

  const quarters: PeriodStatements[] = [];
  const years: PeriodStatements[] = [];
  let previousEnd = firstStart - 1;
  let dev = 0;
  for (let fy = f.firstFiscalYear; ; fy += 1) {
    const yearQuarters: PeriodStatements[] = [];
    let stop = false;
    for (let k = 1; k <= 4; k += 1) {
      const end = fiscalQuarterEnd(fy, k, m);
      if (end > endDay) {
        stop = true;
        break;
      }
      const start = previousEnd + 1;
      previousEnd = end;
      const random = createRandom(seed, 'fundamentals', spec.symbol, fy, k);
      dev = 0.75 * dev + 0.035 * random.normal();
      const period = quarterStatements(model, state, random, { fy, k, start, end, dev });
      quarters.push(period);
      yearQuarters.push(period);
    }
    if (yearQuarters.length === 4) years.push(fiscalYear(yearQuarters));
    if (stop) break;
  }
  return { quarters, years };
}

/** A fiscal year: flows summed over its quarters, the fourth quarter's balance sheet. */
function fiscalYear(q: readonly PeriodStatements[]): PeriodStatements {
  const first = q[0];
  const last = q[q.length - 1];
  if (!first || !last) throw new Error('a fiscal year needs its quarters');
  const sum = <K extends string>(
    pick: (p: PeriodStatements) => Record<K, number>,
    keys: readonly K[],
  ): Record<K, number> => {
    const out = {} as Record<K, number>;
    for (const key of keys) {
      let total = 0;
      for (const p of q) total += pick(p)[key];
      out[key] = total;
    }
    return out;
  };
  const income = sum((p) => p.income, INCOME_FIELDS);
  // Quarters before a split are restated into the year-end share terms.
  const restated = (p: PeriodStatements, shares: number): number =>
    (shares * p.shareFactor) / last.shareFactor;
  const weighted = r0(q.reduce((acc, p) => acc + restated(p, p.income.weightedAverageShsOut), 0) / q.length);
  const diluted = r0(
    q.reduce((acc, p) => acc + restated(p, p.income.weightedAverageShsOutDil), 0) / q.length,
  );
  income.weightedAverageShsOut = weighted;
  income.weightedAverageShsOutDil = diluted;
  income.eps = round(income.netIncome / weighted, 2);
  income.epsDiluted = round(income.netIncome / diluted, 2);
  const cashFlow = sum((p) => p.cashFlow, CASH_FLOW_FIELDS);
  cashFlow.cashAtBeginningOfPeriod = first.cashFlow.cashAtBeginningOfPeriod;
  cashFlow.cashAtEndOfPeriod = last.cashFlow.cashAtEndOfPeriod;
  return {
    fiscalYear: last.fiscalYear,
    quarter: 0,
    startDay: first.startDay,
    endDay: last.endDay,
    announcementDay: last.announcementDay,
    filingDay: last.filingDay,
    shareFactor: last.shareFactor,
    income,
    balance: { ...last.balance },
    cashFlow,
  };
}

export interface StatementHeader {
  symbol: string;
  reportedCurrency: string;
  cik: string | null;
}

/** FMP's JSON row for one statement of one period: identity fields first, then the statement's fields. */
export function statementRow(
  header: StatementHeader,
  period: PeriodStatements,
  kind: 'income' | 'balance-sheet' | 'cash-flow',
): Record<string, string | number | null> {
  const filing = fromDay(period.filingDay);
  const seconds = (period.filingDay * 7919) % 86_400;
  const hh = String(Math.floor(seconds / 3600) % 24).padStart(2, '0');
  const mm = String(Math.floor(seconds / 60) % 60).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  const row: Record<string, string | number | null> = {
    date: fromDay(period.endDay),
    symbol: header.symbol,
    reportedCurrency: header.reportedCurrency,
    cik: header.cik,
    filingDate: filing,
    acceptedDate: `${filing} ${hh}:${mm}:${ss}`,
    fiscalYear: String(period.fiscalYear),
    period: period.quarter === 0 ? 'FY' : `Q${period.quarter}`,
  };
  if (kind === 'income') for (const key of INCOME_FIELDS) row[key] = period.income[key];
  else if (kind === 'balance-sheet') for (const key of BALANCE_FIELDS) row[key] = period.balance[key];
  else for (const key of CASH_FLOW_FIELDS) row[key] = period.cashFlow[key];
  return row;
}
