import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineNames } from '../../src/lib/statement-fields.ts';
import {
  altmanZScore,
  defaultDcfAssumptions,
  defaultGrowthRate,
  discountedCashFlow,
  enterpriseValue,
  financialScores,
  keyMetrics,
  leveredDcfModel,
  leveredDiscountedCashFlow,
  ownerEarnings,
  periodDays,
  piotroskiCriteria,
  piotroskiScore,
  ratios,
  safeDivide,
  unleveredDcfModel,
  type BalanceSheet,
  type CashFlowStatement,
  type DcfAssumptions,
  type IncomeStatement,
  type PeriodStatements,
} from '../../src/server/services/market-data/formulas.ts';

// ---------------------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------------------

const INCOME_NUMBERS = lineNames('income');
const BALANCE_NUMBERS = lineNames('balance');
const CASH_FLOW_NUMBERS = lineNames('cashFlow');

interface Identity {
  date: string;
  symbol: string;
  reportedCurrency: string;
  cik: string;
  filingDate: string;
  acceptedDate: string;
  fiscalYear: string;
  period: string;
}

function identity(fiscalYear: string, period = 'FY', symbol = 'EXMPL'): Identity {
  return {
    date: `${fiscalYear}-12-31`,
    symbol,
    reportedCurrency: 'USD',
    cik: '0000000001',
    filingDate: `${Number(fiscalYear) + 1}-02-15`,
    acceptedDate: `${Number(fiscalYear) + 1}-02-15 08:00:00`,
    fiscalYear,
    period,
  };
}

function zeros<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

/** A full statement set with every number 0 except the ones given. */
function statements(
  id: Identity,
  income: Partial<IncomeStatement>,
  balance: Partial<BalanceSheet>,
  cashFlow: Partial<CashFlowStatement>,
): PeriodStatements {
  return {
    income: { ...id, ...zeros(INCOME_NUMBERS), ...income },
    balance: { ...id, ...zeros(BALANCE_NUMBERS), ...balance },
    cashFlow: { ...id, ...zeros(CASH_FLOW_NUMBERS), ...cashFlow },
  };
}

// Synthetic company with round numbers, so every expected value below can be checked by hand.
const CURRENT = statements(
  identity('2024'),
  {
    revenue: 1000,
    costOfRevenue: 600,
    grossProfit: 400,
    researchAndDevelopmentExpenses: 50,
    sellingGeneralAndAdministrativeExpenses: 100,
    operatingIncome: 250,
    ebit: 250,
    depreciationAndAmortization: 50,
    ebitda: 300,
    interestExpense: 25,
    incomeBeforeTax: 225,
    incomeTaxExpense: 45,
    netIncomeFromContinuingOperations: 180,
    netIncome: 180,
    bottomLineNetIncome: 180,
    eps: 1.8,
    epsDiluted: 1.8,
    weightedAverageShsOut: 100,
    weightedAverageShsOutDil: 100,
  },
  {
    cashAndCashEquivalents: 100,
    shortTermInvestments: 50,
    cashAndShortTermInvestments: 150,
    netReceivables: 100,
    inventory: 60,
    totalCurrentAssets: 400,
    propertyPlantEquipmentNet: 500,
    goodwillAndIntangibleAssets: 100,
    totalAssets: 1000,
    accountPayables: 80,
    shortTermDebt: 40,
    capitalLeaseObligationsCurrent: 10,
    totalCurrentLiabilities: 200,
    longTermDebt: 260,
    totalDebt: 300,
    totalLiabilities: 500,
    retainedEarnings: 300,
    totalStockholdersEquity: 500,
    totalEquity: 500,
    netDebt: 200,
  },
  {
    netIncome: 180,
    depreciationAndAmortization: 50,
    stockBasedCompensation: 10,
    changeInWorkingCapital: -20,
    operatingCashFlow: 240,
    capitalExpenditure: -60,
    freeCashFlow: 180,
    netDividendsPaid: -36,
    netDebtIssuance: -40,
  },
);

const PREVIOUS = statements(
  identity('2023'),
  {
    revenue: 800,
    costOfRevenue: 500,
    grossProfit: 300,
    operatingIncome: 150,
    ebit: 150,
    netIncome: 120,
    eps: 1.2,
    weightedAverageShsOut: 100,
    weightedAverageShsOutDil: 100,
  },
  {
    netReceivables: 80,
    inventory: 40,
    accountPayables: 60,
    totalCurrentAssets: 300,
    totalCurrentLiabilities: 200,
    propertyPlantEquipmentNet: 460,
    totalAssets: 900,
    longTermDebt: 300,
    totalDebt: 340,
  },
  { operatingCashFlow: 150 },
);

// price 20 × 100 diluted shares = market cap 2,000; EV = 2,000 + debt 300 − cash 100 = 2,200.
const MARKET = { price: 20 };

// ---------------------------------------------------------------------------------------------------------
// safeDivide
// ---------------------------------------------------------------------------------------------------------

describe('safeDivide', () => {
  it('divides ordinary numbers', () => {
    expect(safeDivide(6, 3)).toBe(2);
    expect(safeDivide(-6, 4)).toBe(-1.5);
  });

  it('gives 0 for a zero denominator instead of Infinity or NaN', () => {
    expect(safeDivide(5, 0)).toBe(0);
    expect(safeDivide(-5, 0)).toBe(0);
    expect(safeDivide(0, 0)).toBe(0);
  });

  it('keeps the sign when the denominator is negative', () => {
    expect(safeDivide(10, -4)).toBe(-2.5);
  });

  it('gives 0 when either operand is not finite or the quotient overflows', () => {
    expect(safeDivide(Number.NaN, 2)).toBe(0);
    expect(safeDivide(2, Number.POSITIVE_INFINITY)).toBe(0);
    expect(safeDivide(Number.MAX_VALUE, 1e-300)).toBe(0);
  });
});

describe('periodDays', () => {
  it('counts 365 days for a fiscal year and a quarter of that for a quarter', () => {
    expect(periodDays('FY')).toBe(365);
    expect(periodDays('Q3')).toBe(91.25);
  });
});

// ---------------------------------------------------------------------------------------------------------
// ratios
// ---------------------------------------------------------------------------------------------------------

