import {
  beneficialOwnership,
  houseTrades,
  institutionalHolders,
  institutionalHoldings,
  privateOfferings,
  secFilings,
} from '../../../db/market-schema-filings.ts';
import type { ColumnKind } from './bulk.ts';
import { addMonths, addWeekdays, dayOf, fromDay, monthEnd, monthOf, yearOf } from './calendar.ts';
import { companyIds } from './company.ts';
import type { CompanyFundamentals, PeriodStatements } from './fundamentals.ts';
import type { InsiderRow, OwnershipRow } from './ownership.ts';
import { FIRST_NAMES_FEMALE, FIRST_NAMES_MALE, LAST_NAMES, MIDDLE_INITIALS, US_CITIES } from './names.ts';
import { createRandom, hashString, randomUuid, round, type Random } from './random.ts';
import type { SeedBuffers } from './seed-tables.ts';
import type { SecuritySpec } from './universe.ts';

/**
 * The SEC filings behind the demo companies, consistent with the rest of the data set: a 10-K after each
 * fiscal year's statements, a 10-Q after each other quarter's, an 8-K on each earnings day and for a few
 * other events, a Form 4 for each insider trade, an S-1 before a recent IPO; the institutions' 13F
 * reports with their holdings (shares that add up to less than the stock's 13F totals), their Schedule
 * 13G filings above 5 percent; House members' trades; and private companies' Form C and Form D offerings.
 */

type Json = Record<string, string | number | boolean | null>;

/** The filings tables' columns in the order their rows are pushed (see seed-tables.ts). */
export const FILINGS_SEED_TABLES = {
  secFilings: [
    secFilings,
    [
      [secFilings.id, 'text'],
      [secFilings.symbol, 'text'],
      [secFilings.cik, 'text'],
      [secFilings.companyName, 'text'],
      [secFilings.formType, 'text'],
      [secFilings.filingDate, 'date'],
      [secFilings.acceptedDate, 'text'],
      [secFilings.hasFinancials, 'bool'],
      [secFilings.periodEnd, 'date'],
      [secFilings.fiscalYear, 'int'],
      [secFilings.period, 'text'],
      [secFilings.description, 'text'],
    ],
  ],
  house: [
    houseTrades,
    [
      [houseTrades.id, 'uuid'],
      [houseTrades.symbol, 'text'],
      [houseTrades.disclosureDate, 'date'],
      [houseTrades.data, 'json'],
    ],
  ],
  holders: [
    institutionalHolders,
    [
      [institutionalHolders.cik, 'text'],
      [institutionalHolders.name, 'text'],
    ],
  ],
  holdings: [
    institutionalHoldings,
    [
      [institutionalHoldings.cik, 'text'],
      [institutionalHoldings.symbol, 'text'],
      [institutionalHoldings.year, 'int'],
      [institutionalHoldings.quarter, 'int'],
      [institutionalHoldings.filingId, 'text'],
      [institutionalHoldings.shares, 'int'],
    ],
  ],
  beneficialOwnership: [
    beneficialOwnership,
    [
      [beneficialOwnership.id, 'text'],
      [beneficialOwnership.symbol, 'text'],
      [beneficialOwnership.filingDate, 'date'],
      [beneficialOwnership.data, 'json'],
    ],
  ],
  offerings: [
    privateOfferings,
    [
      [privateOfferings.id, 'text'],
      [privateOfferings.kind, 'text'],
      [privateOfferings.cik, 'text'],
      [privateOfferings.companyName, 'text'],
      [privateOfferings.filingDate, 'date'],
      [privateOfferings.data, 'json'],
    ],
  ],
} as const satisfies Record<string, readonly [unknown, readonly (readonly [unknown, ColumnKind])[]]>;

/** One sec_filings row. */
export interface FilingRow {
  id: string;
  symbol: string;
  cik: string;
  companyName: string;
  formType: string;
  filingDate: string;
  acceptedDate: string;
  hasFinancials: boolean;
  periodEnd: string | null;
  fiscalYear: number | null;
  period: string | null;
  description: string;
}

/** The cells of a filing row in FILINGS_SEED_TABLES.secFilings' order. */
export function filingCells(row: FilingRow): (string | number | boolean | null)[] {
  return [
    row.id,
    row.symbol,
    row.cik,
    row.companyName,
    row.formType,
    row.filingDate,
    row.acceptedDate,
    row.hasFinancials,
    row.periodEnd,
    row.fiscalYear,
    row.period,
    row.description,
  ];
}

