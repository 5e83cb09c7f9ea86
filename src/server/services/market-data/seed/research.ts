import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import {
  companyProfiles,
  cotReports,
  dailyPrices,
  esgDisclosures,
  esgRatings,
  grades,
  priceTargetNews,
  priceTargets,
  securities,
} from '../../../db/schema.ts';
import { recommendationOf, type Recommendation } from '../analysts.ts';
import { fromDay } from './calendar.ts';
import { personName } from './names.ts';
import { esgScore } from './ownership.ts';
import { createRandom, randomUuid, round } from './random.ts';

/**
 * Research rows written after the rest of the demo data set, from what it stored: an analyst's price
 * target note beside each rating action, and the ESG disclosures behind the ESG ratings. Deterministic
 * from the seed and the stored rows; texts say they are demo content and links point at example.com.
 */

/** Where a rating's target sits against the consensus: above it for a buy, below for a sell. */
const TARGET_OFFSET: Readonly<Record<Recommendation, number>> = {
  strongBuy: 0.12,
  buy: 0.06,
  hold: -0.03,
  sell: -0.12,
  strongSell: -0.2,
};

const TARGET_PUBLISHERS = ['Demo Analyst Wire', 'Demo Markets Daily', 'Demo Street Notes'] as const;

async function insertChunked<T extends Record<string, unknown>>(
  insert: (rows: T[]) => Promise<unknown>,
  rows: readonly T[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) await insert(rows.slice(start, start + 500));
}

/**
 * One price-target note per stored rating action: the analyst's target is the consensus scaled to the
 * price of the day before (the consensus over the latest close, times that price), moved by the
 * rating's side and a little noise, and kept within the stored low and high targets scaled alike.
 */
async function writePriceTargetNews(db: Db, seed: number): Promise<number> {
  const rows = await db
    .select({
      symbol: grades.symbol,
      name: securities.name,
      date: grades.date,
      firm: grades.gradingCompany,
      newGrade: grades.newGrade,
      consensus: priceTargets.targetConsensus,
      low: priceTargets.targetLow,
      high: priceTargets.targetHigh,
      before: sql<
        number | string | null
      >`(select p.close from daily_prices p where p.symbol = "grades"."symbol" and p.date < "grades"."date" order by p.date desc limit 1)`,
      // Later splits multiply the shares: the target in today's share terms is divided by their ratios.
      splitFactor: sql<
        number | string | null
      >`(select exp(sum(ln(s.numerator / s.denominator))) from splits s where s.symbol = "grades"."symbol" and s.date >= "grades"."date")`,
      last: sql<
        number | string | null
      >`(select p.close from daily_prices p where p.symbol = "grades"."symbol" order by p.date desc limit 1)`,
    })
    .from(grades)
    .innerJoin(priceTargets, eq(priceTargets.symbol, grades.symbol))
    .innerJoin(securities, eq(securities.symbol, grades.symbol))
    .orderBy(grades.symbol, grades.date, grades.gradingCompany);
  const notes: (typeof priceTargetNews.$inferInsert)[] = [];
  for (const row of rows) {
    const before = Number(row.before ?? 0);
    const last = Number(row.last ?? 0);
    if (!(before > 0) || !(last > 0)) continue;
    const random = createRandom(seed, 'price-target-news', row.symbol, row.date, row.firm);
    const scale = before / last;
    const side = TARGET_OFFSET[recommendationOf(row.newGrade) ?? 'hold'];
    const raw = row.consensus * scale * (1 + side + 0.03 * random.normal());
    const target = round(Math.min(row.high * scale, Math.max(row.low * scale, raw)), 2);
    const factor = Number(row.splitFactor ?? 1) || 1;
    const analyst = personName(random);
    const publisher = random.pick(TARGET_PUBLISHERS);
    const slug = `${row.symbol}-${row.firm}-${row.date}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    notes.push({
      id: randomUuid(random),
      symbol: row.symbol,
      publishedAt: `${row.date} ${String(random.int(11, 14)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:00`,
      title: `${row.firm} sets ${row.name} (${row.symbol}) price target at $${target.toFixed(2)} (demo)`,
      url: `https://example.com/price-targets/${slug}`,
      analystName: analyst.name,
      analystCompany: row.firm,
      publisher,
      priceTarget: target,
      adjPriceTarget: round(target / factor, 2),
      priceWhenPosted: before,
    });
  }
  await insertChunked((chunk) => db.insert(priceTargetNews).values(chunk), notes);
  return notes.length;
}

/**
 * The ESG disclosure behind each stored ESG rating: the environmental, social and governance scores
 * spread around the company's ESG score (which the rating letter was drawn from) so that their mean is
 * that score, filed in the spring after the fiscal year.
 */