const RATIOS_KEYS = [
  'symbol',
  'date',
  'fiscalYear',
  'period',
  'reportedCurrency',
  'grossProfitMargin',
  'ebitMargin',
  'ebitdaMargin',
  'operatingProfitMargin',
  'pretaxProfitMargin',
  'continuousOperationsProfitMargin',
  'netProfitMargin',
  'bottomLineProfitMargin',
  'receivablesTurnover',
  'payablesTurnover',
  'inventoryTurnover',
  'fixedAssetTurnover',
  'assetTurnover',
  'currentRatio',
  'quickRatio',
  'solvencyRatio',
  'cashRatio',
  'priceToEarningsRatio',
  'priceToEarningsGrowthRatio',
  'forwardPriceToEarningsGrowthRatio',
  'priceToBookRatio',
  'priceToSalesRatio',
  'priceToFreeCashFlowRatio',
  'priceToOperatingCashFlowRatio',
  'debtToAssetsRatio',
  'debtToEquityRatio',
  'debtToCapitalRatio',
  'longTermDebtToCapitalRatio',
  'financialLeverageRatio',
  'workingCapitalTurnoverRatio',
  'operatingCashFlowRatio',
  'operatingCashFlowSalesRatio',
  'freeCashFlowOperatingCashFlowRatio',
  'debtServiceCoverageRatio',
  'interestCoverageRatio',
  'shortTermOperatingCashFlowCoverageRatio',
  'operatingCashFlowCoverageRatio',
  'capitalExpenditureCoverageRatio',
  'dividendPaidAndCapexCoverageRatio',
  'dividendPayoutRatio',
  'dividendYield',
  'dividendYieldPercentage',
  'revenuePerShare',
  'netIncomePerShare',
  'interestDebtPerShare',
  'cashPerShare',
  'bookValuePerShare',
  'tangibleBookValuePerShare',
  'shareholdersEquityPerShare',
  'operatingCashFlowPerShare',
  'capexPerShare',
  'freeCashFlowPerShare',
  'netIncomePerEBT',
  'ebtPerEbit',
  'priceToFairValue',
  'debtToMarketCap',
  'effectiveTaxRate',
  'enterpriseValueMultiple',
  'dividendPerShare',
];

/** Expects each listed field to equal the hand-computed value to 10 decimal places. */
function expectFields(row: object, expected: Record<string, number>): void {
  const actual = row as Record<string, unknown>;
  for (const [key, value] of Object.entries(expected)) {
    expect(actual[key], key).toBeTypeOf('number');
    expect(actual[key] as number, key).toBeCloseTo(value, 10);
  }
}

describe('ratios', () => {
  it('lists the fields in the order FMP serves them', () => {
    expect(Object.keys(ratios(CURRENT, PREVIOUS, MARKET))).toEqual(RATIOS_KEYS);
  });

  it('copies the identity fields from the income statement', () => {
    const row = ratios(CURRENT, PREVIOUS, MARKET);
    expect(row).toMatchObject({
      symbol: 'EXMPL',
      date: '2024-12-31',
      fiscalYear: '2024',
      period: 'FY',
      reportedCurrency: 'USD',
    });
  });

  it('computes margins from the income statement', () => {
    expectFields(ratios(CURRENT, PREVIOUS, MARKET), {
      grossProfitMargin: 0.4, // 400 / 1000
      ebitMargin: 0.25, // 250 / 1000
      ebitdaMargin: 0.3, // 300 / 1000
      operatingProfitMargin: 0.25, // 250 / 1000
      pretaxProfitMargin: 0.225, // 225 / 1000
      continuousOperationsProfitMargin: 0.18, // 180 / 1000
      netProfitMargin: 0.18, // 180 / 1000
      bottomLineProfitMargin: 0.18, // 180 / 1000
    });
  });

  it('computes turnover and liquidity ratios from period-end balances', () => {
    expectFields(ratios(CURRENT, PREVIOUS, MARKET), {
      receivablesTurnover: 10, // revenue 1000 / receivables 100
      payablesTurnover: 7.5, // cost of revenue 600 / payables 80
      inventoryTurnover: 10, // 600 / inventory 60
      fixedAssetTurnover: 2, // 1000 / PPE 500
      assetTurnover: 1, // 1000 / total assets 1000
      currentRatio: 2, // current assets 400 / current liabilities 200
      quickRatio: 1.7, // (400 − inventory 60) / 200
      solvencyRatio: 0.46, // (net income 180 + D&A 50) / total liabilities 500
      cashRatio: 0.5, // cash 100 / 200
    });
  });

  it('computes valuation ratios from market cap (price × shares)', () => {
    expectFields(ratios(CURRENT, PREVIOUS, MARKET), {
      priceToEarningsRatio: 2000 / 180, // 11.11…
      // EPS growth (1.8 − 1.2) / 1.2 = 0.5 → PEG = 11.11… / 50
      priceToEarningsGrowthRatio: 2000 / 180 / 50,
      forwardPriceToEarningsGrowthRatio: 2000 / 180 / 50,
      priceToBookRatio: 4, // 2000 / equity 500
      priceToSalesRatio: 2, // 2000 / 1000
      priceToFreeCashFlowRatio: 2000 / 180,
      priceToOperatingCashFlowRatio: 2000 / 240,
      priceToFairValue: 4, // equals price-to-book
      debtToMarketCap: 0.15, // 300 / 2000
      enterpriseValueMultiple: 2200 / 300, // EV / EBITDA
    });
  });

  it('uses a forward EPS growth estimate for the forward PEG when one is supplied', () => {
    const row = ratios(CURRENT, PREVIOUS, { price: 20, forwardEpsGrowth: 0.25 });
    // P/E 11.11… / (0.25 × 100)
    expect(row.forwardPriceToEarningsGrowthRatio).toBeCloseTo(2000 / 180 / 25, 10);
    expect(row.priceToEarningsGrowthRatio).toBeCloseTo(2000 / 180 / 50, 10);
  });

  it('computes leverage and coverage ratios', () => {
    expectFields(ratios(CURRENT, PREVIOUS, MARKET), {
      debtToAssetsRatio: 0.3, // debt 300 / assets 1000
      debtToEquityRatio: 0.6, // 300 / 500
      debtToCapitalRatio: 0.375, // 300 / (300 + 500)
      longTermDebtToCapitalRatio: 260 / 760, // 260 / (260 + 500)
      financialLeverageRatio: 2, // 1000 / 500
      // working capital 200 now and 100 before: average 150 → 1000 / 150
      workingCapitalTurnoverRatio: 1000 / 150,
      operatingCashFlowRatio: 1.2, // OCF 240 / current liabilities 200
      operatingCashFlowSalesRatio: 0.24, // 240 / 1000
      freeCashFlowOperatingCashFlowRatio: 0.75, // 180 / 240
      debtServiceCoverageRatio: 255 / 65, // (EBITDA 300 − tax 45) / (short-term debt 40 + interest 25)
      interestCoverageRatio: 10, // operating income 250 / interest 25
      shortTermOperatingCashFlowCoverageRatio: 6, // 240 / 40
      operatingCashFlowCoverageRatio: 0.8, // 240 / 300
      capitalExpenditureCoverageRatio: 4, // 240 / |−60|
      dividendPaidAndCapexCoverageRatio: 2.5, // 240 / (60 + 36)
    });
  });

  it('computes dividend and per-share values', () => {
    expectFields(ratios(CURRENT, PREVIOUS, MARKET), {
      dividendPayoutRatio: 0.2, // 36 / 180
      dividendYield: 0.018, // 36 / 2000
      dividendYieldPercentage: 1.8,
      revenuePerShare: 10, // 1000 / 100
      netIncomePerShare: 1.8,
      interestDebtPerShare: 3.25, // (25 + 300) / 100
      cashPerShare: 1.5, // cash and short-term investments 150 / 100
      bookValuePerShare: 5, // 500 / 100
      tangibleBookValuePerShare: 4, // (500 − goodwill and intangibles 100) / 100
      shareholdersEquityPerShare: 5,
      operatingCashFlowPerShare: 2.4,
      capexPerShare: 0.6, // |−60| / 100
      freeCashFlowPerShare: 1.8,
      netIncomePerEBT: 0.8, // 180 / 225
      ebtPerEbit: 0.9, // 225 / 250
      effectiveTaxRate: 0.2, // 45 / 225
      dividendPerShare: 0.36, // dividends paid 36 / 100 shares
    });
  });

  it('takes the share count and dividend per share from the market inputs when given', () => {
    const row = ratios(CURRENT, PREVIOUS, { price: 20, sharesOutstanding: 50, dividendPerShare: 0.5 });
    expect(row.revenuePerShare).toBe(20); // 1000 / 50
    expect(row.priceToEarningsRatio).toBeCloseTo(1000 / 180, 10); // market cap 20 × 50 = 1000
    expect(row.dividendPerShare).toBe(0.5);
  });

  it('without a previous period gives a PEG of 0 and uses period-end working capital', () => {
    const row = ratios(CURRENT, undefined, MARKET);
    expect(row.priceToEarningsGrowthRatio).toBe(0);
    expect(row.forwardPriceToEarningsGrowthRatio).toBe(0);
    expect(row.workingCapitalTurnoverRatio).toBe(5); // 1000 / 200
  });

  it('gives 0 for ratios with a zero denominator', () => {
    const empty = statements(identity('2024'), {}, {}, {});
    const row = ratios(empty, empty, { price: 0 });
    for (const key of RATIOS_KEYS.slice(5)) {
      expect(row[key as keyof typeof row], key).toBe(0);
    }
  });

  it('keeps the sign of ratios with a negative denominator, as FMP does', () => {
    const loss = statements(
      identity('2024'),
      { netIncome: -100, revenue: 1000, weightedAverageShsOut: 100, weightedAverageShsOutDil: 100 },
      { totalStockholdersEquity: -200 },
      {},
    );
    const row = ratios(loss, undefined, MARKET);
    expect(row.priceToEarningsRatio).toBe(-20); // 2000 / −100
    expect(row.priceToBookRatio).toBe(-10); // 2000 / −200
  });
});