/** A time of day in New York between `fromHour` and `toHour`, from a key. */
function clock(key: string, fromHour: number, toHour: number): string {
  const seconds = fromHour * 3600 + (hashString(key) % ((toHour - fromHour) * 3600));
  const hh = String(Math.floor(seconds / 3600)).padStart(2, '0');
  const mm = String(Math.floor(seconds / 60) % 60).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${hh}:${mm}:${ss}`;
}

/**
 * Gives a filer's filings accession numbers: the filer's CIK, the year, and a sequence within the year
 * (three digits from the symbol keep two companies that happen to share a CIK apart).
 */
function numberFilings(rows: Omit<FilingRow, 'id'>[], disambiguator: string): FilingRow[] {
  rows.sort((a, b) => a.acceptedDate.localeCompare(b.acceptedDate) || a.formType.localeCompare(b.formType));
  const counters = new Map<string, number>();
  const prefix = (hashString(disambiguator) % 1000) * 1000;
  return rows.map((row) => {
    const yy = row.filingDate.slice(2, 4);
    const seq = (counters.get(yy) ?? 0) + 1;
    counters.set(yy, seq);
    return { ...row, id: `${row.cik}-${yy}-${String(prefix + Math.min(seq, 999)).padStart(6, '0')}` };
  });
}

/** What a company needs for its filings. */
export interface CompanyFilingInput {
  spec: SecuritySpec;
  cik: string;
  /** The fiscal years and quarters whose statements the data set keeps. */
  years: readonly PeriodStatements[];
  quarters: readonly PeriodStatements[];
  insiders: readonly InsiderRow[];
  asOfDay: number;
}

/** A company's 10-K, 10-Q, 8-K, Form 4 and S-1 filings, oldest first, numbered. */
export function companyFilingRows(seed: number, input: CompanyFilingInput): FilingRow[] {
  const { spec, cik, asOfDay } = input;
  if (cik === '') return [];
  const random = createRandom(seed, 'filings', spec.symbol);
  const base = { symbol: spec.symbol, cik, companyName: spec.name };
  const rows: Omit<FilingRow, 'id'>[] = [];
  const statementFiling = (p: PeriodStatements): void => {
    const annual = p.quarter === 0;
    const filing = fromDay(p.filingDay);
    rows.push({
      ...base,
      formType: annual ? '10-K' : '10-Q',
      filingDate: filing,
      acceptedDate: `${filing} ${clock(`${spec.symbol}${filing}`, 6, 17)}`,
      hasFinancials: true,
      periodEnd: fromDay(p.endDay),
      fiscalYear: p.fiscalYear,
      period: annual ? 'FY' : `Q${p.quarter}`,
      description: annual
        ? `Annual report for fiscal year ${p.fiscalYear}`
        : `Quarterly report for Q${p.quarter} of fiscal year ${p.fiscalYear}`,
    });
  };
  for (const year of input.years) statementFiling(year);
  for (const quarter of input.quarters) {
    if (quarter.quarter !== 4) statementFiling(quarter);
    if (quarter.announcementDay > asOfDay) continue;
    const day = fromDay(quarter.announcementDay);
    rows.push({
      ...base,
      formType: '8-K',
      filingDate: day,
      acceptedDate: `${day} ${clock(`${spec.symbol}8k${day}`, 16, 17)}`,
      hasFinancials: true,
      periodEnd: day,
      fiscalYear: quarter.fiscalYear,
      period: `Q${quarter.quarter}`,
      description: `Results of operations and financial condition for Q${quarter.quarter} of fiscal year ${quarter.fiscalYear} (Items 2.02, 9.01)`,
    });
  }
  for (const year of input.years) {
    const events: [string, number][] = [
      ['Submission of matters to a vote of security holders (Item 5.07)', year.endDay + random.int(95, 140)],
    ];
    if (random.chance(0.4))
      events.push([
        'Departure or appointment of directors or certain officers (Item 5.02)',
        year.endDay + random.int(150, 300),
      ]);
    for (const [description, raw] of events) {
      const event = addWeekdays(raw, 0);
      const filed = addWeekdays(event, random.int(1, 4));
      if (filed > asOfDay) continue;
      const day = fromDay(filed);
      rows.push({
        ...base,
        formType: '8-K',
        filingDate: day,
        acceptedDate: `${day} ${clock(`${spec.symbol}ev${day}`, 8, 18)}`,
        hasFinancials: false,
        periodEnd: fromDay(event),
        fiscalYear: null,
        period: null,
        description,
      });
    }
  }
  for (const trade of input.insiders) {
    rows.push({
      ...base,
      formType: '4',
      filingDate: trade.filingDate,
      acceptedDate: `${trade.filingDate} ${clock(trade.id, 9, 21)}`,
      hasFinancials: false,
      periodEnd: String(trade.data.transactionDate ?? trade.filingDate),
      fiscalYear: null,
      period: null,
      description: `Statement of changes in beneficial ownership by ${String(trade.data.reportingName ?? '')}`,
    });
  }
  if (spec.ipoDate !== null) {
    const ipo = dayOf(
      Number(spec.ipoDate.slice(0, 4)),
      Number(spec.ipoDate.slice(5, 7)),
      Number(spec.ipoDate.slice(8, 10)),
    );
    const filed = addWeekdays(ipo - 75, 0);
    if (filed <= asOfDay && filed >= asOfDay - 3 * 365) {
      const day = fromDay(filed);
      rows.push({
        ...base,
        formType: 'S-1',
        filingDate: day,
        acceptedDate: `${day} ${clock(`${spec.symbol}s1`, 8, 17)}`,
        hasFinancials: true,
        periodEnd: null,
        fiscalYear: null,
        period: null,
        description: 'Registration statement for the initial public offering',
      });
    }
  }
  return numberFilings(rows, spec.symbol);
}

/** An institution that files 13F reports. */
export interface Holder {
  cik: string;
  name: string;
  /** Index funds hold more than 5 percent of every large company and file Schedule 13G. */
  giant: boolean;
}

const HOLDER_FIRST = [
  'Harbor Ridge',
  'Granite Peak',
  'Northgate',
  'Silver Birch',
  'Bluewater',
  'Cedar Point',
  'Ironwood',
  'Lakeshore',
  'Meridian Arc',
  'Old Quarry',
  'Pinecrest',
  'Red Maple',
  'Stonebridge',
  'Tall Oak',
  'Westbrook',
  'Yellow Fern',
  'Copper Hill',
];
const HOLDER_KIND = [
  'Capital Management LLC',
  'Asset Management LP',
  'Investment Advisors Inc.',
  'Partners LP',
  'Wealth Management LLC',
];

/** The 13F filers of the demo data set: three index-fund groups and seventeen active managers. */
export function holders(seed: number): Holder[] {
  const list: Holder[] = [
    { cik: '0000810001', name: 'Evergreen Index Funds Group', giant: true },
    { cik: '0000810002', name: 'Summit Street Global Advisors', giant: true },
    { cik: '0000810003', name: 'Atlas Broad Market Trust Co.', giant: true },
  ];
  HOLDER_FIRST.forEach((first, i) => {
    const random = createRandom(seed, 'holder', i);
    list.push({
      cik: String(820_000 + random.int(0, 9_999) * 10 + i).padStart(10, '0'),
      name: `${first} ${random.pick(HOLDER_KIND)}`,
      giant: false,
    });
  });
  return list;
}

/** The filing day of a holder's 13F-HR for a quarter: 30 to 45 days after the quarter's end. */
export function thirteenFDay(seed: number, holder: Holder, year: number, quarter: number): number {
  const end = monthEnd(year, quarter * 3);
  return addWeekdays(end + 28 + (hashString(`${seed}${holder.cik}${year}${quarter}`) % 12), 0);
}

/** The accession number of a holder's 13F-HR for a quarter. */
export function thirteenFId(holder: Holder, year: number, quarter: number): string {
  const filed = year + (quarter === 4 ? 1 : 0);
  return `${holder.cik}-${String(filed).slice(2)}-${String(quarter * 1000 + (year % 100)).padStart(6, '0')}`;
}

/** The last `count` calendar quarters whose 13F reports are due (45 days after their end) by the "as of" date. */
export function filedQuarters(asOfDay: number, count: number): { year: number; quarter: number }[] {
  const out: { year: number; quarter: number }[] = [];
  let year = yearOf(asOfDay);
  let quarter = Math.floor((monthOf(asOfDay) - 1) / 3) + 1;
  while (out.length < count) {
    if (monthEnd(year, quarter * 3) + 45 <= asOfDay) out.unshift({ year, quarter });
    quarter -= 1;
    if (quarter === 0) {
      quarter = 4;
      year -= 1;
    }
  }
  return out;
}

/** The holders' 13F-HR filings, one per holder and quarter. */
export function thirteenFFilingRows(seed: number, asOfDay: number, count: number): FilingRow[] {
  const rows: FilingRow[] = [];
  for (const holder of holders(seed)) {
    for (const { year, quarter } of filedQuarters(asOfDay, count)) {
      const day = fromDay(thirteenFDay(seed, holder, year, quarter));
      const end = fromDay(monthEnd(year, quarter * 3));
      rows.push({
        id: thirteenFId(holder, year, quarter),
        symbol: '',
        cik: holder.cik,
        companyName: holder.name,
        formType: '13F-HR',
        filingDate: day,
        acceptedDate: `${day} ${clock(`${holder.cik}${day}`, 9, 18)}`,
        hasFinancials: false,
        periodEnd: end,
        fiscalYear: null,
        period: null,
        description: `Quarterly report of holdings for the quarter ended ${end}`,
      });
    }
  }
  return rows;
}

/** One holding row and the Schedule 13G filings that go with a company's largest holders. */
export interface HoldingRow {
  cik: string;
  symbol: string;
  year: number;
  quarter: number;
  filingId: string;
  shares: number;
}

/**
 * What each holder held of a stock in the quarters of its 13F summaries: a share of the shares outstanding
 * (5.2–8.5 percent for the index groups, up to 1.2 percent for the others, who open and close positions),
 * so the named holders never add up to more than the summary's 13F shares.
 */
export function holdingRows(seed: number, symbol: string, summaries: readonly OwnershipRow[]): HoldingRow[] {
  const rows: HoldingRow[] = [];
  for (const holder of holders(seed)) {
    const random = createRandom(seed, 'holding', holder.cik, symbol);
    const holds = holder.giant || random.chance(0.45);
    let pct = holder.giant ? random.range(0.055, 0.08) : random.range(0.0005, 0.01);
    const first = holder.giant ? 0 : random.int(0, 3);
    const last =
      !holder.giant && random.chance(0.15) ? random.int(first + 2, summaries.length + 1) : summaries.length;
    summaries.forEach((summary, i) => {
      pct = holder.giant
        ? Math.min(0.085, Math.max(0.052, pct * (1 + 0.02 * random.normal())))
        : Math.min(0.012, Math.max(0.0003, pct * (1 + 0.12 * random.normal())));
      if (!holds || i < first || i >= last) return;
      const held = Number(summary.data.numberOf13Fshares ?? 0);
      const percent = Number(summary.data.ownershipPercent ?? 0);
      if (held <= 0 || percent <= 0) return;
      const outstanding = held / (percent / 100);
      rows.push({
        cik: holder.cik,
        symbol,
        year: summary.year,
        quarter: summary.quarter,
        filingId: thirteenFId(holder, summary.year, summary.quarter),
        shares: Math.round(outstanding * pct),
      });
    });
  }
  return rows;
}

/** A Schedule 13G filing: its filing-index row and FMP's acquisition-of-beneficial-ownership row. */
export interface BeneficialRow {
  filing: FilingRow;
  symbol: string;
  filingDate: string;
  data: Json;
}

/**
 * The Schedule 13G amendments holders above 5 percent file in February for the year's last quarter,
 * with the shares and percent of their Q4 holding.
 */
export function beneficialRows(
  seed: number,
  spec: SecuritySpec,
  companyCik: string,
  cusip: string,
  holdings: readonly HoldingRow[],
  summaries: readonly OwnershipRow[],
  asOfDay: number,
): BeneficialRow[] {
  const rows: BeneficialRow[] = [];
  const byHolder = new Map(holders(seed).map((h) => [h.cik, h]));
  for (const holding of holdings) {
    if (holding.quarter !== 4) continue;
    const summary = summaries.find((s) => s.year === holding.year && s.quarter === 4);
    const percent = Number(summary?.data.ownershipPercent ?? 0);
    const held = Number(summary?.data.numberOf13Fshares ?? 0);
    if (percent <= 0 || held <= 0) continue;
    const pct = (holding.shares / (held / (percent / 100))) * 100;
    const holder = byHolder.get(holding.cik);
    if (!holder || pct < 5) continue;
    const filed = addWeekdays(
      dayOf(holding.year + 1, 2, 1) + (hashString(`${holder.cik}${spec.symbol}`) % 12),
      0,
    );
    if (filed > asOfDay) continue;
    const day = fromDay(filed);
    const id = `${holder.cik}-${String(holding.year + 1).slice(2)}-${String(500_000 + (hashString(spec.symbol) % 100_000)).padStart(6, '0')}`;
    const shares = String(holding.shares);
    const shared = String(Math.round(holding.shares * 0.04));
    const filing: FilingRow = {
      id,
      symbol: spec.symbol,
      cik: companyCik,
      companyName: spec.name,
      formType: 'SC 13G/A',
      filingDate: day,
      acceptedDate: `${day} ${clock(id, 9, 17)}`,
      hasFinancials: false,
      periodEnd: fromDay(monthEnd(holding.year, 12)),
      fiscalYear: null,
      period: null,
      description: `Amendment to the statement of beneficial ownership filed by ${holder.name}`,
    };
    rows.push({
      filing,
      symbol: spec.symbol,
      filingDate: day,
      data: {
        cik: companyCik,
        symbol: spec.symbol,
        filingDate: day,
        acceptedDate: filing.acceptedDate,
        cusip,
        nameOfReportingPerson: holder.name,
        citizenshipOrPlaceOfOrganization: 'Delaware',
        soleVotingPower: String(holding.shares - Number(shared) - Math.round(holding.shares * 0.1)),
        sharedVotingPower: shared,
        soleDispositivePower: String(holding.shares - Number(shared)),
        sharedDispositivePower: shared,
        amountBeneficiallyOwned: shares,
        percentOfClass: String(round(pct, 2)),
        typeOfReportingPerson: 'IA',
        url: '',
      },
    });
  }
  return rows;
}

export interface HouseRow {
  id: string;
  symbol: string;
  disclosureDate: string;
  data: Json;
}

const HOUSE_AMOUNTS = [
  ['$1,001 - $15,000', 50],
  ['$15,001 - $50,000', 25],
  ['$50,001 - $100,000', 12],
  ['$100,001 - $250,000', 8],
  ['$250,001 - $500,000', 4],
  ['$500,001 - $1,000,000', 1],
] as const;

/** Periodic transaction reports of invented House members, disclosed over the two years before the "as of" date. */
export function houseRows(seed: number, specs: readonly SecuritySpec[], asOfDay: number): HouseRow[] {
  const tradable = specs.filter(
    (s) =>
      (s.assetType === 'stock' && s.country === 'US' && (s.sample || s.tier === 'core')) ||
      (s.assetType === 'etf' && s.sample),
  );
  if (tradable.length === 0) return [];
  const rows: HouseRow[] = [];
  for (let k = 0; k < 30; k += 1) {
    const random = createRandom(seed, 'representative', k);
    const female = random.chance(0.4);
    const firstName = random.pick(female ? FIRST_NAMES_FEMALE : FIRST_NAMES_MALE);
    const lastName = random.pick(LAST_NAMES);
    const middle = MIDDLE_INITIALS.charAt(random.int(0, MIDDLE_INITIALS.length - 1));
    const [, state] = random.pick(US_CITIES);
    const district = `${state}${String(random.int(1, 14)).padStart(2, '0')}`;
    const favourites = Array.from({ length: 5 }, () => random.pick(tradable));
    for (let month = dayOf(2023, 1, 1); month <= asOfDay; month = addMonths(month, 1)) {
      const trades = random.chance(0.4) ? random.int(1, 3) : 0;
      for (let n = 0; n < trades; n += 1) {
        const spec = random.chance(0.65) ? random.pick(favourites) : random.pick(tradable);
        const day = Math.min(monthEnd(yearOf(month), monthOf(month)), month + random.int(0, 27));
        const disclosure = addWeekdays(day, random.int(10, 32));
        const type = random.weighted([
          ['Purchase', 55],
          ['Sale (Partial)', 20],
          ['Sale', 20],
          ['Exchange', 5],
        ] as const);
        const owner = random.weighted([
          ['Self', 25],
          ['Spouse', 45],
          ['Joint', 25],
          ['Dependent', 5],
        ] as const);
        const amount = random.weighted(HOUSE_AMOUNTS);
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
            assetType: 'Stock',
            type,
            amount,
            capitalGainsOver200USD: gains ? 'True' : 'False',
            comment: '',
            link: `https://example.com/demo-filings/house/ptr/${id}`,
          },
        });
      }
    }
  }
  return rows;
}

