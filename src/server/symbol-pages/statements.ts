/**
 * The financial statement pages of a stock: the three statements side by side (annual or
 * quarterly), each statement in full, and the schedules derived from them (balance sheet
 * structure, retained earnings and PP&E roll-forwards, operating data, goodwill and intangibles).
 * Every table has line items as rows and periods as columns, newest first; the loader reads the
 * statements and lays out the tables' cells, formatted.
 */
import { formatDay, formatNumber, formatPercent, MISSING_VALUE } from '../../lib/format.ts';
import { MAIN_LINES, statementLineRows, type StatementKey } from '../../lib/statement-lines.ts';
import { PAGE_TITLES, QUARTERLY_TIER, symbolPath, type SymbolPage } from '../../lib/symbol-routes.ts';
import type { Db } from '../db/client.ts';
import type { StatementType } from '../db/schema.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { profiles } from '../services/market-data/company.ts';
import { periodSeries, type DatedPeriod, type PeriodSeries } from '../services/market-data/fundamentals.ts';
import { STATEMENT_FIELDS, statementRows, type ApiRow } from '../services/market-data/statements.ts';
import type { SymbolPageContext } from './resolver.ts';
import {
  assetComposition,
  balanceSheetRatios,
  formatShare,
  fundingComposition,
  intangiblesSchedule,
  operatingMetrics,
  periodLabel,
  ppeRollForward,
  retainedEarningsRollForward,
  type Composition,
} from './statement-schedules.ts';
import { premiumGate, type PanelLink, type PremiumGate, type TableColumn } from './view.ts';

/** One table of a statements page under its own h3. */
export interface StatementSection {
  id: string;
  heading: string;
  caption: string;
  columns: TableColumn[];
  rows: string[][];
  /** A sentence under the table (how a derived line is computed). */
  note?: string;
  /** A link under the table to the statement in full. */
  more?: { href: string; label: string };
}

/** The annual/quarterly switch of the pages that have both; `tier` marks the paid one. */
export interface PeriodSwitchLink extends PanelLink {
  tier: number | undefined;
}

/** What a statements page shows. */
export interface StatementsView {
  /** No statements of the period: only `emptyText` is shown. */
  empty: boolean;
  emptyText: string;
  /** The sentence over the tables ('' for none). */
  intro: string;
  sections: StatementSection[];
  /** Empty on the schedule pages, which are annual only. */
  switchLinks: PeriodSwitchLink[];
  /** The annual view, where quarterly figures' visitors without the plan are sent. */
  annualHref: string;
  premium: PremiumGate;
  /** Every page of the statements tab. */
  pages: PanelLink[];
}

const ANNUAL_PERIODS = 5;
const QUARTERLY_PERIODS = 8;

/** A statement shown in full: its stored type, the key of its lines and its name. */
interface SingleStatement {
  type: StatementType;
  key: StatementKey;
  name: string;
}

/** Single-statement pages: the stored statement type and the key of its lines. */
const SINGLE_STATEMENTS: Partial<Record<SymbolPage, SingleStatement>> = {
  'income-statement': { type: 'income', key: 'income', name: 'Income statement' },
  'balance-sheet-statement': { type: 'balance-sheet', key: 'balance', name: 'Balance sheet' },
  'cash-flow-statement': { type: 'cash-flow', key: 'cashFlow', name: 'Cash flow statement' },
};

/** The pages of the statements tab, linked from every one of them. */
const STATEMENT_PAGES: readonly SymbolPage[] = [
  'financial-statements',
  'financial-statements-quarterly',
  'income-statement',
  'balance-sheet-statement',
  'cash-flow-statement',
  'balance-sheet-data',
  'retained-earning-statement',
  'operating-data',
  'intangible-and-good-will-schedule',
  'property-plant-and-equipment-schedule',
];

