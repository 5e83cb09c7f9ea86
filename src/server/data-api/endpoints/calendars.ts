import { z } from 'zod';
import {
  calendarWindow,
  CALENDAR_DEFAULT_DAYS,
  CALENDAR_MAX_DAYS,
  dividendCalendarRows,
  earningsCalendarRows,
  economicCalendarRows,
  ipoCalendarRows,
  ipoDisclosureRows,
  ipoProspectusRows,
  splitCalendarRows,
} from '../../services/market-data/calendars.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { dateParam, defineEndpoint, type EndpointDefinition } from '../endpoint.ts';

const GROUP = 'Calendars';

const windowParams = z.object({
  from: dateParam
    .optional()
    .describe(`First day (YYYY-MM-DD); today, or ${CALENDAR_DEFAULT_DAYS} days before "to", when omitted`),
  to: dateParam
    .optional()
    .describe(
      `Last day (YYYY-MM-DD); ${CALENDAR_DEFAULT_DAYS} days after "from" when omitted. At most ${CALENDAR_MAX_DAYS} days after "from"`,
    ),
});

const WINDOW_NOTE = `Between from and to (both included, at most ${CALENDAR_MAX_DAYS} days apart; a longer range is refused with 400), the coming ${CALENDAR_DEFAULT_DAYS} days by default.`;