// ---------------------------------------------------------------------------------------------------------
// key metrics
// ---------------------------------------------------------------------------------------------------------

const KEY_METRICS_KEYS = [
  'symbol',
  'date',
  'fiscalYear',
  'period',
  'reportedCurrency',
  'marketCap',
  'enterpriseValue',
  'evToSales',
  'evToOperatingCashFlow',
  'evToFreeCashFlow',
  'evToEBITDA',
  'netDebtToEBITDA',
  'currentRatio',
  'incomeQuality',
  'grahamNumber',
  'grahamNetNet',
  'taxBurden',
  'interestBurden',
  'workingCapital',
  'investedCapital',
  'returnOnAssets',
  'operatingReturnOnAssets',
  'returnOnTangibleAssets',
  'returnOnEquity',
  'returnOnInvestedCapital',
  'returnOnCapitalEmployed',
  'earningsYield',
  'freeCashFlowYield',
  'capexToOperatingCashFlow',
  'capexToDepreciation',
  'capexToRevenue',
  'salesGeneralAndAdministrativeToRevenue',
  'researchAndDevelopementToRevenue',
  'stockBasedCompensationToRevenue',
  'intangiblesToTotalAssets',
  'averageReceivables',
  'averagePayables',
  'averageInventory',
  'daysOfSalesOutstanding',
  'daysOfPayablesOutstanding',
  'daysOfInventoryOutstanding',
  'operatingCycle',
  'cashConversionCycle',
  'freeCashFlowToEquity',
  'freeCashFlowToFirm',
  'tangibleAssetValue',
  'netCurrentAssetValue',
];

