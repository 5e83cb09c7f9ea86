import { and, desc, eq, ilike } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { privateOfferings } from '../../db/schema.ts';
import { fullCik } from './sec-filings.ts';

/**
 * Private offerings filed with the SEC: crowdfunding campaigns (Form C under Regulation Crowdfunding) and
 * exempt offerings (Form D, "fundraising"), as FMP answers them, newest filing first.
 */

/** A field of an offering row: its name, JSON type and meaning. */
export interface OfferingField {
  name: string;
  kind: 'string' | 'number' | 'boolean';
  description: string;
}

const s = (name: string, description: string): OfferingField => ({ name, kind: 'string', description });
const n = (name: string, description: string): OfferingField => ({ name, kind: 'number', description });
const b = (name: string, description: string): OfferingField => ({ name, kind: 'boolean', description });

const HEAD: readonly OfferingField[] = [
  s('cik', 'CIK of the issuer'),
  s('companyName', 'Issuer name'),
  s('date', 'Date of the filing (YYYY-MM-DD 00:00:00)'),
  s('filingDate', 'Filing date (YYYY-MM-DD 00:00:00)'),
  s('acceptedDate', 'When the SEC accepted it (YYYY-MM-DD HH:MM:SS)'),
  s('formType', 'Form type: C, C/A (amendment), D or D/A'),
  s('formSignification', 'What the form is, e.g. Offering Statement'),
];

function financials(): OfferingField[] {
  const lines: (readonly [string, string])[] = [
    ['totalAsset', 'Total assets'],
    ['cashAndCashEquiValent', 'Cash and cash equivalents'],
    ['accountsReceivable', 'Accounts receivable'],
    ['shortTermDebt', 'Short-term debt'],
    ['longTermDebt', 'Long-term debt'],
    ['revenue', 'Revenue'],
    ['costGoodsSold', 'Cost of goods sold'],
    ['taxesPaid', 'Taxes paid'],
    ['netIncome', 'Net income'],
  ];
  return lines.flatMap(([name, label]) => [
    n(`${name}MostRecentFiscalYear`, `${label}, most recent fiscal year`),
    n(`${name}PriorFiscalYear`, `${label}, prior fiscal year`),
  ]);
}

/** FMP's crowdfunding-offerings row, in FMP's order. */
export const CROWDFUNDING_FIELDS: readonly OfferingField[] = [
  ...HEAD,
  s('nameOfIssuer', 'Issuer name as on the form'),
  s('legalStatusForm', 'Legal form, e.g. Corporation'),
  s('jurisdictionOrganization', 'State of organisation'),
  s('issuerStreet', 'Street address'),
  s('issuerCity', 'City'),
  s('issuerStateOrCountry', 'State or country'),
  s('issuerZipCode', 'Postal code'),
  s('issuerWebsite', 'Website'),
  s('intermediaryCompanyName', 'Funding portal or broker running the campaign'),
  s('intermediaryCommissionCik', 'CIK of the intermediary'),
  s('intermediaryCommissionFileNumber', 'SEC file number of the intermediary'),
  s('compensationAmount', 'What the intermediary is paid'),
  s('financialInterest', 'The intermediary’s interest in the issuer'),
  s('securityOfferedType', 'Type of security offered'),
  s('securityOfferedOtherDescription', 'Description of the security when "Other"'),
  n('numberOfSecurityOffered', 'Number of securities offered'),
  n('offeringPrice', 'Price per security'),
  n('offeringAmount', 'Target amount'),
  s('overSubscriptionAccepted', 'Whether oversubscriptions are accepted: Y or N'),
  s('overSubscriptionAllocationType', 'How oversubscriptions are allocated'),
  n('maximumOfferingAmount', 'Maximum amount'),
  s('offeringDeadlineDate', 'Deadline of the offering (YYYY-MM-DD)'),
  n('currentNumberOfEmployees', 'Employees'),
  ...financials(),
];

