import { z } from 'zod';
import type { SegmentKind, StatementType } from '../../db/schema.ts';
import { publishedApiUrl } from '../../docs/markdown-plugins.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { segmentationRows } from '../../services/market-data/segments.ts';
import {
  asReportedRows,
  latestStatementRows,
  REPORT_SECTIONS,
  reportDateRows,
  reportDocument,
  statementSymbolRows,
} from '../../services/market-data/statement-reports.ts';
import {
  defineEndpoint,
  DIRECTORY_CADENCE,
  FILING_CADENCE,
  limitParam,
  pageParam,
  periodParam,
  symbolParam,
  type EndpointDefinition,
  type WorkbookSheet,
} from '../endpoint.ts';
import { quarterlyTier } from './statements.ts';

const GROUP = 'Statements';

const asReportedRow = (what: string) =>
  z.object({
    symbol: z.string().describe('Ticker symbol'),
    fiscalYear: z.number().describe('Fiscal year the period belongs to'),
    period: z.string().describe('Fiscal period: FY or Q1–Q4'),
    reportedCurrency: z.string().describe('Currency of the statement (ISO 4217)'),
    date: z.string().describe('Period end date (YYYY-MM-DD)'),
    data: z
      .record(z.string(), z.number())
      .describe(
        `${what}, keyed by the XBRL concept each line is tagged with in the filing (US GAAP, lower-cased: netincomeloss, assets, …)`,
      ),
  });

function asReportedEndpoint(
  path: string,
  type: StatementType | 'full',
  summary: string,
  what: string,
): EndpointDefinition {
  return defineEndpoint({
    path,
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary,
    description: `${what} of each period as the filing tags it: every line under its XBRL concept (US GAAP, lower-cased as FMP writes them), newest first. The same figures as the standardised statements, keyed the filer's way. Quarterly rows need the Professional plan.`,
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam, period: periodParam, limit: limitParam(5, 100) }),
    row: asReportedRow(what),
    symbolParam: 'symbol',
    tierFor: quarterlyTier('quarterly statements'),
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL&period=annual&limit=5',
    handler: ({ db, params }) => asReportedRows(db, type, params),
  });
}

const reportPeriodParam = z
  .enum(['FY', 'Q1', 'Q2', 'Q3', 'Q4'], { error: 'must be FY, Q1, Q2, Q3 or Q4' })
  .default('FY')
  .describe('Fiscal period: FY (default, the annual report) or Q1–Q4 (a quarterly report)');

const reportLine = z.array(z.record(z.string(), z.array(z.union([z.string(), z.number()]))));

const reportParams = z.object({
  symbol: symbolParam,
  year: z.coerce
    .number({ error: 'must be a year such as 2024' })
    .int('must be a year such as 2024')
    .min(1900, 'must be a year such as 2024')
    .max(2100, 'must be a year such as 2024')
    .describe('Fiscal year of the report, e.g. 2025')
    .meta({ example: 2025 }),
  period: reportPeriodParam,
});

const reportRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  period: z.string().describe('Fiscal period: FY or Q1–Q4'),
  year: z.string().describe('Fiscal year of the report'),
  [REPORT_SECTIONS.cover]: reportLine.describe(
    'Who filed which report for which period: document type, period end, registrant, CIK, filing date',
  ),
  [REPORT_SECTIONS.income]: reportLine.describe('The income statement, line by line'),
  [REPORT_SECTIONS.balance]: reportLine.describe('The balance sheet, line by line'),
  [REPORT_SECTIONS.cashFlow]: reportLine.describe('The cash flow statement, line by line'),
});

type ReportParams = z.infer<typeof reportParams>;
type ReportRow = z.infer<typeof reportRow>;

/** The workbook's tabs: FMP's section names are longer than the 31 characters Excel allows a tab. */
const REPORT_SHEETS = [
  { section: REPORT_SECTIONS.cover, name: 'Cover Page' },
  { section: REPORT_SECTIONS.income, name: 'Income Statement' },
  { section: REPORT_SECTIONS.balance, name: 'Balance Sheet' },
  { section: REPORT_SECTIONS.cashFlow, name: 'Cash Flow Statement' },
] as const;