describe('keyMetrics', () => {
  it('lists the fields in the order FMP serves them', () => {
    expect(Object.keys(keyMetrics(CURRENT, PREVIOUS, MARKET))).toEqual(KEY_METRICS_KEYS);
  });

  it('computes valuation metrics from market cap and enterprise value', () => {
    expectFields(keyMetrics(CURRENT, PREVIOUS, MARKET), {
      marketCap: 2000, // 20 × 100
      enterpriseValue: 2200, // 2000 + debt 300 − cash 100
      evToSales: 2.2, // 2200 / 1000
      evToOperatingCashFlow: 2200 / 240,
      evToFreeCashFlow: 2200 / 180,
      evToEBITDA: 2200 / 300,
      netDebtToEBITDA: 200 / 300, // (debt 300 − cash 100) / EBITDA 300
      earningsYield: 0.09, // 180 / 2000
      freeCashFlowYield: 0.09, // 180 / 2000
    });
  });

  it('computes quality, Graham and burden metrics', () => {
    expectFields(keyMetrics(CURRENT, PREVIOUS, MARKET), {
      currentRatio: 2,
      incomeQuality: 240 / 180, // OCF / net income
      grahamNumber: Math.sqrt(202.5), // √(22.5 × EPS 1.8 × book value per share 5) = 14.23…
      grahamNetNet: -2.45, // (150 + 0.75 × 100 + 0.5 × 60 − 500) / 100
      taxBurden: 0.8, // 180 / 225
      interestBurden: 0.9, // 225 / 250
      workingCapital: 200, // 400 − 200
      investedCapital: 700, // working capital 200 + PPE 500
    });
  });

  it('computes returns, using average total assets for the operating return', () => {
    expectFields(keyMetrics(CURRENT, PREVIOUS, MARKET), {
      returnOnAssets: 0.18, // 180 / 1000
      operatingReturnOnAssets: 250 / 950, // 250 / ((1000 + 900) / 2)
      returnOnTangibleAssets: 0.2, // 180 / (1000 − 100)
      returnOnEquity: 0.36, // 180 / 500
      // NOPAT 250 × (1 − 0.2) = 200; capital 1000 − 200 + short-term debt 40 + current leases 10 = 850
      returnOnInvestedCapital: 200 / 850,
      returnOnCapitalEmployed: 0.3125, // 250 / (1000 − 200)
    });
  });

  it('computes capex, expense and intangible intensities', () => {
    expectFields(keyMetrics(CURRENT, PREVIOUS, MARKET), {
      capexToOperatingCashFlow: 0.25, // 60 / 240
      capexToDepreciation: 1.2, // 60 / 50
      capexToRevenue: 0.06, // 60 / 1000
      salesGeneralAndAdministrativeToRevenue: 0.1, // 100 / 1000
      researchAndDevelopementToRevenue: 0.05, // 50 / 1000
      stockBasedCompensationToRevenue: 0.01, // 10 / 1000
      intangiblesToTotalAssets: 0.1, // 100 / 1000
    });
  });

  it('averages working-capital items over two periods and counts days on period-end balances', () => {
    expectFields(keyMetrics(CURRENT, PREVIOUS, MARKET), {
      averageReceivables: 90, // (100 + 80) / 2
      averagePayables: 70, // (80 + 60) / 2
      averageInventory: 50, // (60 + 40) / 2
      daysOfSalesOutstanding: 36.5, // 100 / 1000 × 365
      daysOfPayablesOutstanding: (80 / 600) * 365, // 48.67
      daysOfInventoryOutstanding: 36.5, // 60 / 600 × 365
      operatingCycle: 73, // 36.5 + 36.5
      cashConversionCycle: 73 - (80 / 600) * 365, // 24.33
    });
  });

  it('counts days over a quarter for quarterly rows', () => {
    const quarter = { ...CURRENT, income: { ...CURRENT.income, period: 'Q2' } };
    // 100 / 1000 × 91.25
    expect(keyMetrics(quarter, undefined, MARKET).daysOfSalesOutstanding).toBeCloseTo(9.125, 10);
  });

  it('computes free cash flow to equity and to the firm', () => {
    expectFields(keyMetrics(CURRENT, PREVIOUS, MARKET), {
      freeCashFlowToEquity: 140, // OCF 240 + capex −60 + net borrowing −40
      // EBIT 250 × (1 − 0.2) + D&A 50 + capex −60 − working-capital growth (200 − 100)
      freeCashFlowToFirm: 90,
      tangibleAssetValue: 400, // 1000 − 100 − 500
      netCurrentAssetValue: -100, // 400 − 500
    });
  });

  it('without a previous period uses period-end values and the cash-flow working-capital change', () => {
    expectFields(keyMetrics(CURRENT, undefined, MARKET), {
      averageReceivables: 100,
      averagePayables: 80,
      averageInventory: 60,
      operatingReturnOnAssets: 0.25, // 250 / 1000
      // 200 + 50 − 60 + cash-flow change in working capital −20
      freeCashFlowToFirm: 170,
    });
  });

  it('gives a Graham number of 0 when earnings or book value are negative', () => {
    const loss = { ...CURRENT, income: { ...CURRENT.income, netIncome: -10 } };
    expect(keyMetrics(loss, PREVIOUS, MARKET).grahamNumber).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// enterprise value
// ---------------------------------------------------------------------------------------------------------

describe('enterpriseValue', () => {
  it('adds debt to market cap and subtracts cash, in FMP field order', () => {
    const row = enterpriseValue(CURRENT.balance, 20, 100, '2024-12-31');
    expect(row).toEqual({
      symbol: 'EXMPL',
      date: '2024-12-31',
      stockPrice: 20,
      numberOfShares: 100,
      marketCapitalization: 2000,
      minusCashAndCashEquivalents: 100,
      addTotalDebt: 300,
      enterpriseValue: 2200, // 2000 − 100 + 300
    });
    expect(Object.keys(row)).toEqual([
      'symbol',
      'date',
      'stockPrice',
      'numberOfShares',
      'marketCapitalization',
      'minusCashAndCashEquivalents',
      'addTotalDebt',
      'enterpriseValue',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// financial scores
// ---------------------------------------------------------------------------------------------------------

describe('piotroskiScore', () => {
  it('awards all nine points when every test improves on the prior year', () => {
    // ROA 0.18 > 0.133; leverage 0.26 < 0.333; current ratio 2 > 1.5; shares 100 ≤ 100;
    // gross margin 0.4 > 0.375; asset turnover 1 > 0.889; NI > 0; OCF > 0; OCF 240 > NI 180.
    expect(piotroskiScore(CURRENT, PREVIOUS)).toBe(9);
    expect(Object.values(piotroskiCriteria(CURRENT, PREVIOUS)).every(Boolean)).toBe(true);
  });

  it('withholds the dilution point when the share count grew', () => {
    const diluted = { ...CURRENT, income: { ...CURRENT.income, weightedAverageShsOut: 110 } };
    expect(piotroskiCriteria(diluted, PREVIOUS).noShareDilution).toBe(false);
    expect(piotroskiScore(diluted, PREVIOUS)).toBe(8);
  });

  it('withholds the accrual point when cash flow does not exceed net income', () => {
    const accruals = { ...CURRENT, cashFlow: { ...CURRENT.cashFlow, operatingCashFlow: 180 } };
    expect(piotroskiCriteria(accruals, PREVIOUS).cashFlowAboveNetIncome).toBe(false);
    expect(piotroskiScore(accruals, PREVIOUS)).toBe(8);
  });

  it('counts no long-term debt in either year as no rise in leverage', () => {
    const noDebt = (s: PeriodStatements): PeriodStatements => ({
      ...s,
      balance: { ...s.balance, longTermDebt: 0 },
    });
    expect(piotroskiCriteria(noDebt(CURRENT), noDebt(PREVIOUS)).lowerLongTermLeverage).toBe(true);
  });

  it('scores only the three single-year tests without a prior year', () => {
    expect(piotroskiScore(CURRENT, undefined)).toBe(3);
  });

  it('scores 0 for a loss-making company that deteriorated on every test', () => {
    const worse = statements(
      identity('2024'),
      { revenue: 500, grossProfit: 100, netIncome: -50, weightedAverageShsOut: 120 },
      { totalAssets: 1000, longTermDebt: 500, totalCurrentAssets: 100, totalCurrentLiabilities: 200 },
      { operatingCashFlow: -60 },
    );
    expect(piotroskiScore(worse, PREVIOUS)).toBe(0);
  });
});

describe('altmanZScore', () => {
  it('weights the five classic ratios 1.2, 1.4, 3.3, 0.6 and 1.0', () => {
    // 1.2 × WC 200/1000 + 1.4 × RE 300/1000 + 3.3 × EBIT 250/1000 + 0.6 × MVE 2000/TL 500 + 1.0 × 1000/1000
    // = 0.24 + 0.42 + 0.825 + 2.4 + 1.0 = 4.885
    expect(altmanZScore(CURRENT, 2000)).toBeCloseTo(4.885, 10);
  });

  it('gives 0 for a company with no assets or liabilities', () => {
    expect(altmanZScore(statements(identity('2024'), {}, {}, {}), 1000)).toBe(0);
  });
});

describe('financialScores', () => {
  it('returns both scores with the Altman inputs in FMP field order', () => {
    const row = financialScores(CURRENT, PREVIOUS, 2000);
    expect(Object.keys(row)).toEqual([
      'symbol',
      'reportedCurrency',
      'altmanZScore',
      'piotroskiScore',
      'workingCapital',
      'totalAssets',
      'retainedEarnings',
      'ebit',
      'marketCap',
      'totalLiabilities',
      'revenue',
    ]);
    expect(row.altmanZScore).toBeCloseTo(4.885, 10);
    expect(row).toMatchObject({
      symbol: 'EXMPL',
      reportedCurrency: 'USD',
      piotroskiScore: 9,
      workingCapital: 200,
      totalAssets: 1000,
      retainedEarnings: 300,
      ebit: 250,
      marketCap: 2000,
      totalLiabilities: 500,
      revenue: 1000,
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// owner earnings
// ---------------------------------------------------------------------------------------------------------

describe('ownerEarnings', () => {
  const heavyCapex = { ...CURRENT, cashFlow: { ...CURRENT.cashFlow, capitalExpenditure: -150 } };

  it('splits capex into growth and maintenance by the revenue-growth method', () => {
    const row = ownerEarnings(heavyCapex, PREVIOUS);
    expect(Object.keys(row)).toEqual([
      'symbol',
      'reportedCurrency',
      'fiscalYear',
      'period',
      'date',
      'averagePPE',
      'maintenanceCapex',
      'ownersEarnings',
      'growthCapex',
      'ownersEarningsPerShare',
    ]);
    // PPE/revenue: 500/1000 = 0.5 now, 460/800 = 0.575 before → average 0.5375
    expect(row.averagePPE).toBeCloseTo(0.5375, 10);
    // growth capex = 0.5375 × revenue growth 200 = 107.5 (negative, as capex is)
    expect(row.growthCapex).toBeCloseTo(-107.5, 10);
    // maintenance capex = 150 − 107.5 = 42.5
    expect(row.maintenanceCapex).toBeCloseTo(-42.5, 10);
    // owner earnings = OCF 240 − maintenance 42.5 = 197.5; per diluted share / 100
    expect(row.ownersEarnings).toBeCloseTo(197.5, 10);
    expect(row.ownersEarningsPerShare).toBeCloseTo(1.975, 10);
  });

  it('caps growth capex at total capex, leaving no maintenance capex', () => {
    // growth capex 107.5 would exceed total capex 60
    const row = ownerEarnings(CURRENT, PREVIOUS);
    expect(row.growthCapex).toBe(-60);
    expect(row.maintenanceCapex).toBe(-0);
    expect(row.ownersEarnings).toBe(240);
  });

  it('treats all capex as maintenance when revenue fell or there is no prior period', () => {
    const shrinking = { ...PREVIOUS, income: { ...PREVIOUS.income, revenue: 1200 } };
    expect(ownerEarnings(heavyCapex, shrinking)).toMatchObject({
      growthCapex: -0,
      maintenanceCapex: -150,
      ownersEarnings: 90, // 240 − 150
    });
    expect(ownerEarnings(heavyCapex, undefined)).toMatchObject({ averagePPE: 0.5, ownersEarnings: 90 });
  });
});

// ---------------------------------------------------------------------------------------------------------
// discounted cash flow
// ---------------------------------------------------------------------------------------------------------

// Cost of equity 0.04 + 2 × 0.04 = 0.12; after-tax cost of debt 0.05 × (1 − 0.2) = 0.04;
// equity 15 × 100 = 1500 and debt 500 weigh 0.75 and 0.25 → WACC 0.75 × 0.12 + 0.25 × 0.04 = 0.10.
const ASSUMPTIONS: DcfAssumptions = {
  symbol: 'EXMPL',
  date: '2025-03-03',
  stockPrice: 15,
  baseYear: 2024,
  baseCashFlow: 100,
  growthRate: 0.1,
  terminalGrowthRate: 0.02,
  projectionYears: 2,
  riskFreeRate: 0.04,
  beta: 2,
  equityRiskPremium: 0.04,
  costOfDebt: 0.05,
  taxRate: 0.2,
  totalDebt: 500,
  netDebt: 300,
  sharesOutstanding: 100,
};

describe('unleveredDcfModel', () => {
  it('derives WACC from CAPM cost of equity and after-tax cost of debt', () => {
    const model = unleveredDcfModel(ASSUMPTIONS);
    expect(model.costOfEquity).toBeCloseTo(0.12, 12);
    expect(model.afterTaxCostOfDebt).toBeCloseTo(0.04, 12);
    expect(model.equityWeight).toBeCloseTo(0.75, 12);
    expect(model.debtWeight).toBeCloseTo(0.25, 12);
    expect(model.wacc).toBeCloseTo(0.1, 12);
    expect(model.discountRate).toBeCloseTo(0.1, 12);
  });

  it('grows, discounts and adds a Gordon terminal value', () => {
    const model = unleveredDcfModel(ASSUMPTIONS);
    // year 1: 100 × 1.1 = 110, discounted / 1.1 = 100; year 2: 121 / 1.21 = 100
    expect(model.projections.map((p) => p.year)).toEqual([2025, 2026]);
    expect(model.projections[0]?.cashFlow).toBeCloseTo(110, 10);
    expect(model.projections[1]?.cashFlow).toBeCloseTo(121, 10);
    expect(model.projections[0]?.presentValue).toBeCloseTo(100, 10);
    expect(model.projections[1]?.presentValue).toBeCloseTo(100, 10);
    expect(model.sumPresentValue).toBeCloseTo(200, 10);
    // terminal: 121 × 1.02 = 123.42; / (0.10 − 0.02) = 1542.75; / 1.21 = 1275
    expect(model.terminalYearCashFlow).toBeCloseTo(123.42, 10);
    expect(model.terminalValue).toBeCloseTo(1542.75, 8);
    expect(model.presentTerminalValue).toBeCloseTo(1275, 8);
    // EV 200 + 1275 = 1475; equity 1475 − net debt 300 = 1175; per share / 100 = 11.75
    expect(model.enterpriseValue).toBeCloseTo(1475, 8);
    expect(model.equityValue).toBeCloseTo(1175, 8);
    expect(model.equityValuePerShare).toBeCloseTo(11.75, 10);
    expect(model.terminalValueDefined).toBe(true);
  });

  it('uses an edited discount rate instead of the derived WACC', () => {
    // rate 0.21, growth 0.1: 110 / 1.21 + 121 / 1.4641; TV 121 × 1.02 / 0.19 / 1.4641
    const model = unleveredDcfModel({ ...ASSUMPTIONS, discountRate: 0.21 });
    const expected = 110 / 1.21 + 121 / 1.4641 + (121 * 1.02) / 0.19 / 1.4641;
    expect(model.discountRate).toBe(0.21);
    expect(model.wacc).toBeCloseTo(0.1, 12);
    expect(model.enterpriseValue).toBeCloseTo(expected, 8);
  });

  it('values at 0 when the discount rate does not exceed terminal growth', () => {
    const model = unleveredDcfModel({ ...ASSUMPTIONS, discountRate: 0.02 });
    expect(model.terminalValueDefined).toBe(false);
    expect(model.terminalValue).toBe(0);
    expect(model.equityValuePerShare).toBe(0);
    expect(discountedCashFlow({ ...ASSUMPTIONS, discountRate: 0.01 }).dcf).toBe(0);
  });
});

describe('discountedCashFlow', () => {
  it('returns the FMP row with the value per share beside the price', () => {
    const row = discountedCashFlow(ASSUMPTIONS);
    expect(Object.keys(row)).toEqual(['symbol', 'date', 'dcf', 'Stock Price']);
    expect(row.symbol).toBe('EXMPL');
    expect(row.date).toBe('2025-03-03');
    expect(row.dcf).toBeCloseTo(11.75, 10);
    expect(row['Stock Price']).toBe(15);
  });
});

describe('leveredDcfModel', () => {
  it('discounts free cash flow to equity at the cost of equity without subtracting net debt', () => {
    // growth 0.12 at cost of equity 0.12: 112 / 1.12 = 100 and 125.44 / 1.2544 = 100
    // terminal 125.44 × 1.02 / (0.12 − 0.02) = 1279.488; / 1.2544 = 1020; equity 200 + 1020 = 1220
    const model = leveredDcfModel({ ...ASSUMPTIONS, growthRate: 0.12 });
    expect(model.discountRate).toBeCloseTo(0.12, 12);
    expect(model.sumPresentValue).toBeCloseTo(200, 8);
    expect(model.presentTerminalValue).toBeCloseTo(1020, 8);
    expect(model.equityValue).toBeCloseTo(1220, 8);
    expect(model.enterpriseValue).toBeCloseTo(1520, 8); // equity + net debt 300
    expect(model.equityValuePerShare).toBeCloseTo(12.2, 10);
    expect(leveredDiscountedCashFlow({ ...ASSUMPTIONS, growthRate: 0.12 }).dcf).toBeCloseTo(12.2, 10);
  });
});

describe('defaultDcfAssumptions', () => {
  it('derives every default from the latest annual statements', () => {
    const a = defaultDcfAssumptions(
      { annual: [CURRENT, PREVIOUS], price: 25, date: '2025-03-03' },
      'unlevered',
    );
    expect(a).toMatchObject({
      symbol: 'EXMPL',
      date: '2025-03-03',
      stockPrice: 25,
      baseYear: 2024,
      growthRate: 0.15, // revenue growth 1000 / 800 − 1 = 0.25, clamped to 0.15
      terminalGrowthRate: 0.025,
      projectionYears: 5,
      riskFreeRate: 0.04,
      beta: 1,
      equityRiskPremium: 0.0472,
      totalDebt: 300,
      netDebt: 200, // 300 − cash 100
      sharesOutstanding: 100,
    });
    expect(a.taxRate).toBeCloseTo(0.2, 12); // 45 / 225
    expect(a.costOfDebt).toBeCloseTo(25 / 300, 12); // interest / total debt
    // FCFF = OCF 240 + interest 25 × (1 − 0.2) + capex −60 = 200
    expect(a.baseCashFlow).toBeCloseTo(200, 10);
  });

  it('bases the levered model on free cash flow to equity', () => {
    const a = defaultDcfAssumptions({ annual: [CURRENT], price: 25, date: '2025-03-03' }, 'levered');
    expect(a.baseCashFlow).toBe(140); // 240 − 60 − 40
    expect(a.growthRate).toBe(0); // one year: no growth history
  });

  it('falls back to the risk-free rate for debt cost and the statutory rate for tax after a loss', () => {
    const loss = statements(
      identity('2024'),
      { incomeBeforeTax: -10, incomeTaxExpense: 1, weightedAverageShsOutDil: 10 },
      {},
      {},
    );
    const a = defaultDcfAssumptions(
      { annual: [loss], price: 5, date: '2025-01-02', riskFreeRate: 0.035 },
      'unlevered',
    );
    expect(a.taxRate).toBe(0.21);
    expect(a.costOfDebt).toBe(0.035);
  });

  it('lets the caller override growth, terminal growth, beta and the share count', () => {
    const a = defaultDcfAssumptions(
      {
        annual: [CURRENT, PREVIOUS],
        price: 25,
        date: '2025-03-03',
        growthRate: 0.03,
        terminalGrowthRate: 0.01,
        beta: 1.3,
        sharesOutstanding: 90,
      },
      'unlevered',
    );
    expect(a).toMatchObject({ growthRate: 0.03, terminalGrowthRate: 0.01, beta: 1.3, sharesOutstanding: 90 });
  });

  it('projects five years by default', () => {
    const a = defaultDcfAssumptions(
      { annual: [CURRENT, PREVIOUS], price: 25, date: '2025-03-03' },
      'unlevered',
    );
    expect(unleveredDcfModel(a).projections.map((p) => p.year)).toEqual([2025, 2026, 2027, 2028, 2029]);
  });

  it('refuses an empty history', () => {
    expect(() => defaultDcfAssumptions({ annual: [], price: 1, date: '2025-01-02' }, 'unlevered')).toThrow();
  });
});

describe('defaultGrowthRate', () => {
  it('averages year-over-year revenue growth', () => {
    const year = (fy: string, revenue: number): PeriodStatements =>
      statements(identity(fy), { revenue }, {}, {});
    // (1100 / 1000 − 1 + 1000 / 1000 − 1) / 2 = 0.05
    expect(defaultGrowthRate([year('2024', 1100), year('2023', 1000), year('2022', 1000)])).toBeCloseTo(
      0.05,
      12,
    );
    // a collapse of −50 % is clamped to −5 %
    expect(defaultGrowthRate([year('2024', 500), year('2023', 1000)])).toBe(-0.05);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Agreement with FMP's published values
// ---------------------------------------------------------------------------------------------------------

// Apple Inc. FY2024 (10-K, period ended 2024-09-28) as FMP publishes it, with the FY2023 values the averages
// need; amounts in USD. FMP's per-share values use the basic weighted share count, passed explicitly here.
const AAPL_FY2024 = statements(
  { ...identity('2024', 'FY', 'AAPL'), date: '2024-09-28' },
  {
    revenue: 391035e6,
    costOfRevenue: 210352e6,
    grossProfit: 180683e6,
    researchAndDevelopmentExpenses: 31370e6,
    sellingGeneralAndAdministrativeExpenses: 26097e6,
    operatingExpenses: 57467e6,
    costAndExpenses: 267819e6,
    depreciationAndAmortization: 11445e6,
    ebitda: 134661e6,
    ebit: 123216e6,
    operatingIncome: 123216e6,
    totalOtherIncomeExpensesNet: 269e6,
    incomeBeforeTax: 123485e6,
    incomeTaxExpense: 29749e6,
    netIncomeFromContinuingOperations: 93736e6,
    netIncome: 93736e6,
    bottomLineNetIncome: 93736e6,
    eps: 6.11,
    epsDiluted: 6.08,
    weightedAverageShsOut: 15343783000,
    weightedAverageShsOutDil: 15408095000,
  },
  {
    cashAndCashEquivalents: 29943e6,
    shortTermInvestments: 35228e6,
    cashAndShortTermInvestments: 65171e6,
    netReceivables: 66243e6,
    inventory: 7286e6,
    totalCurrentAssets: 152987e6,
    propertyPlantEquipmentNet: 45680e6,
    totalAssets: 364980e6,
    accountPayables: 68960e6,
    shortTermDebt: 20879e6,
    capitalLeaseObligationsCurrent: 1632e6,
    totalCurrentLiabilities: 176392e6,
    longTermDebt: 85750e6,
    totalLiabilities: 308030e6,
    retainedEarnings: -19154e6,
    totalStockholdersEquity: 56950e6,
    totalEquity: 56950e6,
    totalDebt: 106629e6,
    netDebt: 76686e6,
  },
  {
    netIncome: 93736e6,
    depreciationAndAmortization: 11445e6,
    stockBasedCompensation: 11688e6,
    changeInWorkingCapital: 3651e6,
    operatingCashFlow: 118254e6,
    capitalExpenditure: -9447e6,
    freeCashFlow: 108807e6,
    netDividendsPaid: -15234e6,
    netDebtIssuance: -5998e6,
  },
);

const AAPL_FY2023 = statements(
  { ...identity('2023', 'FY', 'AAPL'), date: '2023-09-30' },
  { eps: 6.16 },
  {
    netReceivables: 60985e6,
    inventory: 6331e6,
    totalCurrentAssets: 143566e6,
    totalAssets: 352583e6,
    accountPayables: 62611e6,
    totalCurrentLiabilities: 145308e6,
  },
  {},
);

const AAPL_MARKET = { price: 227.79, sharesOutstanding: 15343783000 };

/** Expects agreement with a published value to 12 significant digits. */
function expectPublished(row: object, published: Record<string, number>): void {
  const actual = row as Record<string, number>;
  for (const [key, value] of Object.entries(published)) {
    const tolerance = Math.max(Math.abs(value) * 1e-12, 1e-9);
    expect(Math.abs((actual[key] ?? Number.NaN) - value), key).toBeLessThanOrEqual(tolerance);
  }
}

describe('agreement with FMP for Apple FY2024', () => {
  it('reproduces the published ratios row', () => {
    expectPublished(ratios(AAPL_FY2024, AAPL_FY2023, AAPL_MARKET), {
      grossProfitMargin: 0.4620634981523393,
      ebitMargin: 0.31510222870075566,
      ebitdaMargin: 0.3443707085043538,
      pretaxProfitMargin: 0.3157901466620635,
      netProfitMargin: 0.23971255769943867,
      receivablesTurnover: 5.903038811648023,
      payablesTurnover: 3.0503480278422272,
      inventoryTurnover: 28.870710952511665,
      fixedAssetTurnover: 8.560310858143607,
      assetTurnover: 1.0713874732862074,
      currentRatio: 0.8673125765340832,
      quickRatio: 0.8260068483831466,
      solvencyRatio: 0.3414634938155374,
      cashRatio: 0.16975259648963673,
      priceToEarningsRatio: 37.287278415656736,
      priceToEarningsGrowthRatio: -45.93792700808932,
      forwardPriceToEarningsGrowthRatio: -45.93792700808932,
      priceToBookRatio: 61.37243774486391,
      priceToSalesRatio: 8.93822887866815,
      priceToFreeCashFlowRatio: 32.12256867269569,
      priceToOperatingCashFlowRatio: 29.55638142954995,
      debtToAssetsRatio: 0.29215025480848267,
      debtToEquityRatio: 1.872326602282704,
      debtToCapitalRatio: 0.6518501763673821,
      longTermDebtToCapitalRatio: 0.6009110021023125,
      financialLeverageRatio: 6.408779631255487,
      workingCapitalTurnoverRatio: -31.099932397502684,
      operatingCashFlowRatio: 0.6704045534944896,
      operatingCashFlowSalesRatio: 0.3024128274962599,
      freeCashFlowOperatingCashFlowRatio: 0.9201126388959359,
      debtServiceCoverageRatio: 5.024761722304708,
      interestCoverageRatio: 0,
      shortTermOperatingCashFlowCoverageRatio: 5.663777000814215,
      operatingCashFlowCoverageRatio: 1.109022873702276,
      capitalExpenditureCoverageRatio: 12.517624642743728,
      dividendPaidAndCapexCoverageRatio: 4.7912969490701345,
      dividendPayoutRatio: 0.16252026969360758,
      dividendYield: 0.0043585983369965175,
      revenuePerShare: 25.484914639368924,
      netIncomePerShare: 6.109054070954992,
      interestDebtPerShare: 6.949329249507765,
      cashPerShare: 4.247388013764271,
      bookValuePerShare: 3.711600978715614,
      tangibleBookValuePerShare: 3.711600978715614,
      operatingCashFlowPerShare: 7.706965094592383,
      capexPerShare: 0.6156891035281195,
      freeCashFlowPerShare: 7.091275991064264,
      netIncomePerEBT: 0.7590881483581001,
      ebtPerEbit: 1.0021831580314244,
      priceToFairValue: 61.37243774486391,
      debtToMarketCap: 0.03050761336980449,
      effectiveTaxRate: 0.24091185164189982,
      enterpriseValueMultiple: 26.524727497716487,
    });
  });

  it('reproduces the published key-metrics row', () => {
    expectPublished(keyMetrics(AAPL_FY2024, AAPL_FY2023, AAPL_MARKET), {
      marketCap: 3495160329570,
      enterpriseValue: 3571846329570,
      evToSales: 9.134339201273542,
      evToOperatingCashFlow: 30.204866893043786,
      evToFreeCashFlow: 32.82735788662494,
      evToEBITDA: 26.524727497716487,
      netDebtToEBITDA: 0.5694744580836323,
      incomeQuality: 1.2615643936161134,
      grahamNumber: 22.587017267616833,
      grahamNetNet: -12.352478525015636,
      taxBurden: 0.7590881483581001,
      interestBurden: 1.0021831580314244,
      workingCapital: -23405000000,
      investedCapital: 22275000000,
      returnOnAssets: 0.25682503150857583,
      operatingReturnOnAssets: 0.3434290787011036,
      returnOnTangibleAssets: 0.25682503150857583,
      returnOnEquity: 1.6459350307287095,
      returnOnInvestedCapital: 0.4430708117427921,
      returnOnCapitalEmployed: 0.6533607652660827,
      earningsYield: 0.026818798327209237,
      freeCashFlowYield: 0.03113076074921754,
      capexToOperatingCashFlow: 0.07988736110406414,
      capexToDepreciation: 0.8254259501965924,
      capexToRevenue: 0.02415896275269477,
      researchAndDevelopementToRevenue: 0.08022299794136074,
      stockBasedCompensationToRevenue: 0.02988990755303234,
      averageReceivables: 63614000000,
      averagePayables: 65785500000,
      averageInventory: 6808500000,
      daysOfSalesOutstanding: 61.83255974529134,
      daysOfPayablesOutstanding: 119.65847721913745,
      daysOfInventoryOutstanding: 12.642570548414087,
      operatingCycle: 74.47513029370543,
      cashConversionCycle: -45.18334692543202,
      freeCashFlowToFirm: 117192805288.09166,
      tangibleAssetValue: 56950000000,
      netCurrentAssetValue: -155043000000,
    });
  });

  it('reproduces the published enterprise-values row', () => {
    const row = enterpriseValue(AAPL_FY2024.balance, 227.79, 15343783000, '2024-09-28');
    expectPublished(row, { marketCapitalization: 3495160329570, enterpriseValue: 3571846329570 });
  });

  it('reproduces the published Altman Z-score from trailing-twelve-month figures', () => {
    const ttm = statements(
      identity('2025', 'Q1', 'AAPL'),
      { revenue: 395760e6, ebit: 125675e6 },
      {
        totalAssets: 344085e6,
        totalCurrentAssets: 133240e6,
        totalCurrentLiabilities: 144365e6,
        retainedEarnings: -11221e6,
        totalLiabilities: 277327e6,
      },
      {},
    );
    expectPublished({ z: altmanZScore(ttm, 3259495258000) }, { z: 9.322985825443649 });
  });
});

// ---------------------------------------------------------------------------------------------------------
// No NaN or Infinity, whatever the input
// ---------------------------------------------------------------------------------------------------------

const anyNumber = fc.oneof(
  fc.constant(0),
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(Number.NEGATIVE_INFINITY),
  fc.double(),
  fc.integer({ min: -1e12, max: 1e12 }),
);

function statementsArbitrary(): fc.Arbitrary<PeriodStatements> {
  const record = <K extends string>(keys: readonly K[]): fc.Arbitrary<Record<K, number>> =>
    fc.tuple(...keys.map(() => anyNumber)).map((values) => {
      const out = {} as Record<K, number>;
      keys.forEach((key, i) => (out[key] = values[i] ?? 0));
      return out;
    });
  return fc
    .tuple(record(INCOME_NUMBERS), record(BALANCE_NUMBERS), record(CASH_FLOW_NUMBERS))
    .map(([income, balance, cashFlow]) => statements(identity('2024'), income, balance, cashFlow));
}

function allNumbersFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(allNumbersFinite);
  if (value !== null && typeof value === 'object') return Object.values(value).every(allNumbersFinite);
  return true;
}

describe('finite output', () => {
  it('never returns NaN or Infinity from any row function, even for malformed statements', () => {
    fc.assert(
      fc.property(
        statementsArbitrary(),
        statementsArbitrary(),
        anyNumber,
        anyNumber,
        (current, previous, price, shares) => {
          const market = { price, sharesOutstanding: shares };
          const rows = [
            ratios(current, previous, market),
            ratios(current, undefined, market),
            keyMetrics(current, previous, market),
            keyMetrics(current, undefined, market),
            enterpriseValue(current.balance, price, shares, '2024-12-31'),
            financialScores(current, previous, price),
            ownerEarnings(current, previous),
          ];
          expect(rows.every(allNumbersFinite)).toBe(true);
          const score = piotroskiScore(current, previous);
          expect(Number.isInteger(score) && score >= 0 && score <= 9).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never returns NaN or Infinity from a DCF model, whatever the assumptions', () => {
    fc.assert(
      fc.property(
        statementsArbitrary(),
        anyNumber,
        anyNumber,
        anyNumber,
        anyNumber,
        (latest, price, growth, terminal, rate) => {
          const base = defaultDcfAssumptions({ annual: [latest], price, date: '2025-01-02' }, 'unlevered');
          const edited = { ...base, growthRate: growth, terminalGrowthRate: terminal, discountRate: rate };
          const results = [
            unleveredDcfModel(base),
            leveredDcfModel(base),
            unleveredDcfModel(edited),
            leveredDcfModel(edited),
            discountedCashFlow(edited),
            leveredDiscountedCashFlow(edited),
          ];
          expect(results.every(allNumbersFinite)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
