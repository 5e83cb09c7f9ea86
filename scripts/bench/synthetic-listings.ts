import { count } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client.ts';
import { securities } from '../../src/server/db/schema.ts';

/**
 * Synthetic demo listings that grow the securities table to the size of a full market directory
 * (about 70,000 symbols), so symbol search is timed over as many rows as production holds. The
 * tickers and names are generated (deterministically) and are demo data, never real companies.
 */

type NewSecurity = typeof securities.$inferInsert;

interface Venue {
  exchange: string;
  exchangeFullName: string;
  currency: string;
  country: string;
  /** Share of the generated listings, relative to the others. */
  weight: number;
  /** Turns a base ticker into the venue's symbol form. */
  symbol: (letters: string, random: () => number) => string;
  suffixes: readonly string[];
}

const digits = (random: () => number, length: number): string =>
  Array.from({ length }, () => String(Math.floor(random() * 10))).join('');

const VENUES: readonly Venue[] = [
  {
    exchange: 'NASDAQ',
    exchangeFullName: 'NASDAQ Global Select',
    currency: 'USD',
    country: 'US',
    weight: 30,
    symbol: (letters) => letters,
    suffixes: ['Inc.', 'Corp.', 'Holdings Inc.', 'Group Inc.'],
  },
  {
    exchange: 'NYSE',
    exchangeFullName: 'New York Stock Exchange',
    currency: 'USD',
    country: 'US',
    weight: 25,
    symbol: (letters) => letters,
    suffixes: ['Inc.', 'Corporation', 'Co.', 'Group'],
  },
  {
    exchange: 'AMEX',
    exchangeFullName: 'New York Stock Exchange Arca',
    currency: 'USD',
    country: 'US',
    weight: 8,
    symbol: (letters) => letters,
    suffixes: ['Inc.', 'Trust', 'Fund'],
  },
  {
    exchange: 'LSE',
    exchangeFullName: 'London Stock Exchange',
    currency: 'GBp',
    country: 'GB',
    weight: 8,
    symbol: (letters) => `${letters}.L`,
    suffixes: ['plc', 'Group plc', 'Holdings plc'],
  },
  {
    exchange: 'XETRA',
    exchangeFullName: 'Deutsche Börse Xetra',
    currency: 'EUR',
    country: 'DE',
    weight: 6,
    symbol: (letters) => `${letters}.DE`,
    suffixes: ['AG', 'SE', 'GmbH & Co. KGaA'],
  },
  {
    exchange: 'EURONEXT',
    exchangeFullName: 'Euronext Paris',
    currency: 'EUR',
    country: 'FR',
    weight: 6,
    symbol: (letters) => `${letters}.PA`,
    suffixes: ['SA', 'SE', 'Groupe SA'],
  },
  {
    exchange: 'TSX',
    exchangeFullName: 'Toronto Stock Exchange',
    currency: 'CAD',
    country: 'CA',
    weight: 6,
    symbol: (letters) => `${letters}.TO`,
    suffixes: ['Inc.', 'Ltd.', 'Corp.'],
  },
  {
    exchange: 'JPX',
    exchangeFullName: 'Japan Exchange Group',
    currency: 'JPY',
    country: 'JP',
    weight: 6,
    symbol: (_letters, random) => `${String(1 + Math.floor(random() * 9))}${digits(random, 3)}.T`,
    suffixes: ['Co., Ltd.', 'Corporation', 'Holdings Co., Ltd.'],
  },
  {
    exchange: 'HKSE',
    exchangeFullName: 'Hong Kong Stock Exchange',
    currency: 'HKD',
    country: 'HK',
    weight: 5,
    symbol: (_letters, random) => `${digits(random, 4)}.HK`,
    suffixes: ['Limited', 'Holdings Limited', 'Group Limited'],
  },
];