/** FMP's fundraising row, in FMP's order. */
export const FUNDRAISING_FIELDS: readonly OfferingField[] = [
  ...HEAD,
  s('entityName', 'Issuer name as on the form'),
  s('issuerStreet', 'Street address'),
  s('issuerCity', 'City'),
  s('issuerStateOrCountry', 'State or country code'),
  s('issuerStateOrCountryDescription', 'State or country'),
  s('issuerZipCode', 'Postal code'),
  s('issuerPhoneNumber', 'Phone number'),
  s('jurisdictionOfIncorporation', 'Jurisdiction of incorporation'),
  s('entityType', 'Legal form, e.g. Limited Partnership'),
  b('incorporatedWithinFiveYears', 'Whether incorporated within the last five years'),
  s('yearOfIncorporation', 'Year of incorporation'),
  s('relatedPersonFirstName', 'First name of a related person'),
  s('relatedPersonLastName', 'Last name of a related person'),
  s('relatedPersonStreet', 'Street address of the related person'),
  s('relatedPersonCity', 'City of the related person'),
  s('relatedPersonStateOrCountry', 'State or country code of the related person'),
  s('relatedPersonStateOrCountryDescription', 'State or country of the related person'),
  s('relatedPersonZipCode', 'Postal code of the related person'),
  s('relatedPersonRelationship', 'Relationship to the issuer'),
  s('industryGroupType', 'Industry group'),
  s('revenueRange', 'Revenue range, or Decline to Disclose'),
  s('federalExemptionsExclusions', 'Exemptions claimed, e.g. 06b (Rule 506(b))'),
  b('isAmendment', 'Whether the filing amends an earlier one'),
  s('dateOfFirstSale', 'Date of the first sale (YYYY-MM-DD)'),
  b('durationOfOfferingIsMoreThanYear', 'Whether the offering lasts more than a year'),
  b('securitiesOfferedAreOfEquityType', 'Whether equity is offered'),
  b('isBusinessCombinationTransaction', 'Whether it is part of a business combination'),
  n('minimumInvestmentAccepted', 'Minimum investment accepted'),
  n('totalOfferingAmount', 'Total amount offered'),
  n('totalAmountSold', 'Amount sold so far'),
  n('totalAmountRemaining', 'Amount remaining'),
  b('hasNonAccreditedInvestors', 'Whether non-accredited investors took part'),
  n('totalNumberAlreadyInvested', 'Investors so far'),
  n('salesCommissions', 'Sales commissions paid'),
  n('findersFees', 'Finders’ fees paid'),
  n('grossProceedsUsed', 'Proceeds paid to related persons'),
];

/** An offering row: FMP's fields in FMP's order. */
export type OfferingRow = Record<string, string | number | boolean>;

function project(data: Readonly<Record<string, unknown>>, fields: readonly OfferingField[]): OfferingRow {
  const row: OfferingRow = {};
  for (const field of fields) {
    const value = data[field.name];
    if (field.kind === 'boolean') row[field.name] = value === true;
    else if (field.kind === 'number')
      row[field.name] = typeof value === 'number' ? value : Number(value ?? 0) || 0;
    else
      row[field.name] =
        typeof value === 'string'
          ? value
          : typeof value === 'number' || typeof value === 'boolean'
            ? String(value)
            : '';
  }
  return row;
}

type Kind = 'C' | 'D';

const fieldsOf = (kind: Kind): readonly OfferingField[] =>
  kind === 'C' ? CROWDFUNDING_FIELDS : FUNDRAISING_FIELDS;

/** The latest offerings of a kind across issuers, newest filing first. */
export async function latestOfferingRows(
  db: Db,
  kind: Kind,
  page: { page: number; limit: number },
): Promise<OfferingRow[]> {
  const rows = await db
    .select({ data: privateOfferings.data })
    .from(privateOfferings)
    .where(eq(privateOfferings.kind, kind))
    .orderBy(desc(privateOfferings.filingDate), privateOfferings.id)
    .limit(page.limit)
    .offset(page.page * page.limit);
  return rows.map((row) => project(row.data, fieldsOf(kind)));
}

/** An issuer's offerings of a kind, newest filing first. */
export async function offeringRowsByCik(db: Db, kind: Kind, cik: string): Promise<OfferingRow[]> {
  const rows = await db
    .select({ data: privateOfferings.data })
    .from(privateOfferings)
    .where(and(eq(privateOfferings.kind, kind), eq(privateOfferings.cik, fullCik(cik))))
    .orderBy(desc(privateOfferings.filingDate), privateOfferings.id);
  return rows.map((row) => project(row.data, fieldsOf(kind)));
}

/** FMP's crowdfunding-offerings-search and fundraising-search row: an issuer and its latest filing's date. */
export interface IssuerRow {
  cik: string;
  name: string;
  date: string;
}

/** Issuers of a kind whose name contains the text (any case), with their latest filing date, by name. */
export async function offeringIssuerRows(db: Db, kind: Kind, name: string): Promise<IssuerRow[]> {
  const rows = await db
    .select({
      cik: privateOfferings.cik,
      name: privateOfferings.companyName,
      date: privateOfferings.filingDate,
    })
    .from(privateOfferings)
    .where(
      and(
        eq(privateOfferings.kind, kind),
        ilike(privateOfferings.companyName, `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
      ),
    )
    .orderBy(privateOfferings.companyName, desc(privateOfferings.filingDate));
  const seen = new Map<string, IssuerRow>();
  for (const row of rows)
    if (!seen.has(row.cik)) seen.set(row.cik, { cik: row.cik, name: row.name, date: `${row.date} 00:00:00` });
  return [...seen.values()];
}
