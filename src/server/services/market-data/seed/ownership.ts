import {
  addMonths,
  addWeekdays,
  dayOf,
  fromDay,
  lastIndexAtOrBefore,
  monthEnd,
  monthOf,
  nextTradingDay,
  yearOf,
} from './calendar.ts';
import type { ExecutiveRow } from './company.ts';
import { LAST_NAMES, personName, FIRST_NAMES_FEMALE, FIRST_NAMES_MALE, MIDDLE_INITIALS } from './names.ts';
import type { SymbolSeries } from './prices.ts';
import { createRandom, hashString, randomUuid, round } from './random.ts';
import type { SecuritySpec } from './universe.ts';

/**
 * Who owns and trades the shares: insiders' Form 4 filings, senators' periodic transaction reports,
 * institutions' 13F positions, and ESG ratings. Rows carry FMP's field names; people and links are invented.
 */

type Json = Record<string, string | number | null>;

export interface InsiderRow {
  id: string;
  symbol: string;
  filingDate: string;
  data: Json;
}

const INSIDER_TYPES = [
  ['S-Sale', 'D', 50],
  ['M-Exempt', 'A', 15],
  ['A-Award', 'A', 12],
  ['F-InKind', 'D', 10],
  ['P-Purchase', 'A', 9],
  ['G-Gift', 'D', 4],
] as const;

/** The first names an invented person may have, each once (the two lists share none). */
const FIRST_NAMES: readonly string[] = [...FIRST_NAMES_MALE, ...FIRST_NAMES_FEMALE];
const FIRST_INDEX = new Map(FIRST_NAMES.map((name, index) => [name, index]));
const LAST_INDEX = new Map(LAST_NAMES.map((name, index) => [name, index]));
/** Invented people's names: each first name, without or with each middle initial, with each last name. */
const PERSON_NAMES = FIRST_NAMES.length * (MIDDLE_INITIALS.length + 1) * LAST_NAMES.length;
/** Insiders' CIKs start above the companies' (1,000,000–2,099,999) and the private issuers' (2,100,000–). */
const INSIDER_CIK_BASE = 2_200_000;
/** How many CIKs the names that are not invented (the familiar chief executives) are hashed into. */
const OTHER_NAME_CIKS = 100_000;

/** The number of an invented person's name ("Laura K. Whitfield"), or null for any other name. */
function personNumber(name: string): number | null {
  const match = /^(\S+)(?: ([A-Z])\.)? (\S+)$/.exec(name);
  if (!match) return null;
  const [, firstName = '', initial, lastName = ''] = match;
  const first = FIRST_INDEX.get(firstName);
  const last = LAST_INDEX.get(lastName);
  // 0 without a middle initial, else the initial's place from 1.
  const middle = initial === undefined ? 0 : MIDDLE_INITIALS.indexOf(initial) + 1;
  const unknownInitial = initial !== undefined && middle === 0;
  if (first === undefined || last === undefined || unknownInitial) return null;
  return (first * (MIDDLE_INITIALS.length + 1) + middle) * LAST_NAMES.length + last;
}

/**
 * The CIK an insider reports under, derived from the insider's name alone: a person files under one CIK in
 * every trade and at every company, and `insider-trading/search?reportingCik=` finds all of them. Invented
 * people and family trusts are numbered from their names, so two of them never share a CIK; any other name
 * is hashed into a block of its own.
 */
export function insiderCik(name: string): string {
  const trust = /^(\S+) Family Trust$/.exec(name);
  const family = trust ? (LAST_INDEX.get(trust[1] ?? '') ?? -1) : -1;
  const person = personNumber(name);
  const number =
    family >= 0
      ? PERSON_NAMES + family
      : (person ?? PERSON_NAMES + LAST_NAMES.length + (hashString(name) % OTHER_NAME_CIKS));
  return String(INSIDER_CIK_BASE + number).padStart(10, '0');
}

