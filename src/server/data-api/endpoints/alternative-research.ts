import { z } from 'zod';
import { isoDay, shiftIsoDays } from '../../../lib/iso-date.ts';
import { calendarWindow, type CalendarWindow } from '../../services/market-data/calendars.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import {
  cotAnalysisRows,
  cotListRows,
  cotReportRows,
  esgBenchmarkRows,
  esgDisclosureRows,
} from '../../services/market-data/research-data.ts';
import {
  dateParam,
  defineEndpoint,
  symbolParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';

const COT_GROUP = 'Commitment of traders';
const ESG_GROUP = 'ESG';

const cotWindow = {
  from: dateParam.optional().describe('First report day (YYYY-MM-DD); 30 days before "to" when omitted'),
  to: dateParam
    .optional()
    .describe('Last report day (YYYY-MM-DD); 30 days after "from" when omitted, at most 90 after it'),
};

/** The reports' window: the calendars' rules, but the 30 days up to today when neither end is named. */
function cotWindowOf(from: string | undefined, to: string | undefined, now: Date): CalendarWindow {
  return calendarWindow(from ?? (to === undefined ? shiftIsoDays(isoDay(now), -30) : undefined), to, now);
}

const COT_CADENCE: UpdateCadence = {
  frequency: 'as-published',
  when: 'Weekly: the CFTC publishes each Tuesday’s positions on the Friday after, 15:30 New York time.',
};

const n = (text: string) => z.number().describe(text);

/** FMP's Commitment of Traders report row (the legacy futures-only report, all contract months). */
const cotReportRow = z.object({
  symbol: z.string().describe('Ticker symbol of the commodity'),
  date: z.string().describe('Day the positions were taken (a Tuesday, YYYY-MM-DD 00:00:00)'),
  name: z.string().describe('Market name'),
  sector: z.string().describe('Sector of the market: METALS, ENERGY, GRAINS, …'),
  marketAndExchangeNames: z.string().describe('Market and exchange, as the CFTC names them'),
  cftcContractMarketCode: z.string().describe('CFTC contract market code'),
  cftcMarketCode: z.string().describe('CFTC code of the exchange'),
  cftcRegionCode: z.string().describe('CFTC region code'),
  cftcCommodityCode: z.string().describe('CFTC commodity code'),
  openInterestAll: n('Open interest, in contracts'),
  noncommPositionsLongAll: n('Non-commercial (speculators’) long positions'),
  noncommPositionsShortAll: n('Non-commercial short positions'),
  noncommPositionsSpreadAll: n('Non-commercial spread positions (long and short alike)'),
  commPositionsLongAll: n('Commercial (hedgers’) long positions'),
  commPositionsShortAll: n('Commercial short positions'),
  totReptPositionsLongAll: n('Reportable long positions: non-commercial long, spread and commercial long'),
  totReptPositionsShortAll: n('Reportable short positions'),
  nonreptPositionsLongAll: n('Non-reportable (small traders’) long positions'),
  nonreptPositionsShortAll: n('Non-reportable short positions'),
  changeInOpenInterestAll: n('Change in open interest since the week before'),
  changeInNoncommLongAll: n('Change in non-commercial long positions'),
  changeInNoncommShortAll: n('Change in non-commercial short positions'),
  changeInCommLongAll: n('Change in commercial long positions'),
  changeInCommShortAll: n('Change in commercial short positions'),
  pctOfOpenInterestAll: n('Open interest in percent of itself (100)'),
  pctOfOiNoncommLongAll: n('Non-commercial long positions, percent of open interest'),
  pctOfOiNoncommShortAll: n('Non-commercial short positions, percent of open interest'),
  pctOfOiCommLongAll: n('Commercial long positions, percent of open interest'),
  pctOfOiCommShortAll: n('Commercial short positions, percent of open interest'),
  tradersTotAll: n('Reportable traders'),
  contractUnits: z.string().describe('Size of one contract'),
});

/** Stored reports with their fields in FMP's order (the database keeps JSON keys in its own order). */
function inReportOrder(
  reports: readonly Record<string, string | number | null>[],
): z.infer<typeof cotReportRow>[] {
  const fields = Object.keys(cotReportRow.shape);
  return reports.map(
    (report) =>
      Object.fromEntries(fields.map((field) => [field, report[field] ?? null])) as z.infer<
        typeof cotReportRow
      >,
  );
}

/** The weekly positioning of futures traders and the companies' ESG disclosures. */
export const alternativeResearchEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'commitment-of-traders-list',
    dataset: 'commodity',
    group: COT_GROUP,
    summary: 'Commitment of Traders markets',
    description: 'The commodity futures markets with weekly Commitment of Traders reports, by symbol.',
    tier: DATA_TIERS.global,
    params: z.object({}),
    row: z.object({
      symbol: z.string().describe('Ticker symbol of the commodity'),
      name: z.string().describe('Name of the commodity'),
    }),
    csv: true,
    maxAge: 86400,
    cadence: COT_CADENCE,
    example: '',
    handler: ({ db }) => cotListRows(db),
  }),
  defineEndpoint({
    path: 'commitment-of-traders-report',
    dataset: 'commodity',
    group: COT_GROUP,
    summary: 'Commitment of Traders report',
    description:
      'The weekly positions of a commodity futures market’s traders, newest first: speculators (non-commercial), hedgers (commercial) and small traders (non-reportable), long and short, with the open interest both sides add up to and the changes since the week before. Between from and to, at most 90 days apart (the last 30 days by default).',
    tier: DATA_TIERS.global,
    params: z.object({ symbol: symbolParam, ...cotWindow }),
    row: cotReportRow,
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: COT_CADENCE,
    example: 'symbol=GCUSD&from=2026-09-01&to=2026-11-20',
    handler: async ({ db, params, now }) =>
      inReportOrder(await cotReportRows(db, params.symbol, cotWindowOf(params.from, params.to, now))),
  }),
  defineEndpoint({
    path: 'commitment-of-traders-analysis',
    dataset: 'commodity',
    group: COT_GROUP,
    summary: 'Commitment of Traders analysis',
    description:
      'Each weekly report of a commodity read against the week before, newest first: the speculators’ long and short shares of their positions (bullish when mostly long), their net position and its change in percent, the sentiment (increasing or decreasing, bullish or bearish) and whether the situation reversed. Between from and to, at most 90 days apart (the last 30 days by default).',
    tier: DATA_TIERS.global,
    params: z.object({ symbol: symbolParam, ...cotWindow }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol of the commodity'),
      date: z.string().describe('Day the positions were taken (YYYY-MM-DD 00:00:00)'),
      name: z.string().describe('Market name'),
      sector: z.string().describe('Sector of the market'),
      exchange: z.string().describe('Market and exchange, as the CFTC names them'),
      currentLongMarketSituation: n('Speculators’ long positions over their long and short ones, in percent'),
      currentShortMarketSituation: n('Speculators’ short share, in percent'),
      marketSituation: z.string().describe('Bullish (mostly long), Bearish or Neutral'),
      previousLongMarketSituation: n('The long share the week before, in percent'),
      previousShortMarketSituation: n('The short share the week before, in percent'),
      previousMarketSituation: z.string().describe('The situation the week before'),
      netPostion: n('Speculators’ long minus short positions (FMP’s spelling)'),
      previousNetPosition: n('The net position the week before'),
      changeInNetPosition: n('Change of the net position, in percent of the previous one’s size'),
      marketSentiment: z.string().describe('Increasing or Decreasing, Bullish or Bearish'),
      reversalTrend: z.boolean().describe('Whether the situation turned since the week before'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: COT_CADENCE,
    example: 'symbol=GCUSD&from=2026-09-01&to=2026-11-20',
    handler: ({ db, params, now }) =>
      cotAnalysisRows(db, params.symbol, cotWindowOf(params.from, params.to, now)),
  }),
  defineEndpoint({
    path: 'esg-disclosures',
    dataset: 'esg',
    group: ESG_GROUP,
    summary: 'ESG disclosures',
    description:
      'A company’s yearly ESG disclosures, newest first: environmental, social and governance scores (0–100, higher is better) and their mean, the ESG score its ESG rating letter is drawn from.',
    tier: DATA_TIERS.global,
    params: z.object({ symbol: symbolParam }),
    row: z.object({
      date: z.string().describe('Filing date (YYYY-MM-DD)'),
      acceptedDate: z.string().describe('When the filing was accepted (YYYY-MM-DD HH:mm:ss)'),
      symbol: z.string().describe('Ticker symbol'),
      cik: z.string().describe('SEC Central Index Key, empty outside the US'),
      companyName: z.string().describe('Company name'),
      formType: z.string().describe('Form of the filing'),
      environmentalScore: n('Environmental score, 0–100'),
      socialScore: n('Social score, 0–100'),
      governanceScore: n('Governance score, 0–100'),
      ESGScore: n('Mean of the three scores'),
      url: z.string().describe('Link to the filing'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 86400,
    cadence: { frequency: 'yearly', when: 'Once a year, as each company files its annual report.' },
    example: 'symbol=AAPL',
    handler: ({ db, params }) => esgDisclosureRows(db, params.symbol),
  }),
  defineEndpoint({
    path: 'esg-benchmark',
    dataset: 'esg',
    group: ESG_GROUP,
    summary: 'ESG sector benchmark',
    description:
      'Each sector’s mean environmental, social, governance and ESG scores of a fiscal year over the companies that disclosed them, by sector.',
    tier: DATA_TIERS.global,
    params: z.object({
      year: z.coerce
        .number({ error: 'is required and must be a year such as 2024' })
        .int('must be a year such as 2024')
        .min(1900, 'must be a year such as 2024')
        .max(2200, 'must be a year such as 2024')
        .describe('Fiscal year'),
    }),
    row: z.object({
      fiscalYear: n('Fiscal year'),
      sector: z.string().describe('Sector'),
      environmentalScore: n('Mean environmental score'),
      socialScore: n('Mean social score'),
      governanceScore: n('Mean governance score'),
      ESGScore: n('Mean ESG score'),
    }),
    csv: true,
    maxAge: 86400,
    cadence: { frequency: 'yearly', when: 'As companies file their annual reports.' },
    example: 'year=2025',
    handler: ({ db, params }) => esgBenchmarkRows(db, params.year),
  }),
];