const SECTORS: readonly {
  sector: string;
  industries: readonly { industry: string; words: readonly string[] }[];
}[] = [
  {
    sector: 'Technology',
    industries: [
      { industry: 'Semiconductors', words: ['Semiconductor', 'Microsystems', 'Silicon'] },
      { industry: 'Software - Application', words: ['Software', 'Tech', 'Technologies', 'Digital'] },
      { industry: 'Software - Infrastructure', words: ['Cloud', 'Networks', 'Data Systems'] },
    ],
  },
  {
    sector: 'Financial Services',
    industries: [
      { industry: 'Banks - Regional', words: ['Bank', 'Bancorp', 'Savings Bank'] },
      { industry: 'Asset Management', words: ['Capital', 'Asset Management', 'Investments'] },
      { industry: 'Insurance - Diversified', words: ['Insurance', 'Assurance', 'Financial'] },
    ],
  },
  {
    sector: 'Healthcare',
    industries: [
      { industry: 'Biotechnology', words: ['Biosciences', 'Therapeutics', 'Genomics'] },
      { industry: 'Medical Devices', words: ['Medical', 'Surgical', 'Diagnostics'] },
    ],
  },
  {
    sector: 'Energy',
    industries: [
      { industry: 'Oil & Gas E&P', words: ['Energy', 'Petroleum', 'Resources'] },
      { industry: 'Solar', words: ['Solar', 'Renewables', 'Power'] },
    ],
  },
  {
    sector: 'Industrials',
    industries: [
      { industry: 'Aerospace & Defense', words: ['Aerospace', 'Dynamics', 'Systems'] },
      { industry: 'Specialty Industrial Machinery', words: ['Industries', 'Machinery', 'Engineering'] },
    ],
  },
  {
    sector: 'Consumer Cyclical',
    industries: [
      { industry: 'Specialty Retail', words: ['Retail', 'Stores', 'Brands'] },
      { industry: 'Auto Parts', words: ['Automotive', 'Motors', 'Mobility'] },
    ],
  },
  {
    sector: 'Consumer Defensive',
    industries: [{ industry: 'Packaged Foods', words: ['Foods', 'Farms', 'Beverages'] }],
  },
  {
    sector: 'Real Estate',
    industries: [{ industry: 'REIT - Diversified', words: ['Realty', 'Properties', 'REIT'] }],
  },
  {
    sector: 'Communication Services',
    industries: [{ industry: 'Telecom Services', words: ['Telecom', 'Communications', 'Media'] }],
  },
  {
    sector: 'Utilities',
    industries: [
      { industry: 'Utilities - Regulated Electric', words: ['Utilities', 'Electric', 'Gas & Light'] },
    ],
  },
  {
    sector: 'Basic Materials',
    industries: [{ industry: 'Specialty Chemicals', words: ['Chemicals', 'Materials', 'Mining'] }],
  },
];

const PLACES = [
  'Northwind',
  'Silver Lake',
  'Blue Ridge',
  'Harbor',
  'Summit',
  'Cedar',
  'Granite',
  'Pacific',
  'Atlantic',
  'Evergreen',
  'Riverside',
  'Keystone',
  'Meridian',
  'Highland',
  'Lakeshore',
  'Pinnacle',
  'Redwood',
  'Sterling',
  'Crescent',
  'Aurora',
  'Beacon',
  'Falcon',
  'Orion',
  'Vanguard',
  'Horizon',
  'Frontier',
  'Prairie',
  'Coastal',
  'Ironwood',
  'Oakmont',
  'Westbrook',
  'Eastgate',
  'Southport',
  'Bayview',
  'Stonebridge',
  'Clearwater',
  'Maple',
  'Willow',
  'Apex',
  'Zenith',
  'Nova',
  'Polaris',
  'Sequoia',
  'Alder',
  'Juniper',
  'Magnolia',
  'Hudson',
  'Carolina',
  'Dakota',
  'Sierra',
  'Appleton',
  'Ashford',
  'Brighton',
  'Cambridge',
  'Dover',
  'Essex',
  'Fairview',
  'Glenwood',
  'Hamilton',
  'Kingsley',
  'Lexington',
  'Marlow',
  'Newport',
  'Preston',
  'Quincy',
  'Rockford',
  'Salem',
  'Trenton',
  'Union',
  'Vista',
  'Warwick',
  'Yorke',
  'Amber',
  'Cobalt',
  'Emerald',
  'Indigo',
  'Onyx',
  'Sapphire',
  'Topaz',
] as const;