/** Form 4 filings over the year before the "as of" date; `rate` is the chance of a filing in a month. */
export function insiderRows(
  seed: number,
  series: SymbolSeries,
  companyCik: string,
  executives: readonly ExecutiveRow[],
  asOfDay: number,
  rate: number,
): InsiderRow[] {
  const spec = series.spec;
  const random = createRandom(seed, 'insiders', spec.symbol);
  const people: { name: string; role: string }[] = executives.map((e) => ({
    name: e.name,
    role: `officer: ${e.title}`,
  }));
  for (let i = 0; i < 4; i += 1) people.push({ name: personName(random).name, role: 'director' });
  people.push({ name: `${personName(random).lastName} Family Trust`, role: '10 percent owner' });
  const owned = new Map<string, number>();
  const rows: InsiderRow[] = [];
  const shares = spec.sharesOutstanding ?? 1e8;
  for (let month = dayOf(2023, 1, 1); month <= asOfDay; month = addMonths(month, 1)) {
    const filings = random.chance(rate) ? random.int(1, 3) : 0;
    for (let n = 0; n < filings; n += 1) {
      const person = random.pick(people);
      const [type, direction] = random.weighted(
        INSIDER_TYPES.map((t) => [[t[0], t[1]] as const, t[2]] as const),
      );
      const day = nextTradingDay(month + random.int(0, 26), 'exchange');
      const filingDay = addWeekdays(day, random.int(1, 2));
      const quantity = Math.max(100, Math.round(random.logNormal(shares * 2e-5, 1.0) / 10) * 10);
      const holding = owned.get(person.name) ?? Math.round(random.logNormal(shares * 3e-4, 1.2));
      const after = Math.max(0, direction === 'A' ? holding + quantity : holding - quantity);
      owned.set(person.name, after);
      const id = randomUuid(random);
      const slip = 1 + 0.006 * random.normal();
      const indirect = random.chance(0.1);
      // The stream keeps its draw here, so the figures drawn after it do not shift.
      random.next();
      const reportingCik = insiderCik(person.name);
      if (filingDay > asOfDay || filingDay < asOfDay - 365) continue;
      const index = lastIndexAtOrBefore(series.days, day);
      const close = series.close[Math.max(0, index)] ?? 0;
      const priced = type === 'S-Sale' || type === 'P-Purchase' || type === 'F-InKind';
      rows.push({
        id,
        symbol: spec.symbol,
        filingDate: fromDay(filingDay),
        data: {
          symbol: spec.symbol,
          filingDate: fromDay(filingDay),
          transactionDate: fromDay(day),
          reportingCik,
          companyCik,
          transactionType: type,
          securitiesOwned: after,
          reportingName: person.name,
          typeOfOwner: person.role,
          acquisitionOrDisposition: direction,
          directOrIndirect: indirect ? 'I' : 'D',
          formType: '4',
          securitiesTransacted: quantity,
          price: priced ? round(close * slip, 2) : 0,
          securityName: 'Common Stock',
          url: `https://example.com/demo-filings/form4/${spec.symbol.toLowerCase()}/${id}.html`,
        },
      });
    }
  }
  return rows;
}

export interface SenateRow {
  id: string;
  symbol: string;
  disclosureDate: string;
  data: Json;
}

const STATES = [
  'AL',
  'AZ',
  'CA',
  'CO',
  'FL',
  'GA',
  'IL',
  'IN',
  'KY',
  'MA',
  'MI',
  'MN',
  'MO',
  'NC',
  'NJ',
  'NY',
  'OH',
  'OR',
  'PA',
  'TN',
  'TX',
  'VA',
  'WA',
  'WI',
];
const AMOUNTS = [
  ['$1,001 - $15,000', 45],
  ['$15,001 - $50,000', 25],
  ['$50,001 - $100,000', 14],
  ['$100,001 - $250,000', 9],
  ['$250,001 - $500,000', 5],
  ['$500,001 - $1,000,000', 2],
] as const;