async function writeEsgDisclosures(db: Db, seed: number): Promise<number> {
  const rated = await db
    .select({
      symbol: esgRatings.symbol,
      fiscalYear: esgRatings.fiscalYear,
      sector: securities.sector,
      cik: companyProfiles.cik,
    })
    .from(esgRatings)
    .innerJoin(securities, eq(securities.symbol, esgRatings.symbol))
    .leftJoin(companyProfiles, eq(companyProfiles.symbol, esgRatings.symbol))
    .orderBy(esgRatings.symbol, esgRatings.fiscalYear);
  const disclosures = rated.map((row) => {
    const score = esgScore(seed, row, row.fiscalYear);
    const random = createRandom(seed, 'esg-disclosure', row.symbol, row.fiscalYear);
    const e = 6 * random.normal();
    const s = 6 * random.normal();
    const clamp = (value: number): number => round(Math.min(100, Math.max(0, value)), 2);
    const environmental = clamp(score + e);
    const social = clamp(score + s);
    const governance = clamp(3 * score - environmental - social);
    const filed = `${row.fiscalYear + 1}-0${random.int(2, 4)}-${String(random.int(10, 28)).padStart(2, '0')}`;
    return {
      symbol: row.symbol,
      fiscalYear: row.fiscalYear,
      date: filed,
      acceptedDate: `${filed} ${String(random.int(16, 20)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:00`,
      formType: '10-K',
      environmentalScore: environmental,
      socialScore: social,
      governanceScore: governance,
      esgScore: round((environmental + social + governance) / 3, 2),
      url: `https://example.com/filings/${row.cik === null || row.cik === '' ? row.symbol.toLowerCase() : row.cik}/${row.fiscalYear}-10-k`,
    };
  });
  await insertChunked((chunk) => db.insert(esgDisclosures).values(chunk), disclosures);
  return disclosures.length;
}

/** The CFTC's identification of a futures market the universe's commodities trade on. */
interface CotMarket {
  name: string;
  sector: string;
  contractCode: string;
  marketCode: string;
  commodityCode: string;
  /** Typical open interest, in contracts. */
  openInterest: number;
  contractUnits: string;
}

/** The futures markets of the universe's commodities, as the CFTC names and codes them. */
export const COT_MARKETS: Readonly<Record<string, CotMarket>> = {
  GCUSD: {
    name: 'GOLD - COMMODITY EXCHANGE INC.',
    sector: 'METALS',
    contractCode: '088691',
    marketCode: 'CMX',
    commodityCode: '88',
    openInterest: 500_000,
    contractUnits: '(CONTRACTS OF 100 TROY OUNCES)',
  },
  SIUSD: {
    name: 'SILVER - COMMODITY EXCHANGE INC.',
    sector: 'METALS',
    contractCode: '084691',
    marketCode: 'CMX',
    commodityCode: '84',
    openInterest: 150_000,
    contractUnits: '(CONTRACTS OF 5,000 TROY OUNCES)',
  },
  HGUSD: {
    name: 'COPPER- #1 - COMMODITY EXCHANGE INC.',
    sector: 'METALS',
    contractCode: '085692',
    marketCode: 'CMX',
    commodityCode: '85',
    openInterest: 200_000,
    contractUnits: '(CONTRACTS OF 25,000 POUNDS)',
  },
  CLUSD: {
    name: 'WTI-PHYSICAL - NEW YORK MERCANTILE EXCHANGE',
    sector: 'ENERGY',
    contractCode: '067651',
    marketCode: 'NYME',
    commodityCode: '67',
    openInterest: 1_600_000,
    contractUnits: '(CONTRACTS OF 1,000 BARRELS)',
  },
  NGUSD: {
    name: 'NAT GAS NYME - NEW YORK MERCANTILE EXCHANGE',
    sector: 'ENERGY',
    contractCode: '023651',
    marketCode: 'NYME',
    commodityCode: '23',
    openInterest: 1_200_000,
    contractUnits: '(CONTRACTS OF 10,000 MMBTU)',
  },
  ZCUSX: {
    name: 'CORN - CHICAGO BOARD OF TRADE',
    sector: 'GRAINS',
    contractCode: '002602',
    marketCode: 'CBT',
    commodityCode: '02',
    openInterest: 1_500_000,
    contractUnits: '(CONTRACTS OF 5,000 BUSHELS)',
  },
};

/** Weeks of reports kept: two years. */
const COT_WEEKS = 104;

/** The Tuesdays reported on by `asOfDay`: each report is published the Friday after its Tuesday. */
function reportTuesdays(asOfDay: number): number[] {
  let tuesday = asOfDay - 3;
  // Day 0 (1970-01-01) was a Thursday: a day number whose remainder by 7 is 5 is a Tuesday.
  while (((tuesday % 7) + 7) % 7 !== 5) tuesday -= 1;
  return Array.from({ length: COT_WEEKS }, (_, index) => tuesday - 7 * (COT_WEEKS - 1 - index));
}

