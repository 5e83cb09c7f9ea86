import { asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  companyProfiles,
  indexConstituentChanges,
  indexConstituents,
  type ConstituentIndex,
} from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';

/** A member of an index as FMP's constituent endpoints list it. */
export interface ConstituentRow {
  symbol: string;
  name: string;
  sector: string;
  subSector: string;
  headQuarter: string;
  dateFirstAdded: string;
  cik: string;
  founded: string;
}

/** One change of an index's members, newest first in FMP's historical constituent endpoints. */
export interface ConstituentChange {
  /** The date written out: 'June 24, 2024'. */
  dateAdded: string;
  addedSecurity: string;
  removedTicker: string;
  removedSecurity: string;
  date: string;
  symbol: string;
  reason: string;
}

/** 'Cupertino, CA' for a US company, 'London, GB' elsewhere; '' when the profile has no city. */
function headQuarter(city: string, state: string, country: string): string {
  if (city === '') return '';
  return `${city}, ${state !== '' ? state : country}`;
}

/** The members of an index today, in symbol order, with their sector, industry and company facts. */
export async function indexMembers(
  db: Db,
  directory: SymbolDirectory,
  index: ConstituentIndex,
): Promise<ConstituentRow[]> {
  const rows = await db
    .select({
      symbol: indexConstituents.symbol,
      dateFirstAdded: indexConstituents.dateFirstAdded,
      founded: indexConstituents.founded,
      city: companyProfiles.city,
      state: companyProfiles.state,
      cik: companyProfiles.cik,
    })
    .from(indexConstituents)
    .leftJoin(companyProfiles, eq(companyProfiles.symbol, indexConstituents.symbol))
    .where(eq(indexConstituents.indexCode, index))
    .orderBy(asc(indexConstituents.symbol));
  const found: ConstituentRow[] = [];
  for (const row of rows) {
    const security = directory.get(row.symbol);
    if (security === undefined) continue;
    found.push({
      symbol: security.symbol,
      name: security.name,
      sector: security.sector,
      subSector: security.industry,
      headQuarter: headQuarter(row.city ?? '', row.state ?? '', security.country),
      dateFirstAdded: row.dateFirstAdded,
      cik: row.cik ?? '',
      founded: row.founded,
    });
  }
  return found;
}

const LONG_DATE = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});

/** The changes of an index's members, newest first. */
export async function indexChanges(
  db: Db,
  directory: SymbolDirectory,
  index: ConstituentIndex,
): Promise<ConstituentChange[]> {
  const rows = await db
    .select()
    .from(indexConstituentChanges)
    .where(eq(indexConstituentChanges.indexCode, index))
    .orderBy(desc(indexConstituentChanges.date), desc(indexConstituentChanges.sequence));
  return rows.map((row) => {
    const added = row.addedSymbol === null ? undefined : directory.get(row.addedSymbol);
    const removed = row.removedSymbol === null ? undefined : directory.get(row.removedSymbol);
    return {
      dateAdded: LONG_DATE.format(new Date(`${row.date}T00:00:00Z`)),
      addedSecurity: added?.name ?? '',
      removedTicker: row.removedSymbol ?? '',
      removedSecurity: removed?.name ?? '',
      date: row.date,
      symbol: row.addedSymbol ?? '',
      reason: row.reason,
    };
  });
}