/** Periodic transaction reports of invented senators, disclosed over the two years before the "as of" date. */
export function senateRows(seed: number, specs: readonly SecuritySpec[], asOfDay: number): SenateRow[] {
  const tradable = specs.filter(
    (s) =>
      (s.assetType === 'stock' && s.country === 'US' && (s.sample || s.tier === 'core')) ||
      (s.assetType === 'etf' && s.sample),
  );
  if (tradable.length === 0) return [];
  const rows: SenateRow[] = [];
  for (let k = 0; k < 24; k += 1) {
    const random = createRandom(seed, 'senator', k);
    const female = random.chance(0.35);
    const firstName = random.pick(female ? FIRST_NAMES_FEMALE : FIRST_NAMES_MALE);
    const lastName = random.pick(LAST_NAMES);
    const middle = MIDDLE_INITIALS.charAt(random.int(0, MIDDLE_INITIALS.length - 1));
    const district = STATES[k % STATES.length] ?? 'NY';
    const favourites = Array.from({ length: 6 }, () => random.pick(tradable));
    for (let month = dayOf(2022, 1, 1); month <= asOfDay; month = addMonths(month, 1)) {
      const trades = random.chance(0.45) ? random.int(1, 3) : 0;
      for (let n = 0; n < trades; n += 1) {
        const spec = random.chance(0.7) ? random.pick(favourites) : random.pick(tradable);
        const day = Math.min(monthEnd(yearOf(month), monthOf(month)), month + random.int(0, 27));
        const disclosure = addWeekdays(day, random.int(8, 30));
        const type = random.weighted([
          ['Purchase', 55],
          ['Sale (Partial)', 20],
          ['Sale (Full)', 20],
          ['Exchange', 5],
        ] as const);
        const owner = random.weighted([
          ['Self', 30],
          ['Spouse', 45],
          ['Joint', 20],
          ['Child', 5],
        ] as const);
        const amount = random.weighted(AMOUNTS);
        const gains = type !== 'Purchase' && random.chance(0.3);
        const id = randomUuid(random);
        if (disclosure > asOfDay || disclosure < asOfDay - 730) continue;
        rows.push({
          id,
          symbol: spec.symbol,
          disclosureDate: fromDay(disclosure),
          data: {
            symbol: spec.symbol,
            disclosureDate: fromDay(disclosure),
            transactionDate: fromDay(day),
            firstName,
            lastName,
            office: `${firstName} ${middle} ${lastName}`,
            district,
            owner,
            assetDescription: spec.name,
            assetType: spec.assetType === 'etf' ? 'Stock' : 'Stock',
            type,
            amount,
            capitalGainsOver200USD: gains ? 'True' : 'False',
            comment: '--',
            link: `https://example.com/demo-filings/senate/ptr/${id}`,
          },
        });
      }
    }
  }
  return rows;
}

export interface OwnershipRow {
  symbol: string;
  year: number;
  quarter: number;
  data: Json;
}

/** 13F position summaries per calendar quarter, the newest `count` filed (45 days after quarter end). */
export function institutionalRows(
  seed: number,
  series: SymbolSeries,
  companyCik: string,
  asOfDay: number,
  count: number,
): OwnershipRow[] {
  const spec = series.spec;
  const random = createRandom(seed, 'institutions', spec.symbol);
  const shares = spec.sharesOutstanding ?? 1e9;
  let holders = Math.round(
    1500 + Math.min(5500, ((spec.marketCap ?? 1e10) / 1e12) * 4000) + random.range(0, 500),
  );
  let ownership = random.range(0.55, 0.78);
  let calls = shares * random.range(0.004, 0.012);
  let puts = calls * random.range(0.6, 1.1);
  type Snapshot = Record<string, number>;
  let previous: Snapshot | null = null;
  const rows: OwnershipRow[] = [];
  for (let year = 2018; ; year += 1) {
    let done = false;
    for (let quarter = 1; quarter <= 4; quarter += 1) {
      const end = monthEnd(year, quarter * 3);
      if (end > asOfDay) {
        done = true;
        break;
      }
      holders = Math.max(50, Math.round(holders * (1 + 0.015 + 0.02 * random.normal())));
      ownership = Math.min(0.92, Math.max(0.3, ownership + 0.008 * random.normal()));
      calls *= 1 + 0.08 * random.normal();
      puts *= 1 + 0.08 * random.normal();
      const index = lastIndexAtOrBefore(series.days, end);
      const price = series.close[Math.max(0, index)] ?? 0;
      const factor = series.splitFactor[Math.max(0, index)] ?? 1;
      const rawShares = shares / factor;
      const held = Math.round(rawShares * ownership);
      const snapshot: Snapshot = {
        investorsHolding: holders,
        numberOf13Fshares: held,
        totalInvested: Math.round(held * price),
        ownershipPercent: round(ownership * 100, 4),
        newPositions: Math.round(holders * random.range(0.03, 0.08)),
        increasedPositions: Math.round(holders * random.range(0.3, 0.45)),
        closedPositions: Math.round(holders * random.range(0.02, 0.06)),
        reducedPositions: Math.round(holders * random.range(0.3, 0.42)),
        totalCalls: Math.round(calls / factor),
        totalPuts: Math.round(puts / factor),
        putCallRatio: round(puts / calls, 4),
      };
      const filed = end + 45 <= asOfDay;
      if (filed && previous) {
        const data: Json = {
          symbol: spec.symbol,
          cik: companyCik || null,
          date: fromDay(end),
          year,
          quarter,
        };
        for (const key of Object.keys(snapshot)) {
          const now = snapshot[key] ?? 0;
          const last = previous[key] ?? 0;
          const cap = key.charAt(0).toUpperCase() + key.slice(1);
          data[key] = now;
          data[`last${cap}`] = last;
          data[`${key}Change`] =
            key === 'ownershipPercent' || key === 'putCallRatio' ? round(now - last, 4) : now - last;
        }
        rows.push({ symbol: spec.symbol, year, quarter, data });
      }
      if (filed) previous = snapshot;
    }
    if (done) break;
  }
  return rows.slice(-count);
}