/** Every symbol's events between two days: dividends, splits, earnings, IPOs and economic releases. */
export const calendarEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'dividends-calendar',
    dataset: 'calendars',
    group: GROUP,
    summary: 'Dividends calendar',
    description: `Every company’s cash dividends with an ex-date in a range, by ex-date then symbol. ${WINDOW_NOTE} The fields are the dividends endpoint’s: yield annualises the payment over the close of the ex-date, in percent.`,
    tier: DATA_TIERS.fundamentals,
    params: windowParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Ex-dividend date (YYYY-MM-DD)'),
      recordDate: z.string().describe('Record date (YYYY-MM-DD), empty when not announced'),
      paymentDate: z.string().describe('Payment date (YYYY-MM-DD), empty when not announced'),
      declarationDate: z.string().describe('Declaration date (YYYY-MM-DD), empty when not announced'),
      adjDividend: z.number().describe('Dividend per share adjusted for later splits'),
      dividend: z.number().describe('Dividend per share as paid'),
      yield: z.number().describe('Annualised dividend over the close on the ex-date, in percent'),
      frequency: z
        .string()
        .describe('Payment frequency: Quarterly, Monthly, Semi-Annual, Annual or Irregular'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'As companies declare dividends: a declared dividend joins the calendar the day it is announced.',
    },
    example: 'from=2026-10-01&to=2026-11-20',
    handler: ({ db, params, now }) => dividendCalendarRows(db, calendarWindow(params.from, params.to, now)),
  }),
  defineEndpoint({
    path: 'splits-calendar',
    dataset: 'calendars',
    group: GROUP,
    summary: 'Splits calendar',
    description: `Every stock split taking effect in a range, by date then symbol: numerator new shares for every denominator old shares. ${WINDOW_NOTE}`,
    tier: DATA_TIERS.fundamentals,
    params: windowParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Date the split takes effect (YYYY-MM-DD)'),
      numerator: z.number().describe('Shares after the split for every denominator shares before'),
      denominator: z.number().describe('Shares before the split'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'As companies announce splits: a split joins the calendar the day it is announced.',
    },
    example: 'from=2025-01-01&to=2025-03-31',
    handler: ({ db, params, now }) => splitCalendarRows(db, calendarWindow(params.from, params.to, now)),
  }),
  defineEndpoint({
    path: 'earnings-calendar',
    dataset: 'calendars',
    group: GROUP,
    summary: 'Earnings calendar',
    description: `Every company’s earnings reports dated in a range, by date then symbol: published reports with their actuals, expected ones with estimates only (actuals null). ${WINDOW_NOTE}`,
    tier: DATA_TIERS.fundamentals,
    params: windowParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Report date (YYYY-MM-DD)'),
      epsActual: z
        .number()
        .nullable()
        .describe('Reported diluted earnings per share; null before the report'),
      epsEstimated: z.number().nullable().describe('Consensus earnings per share estimate'),
      revenueActual: z.number().nullable().describe('Reported revenue; null before the report'),
      revenueEstimated: z.number().nullable().describe('Consensus revenue estimate'),
      lastUpdated: z.string().describe('Date the row last changed (YYYY-MM-DD)'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'On each report day once the results are published; expected dates and estimates once a day.',
    },
    example: 'from=2026-10-01&to=2026-12-15',
    handler: ({ db, params, now }) => earningsCalendarRows(db, calendarWindow(params.from, params.to, now)),
  }),
  defineEndpoint({
    path: 'ipos-calendar',
    dataset: 'calendars',
    group: GROUP,
    summary: 'IPO calendar',
    description: `Initial public offerings dated in a range, by date then symbol: Priced once the shares trade, with the market value at the first close; Expected while the date is ahead. ${WINDOW_NOTE}`,
    tier: DATA_TIERS.professional,
    params: windowParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol of the new listing'),
      date: z.string().describe('First trading day (YYYY-MM-DD)'),
      daa: z.string().describe('When the offering was announced (ISO 8601, UTC): the day before the listing'),
      company: z.string().describe('Company name'),
      exchange: z.string().describe('Exchange of the listing'),
      actions: z.string().describe('Priced (the shares trade) or Expected'),
      shares: z.number().nullable().describe('Shares offered; null when not disclosed'),
      priceRange: z.string().nullable().describe('Offer price range; null when not disclosed'),
      marketCap: z
        .number()
        .nullable()
        .describe('First close times the shares outstanding; null before trading begins'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: { frequency: 'daily', when: 'Once a day, before the US session opens.' },
    example: 'from=2022-08-15&to=2022-10-31',
    handler: ({ db, params, now }) => ipoCalendarRows(db, calendarWindow(params.from, params.to, now), now),
  }),
  defineEndpoint({
    path: 'ipos-disclosure',
    dataset: 'calendars',
    group: GROUP,
    summary: 'IPO disclosures',
    description: `Registration statements (S-1) of initial public offerings filed in a range, by filing date: filed 60 days before the first trading day and effective the day before it. ${WINDOW_NOTE}`,
    tier: DATA_TIERS.professional,
    params: windowParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol of the new listing'),
      filingDate: z.string().describe('Filing date (YYYY-MM-DD)'),
      acceptedDate: z.string().describe('When the filing was accepted (YYYY-MM-DD HH:mm:ss)'),
      effectivenessDate: z.string().describe('Date the registration became effective (YYYY-MM-DD)'),
      cik: z.string().describe('SEC Central Index Key, empty outside the US'),
      form: z.string().describe('Form of the filing'),
      url: z.string().describe('Link to the filing'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: { frequency: 'daily', when: 'Once a day, before the US session opens.' },
    example: 'from=2022-06-01&to=2022-08-15',
    handler: ({ db, params, now }) => ipoDisclosureRows(db, calendarWindow(params.from, params.to, now)),
  }),
  defineEndpoint({
    path: 'ipos-prospectus',
    dataset: 'calendars',
    group: GROUP,
    summary: 'IPO prospectuses',
    description: `Final prospectuses (424B4) of offerings priced in a range, by listing date: the offer price (the first day’s open), the underwriters’ 7 % gross spread and the proceeds, per share and for the shares sold (a tenth of today’s shares). ${WINDOW_NOTE}`,
    tier: DATA_TIERS.professional,
    params: windowParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol of the new listing'),
      acceptedDate: z.string().describe('When the filing was accepted (YYYY-MM-DD HH:mm:ss)'),
      filingDate: z.string().describe('Filing date (YYYY-MM-DD)'),
      ipoDate: z.string().describe('First trading day (YYYY-MM-DD)'),
      cik: z.string().describe('SEC Central Index Key, empty outside the US'),
      pricePublicPerShare: z.number().describe('Offer price per share'),
      pricePublicTotal: z.number().describe('Offer price of all shares sold'),
      discountsAndCommissionsPerShare: z.number().describe('Underwriters’ discount per share'),
      discountsAndCommissionsTotal: z.number().describe('Underwriters’ discount on all shares sold'),
      proceedsBeforeExpensesPerShare: z.number().describe('Proceeds to the company per share'),
      proceedsBeforeExpensesTotal: z.number().describe('Proceeds to the company, before expenses'),
      form: z.string().describe('Form of the filing'),
      url: z.string().describe('Link to the filing'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: { frequency: 'daily', when: 'Once a day, before the US session opens.' },
    example: 'from=2022-08-15&to=2022-10-31',
    handler: ({ db, params, now }) => ipoProspectusRows(db, calendarWindow(params.from, params.to, now)),
  }),
  defineEndpoint({
    path: 'economic-calendar',
    dataset: 'economics',
    group: GROUP,
    summary: 'Economic calendar',
    description: `US economic releases dated in a range, by release time: the stored indicator readings on the day each was published, with the reading before (previous), the mean of the three readings before (estimate), the change and its percentage, and the market impact; each series’ next release follows with no actual yet. ${WINDOW_NOTE}`,
    tier: DATA_TIERS.global,
    params: windowParams,
    row: z.object({
      date: z.string().describe('Release time (YYYY-MM-DD HH:mm:ss, UTC)'),
      country: z.string().describe('Country code of the release'),
      event: z.string().describe('Name of the release'),
      currency: z.string().describe('Currency the release concerns'),
      previous: z.number().nullable().describe('The reading before this one'),
      estimate: z.number().nullable().describe('Expected reading: the mean of the three readings before'),
      actual: z.number().nullable().describe('The released reading; null before the release'),
      change: z.number().nullable().describe('actual minus previous; null before the release'),
      impact: z.string().describe('Expected market impact: High, Medium or Low'),
      changePercentage: z.number().nullable().describe('change over previous, in percent'),
      unit: z.string().describe('Unit of the readings (%, K, B USD, …), empty for an index'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'As statistics agencies publish each release, usually 08:30 New York time.',
    },
    example: 'from=2026-10-01&to=2026-11-30',
    handler: ({ db, params, now }) => economicCalendarRows(db, calendarWindow(params.from, params.to, now)),
  }),
];