/** Whose statements a page shows and over which periods. */
interface StatementsScope {
  symbol: string;
  /** "Apple Inc. (AAPL)", for captions. */
  company: string;
  quarterly: boolean;
  /** "annual" or "quarterly". */
  periodWord: string;
  /** The security's currency, used when the statements do not name theirs. */
  currency: string;
}

/** The scope of the pages drawn from the dated statement series, with its periods and currency. */
interface SeriesScope extends StatementsScope {
  series: PeriodSeries;
  periods: DatedPeriod[];
  /** "in USD", for captions and intros. */
  money: string;
}

/** The text and tables of one page. */
interface Tables {
  intro: string;
  sections: StatementSection[];
}

/** A statement date (period end, filing date). */
function periodEnd(date: unknown): string {
  return typeof date === 'string' && date !== '' ? formatDay(date) : MISSING_VALUE;
}

function periodColumns(
  first: string,
  periods: readonly { period: string; fiscalYear: string }[],
): TableColumn[] {
  return [
    { label: first },
    ...periods.map((period) => ({ label: periodLabel(period.period, period.fiscalYear), numeric: true })),
  ];
}

function datedColumns(first: string, periods: readonly DatedPeriod[]): TableColumn[] {
  return periodColumns(
    first,
    periods.map((period) => period.statements.income),
  );
}

function endRow(periods: readonly DatedPeriod[]): string[] {
  return ['Period end', ...periods.map((period) => periodEnd(period.date))];
}

/** A row of a table with periods as columns: the label, then one cell per period. */
function line<T>(label: string, items: readonly T[], cell: (item: T) => string): string[] {
  return [label, ...items.map(cell)];
}

function compositionRows(side: Composition, totalLabel: string): string[][] {
  return [
    ...side.items.map((item) => [item.label, formatNumber(item.amount), formatShare(item.share)]),
    [totalLabel, formatNumber(side.total), formatShare(side.total === 0 ? null : 1)],
  ];
}

/** A single statement in full, every numeric line as filed. */
async function singleStatementTables(
  db: Db,
  scope: StatementsScope,
  single: SingleStatement,
  limit: number,
): Promise<Tables & { empty: boolean }> {
  const { symbol, company, quarterly, periodWord } = scope;
  const rows: ApiRow[] = await statementRows(db, single.type, {
    symbol,
    period: quarterly ? 'quarter' : 'annual',
    limit,
  });
  const first = rows[0];
  const currency =
    first !== undefined && typeof first.reportedCurrency === 'string' && first.reportedCurrency !== ''
      ? first.reportedCurrency
      : scope.currency;
  const fields = STATEMENT_FIELDS[single.type]
    .filter((field) => field.kind === 'number' || field.kind === 'nullableNumber')
    .map((field) => field.name);
  const periods = rows.map((stored) => ({
    period: String(stored.period),
    fiscalYear: String(stored.fiscalYear),
  }));
  const intro = `Every line of the ${single.name.toLowerCase()} of the last ${rows.length} ${quarterly ? 'quarters' : 'fiscal years'}, as filed, in ${currency}.`;
  const section: StatementSection = {
    id: 'statement',
    heading: `${single.name}, ${periodWord}`,
    caption: `${single.name} of ${company}, ${periodWord}, in ${currency}`,
    columns: periodColumns('Line item', periods),
    rows: [
      line('Period end', rows, (stored) => periodEnd(stored.date)),
      line('Filing date', rows, (stored) => periodEnd(stored.filingDate)),
      ...statementLineRows(single.key, fields, rows),
    ],
  };
  return { empty: rows.length === 0, intro, sections: [section] };
}