/** A section's lines as rows of a sheet: the label, then the period's value. */
function sectionRows(
  lines: readonly Readonly<Record<string, readonly (string | number)[]>>[],
): (string | number)[][] {
  return lines.flatMap((line) => Object.entries(line).map(([label, values]) => [label, values[0] ?? '']));
}

/** The report as four sheets (cover, income, balance, cash flow), each headed by what its columns hold. */
function reportSheets(rows: ReportRow[]): WorkbookSheet[] {
  const report = rows[0];
  if (report === undefined) return [];
  const currency = sectionRows(report[REPORT_SECTIONS.cover]).find(
    ([label]) => label === 'Reported Currency',
  )?.[1];
  const column = `${report.period} ${report.year}${typeof currency === 'string' && currency !== '' ? ` (${currency})` : ''}`;
  return REPORT_SHEETS.map(({ section, name }) => ({
    name,
    header:
      section === REPORT_SECTIONS.cover ? ['Item', `${report.period} ${report.year}`] : ['Line item', column],
    rows: sectionRows(report[section]),
    widths: [48, 22],
  }));
}

/**
 * The report of one fiscal period, as FMP serves it twice: a JSON document (`financial-reports-json`)
 * and the same report as an Excel workbook (`financial-reports-xlsx`), with one handler.
 */
function reportEndpoint(form: 'json' | 'xlsx'): EndpointDefinition {
  const workbook = form === 'xlsx';
  return defineEndpoint({
    path: `financial-reports-${form}`,
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: workbook ? 'Financial report (Excel)' : 'Financial report (JSON)',
    description: workbook
      ? 'The annual (10-K) or quarterly (10-Q) report of one fiscal period as an Excel workbook, sent as an attachment named after it (AAPL-2025-FY.xlsx): the same report as financial-reports-json, one sheet per section. A period without a report is answered 404. Quarterly reports need the Professional plan.'
      : `The annual (10-K) or quarterly (10-Q) report of one fiscal period as a document: the cover page, then the three statements, each line under its label with the period's value in a list, as FMP writes its reports. [] when the period has no report. Quarterly reports need the Professional plan.`,
    tier: DATA_TIERS.sample,
    params: reportParams,
    row: reportRow,
    symbolParam: 'symbol',
    tierFor: (params) =>
      params.period === 'FY' ? undefined : { tier: DATA_TIERS.professional, subject: 'quarterly reports' },
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL&year=2025&period=FY',
    handler: ({ db, params, symbols }) =>
      reportDocument(db, params.symbol, params.year, params.period, symbols.get(params.symbol)?.name ?? ''),
    ...(workbook
      ? {
          workbook: {
            fileName: (params: ReportParams) => `${params.symbol}-${String(params.year)}-${params.period}`,
            sheets: reportSheets,
            description:
              'Four sheets, each headed by a bold row naming its columns: Cover Page (document type, period end, registrant, CIK, trading symbol, filing date, reported currency), then Income Statement, Balance Sheet and Cash Flow Statement, one line per row: its label, then the period’s value as a number.',
            notFound: (params: ReportParams) =>
              `${params.symbol} has no ${params.period} report for ${String(params.year)}: financial-reports-dates lists the periods with one.`,
            jsonPath: 'financial-reports-json',
          },
        }
      : {}),
  });
}