export interface EsgRow {
  symbol: string;
  fiscalYear: number;
  esgRiskRating: string;
  industryRank: string;
}

const RATINGS = ['AAA', 'AA', 'A', 'BBB', 'BB', 'B', 'CCC'] as const;
const SECTOR_ESG: Readonly<Record<string, number>> = {
  Technology: 62,
  Healthcare: 58,
  'Financial Services': 55,
  'Consumer Cyclical': 52,
  'Consumer Defensive': 56,
  Industrials: 50,
  Energy: 38,
  'Basic Materials': 42,
  'Communication Services': 54,
  'Real Estate': 57,
  Utilities: 48,
};

/**
 * A company's ESG score of a fiscal year (0–100, higher is better): its sector's level, its own lasting
 * difference and the year's. The rating letter and the disclosed scores both come from it.
 */
export function esgScore(
  seed: number,
  spec: Pick<SecuritySpec, 'symbol' | 'sector'>,
  fiscalYear: number,
): number {
  const base = createRandom(seed, 'esg', spec.symbol).normal() * 12;
  const year = createRandom(seed, 'esg', spec.symbol, fiscalYear).normal() * 3;
  return (SECTOR_ESG[spec.sector] ?? 50) + base + year;
}

/** ESG ratings of the companies with statements for the three fiscal years before the "as of" year, ranked within industries. */
export function esgRows(seed: number, specs: readonly SecuritySpec[], asOfDay: number): EsgRow[] {
  const rated = specs.filter((s) => s.assetType === 'stock' && s.fundamentals);
  const rows: EsgRow[] = [];
  const lastYear = yearOf(asOfDay) - 1;
  for (let fiscalYear = lastYear - 2; fiscalYear <= lastYear; fiscalYear += 1) {
    const scored = rated.map((spec) => ({ spec, score: esgScore(seed, spec, fiscalYear) }));
    const byIndustry = new Map<string, typeof scored>();
    for (const entry of scored) {
      const list = byIndustry.get(entry.spec.industry) ?? [];
      list.push(entry);
      byIndustry.set(entry.spec.industry, list);
    }
    for (const list of byIndustry.values()) {
      list.sort((a, b) => b.score - a.score || a.spec.symbol.localeCompare(b.spec.symbol));
      list.forEach((entry, index) => {
        const letter = RATINGS[Math.min(6, Math.max(0, Math.floor((85 - entry.score) / 9)))] ?? 'BBB';
        rows.push({
          symbol: entry.spec.symbol,
          fiscalYear,
          esgRiskRating: letter,
          industryRank: `${index + 1} out of ${list.length}`,
        });
      });
    }
  }
  return rows;
}