/** The main lines of the three statements side by side, each linking to the statement in full. */
function overviewTables(scope: SeriesScope): Tables {
  const { symbol, company, periodWord, money, periods, quarterly, currency } = scope;
  const intro = `Main lines of the income statement, balance sheet and cash flow statement of the last ${periods.length} ${quarterly ? 'quarters' : 'fiscal years'}, in ${currency}.`;
  const sections: StatementSection[] = [];
  const statements: { key: StatementKey; name: string; page: SymbolPage }[] = [
    { key: 'income', name: 'Income statement', page: 'income-statement' },
    { key: 'balance', name: 'Balance sheet', page: 'balance-sheet-statement' },
    { key: 'cashFlow', name: 'Cash flow statement', page: 'cash-flow-statement' },
  ];
  for (const statement of statements) {
    sections.push({
      id: `${statement.page}-main`,
      heading: statement.name,
      caption: `${statement.name} of ${company}, ${periodWord}, ${money}`,
      columns: datedColumns('Line item', periods),
      rows: [
        endRow(periods),
        ...statementLineRows(
          statement.key,
          MAIN_LINES[statement.key],
          periods.map((period) => period.statements[statement.key] as unknown as Record<string, unknown>),
        ),
      ],
      more: {
        href: `${symbolPath(statement.page, symbol)}${quarterly ? '?period=quarter' : ''}`,
        label: `Every line of the ${statement.name.toLowerCase()}`,
      },
    });
  }
  return { intro, sections };
}

/** The balance sheet's structure at the latest year end and its main totals by year. */
function balanceSheetTables(scope: SeriesScope, latest: DatedPeriod): Tables {
  const { company, money, periods } = scope;
  const balance = latest.statements.balance;
  const at = `${periodLabel(balance.period, balance.fiscalYear)} (${periodEnd(latest.date)})`;
  const ratios = balanceSheetRatios(balance);
  const intro = `The structure of the balance sheet at the end of ${at}, ${money}, and its main totals over the last ${periods.length} fiscal years.`;
  const sections: StatementSection[] = [
    {
      id: 'assets',
      heading: 'What the company owns',
      caption: `Composition of total assets of ${company} at the end of ${at}, ${money}`,
      columns: [
        { label: 'Asset' },
        { label: 'Amount', numeric: true },
        { label: 'Share of total assets', numeric: true },
      ],
      rows: compositionRows(assetComposition(balance), 'Total assets'),
      note: 'Other current and other non-current assets are what the totals leave after the lines above them.',
    },
    {
      id: 'funding',
      heading: 'How the assets are financed',
      caption: `Composition of total liabilities and equity of ${company} at the end of ${at}, ${money}`,
      columns: [
        { label: 'Liability or equity' },
        { label: 'Amount', numeric: true },
        { label: 'Share of total liabilities and equity', numeric: true },
      ],
      rows: compositionRows(fundingComposition(balance), 'Total liabilities and equity'),
      note: 'Other liabilities and minority interest are what the totals leave after the lines above them.',
    },
    {
      id: 'liquidity',
      heading: 'Liquidity and leverage',
      caption: `Balance sheet ratios of ${company} at the end of ${at}`,
      columns: [{ label: 'Ratio' }, { label: 'Value', numeric: true }, { label: 'Computed as' }],
      rows: [
        ['Current ratio', formatNumber(ratios.currentRatio), 'Current assets ÷ current liabilities'],
        [
          'Quick ratio',
          formatNumber(ratios.quickRatio),
          '(Current assets − inventory) ÷ current liabilities',
        ],
        ['Debt to equity', formatNumber(ratios.debtToEquity), 'Total debt ÷ shareholders’ equity'],
      ],
    },
  ];
  const totals = [
    'totalCurrentAssets',
    'totalNonCurrentAssets',
    'totalAssets',
    'totalCurrentLiabilities',
    'totalNonCurrentLiabilities',
    'totalLiabilities',
    'totalStockholdersEquity',
    'totalDebt',
    'netDebt',
  ];
  const yearly = periods.map((period) => balanceSheetRatios(period.statements.balance));
  sections.push({
    id: 'totals',
    heading: 'Main totals by year',
    caption: `Balance sheet totals of ${company} by fiscal year, ${money}`,
    columns: datedColumns('Item', periods),
    rows: [
      endRow(periods),
      ...statementLineRows(
        'balance',
        totals,
        periods.map((period) => period.statements.balance as unknown as Record<string, unknown>),
      ),
      line('Current ratio', yearly, (ratios) => formatNumber(ratios.currentRatio)),
      line('Quick ratio', yearly, (ratios) => formatNumber(ratios.quickRatio)),
      line('Debt to equity', yearly, (ratios) => formatNumber(ratios.debtToEquity)),
    ],
  });
  return { intro, sections };
}