/** One Form C or Form D filing: its filing-index row and FMP's offering row. */
export interface OfferingRow {
  filing: FilingRow;
  kind: 'C' | 'D';
  cik: string;
  companyName: string;
  filingDate: string;
  data: Json;
}

const ISSUER_WORDS = [
  'Brightleaf',
  'Cobalt',
  'Driftwood',
  'Emberline',
  'Foxglove',
  'Greenhollow',
  'Hearthstone',
  'Juniper',
  'Kestrel',
  'Lumen',
  'Mossbank',
  'Nimbus',
  'Orchard',
  'Pebblecreek',
  'Quillfeather',
  'Riverstone',
];
const ISSUER_KINDS_C = [
  'Brewing Co.',
  'Coffee Roasters',
  'Robotics Inc.',
  'Wellness Studio LLC',
  'Games Inc.',
  'Farms PBC',
];
const ISSUER_KINDS_D = [
  'Ventures Fund I LP',
  'Therapeutics Inc.',
  'Real Estate Fund LLC',
  'Software Inc.',
  'Energy Partners LP',
];
const INDUSTRY_GROUPS: Readonly<Record<string, string>> = {
  'Ventures Fund I LP': 'Pooled Investment Fund',
  'Therapeutics Inc.': 'Biotechnology',
  'Real Estate Fund LLC': 'REITS and Finance',
  'Software Inc.': 'Other Technology',
  'Energy Partners LP': 'Oil and Gas',
};