/** mulberry32: small, fast and seedable, so every run loads the same listings. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function pickVenue(random: () => number): Venue {
  const total = VENUES.reduce((sum, venue) => sum + venue.weight, 0);
  let roll = random() * total;
  for (const venue of VENUES) {
    roll -= venue.weight;
    if (roll < 0) return venue;
  }
  return pick(VENUES, random);
}

/** 1 to 5 letters, mostly 3 or 4, biased towards the initials of the name like real tickers. */
function tickerLetters(name: string, random: () => number): string {
  const lengths = [1, 2, 3, 3, 3, 4, 4, 4, 4, 5];
  const length = pick(lengths, random);
  const initials = name
    .replace(/[^A-Za-z ]/g, '')
    .split(' ')
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase());
  let letters = '';
  for (let i = 0; i < length; i++) {
    const initial = initials[i];
    letters +=
      initial !== undefined && random() < 0.6 ? initial : String.fromCharCode(65 + Math.floor(random() * 26));
  }
  return letters;
}

/** Demo listings (deterministic for a seed) whose symbols are not in `taken`. */
export function syntheticListings(wanted: number, taken: ReadonlySet<string>, seed = 70_000): NewSecurity[] {
  const random = seededRandom(seed);
  const used = new Set(taken);
  const rows: NewSecurity[] = [];
  let attempts = 0;
  while (rows.length < wanted) {
    if (++attempts > wanted * 50) throw new Error('ran out of distinct synthetic tickers');
    const venue = pickVenue(random);
    const { sector, industries } = pick(SECTORS, random);
    const { industry, words } = pick(industries, random);
    const etf = venue.country === 'US' && random() < 0.08;
    const base = `${pick(PLACES, random)} ${pick(words, random)}`;
    const name = etf ? `${base} Select ETF` : `${base} ${pick(venue.suffixes, random)}`;
    const symbol = venue.symbol(tickerLetters(name, random), random);
    if (used.has(symbol)) continue;
    used.add(symbol);
    rows.push({
      symbol,
      name,
      assetType: etf ? 'etf' : 'stock',
      exchange: venue.exchange,
      exchangeFullName: venue.exchangeFullName,
      currency: venue.currency,
      country: venue.country,
      sector: etf ? '' : sector,
      industry: etf ? '' : industry,
      sharesOutstanding: Math.round(10 ** (6 + random() * 4)),
      sample: false,
      active: random() >= 0.04,
      details: {},
      source: 'demo',
    });
  }
  return rows;
}

/** Rows per INSERT: 14 columns each, well under PostgreSQL's 65,535 bind parameters. */
const CHUNK = 2_000;

/** Adds synthetic demo listings until the securities table holds `total` rows; returns how many were added. */
export async function fillSecurities(db: Db, total: number): Promise<number> {
  const [counted] = await db.select({ rows: count() }).from(securities);
  const existing = counted?.rows ?? 0;
  if (existing >= total) return 0;
  const taken = await db.select({ symbol: securities.symbol }).from(securities);
  const rows = syntheticListings(total - existing, new Set(taken.map((row) => row.symbol)));
  await db.transaction(async (tx) => {
    for (let start = 0; start < rows.length; start += CHUNK) {
      await tx.insert(securities).values(rows.slice(start, start + CHUNK));
    }
  });
  return rows.length;
}