/** Retained earnings rolled forward from one year end to the next. */
function retainedEarningsTables(scope: SeriesScope): Tables {
  const { company, money, periods, series } = scope;
  const rolls = periods.map((period) =>
    retainedEarningsRollForward(period.statements, series.previousOf(period)?.balance),
  );
  const intro = `How retained earnings moved in each of the last ${periods.length} fiscal years, ${money}: from the previous year-end balance sheet through net income and dividends paid to this year-end’s.`;
  const section: StatementSection = {
    id: 'retained',
    heading: 'Retained earnings roll-forward',
    caption: `Retained earnings roll-forward of ${company} by fiscal year, ${money}`,
    columns: datedColumns('Item', periods),
    rows: [
      endRow(periods),
      line('Opening retained earnings', rolls, (roll) => formatNumber(roll.opening)),
      line('+ Net income', rolls, (roll) => formatNumber(roll.netIncome)),
      line('− Dividends paid', rolls, (roll) => formatNumber(roll.dividendsPaid)),
      line('− Buybacks and other changes', rolls, (roll) => formatNumber(roll.buybacksAndOther)),
      line('= Closing retained earnings', rolls, (roll) => formatNumber(roll.closing)),
    ],
    note: 'Buybacks and other changes are what the two balance sheets leave after net income and dividends (negative when retained earnings grew by more). A year without an earlier balance sheet has no opening balance.',
  };
  return { intro, sections: [section] };
}

/** Growth, margins, cost structure and working-capital days by year. */
async function operatingTables(
  db: Db,
  directory: SymbolDirectory,
  now: Date,
  scope: SeriesScope,
): Promise<Tables> {
  const { symbol, company, money, periods, series } = scope;
  const [profile] = await profiles(db, directory, [symbol], now);
  const employees = Number(profile?.fullTimeEmployees ?? Number.NaN);
  const headCount = Number.isFinite(employees) && employees > 0 ? employees : null;
  const metrics = periods.map((period, index) =>
    operatingMetrics(period.statements, series.previousOf(period)?.income, index === 0 ? headCount : null),
  );
  const days = (value: number | null): string => formatNumber(value, { maximumFractionDigits: 1 });
  const intro = `Growth, margins, cost structure and working capital of each of the last ${periods.length} fiscal years, ${money}.`;
  const section: StatementSection = {
    id: 'operating',
    heading: 'Operating metrics by year',
    caption: `Operating metrics of ${company} by fiscal year`,
    columns: datedColumns('Metric', periods),
    rows: [
      endRow(periods),
      line('Revenue', periods, (period) => formatNumber(period.statements.income.revenue)),
      line('Revenue growth', metrics, (metric) => formatPercent(metric.revenueGrowth)),
      line('Gross margin', metrics, (metric) => formatShare(metric.grossMargin)),
      line('Operating margin', metrics, (metric) => formatShare(metric.operatingMargin)),
      line('Net margin', metrics, (metric) => formatShare(metric.netMargin)),
      line('R&D as % of revenue', metrics, (metric) => formatShare(metric.researchToRevenue)),
      line('SG&A as % of revenue', metrics, (metric) => formatShare(metric.sgaToRevenue)),
      ...(headCount === null
        ? []
        : [line('Revenue per employee', metrics, (metric) => formatNumber(metric.revenuePerEmployee))]),
      line('Days sales outstanding', metrics, (metric) => days(metric.daysSalesOutstanding)),
      line('Days inventory outstanding', metrics, (metric) => days(metric.daysInventoryOutstanding)),
      line('Days payables outstanding', metrics, (metric) => days(metric.daysPayablesOutstanding)),
      line('Cash conversion cycle (days)', metrics, (metric) => days(metric.cashConversionCycle)),
    ],
    note: `Working-capital days use year-end receivables, inventory and payables over 365 days of revenue or cost of revenue.${
      headCount === null
        ? ''
        : ` Revenue per employee uses the company profile’s current head count (${formatNumber(headCount)} employees), so it is shown for the latest fiscal year only.`
    }`,
  };
  return { intro, sections: [section] };
}