function issuerAddress(random: Random): { street: string; city: string; state: string; zip: string } {
  const [city, state, zipPrefix] = random.pick(US_CITIES);
  return {
    street: `${random.int(10, 2999)} Main Street`,
    city,
    state,
    zip: `${zipPrefix}${random.int(10, 99)}`,
  };
}

function offeringFiling(
  kind: 'C' | 'D',
  cik: string,
  name: string,
  day: string,
  amendment: boolean,
  seq: number,
): FilingRow {
  const formType = `${kind}${amendment ? '/A' : ''}`;
  return {
    id: `${cik}-${day.slice(2, 4)}-${String(seq).padStart(6, '0')}`,
    symbol: '',
    cik,
    companyName: name,
    formType,
    filingDate: day,
    acceptedDate: `${day} ${clock(`${cik}${day}${formType}`, 8, 18)}`,
    hasFinancials: kind === 'C',
    periodEnd: null,
    fiscalYear: null,
    period: null,
    description:
      kind === 'C'
        ? `Offering statement under Regulation Crowdfunding${amendment ? ' (amendment)' : ''}`
        : `Notice of exempt offering of securities${amendment ? ' (amendment)' : ''}`,
  };
}

/** Crowdfunding offerings (Form C) of invented small companies over the two years before the "as of" date. */
function crowdfundingRows(seed: number, asOfDay: number): OfferingRow[] {
  const rows: OfferingRow[] = [];
  for (let k = 0; k < 16; k += 1) {
    const random = createRandom(seed, 'crowdfunding', k);
    const name = `${ISSUER_WORDS[k] ?? 'Acorn'} ${random.pick(ISSUER_KINDS_C)}`;
    const cik = String(2_100_000 + k * 37 + random.int(0, 30)).padStart(10, '0');
    const address = issuerAddress(random);
    const start = asOfDay - random.int(20, 700);
    const price = random.pick([1, 5, 10, 25]);
    const target = random.pick([10_000, 25_000, 50_000, 100_000]);
    const maximum = target * random.pick([10, 20, 50]);
    const revenue = Math.round(random.logNormal(400_000, 1));
    const amendments = random.int(0, 2);
    for (let a = 0; a <= amendments; a += 1) {
      const filed = addWeekdays(start + a * random.int(20, 60), 0);
      if (filed > asOfDay) continue;
      const day = fromDay(filed);
      const filing = offeringFiling('C', cik, name, day, a > 0, a + 1);
      const deadline = fromDay(start + 180);
      rows.push({
        filing,
        kind: 'C',
        cik,
        companyName: name,
        filingDate: day,
        data: {
          cik,
          companyName: name,
          date: `${day} 00:00:00`,
          filingDate: `${day} 00:00:00`,
          acceptedDate: filing.acceptedDate,
          formType: filing.formType,
          formSignification: a > 0 ? 'Offering Statement Amendment' : 'Offering Statement',
          nameOfIssuer: name,
          legalStatusForm: name.endsWith('LLC') ? 'Limited Liability Company' : 'Corporation',
          jurisdictionOrganization: 'DE',
          issuerStreet: address.street,
          issuerCity: address.city,
          issuerStateOrCountry: address.state,
          issuerZipCode: address.zip,
          issuerWebsite: `https://example.com/${name.split(' ')[0]?.toLowerCase() ?? 'issuer'}`,
          intermediaryCompanyName: random.pick([
            'Crowdline Portal LLC',
            'Backyard Capital Funding Portal',
            'StartEngine-like Portal Inc.',
          ]),
          intermediaryCommissionCik: '0001665000',
          intermediaryCommissionFileNumber: '007-00033',
          compensationAmount: 'Seven percent of the amount raised',
          financialInterest: 'Two percent of the securities sold',
          securityOfferedType: random.pick(['Common Stock', 'Other', 'Debt']),
          securityOfferedOtherDescription: 'Simple agreement for future equity',
          numberOfSecurityOffered: Math.round(target / price),
          offeringPrice: price,
          offeringAmount: target,
          overSubscriptionAccepted: 'Y',
          overSubscriptionAllocationType: 'First-come, first-served basis',
          maximumOfferingAmount: maximum,
          offeringDeadlineDate: deadline,
          currentNumberOfEmployees: random.int(2, 40),
          totalAssetMostRecentFiscalYear: Math.round(revenue * 0.8),
          totalAssetPriorFiscalYear: Math.round(revenue * 0.55),
          cashAndCashEquiValentMostRecentFiscalYear: Math.round(revenue * 0.2),
          cashAndCashEquiValentPriorFiscalYear: Math.round(revenue * 0.15),
          accountsReceivableMostRecentFiscalYear: Math.round(revenue * 0.08),
          accountsReceivablePriorFiscalYear: Math.round(revenue * 0.06),
          shortTermDebtMostRecentFiscalYear: Math.round(revenue * 0.1),
          shortTermDebtPriorFiscalYear: Math.round(revenue * 0.09),
          longTermDebtMostRecentFiscalYear: Math.round(revenue * 0.3),
          longTermDebtPriorFiscalYear: Math.round(revenue * 0.25),
          revenueMostRecentFiscalYear: revenue,
          revenuePriorFiscalYear: Math.round(revenue * 0.7),
          costGoodsSoldMostRecentFiscalYear: Math.round(revenue * 0.55),
          costGoodsSoldPriorFiscalYear: Math.round(revenue * 0.42),
          taxesPaidMostRecentFiscalYear: Math.round(revenue * 0.01),
          taxesPaidPriorFiscalYear: Math.round(revenue * 0.005),
          netIncomeMostRecentFiscalYear: Math.round(revenue * -0.12),
          netIncomePriorFiscalYear: Math.round(revenue * -0.2),
        },
      });
    }
  }
  return rows;
}