function segmentationEndpoint(kind: SegmentKind, by: string): EndpointDefinition {
  return defineEndpoint({
    path: `revenue-${kind}-segmentation`,
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: `Revenue by ${by}`,
    description: `A company's revenue of each period split by ${by}, newest first: each segment's revenue under its name in data. The segments add up to the revenue of the income statement of the same period. Quarterly rows need the Professional plan.`,
    tier: DATA_TIERS.sample,
    params: z.object({
      symbol: symbolParam,
      period: periodParam,
      structure: z
        .enum(['flat'], { error: 'must be flat' })
        .default('flat')
        .describe('Shape of the rows: flat (the only one), one row per period with the segments in data'),
      limit: limitParam(5, 100),
    }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      fiscalYear: z.number().describe('Fiscal year the period belongs to'),
      period: z.string().describe('Fiscal period: FY or Q1–Q4'),
      reportedCurrency: z.string().describe('Currency of the revenues (ISO 4217)'),
      date: z.string().describe('Period end date (YYYY-MM-DD)'),
      data: z
        .record(z.string(), z.number())
        .describe(`Revenue of each ${kind === 'product' ? 'product line' : 'region'}, by name`),
    }),
    symbolParam: 'symbol',
    tierFor: quarterlyTier('quarterly segments'),
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL&period=annual',
    handler: ({ db, params }) => segmentationRows(db, kind, params),
  });
}

/** Filings, the symbols that have them, the statements as reported and the reports as documents. */
export const statementReportEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'latest-financial-statements',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Latest financial statements',
    description:
      'The latest filed periods of every company, newest filing first (by the time the filing was accepted), paged: which symbol filed which fiscal period, ending when. Like the lists, it covers every symbol on every plan; the statements themselves follow the plan.',
    tier: DATA_TIERS.sample,
    params: z.object({ page: pageParam, limit: limitParam(250, 250) }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      calendarYear: z.number().describe('Fiscal year of the period'),
      period: z.string().describe('Fiscal period: FY or Q1–Q4'),
      date: z.string().describe('Period end date (YYYY-MM-DD)'),
      dateAdded: z.string().describe('When the filing was accepted (YYYY-MM-DD HH:mm:ss)'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'page=0&limit=250',
    handler: ({ db, params }) => latestStatementRows(db, params.page, params.limit),
  }),
  defineEndpoint({
    path: 'financial-statement-symbol-list',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Symbols with financial statements',
    description:
      'Every symbol with stored financial statements, alphabetically, with the company’s name, the currency it trades in and the currency it reports in (its latest statement’s).',
    tier: DATA_TIERS.sample,
    params: z.object({}),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      companyName: z.string().describe('Company name'),
      tradingCurrency: z.string().describe('Currency the stock trades in (ISO 4217)'),
      reportingCurrency: z.string().describe('Currency the statements are reported in (ISO 4217)'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: DIRECTORY_CADENCE,
    example: '',
    handler: ({ db }) => statementSymbolRows(db),
  }),
  asReportedEndpoint(
    'income-statement-as-reported',
    'income',
    'Income statement as reported',
    'The income statement',
  ),
  asReportedEndpoint(
    'balance-sheet-statement-as-reported',
    'balance-sheet',
    'Balance sheet as reported',
    'The balance sheet',
  ),
  asReportedEndpoint(
    'cash-flow-statement-as-reported',
    'cash-flow',
    'Cash flow statement as reported',
    'The cash flow statement',
  ),
  asReportedEndpoint(
    'financial-statement-full-as-reported',
    'full',
    'Full financial statements as reported',
    'All three statements in one',
  ),
  defineEndpoint({
    path: 'financial-reports-dates',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Financial report dates',
    description:
      'Every fiscal period a company has a report for (annual and quarterly), newest first, with the addresses of the report in this API: linkJson (financial-reports-json) and linkXlsx (financial-reports-xlsx, the same report as an Excel workbook). Add your key to call them; quarterly reports need the Professional plan.',
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      fiscalYear: z.number().describe('Fiscal year of the report'),
      period: z.string().describe('Fiscal period: FY or Q1–Q4'),
      linkXlsx: z.string().describe('Address of the report as an Excel workbook (financial-reports-xlsx)'),
      linkJson: z.string().describe('Address of the report as JSON (financial-reports-json)'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params }) => reportDateRows(db, params.symbol, publishedApiUrl()),
  }),
  reportEndpoint('json'),
  reportEndpoint('xlsx'),
  segmentationEndpoint('product', 'product line'),
  segmentationEndpoint('geographic', 'region'),
];