/**
 * Weekly Commitment of Traders reports of each commodity's futures market: speculators (non-commercial)
 * lean long after the price has risen over the past thirteen weeks and short after it fell, hedgers
 * (commercial) take the other side, and both sides of the market add up to the open interest.
 */
async function writeCotReports(db: Db, seed: number, asOfDay: number): Promise<number> {
  const symbols = Object.keys(COT_MARKETS);
  const tuesdays = reportTuesdays(asOfDay);
  const first = fromDay((tuesdays[0] ?? asOfDay) - 100);
  const closes = await db
    .select({ symbol: dailyPrices.symbol, date: dailyPrices.date, close: dailyPrices.close })
    .from(dailyPrices)
    .where(and(inArray(dailyPrices.symbol, symbols), gte(dailyPrices.date, first)))
    .orderBy(dailyPrices.symbol, dailyPrices.date);
  const reports: (typeof cotReports.$inferInsert)[] = [];
  for (const symbol of symbols) {
    const market = COT_MARKETS[symbol];
    const series = closes.filter((row) => row.symbol === symbol);
    if (market === undefined || series.length === 0) continue;
    const closeOn = (date: string): number | undefined =>
      series.filter((row) => row.date <= date).at(-1)?.close;
    const random = createRandom(seed, 'cot', symbol);
    let level = 0;
    let previous: Record<string, number> | undefined;
    for (const day of tuesdays) {
      const date = fromDay(day);
      const now = closeOn(date);
      const then = closeOn(fromDay(day - 91));
      if (now === undefined || then === undefined) continue;
      level = 0.7 * level + 0.04 * random.normal();
      const lean = Math.tanh((now / then - 1) * 5);
      const openInterest = Math.round(market.openInterest * (1 + level));
      const part = (share: number): number => Math.round(openInterest * share);
      const noncommLong = part(0.25 + 0.1 * lean + 0.01 * random.normal());
      const noncommShort = part(0.15 - 0.07 * lean + 0.01 * random.normal());
      const spread = part(0.12);
      const nonreptLong = part(0.07);
      const nonreptShort = part(0.08);
      const commLong = openInterest - noncommLong - spread - nonreptLong;
      const commShort = openInterest - noncommShort - spread - nonreptShort;
      const positions = { openInterest, noncommLong, noncommShort, commLong, commShort };
      const change = (key: keyof typeof positions): number =>
        previous === undefined ? 0 : positions[key] - (previous[key] ?? 0);
      const pct = (value: number): number => round((value / openInterest) * 100, 1);
      reports.push({
        symbol,
        date,
        data: {
          symbol,
          date: `${date} 00:00:00`,
          name: market.name.split(' - ')[0] ?? market.name,
          sector: market.sector,
          marketAndExchangeNames: market.name,
          cftcContractMarketCode: market.contractCode,
          cftcMarketCode: market.marketCode,
          cftcRegionCode: '1',
          cftcCommodityCode: market.commodityCode,
          openInterestAll: openInterest,
          noncommPositionsLongAll: noncommLong,
          noncommPositionsShortAll: noncommShort,
          noncommPositionsSpreadAll: spread,
          commPositionsLongAll: commLong,
          commPositionsShortAll: commShort,
          totReptPositionsLongAll: noncommLong + spread + commLong,
          totReptPositionsShortAll: noncommShort + spread + commShort,
          nonreptPositionsLongAll: nonreptLong,
          nonreptPositionsShortAll: nonreptShort,
          changeInOpenInterestAll: change('openInterest'),
          changeInNoncommLongAll: change('noncommLong'),
          changeInNoncommShortAll: change('noncommShort'),
          changeInCommLongAll: change('commLong'),
          changeInCommShortAll: change('commShort'),
          pctOfOpenInterestAll: 100,
          pctOfOiNoncommLongAll: pct(noncommLong),
          pctOfOiNoncommShortAll: pct(noncommShort),
          pctOfOiCommLongAll: pct(commLong),
          pctOfOiCommShortAll: pct(commShort),
          tradersTotAll: random.int(250, 420),
          contractUnits: market.contractUnits,
        },
      });
      previous = positions;
    }
  }
  await insertChunked((chunk) => db.insert(cotReports).values(chunk), reports);
  return reports.length;
}

/** Writes the research rows from the stored data set; returns rows written per SQL table. */
export async function seedResearchData(
  db: Db,
  seed: number,
  asOfDay: number,
): Promise<Record<string, number>> {
  return {
    price_target_news: await writePriceTargetNews(db, seed),
    esg_disclosures: await writeEsgDisclosures(db, seed),
    cot_reports: await writeCotReports(db, seed, asOfDay),
  };
}