/** Exempt offerings (Form D) of invented private companies and funds over the two years before the "as of" date. */
function fundraisingRows(seed: number, asOfDay: number): OfferingRow[] {
  const rows: OfferingRow[] = [];
  for (let k = 0; k < 16; k += 1) {
    const random = createRandom(seed, 'fundraising', k);
    const kind = random.pick(ISSUER_KINDS_D);
    const name = `${ISSUER_WORDS[(k + 7) % ISSUER_WORDS.length] ?? 'Acorn'} ${kind}`;
    const cik = String(2_150_000 + k * 41 + random.int(0, 30)).padStart(10, '0');
    const address = issuerAddress(random);
    const person = { first: random.pick(FIRST_NAMES_MALE), last: random.pick(LAST_NAMES) };
    const start = asOfDay - random.int(20, 700);
    const total = random.pick([2_000_000, 5_000_000, 15_000_000, 50_000_000]);
    const founded = yearOf(asOfDay) - random.int(1, 12);
    const amendments = random.int(0, 2);
    for (let a = 0; a <= amendments; a += 1) {
      const filed = addWeekdays(start + a * random.int(60, 150), 0);
      if (filed > asOfDay) continue;
      const day = fromDay(filed);
      const filing = offeringFiling('D', cik, name, day, a > 0, a + 1);
      const sold = Math.round(total * Math.min(1, 0.25 + 0.3 * a + random.range(0, 0.2)));
      rows.push({
        filing,
        kind: 'D',
        cik,
        companyName: name,
        filingDate: day,
        data: {
          cik,
          companyName: name,
          date: `${day} 00:00:00`,
          filingDate: `${day} 00:00:00`,
          acceptedDate: filing.acceptedDate,
          formType: filing.formType,
          formSignification:
            a > 0
              ? 'Notice of Exempt Offering of Securities Amendment'
              : 'Notice of Exempt Offering of Securities',
          entityName: name,
          issuerStreet: address.street,
          issuerCity: address.city,
          issuerStateOrCountry: address.state,
          issuerStateOrCountryDescription: address.state,
          issuerZipCode: address.zip,
          issuerPhoneNumber: `(${random.int(201, 989)}) 555-0${random.int(100, 199)}`,
          jurisdictionOfIncorporation: 'DELAWARE',
          entityType: kind.endsWith('LP')
            ? 'Limited Partnership'
            : kind.endsWith('LLC')
              ? 'Limited Liability Company'
              : 'Corporation',
          incorporatedWithinFiveYears: yearOf(asOfDay) - founded <= 5,
          yearOfIncorporation: String(founded),
          relatedPersonFirstName: person.first,
          relatedPersonLastName: person.last,
          relatedPersonStreet: address.street,
          relatedPersonCity: address.city,
          relatedPersonStateOrCountry: address.state,
          relatedPersonStateOrCountryDescription: address.state,
          relatedPersonZipCode: address.zip,
          relatedPersonRelationship: 'Executive Officer, Director',
          industryGroupType: INDUSTRY_GROUPS[kind] ?? 'Other',
          revenueRange: kind.includes('Fund')
            ? 'Decline to Disclose'
            : random.pick(['No Revenues', '$1 - $1,000,000', '$1,000,001 - $5,000,000']),
          federalExemptionsExclusions: kind.includes('Fund') ? '06b, 3C, 3C.1' : '06b',
          isAmendment: a > 0,
          dateOfFirstSale: fromDay(start),
          durationOfOfferingIsMoreThanYear: random.chance(0.3),
          securitiesOfferedAreOfEquityType: true,
          isBusinessCombinationTransaction: false,
          minimumInvestmentAccepted: random.pick([0, 25_000, 100_000, 250_000]),
          totalOfferingAmount: total,
          totalAmountSold: sold,
          totalAmountRemaining: total - sold,
          hasNonAccreditedInvestors: false,
          totalNumberAlreadyInvested: random.int(3, 120),
          salesCommissions: 0,
          findersFees: 0,
          grossProceedsUsed: 0,
        },
      });
    }
  }
  return rows;
}