/** Goodwill and intangible assets by year with their changes. */
function intangiblesTables(scope: SeriesScope): Tables {
  const { company, money, periods, series } = scope;
  const schedule = periods.map((period) =>
    intangiblesSchedule(period.statements.balance, series.previousOf(period)?.balance),
  );
  const intro = `Goodwill and other intangible assets at the end of each of the last ${periods.length} fiscal years, ${money}, with their change over the year before.`;
  const section: StatementSection = {
    id: 'intangibles',
    heading: 'Goodwill and intangible assets by year',
    caption: `Goodwill and intangible assets of ${company} by fiscal year, ${money}`,
    columns: datedColumns('Item', periods),
    rows: [
      endRow(periods),
      line('Goodwill', schedule, (item) => formatNumber(item.goodwill)),
      line('Change in goodwill', schedule, (item) => formatNumber(item.goodwillChange)),
      line('Change in goodwill, %', schedule, (item) => formatPercent(item.goodwillChangePercent)),
      line('Intangible assets', schedule, (item) => formatNumber(item.intangibles)),
      line('Change in intangible assets', schedule, (item) => formatNumber(item.intangiblesChange)),
      line('Change in intangible assets, %', schedule, (item) =>
        formatPercent(item.intangiblesChangePercent),
      ),
      line('Goodwill and intangible assets', schedule, (item) => formatNumber(item.combined)),
      line('Total assets', periods, (period) => formatNumber(period.statements.balance.totalAssets)),
      line('Share of total assets', schedule, (item) => formatShare(item.shareOfAssets)),
    ],
  };
  return { intro, sections: [section] };
}

/** Net PP&E rolled forward from one year end to the next. */
function ppeTables(scope: SeriesScope): Tables {
  const { company, money, periods, series } = scope;
  const rolls = periods.map((period) =>
    ppeRollForward(period.statements, series.previousOf(period)?.balance),
  );
  const intro = `How net property, plant and equipment moved in each of the last ${periods.length} fiscal years, ${money}: from the previous year-end balance sheet through capital expenditure and depreciation to this year-end’s.`;
  const section: StatementSection = {
    id: 'ppe',
    heading: 'Net PP&E roll-forward',
    caption: `Property, plant and equipment roll-forward of ${company} by fiscal year, ${money}`,
    columns: datedColumns('Item', periods),
    rows: [
      endRow(periods),
      line('Opening net PP&E', rolls, (roll) => formatNumber(roll.opening)),
      line('+ Capital expenditure', rolls, (roll) => formatNumber(roll.capex)),
      line('− Depreciation and amortization', rolls, (roll) => formatNumber(roll.depreciation)),
      line('± Other changes', rolls, (roll) => formatNumber(roll.other)),
      line('= Closing net PP&E', rolls, (roll) => formatNumber(roll.closing)),
      line('Revenue', periods, (period) => formatNumber(period.statements.income.revenue)),
      line('Capital expenditure as % of revenue', rolls, (roll) => formatShare(roll.capexToRevenue)),
    ],
    note: 'Depreciation and amortization come from the cash flow statement; other changes (amortization of intangibles, disposals, acquisitions) are what the two balance sheets leave after capital expenditure and depreciation. A year without an earlier balance sheet has no opening balance.',
  };
  return { intro, sections: [section] };
}

