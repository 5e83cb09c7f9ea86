import { personName, STREET_NAMES, US_CITIES, type Person } from './names.ts';
import { createRandom, randomUuid, round, type Random } from './random.ts';
import { buildUniverse, makeIsin, type SecuritySpec } from './universe.ts';
import countryPhoneCodes from './data/country-phone-codes.json' with { type: 'json' };
import executiveTitles from './data/executive-titles.json' with { type: 'json' };
import internationalCities from './data/international-cities.json' with { type: 'json' };
import regions from './data/regions.json' with { type: 'json' };
import sectorActivities from './data/sector-activities.json' with { type: 'json' };

/**
 * Company facts: identifiers, profile text, addresses and executives. Generated companies get invented people
 * and addresses; the familiar companies keep their public facts. Every description says it is demo data.
 */

export interface CompanyIds {
  cik: string;
  isin: string;
  cusip: string;
}

/** Cities and postcodes of head offices outside the US, by country. */
const INTERNATIONAL_CITIES = internationalCities as unknown as Readonly<
  Record<string, readonly (readonly [city: string, postcode: string])[]>
>;

/** International dialling codes, by country. */
const COUNTRY_PHONE: Readonly<Record<string, string>> = countryPhoneCodes;

/** Identifiers as drawn from a company's own stream, redrawn while another company already holds them. */
function drawIds(seed: number, spec: SecuritySpec, taken: ReadonlySet<string>): CompanyIds {
  const random = createRandom(seed, 'ids', spec.symbol);
  const country = spec.country === '' ? 'US' : spec.country;
  const prefix = country === 'HK' ? 'KY' : country;
  let isin = makeIsin(prefix, random);
  const filer = spec.country === 'US' || spec.assetType === 'etf';
  let cik = filer ? String(random.int(1_000_000, 2_099_999)).padStart(10, '0') : '';
  while (taken.has(`isin:${isin}`) || taken.has(`cusip:${isin.slice(2, 11)}`))
    isin = makeIsin(prefix, random);
  while (cik !== '' && taken.has(`cik:${cik}`))
    cik = String(random.int(1_000_000, 2_099_999)).padStart(10, '0');
  return { cik, isin, cusip: isin.slice(2, 11) };
}

/** The identifiers a company keeps when its real ones are known. */
function knownIds(spec: SecuritySpec): CompanyIds | null {
  return spec.facts
    ? { cik: spec.facts.cik, isin: spec.facts.isin, cusip: spec.facts.isin.slice(2, 11) }
    : null;
}

function holdIds(taken: Set<string>, ids: CompanyIds): void {
  if (ids.cik !== '') taken.add(`cik:${ids.cik}`);
  taken.add(`isin:${ids.isin}`);
  taken.add(`cusip:${ids.cusip}`);
}

interface IdRegistry {
  bySymbol: ReadonlyMap<string, CompanyIds>;
  taken: ReadonlySet<string>;
}

const registries = new Map<number, IdRegistry>();

/**
 * Every company's identifiers in the full universe of a seed, no CIK, ISIN or CUSIP held twice: the real ones
 * of the familiar companies first, then the other familiar symbols, then the rest in universe order, each
 * redrawing what an earlier one holds. Built over the full universe, so a symbol has the same identifiers at
 * both scales.
 */
function idRegistry(seed: number): IdRegistry {
  const known = registries.get(seed);
  if (known) return known;
  const specs = buildUniverse(seed, 'full');
  const ordered = [
    ...specs.filter((spec) => spec.facts),
    ...specs.filter((spec) => !spec.facts && spec.familiar),
    ...specs.filter((spec) => !spec.facts && !spec.familiar),
  ];
  const taken = new Set<string>();
  const bySymbol = new Map<string, CompanyIds>();
  for (const spec of ordered) {
    const ids = knownIds(spec) ?? drawIds(seed, spec, taken);
    holdIds(taken, ids);
    bySymbol.set(spec.symbol, ids);
  }
  const registry = { bySymbol, taken };
  if (registries.size >= 4) registries.clear();
  registries.set(seed, registry);
  return registry;
}

/**
 * Identifiers shared by the profile and the statements of a company. A CIK names one filer and an ISIN one
 * security, so no two companies of the demo world share one: `search-cik` and `profile-cik` find one company.
 */