/** Both kinds of private offerings. */
export function offeringRows(seed: number, asOfDay: number): OfferingRow[] {
  return [...crowdfundingRows(seed, asOfDay), ...fundraisingRows(seed, asOfDay)];
}

/** Pushes a company's own filings (statements, 8-Ks, Form 4s, S-1). */
export function pushCompanyFilings(
  out: SeedBuffers,
  seed: number,
  spec: SecuritySpec,
  fundamentals: CompanyFundamentals,
  limits: readonly [quarters: number, years: number],
  insiders: readonly InsiderRow[],
  asOfDay: number,
): void {
  const cik = companyIds(seed, spec).cik;
  const quarters = fundamentals.quarters.filter((q) => q.filingDay <= asOfDay).slice(-limits[0]);
  const years = fundamentals.years.filter((y) => y.filingDay <= asOfDay).slice(-limits[1]);
  for (const row of companyFilingRows(seed, { spec, cik, years, quarters, insiders, asOfDay }))
    out.secFilings.push(filingCells(row));
}

/** Pushes what the 13F filers hold of a core company and their Schedule 13G filings. */
export function pushHoldings(
  out: SeedBuffers,
  seed: number,
  spec: SecuritySpec,
  summaries: readonly OwnershipRow[],
  asOfDay: number,
): void {
  const ids = companyIds(seed, spec);
  if (ids.cik === '') return;
  const holdings = holdingRows(seed, spec.symbol, summaries);
  for (const h of holdings) out.holdings.push([h.cik, h.symbol, h.year, h.quarter, h.filingId, h.shares]);
  for (const row of beneficialRows(seed, spec, ids.cik, ids.cusip, holdings, summaries, asOfDay)) {
    out.secFilings.push(filingCells(row.filing));
    out.beneficialOwnership.push([row.filing.id, row.symbol, row.filingDate, row.data]);
  }
}

/** Pushes the tables that span symbols: the 13F filers and their reports, House trades, private offerings. */
export function pushCrossSymbolFilings(
  out: SeedBuffers,
  seed: number,
  universe: readonly SecuritySpec[],
  asOfDay: number,
): void {
  for (const holder of holders(seed)) out.holders.push([holder.cik, holder.name]);
  for (const row of thirteenFFilingRows(seed, asOfDay, THIRTEEN_F_QUARTERS))
    out.secFilings.push(filingCells(row));
  for (const row of houseRows(seed, universe, asOfDay))
    out.house.push([row.id, row.symbol, row.disclosureDate, row.data]);
  for (const row of offeringRows(seed, asOfDay)) {
    out.secFilings.push(filingCells(row.filing));
    out.offerings.push([row.filing.id, row.kind, row.cik, row.companyName, row.filingDate, row.data]);
  }
}

/** Quarters of 13F summaries (and so of holdings) the data set keeps per stock. */
export const THIRTEEN_F_QUARTERS = 8;