/** The tables of a page drawn from the statement series (overview and schedules). */
async function seriesTables(context: SymbolPageContext, scope: SeriesScope): Promise<Tables> {
  const { page, db, directory, now } = context;
  const latest = scope.periods[0];
  if (page === 'financial-statements' || page === 'financial-statements-quarterly') {
    return overviewTables(scope);
  }
  if (page === 'balance-sheet-data') {
    return latest === undefined ? { intro: '', sections: [] } : balanceSheetTables(scope, latest);
  }
  if (page === 'retained-earning-statement') return retainedEarningsTables(scope);
  if (page === 'operating-data') return operatingTables(db, directory, now, scope);
  if (page === 'intangible-and-good-will-schedule') return intangiblesTables(scope);
  if (page === 'property-plant-and-equipment-schedule') return ppeTables(scope);
  return { intro: '', sections: [] };
}

/** The annual/quarterly switch of the overview and the single statements; none on the schedules. */
function periodSwitch(
  page: SymbolPage,
  symbol: string,
  quarterly: boolean,
  annualHref: string,
): PeriodSwitchLink[] {
  const isOverview = page === 'financial-statements' || page === 'financial-statements-quarterly';
  if (!isOverview && SINGLE_STATEMENTS[page] === undefined) return [];
  return [
    { label: 'Annual', href: annualHref, current: !quarterly, tier: undefined },
    {
      label: 'Quarterly',
      href: isOverview
        ? symbolPath('financial-statements-quarterly', symbol)
        : `${symbolPath(page, symbol)}?period=quarter`,
      current: quarterly,
      tier: QUARTERLY_TIER,
    },
  ];
}

/**
 * Reads what a statements page shows: a statement in full (annual, or quarterly with
 * `?period=quarter`), the three statements' main lines, or one of the derived schedules.
 */
export async function loadStatements(context: SymbolPageContext): Promise<StatementsView> {
  const { db, security, page, searchParams, header } = context;
  const symbol = security.symbol;
  const single = SINGLE_STATEMENTS[page];
  const isOverview = page === 'financial-statements' || page === 'financial-statements-quarterly';
  const quarterly =
    page === 'financial-statements-quarterly' ||
    (single !== undefined && searchParams.get('period') === 'quarter');
  const limit = quarterly ? QUARTERLY_PERIODS : ANNUAL_PERIODS;
  const scope: StatementsScope = {
    symbol,
    company: `${header.name} (${symbol})`,
    quarterly,
    periodWord: quarterly ? 'quarterly' : 'annual',
    currency: security.currency,
  };
  let tables: Tables & { empty: boolean };
  if (single !== undefined) {
    tables = await singleStatementTables(db, scope, single, limit);
  } else {
    const series = await periodSeries(db, symbol, quarterly ? 'quarter' : 'annual', limit);
    const periods = series.selected;
    const latest = periods[0];
    const currency =
      latest !== undefined && latest.statements.income.reportedCurrency !== ''
        ? latest.statements.income.reportedCurrency
        : security.currency;
    const seriesScope: SeriesScope = { ...scope, currency, series, periods, money: `in ${currency}` };
    tables = { ...(await seriesTables(context, seriesScope)), empty: periods.length === 0 };
  }
  const annualHref = isOverview ? symbolPath('financial-statements', symbol) : symbolPath(page, symbol);
  return {
    empty: tables.empty,
    emptyText: `No ${quarterly ? 'quarterly ' : ''}financial statements are published for ${scope.company}.`,
    intro: tables.intro,
    sections: tables.sections,
    switchLinks: periodSwitch(page, symbol, quarterly, annualHref),
    annualHref,
    premium: tables.empty
      ? { tier: undefined, plan: undefined }
      : await premiumGate(db, quarterly ? QUARTERLY_TIER : undefined),
    pages: STATEMENT_PAGES.map((target) => ({
      label: PAGE_TITLES[target],
      href: symbolPath(target, symbol),
      current: target === page,
    })),
  };
}