export function companyIds(seed: number, spec: SecuritySpec): CompanyIds {
  const known = knownIds(spec);
  if (known) return known;
  const registry = idRegistry(seed);
  return registry.bySymbol.get(spec.symbol) ?? drawIds(seed, spec, registry.taken);
}

export interface ProfileRow {
  symbol: string;
  description: string;
  ceo: string;
  website: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  cik: string;
  isin: string;
  cusip: string;
  fullTimeEmployees: number | null;
  ipoDate: string | null;
  image: string;
  beta: number;
  isAdr: boolean;
}

export interface ExecutiveRow {
  id: string;
  symbol: string;
  name: string;
  title: string;
  pay: number | null;
  currencyPay: string;
  gender: string;
  yearBorn: number | null;
  active: boolean;
  sortOrder: number;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** What a company of each sector does, for generated descriptions. */
const ACTIVITY: Readonly<Record<string, string>> = sectorActivities;

/** Where a company of each country operates, for generated descriptions. */
const REGIONS: Readonly<Record<string, string>> = regions;

/** Description sentences built from the company's sector and industry, ending with the demo-data notice. */
function describe(
  spec: SecuritySpec,
  random: Random,
  employees: number | null,
  ipoYear: string,
  city: string,
): string {
  if (spec.assetType === 'fund') {
    const assetClass =
      typeof spec.details.assetClass === 'string' ? spec.details.assetClass.toLowerCase() : 'equity';
    const entity = typeof spec.details.entityName === 'string' ? spec.details.entityName : spec.name;
    return [
      `The ${spec.name} is a mutual fund, a series of ${entity}, that invests in ${assetClass} securities.`,
      'Shares are bought and redeemed at the net asset value the fund strikes once a day, after the US market closes.',
      `It was launched in ${ipoYear}.`,
      'This profile is demo data: the fund’s figures are generated for illustration.',
    ].join(' ');
  }
  if (spec.assetType === 'etf') {
    const assetClass =
      typeof spec.details.assetClass === 'string' ? spec.details.assetClass.toLowerCase() : 'equity';
    return [
      `The ${spec.name} is an exchange-traded fund that seeks investment results corresponding to a ${assetClass} benchmark.`,
      `The fund holds a diversified portfolio and is rebalanced ${random.pick(['quarterly', 'semi-annually', 'monthly'])}.`,
      `It was launched in ${ipoYear} and trades on ${spec.exchangeFullName}.`,
      'This profile is demo data: the fund and its figures are generated for illustration.',
    ].join(' ');
  }
  const activity = ACTIVITY[spec.sector] ?? 'operates a diversified business';
  const region = REGIONS[spec.country] ?? 'internationally';
  const segments = random.int(2, 4);
  return [
    `${spec.name} ${activity} in ${region}.`,
    `The company operates in the ${spec.industry.toLowerCase()} industry through ${segments} reportable segments and sells to consumers, businesses and public-sector customers.`,
    employees ? `It employs about ${employees.toLocaleString('en-US')} people.` : '',
    `The company was founded in ${Number(ipoYear) - random.int(3, 40)} and is headquartered in ${city}.`,
    'This profile is demo data: the figures and text are generated for illustration.',
  ]
    .filter((s) => s !== '')
    .join(' ');
}

/** The chief executive named in the profile and first in the executives list. */
export function chiefExecutive(seed: number, spec: SecuritySpec): Person {
  if (spec.facts) {
    const parts = spec.facts.ceo.split(' ');
    return {
      name: spec.facts.ceo,
      firstName: parts[0] ?? '',
      lastName: parts[parts.length - 1] ?? '',
      gender: 'male',
    };
  }
  return personName(createRandom(seed, 'ceo', spec.symbol));
}

/** The profile row of a stock or fund. */
export function profileRow(seed: number, spec: SecuritySpec): ProfileRow {
  const random = createRandom(seed, 'profile', spec.symbol);
  const ids = companyIds(seed, spec);
  const ipoDate = spec.ipoDate;
  const ipoYear = ipoDate ? ipoDate.slice(0, 4) : '2000';
  if (spec.facts) {
    const facts = spec.facts;
    return {
      symbol: spec.symbol,
      description: describe(spec, random, facts.employees, ipoYear, facts.city),
      ceo: facts.ceo,
      website: facts.website,
      phone: facts.phone,
      address: facts.address,
      city: facts.city,
      state: facts.state,
      zip: facts.zip,
      ...ids,
      fullTimeEmployees: spec.assetType === 'fund' ? null : facts.employees,
      ipoDate,
      image: '',
      beta: round(spec.beta, 3),
      isAdr: false,
    };
  }
  let city: string;
  let state = '';
  let zip: string;
  let phone: string;
  if (spec.country === 'US' || spec.country === '') {
    const [c, st, prefix] = random.pick(US_CITIES);
    city = c;
    state = st;
    zip = `${prefix}${String(random.int(1, 99)).padStart(2, '0')}`;
    phone = `(${random.int(201, 989)}) ${random.int(200, 989)}-${String(random.int(0, 9999)).padStart(4, '0')}`;
  } else {
    const [c, z] = random.pick(INTERNATIONAL_CITIES[spec.country] ?? [['', '']]);
    city = c;
    zip = z;
    phone = `+${COUNTRY_PHONE[spec.country] ?? '1'} ${random.int(10, 99)} ${random.int(1000, 9999)} ${random.int(1000, 9999)}`;
  }
  const revenue = spec.fundamentals?.revenue ?? (spec.marketCap ?? 1e8) / 3;
  const employees =
    spec.assetType === 'etf'
      ? null
      : Math.max(12, Math.round(revenue / random.range(250_000, 900_000) / 10) * 10);
  const ceo = spec.assetType === 'etf' ? '' : chiefExecutive(seed, spec).name;
  const name = spec.name.replace(
    /,? (Inc\.|Corporation|Corp\.|Co\.|Holdings, Inc\.|Group, Inc\.|plc|Group plc|Holdings plc|AG|SE|Group AG|Ltd\.|Co\., Ltd\.|Holdings Limited|Group Limited|Limited|SA|Groupe SA|ETF)$/,
    '',
  );
  return {
    symbol: spec.symbol,
    description: describe(spec, random, employees, ipoYear, city),
    ceo,
    website: `https://www.${slug(name)}.example.com`,
    phone,
    address: `${random.int(1, 9900)} ${random.pick(STREET_NAMES)}`,
    city,
    state,
    zip,
    ...ids,
    fullTimeEmployees: employees,
    ipoDate,
    image: '',
    beta: round(spec.beta * random.range(0.9, 1.1), 3),
    isAdr: false,
  };
}

/** Executive titles after the chief executive's. */
const TITLES: readonly string[] = executiveTitles;

/** Five to eight executives of a company, its chief executive first (the profile's CEO). */
export function executiveRows(seed: number, spec: SecuritySpec): ExecutiveRow[] {
  const random = createRandom(seed, 'executives', spec.symbol);
  const count = random.int(5, 8);
  const titles = [...TITLES];
  const rows: ExecutiveRow[] = [];
  const scale = Math.min(1, Math.max(0.05, (spec.marketCap ?? 1e9) / 5e11));
  const currency =
    spec.currency === 'GBP' || spec.currency === 'EUR' || spec.currency === 'JPY' ? spec.currency : 'USD';
  for (let i = 0; i < count; i += 1) {
    let person: Person;
    let title: string;
    if (i === 0) {
      person = chiefExecutive(seed, spec);
      title = 'Chief Executive Officer & Director';
    } else {
      person = personName(random);
      const index = random.int(0, titles.length - 1);
      title = titles.splice(index, 1)[0] ?? 'Vice President';
    }
    const basePay = i === 0 ? random.range(8e6, 30e6) : random.range(1.5e6, 9e6);
    rows.push({
      id: randomUuid(random),
      symbol: spec.symbol,
      name: person.name,
      title,
      pay: random.chance(0.85) ? Math.round((basePay * scale) / 1000) * 1000 : null,
      currencyPay: currency,
      gender: person.gender,
      yearBorn: random.chance(0.8) ? random.int(1955, 1982) : null,
      active: true,
      sortOrder: i,
    });
  }
  return rows;
}
