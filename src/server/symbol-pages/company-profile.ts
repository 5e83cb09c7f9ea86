/**
 * The profile of a company (profile and company-profile): what it does, where it is, who runs it
 * and which companies it compares with.
 */
import { formatDay, formatNumber, MISSING_VALUE } from '../../lib/format.ts';
import { companyExecutives, profiles, stockPeers } from '../services/market-data/company.ts';
import { safeHttpUrl } from '../../lib/safe-url.ts';
import { countryName, postalAddress } from './company-view.ts';
import type { SymbolPageContext } from './resolver.ts';
import type { Stat } from './view.ts';

/** A comparable company, linked to its own overview. */
export interface Peer {
  symbol: string;
  companyName: string;
  price: number;
  /** 0 when unknown. */
  mktCap: number;
}

/** What the profile page of a company shows. */
export interface CompanyProfileView {
  symbol: string;
  name: string;
  /** The full description; '' without one. */
  description: string;
  /** ETFs and funds get "Fund facts" rather than "Company facts". */
  isFund: boolean;
  facts: Stat[];
  /** CIK, ISIN, CUSIP where known. */
  identifiers: Stat[];
  /** Name, title, pay, year born. */
  executiveRows: string[][];
  peers: Peer[];
}

/** Reads the profile page of a company. */
export async function loadCompanyProfile(context: SymbolPageContext): Promise<CompanyProfileView> {
  const { db, directory, now, security } = context;
  const symbol = security.symbol;

  const [profileList, executives, peers] = await Promise.all([
    profiles(db, directory, [symbol], now),
    companyExecutives(db, symbol),
    stockPeers(db, directory, symbol, now),
  ]);
  const profile = profileList[0];

  function text(value: string | null | undefined): string {
    return value === null || value === undefined || value.trim() === '' ? MISSING_VALUE : value;
  }

  const website = safeHttpUrl(profile?.website);
  const employees = profile?.fullTimeEmployees === null ? null : Number(profile?.fullTimeEmployees);
  const address =
    profile === undefined ? '' : postalAddress({ ...profile, country: countryName(profile.country) });
  const phone = profile?.phone.trim() ?? '';

  const facts: Stat[] = [
    { term: 'Sector', value: text(security.sector) },
    { term: 'Industry', value: text(security.industry) },
    { term: 'CEO', value: text(profile?.ceo) },
    { term: 'Full-time employees', value: formatNumber(employees) },
    {
      term: 'Website',
      value:
        website === undefined
          ? MISSING_VALUE
          : website.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, ''),
      href: website,
      external: true,
    },
    { term: 'Address', value: text(address) },
    {
      term: 'Phone',
      value: text(phone),
      href: phone === '' ? undefined : `tel:${phone.replace(/[^\d+]/g, '')}`,
    },
    {
      term: 'IPO date',
      value: profile?.ipoDate == null ? MISSING_VALUE : formatDay(profile.ipoDate),
    },
    { term: 'Exchange', value: text(security.exchangeFullName || security.exchange) },
    { term: 'Currency', value: text(security.currency) },
  ];
  const identifiers: Stat[] = [
    { term: 'CIK', value: profile?.cik ?? '' },
    { term: 'ISIN', value: profile?.isin ?? '' },
    { term: 'CUSIP', value: profile?.cusip ?? '' },
  ].filter((stat) => stat.value !== '');

  const executiveRows = executives.map((executive) => [
    executive.name,
    executive.title,
    executive.pay === null ? MISSING_VALUE : `${formatNumber(executive.pay)} ${executive.currencyPay}`.trim(),
    executive.yearBorn === null ? MISSING_VALUE : String(executive.yearBorn),
  ]);
  const description = profile?.description.trim() ?? '';
  return {
    symbol,
    name: context.header.name,
    description,
    isFund: profile?.isEtf === true || profile?.isFund === true,
    facts,
    identifiers,
    executiveRows,
    peers: peers.map((peer) => ({
      symbol: peer.symbol,
      companyName: peer.companyName,
      price: peer.price,
      mktCap: peer.mktCap,
    })),
  };
}
