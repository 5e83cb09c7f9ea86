import { z } from 'zod';
import { isoDay } from '../../../lib/iso-date.ts';
import {
  exchangeCalendars,
  exchangeHours,
  holidaysBetween,
  isMarketOpen,
  sessionTimeLabel,
  type ExchangeHours,
} from '../../services/market-data/market-hours.ts';
import { DATA_TIERS, InvalidParametersError } from '../../services/market-data/plan-access.ts';
import { dateParam, defineEndpoint, type EndpointDefinition, type UpdateCadence } from '../endpoint.ts';

const EXCHANGE_CODES = exchangeCalendars().map((calendar) => calendar.exchange);

/** An exchange with a calendar, named by its short code (case-insensitive). */
const exchangeParam = z
  .string({ error: 'is required' })
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => EXCHANGE_CODES.includes(value), `must be one of ${EXCHANGE_CODES.join(', ')}`)
  .describe(`Exchange code: ${EXCHANGE_CODES.join(', ')}`)
  .meta({ example: 'NASDAQ' });

const hoursRow = z.object({
  exchange: z.string().describe('Short code of the exchange'),
  name: z.string().describe('Name of the exchange'),
  openingHour: z
    .string()
    .describe('Start of the regular session, local time with the zone’s current UTC offset: 09:30 AM -05:00'),
  closingHour: z
    .string()
    .describe('End of the regular session, local time with the zone’s current UTC offset: 04:00 PM -05:00'),
  timezone: z.string().describe('IANA time zone of the exchange'),
  isMarketOpen: z
    .boolean()
    .describe('Whether the regular session is running now (weekends, holidays and early closes count)'),
});

type HoursRow = z.infer<typeof hoursRow>;

const HOURS_CADENCE: UpdateCadence = {
  frequency: 'real-time',
  when: 'At every request: whether a market is open is worked out at the moment of the call.',
};

function hoursOf(calendar: ExchangeHours, now: Date): HoursRow {
  return {
    exchange: calendar.exchange,
    name: calendar.name,
    openingHour: sessionTimeLabel(calendar.open, calendar.timeZone, now),
    closingHour: sessionTimeLabel(calendar.close, calendar.timeZone, now),
    timezone: calendar.timeZone,
    isMarketOpen: isMarketOpen(calendar.exchange, now),
  };
}

/** Years one holiday request may span: enough for any plan, small enough to answer at once. */
const MAX_HOLIDAY_YEARS = 20;

export const marketHoursEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'exchange-market-hours',
    dataset: 'calendars',
    group: 'Market hours',
    summary: 'Trading hours of an exchange',
    description:
      'The regular session of one exchange in its own time zone, and whether it is open at the moment of the request: closed at weekends, on the exchange’s holidays and after an early close.',
    tier: DATA_TIERS.sample,
    params: z.object({ exchange: exchangeParam }),
    row: hoursRow,
    // Whether a market is open changes by the minute: never reused.
    maxAge: 0,
    cadence: HOURS_CADENCE,
    example: 'exchange=NASDAQ',
    csv: true,
    handler: ({ params, now }) => {
      const calendar = exchangeHours(params.exchange);
      return Promise.resolve(calendar === undefined ? [] : [hoursOf(calendar, now)]);
    },
  }),
  defineEndpoint({
    path: 'all-exchange-market-hours',
    dataset: 'calendars',
    group: 'Market hours',
    summary: 'Trading hours of every exchange',
    description:
      'The regular session of every stock exchange in the database, US exchanges first, with whether each is open at the moment of the request.',
    tier: DATA_TIERS.sample,
    params: z.object({}),
    row: hoursRow,
    // Whether a market is open changes by the minute: never reused.
    maxAge: 0,
    cadence: HOURS_CADENCE,
    example: '',
    csv: true,
    handler: ({ now }) => Promise.resolve(exchangeCalendars().map((calendar) => hoursOf(calendar, now))),
  }),
  defineEndpoint({
    path: 'holidays-by-exchange',
    dataset: 'calendars',
    group: 'Market hours',
    summary: 'Holidays of an exchange',
    description:
      'The days an exchange is closed and the days it closes early, oldest first, computed from each exchange’s rules for any year: US exchanges follow NYSE Rule 7.2 (a Saturday holiday is kept on the Friday before, a Sunday one on the Monday after; 13:00 closes before Independence Day, after Thanksgiving and on Christmas Eve); Hong Kong’s lunar festivals come from the Chinese calendar. Without from and to: this year and the next.',
    tier: DATA_TIERS.sample,
    params: z.object({
      exchange: exchangeParam,
      from: dateParam.optional().describe('First date (YYYY-MM-DD); default the 1st of January this year'),
      to: dateParam.optional().describe('Last date (YYYY-MM-DD); default the 31st of December next year'),
    }),
    row: z.object({
      exchange: z.string().describe('Short code of the exchange'),
      date: z.string().describe('Date (YYYY-MM-DD)'),
      name: z.string().describe('Name of the holiday'),
      isClosed: z.boolean().describe('True when the exchange does not open; false on an early close'),
      adjOpenTime: z
        .string()
        .nullable()
        .describe('Opening time when it differs from the usual one, else null'),
      adjCloseTime: z
        .string()
        .nullable()
        .describe('Closing time of an early close, local time HH:MM; null on a day the exchange is closed'),
    }),
    maxAge: 86_400,
    cadence: {
      frequency: 'yearly',
      when: 'Computed from the exchanges’ holiday rules; revised when a rule changes.',
    },
    example: 'exchange=NYSE&from=2026-11-01&to=2026-12-31',
    csv: true,
    handler: ({ params, now }) => {
      const year = Number(isoDay(now).slice(0, 4));
      const from = params.from ?? `${year}-01-01`;
      const to = params.to ?? `${year + 1}-12-31`;
      if (from > to) throw new InvalidParametersError('Parameter "from" must be on or before "to".');
      if (Number(to.slice(0, 4)) - Number(from.slice(0, 4)) >= MAX_HOLIDAY_YEARS)
        throw new InvalidParametersError(
          `Parameters "from" and "to" may span at most ${MAX_HOLIDAY_YEARS} years.`,
        );
      return Promise.resolve(
        holidaysBetween(params.exchange, from, to).map((holiday) => ({
          exchange: params.exchange,
          date: holiday.date,
          name: holiday.name,
          isClosed: holiday.closed,
          adjOpenTime: null,
          adjCloseTime: holiday.closeTime,
        })),
      );
    },
  }),
];
