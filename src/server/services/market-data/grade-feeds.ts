import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { isoDay, shiftIsoMonths, shiftIsoYears } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { grades, securities } from '../../db/schema.ts';
import { gradesConsensusOf, RECOMMENDATION_WINDOW_YEARS } from './analysts.ts';

/** FMP's grades-historical row. */
export interface GradesHistoryRow {
  symbol: string;
  date: string;
  analystRatingsStrongBuy: number;
  analystRatingsBuy: number;
  analystRatingsHold: number;
  analystRatingsSell: number;
  analystRatingsStrongSell: number;
}

/**
 * How the brokers' recommendations stood at the start of each month, newest first, counted as the
 * grades-consensus endpoint counts them (each broker once, by its latest rating of the year before);
 * months when no broker rated the symbol are left out.
 */
export async function gradesHistoryRows(
  db: Db,
  symbol: string,
  limit: number,
  now: Date,
): Promise<GradesHistoryRow[]> {
  const today = isoDay(now);
  const firstMonth = `${today.slice(0, 7)}-01`;
  const oldest = shiftIsoMonths(firstMonth, -(limit - 1));
  const ratings = await db
    .select({ date: grades.date, gradingCompany: grades.gradingCompany, newGrade: grades.newGrade })
    .from(grades)
    .where(
      and(
        eq(grades.symbol, symbol),
        gte(grades.date, shiftIsoYears(oldest, -RECOMMENDATION_WINDOW_YEARS)),
        lte(grades.date, today),
      ),
    );
  const rows: GradesHistoryRow[] = [];
  for (let month = 0; month < limit; month += 1) {
    const day = shiftIsoMonths(firstMonth, -month);
    const [counts] = gradesConsensusOf(symbol, ratings, day);
    if (counts === undefined) continue;
    rows.push({
      symbol,
      date: day,
      analystRatingsStrongBuy: counts.strongBuy,
      analystRatingsBuy: counts.buy,
      analystRatingsHold: counts.hold,
      analystRatingsSell: counts.sell,
      analystRatingsStrongSell: counts.strongSell,
    });
  }
  return rows;
}

/** FMP's grades-news row. */
export interface GradeNewsRow {
  symbol: string;
  publishedDate: string;
  newsURL: string;
  newsTitle: string;
  newsBaseURL: string;
  newsPublisher: string;
  newGrade: string;
  previousGrade: string;
  gradingCompany: string;
  action: string;
  priceWhenPosted: number;
}

/** The wire the demo rating notes are published on. */
const GRADE_NEWS_SITE = 'example.com';
const GRADE_NEWS_PUBLISHER = 'Demo Analyst Wire';

function verb(action: string): string {
  const known: Record<string, string> = {
    upgrade: 'upgrades',
    downgrade: 'downgrades',
    maintain: 'maintains',
    init: 'initiates coverage of',
    initialise: 'initiates coverage of',
    initiate: 'initiates coverage of',
    reiterate: 'reiterates',
  };
  return known[action.toLowerCase()] ?? `${action.toLowerCase()}s`;
}

/** Which rating notes: one company's or everyone's, paged. */
export interface GradeNewsQuery {
  symbol?: string | undefined;
  page: number;
  limit: number;
}

/**
 * The note announcing each stored rating action, newest first: published before the open (12:00 UTC)
 * on the action's day, with the close of the trading day before as the price when posted.
 */
export async function gradeNewsRows(db: Db, query: GradeNewsQuery, now: Date): Promise<GradeNewsRow[]> {
  const rows = await db
    .select({
      symbol: grades.symbol,
      name: securities.name,
      date: grades.date,
      gradingCompany: grades.gradingCompany,
      previousGrade: grades.previousGrade,
      newGrade: grades.newGrade,
      action: grades.action,
      // Columns are qualified by hand: drizzle writes them bare, which would bind to the subquery's table.
      price: sql<
        number | string | null
      >`(select p.close from daily_prices p where p.symbol = "grades"."symbol" and p.date < "grades"."date" order by p.date desc limit 1)`,
    })
    .from(grades)
    .innerJoin(securities, eq(securities.symbol, grades.symbol))
    .where(
      and(
        lte(grades.date, isoDay(now)),
        ...(query.symbol === undefined ? [] : [eq(grades.symbol, query.symbol)]),
      ),
    )
    .orderBy(desc(grades.date), grades.symbol, grades.gradingCompany)
    .limit(query.limit)
    .offset(query.page * query.limit);
  return rows.map((row) => {
    const title = `${row.gradingCompany} ${verb(row.action)} ${row.name} (${row.symbol})${row.newGrade === '' ? '' : ` at ${row.newGrade}`}`;
    const slug = `${row.symbol}-${row.gradingCompany}-${row.action}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-');
    return {
      symbol: row.symbol,
      publishedDate: `${row.date}T12:00:00.000Z`,
      newsURL: `https://${GRADE_NEWS_SITE}/ratings/${row.date}/${slug}`,
      newsTitle: title,
      newsBaseURL: GRADE_NEWS_SITE,
      newsPublisher: GRADE_NEWS_PUBLISHER,
      newGrade: row.newGrade,
      previousGrade: row.previousGrade,
      gradingCompany: row.gradingCompany,
      action: row.action,
      priceWhenPosted: row.price === null ? 0 : Number(row.price),
    };
  });
}
