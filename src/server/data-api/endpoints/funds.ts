import { z } from 'zod';
import {
  countryName,
  etfHoldingRows,
  fundPositions,
  fundsHolding,
  identifiers,
  weightings,
} from '../../services/market-data/etf-holdings.ts';
import {
  disclosureDates,
  fundDisclosure,
  isFund,
  latestDisclosureHolders,
  searchFundRegistrations,
} from '../../services/market-data/fund-disclosures.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { round } from '../../services/market-data/prices.ts';
import { quoteFacts, quotes } from '../../services/market-data/quotes.ts';
import { defineEndpoint, symbolParam, type EndpointDefinition, type UpdateCadence } from '../endpoint.ts';
import { quarterParam, yearParam } from './ownership.ts';
import { cikParam } from './sec-filings.ts';

const fundSymbol = symbolParam.describe('Ticker of the ETF or mutual fund').meta({ example: 'SPY' });

const VALUED_NOW =
  'Shares are those of the fund’s latest report; market values come from the current prices (in US dollars at the current currency rates), so the weights always sum to 100.';

const HOLDINGS_CADENCE: UpdateCadence = {
  frequency: 'daily',
  when: 'Holdings as each fund reports them, usually the day before; values and weights follow the prices.',
};

const DISCLOSURE_CADENCE: UpdateCadence = {
  frequency: 'quarterly',
  when: 'Each quarter, as funds file Form N-PORT: a quarter’s holdings become public about 60 days after its end; values follow the period end’s closes.',
};

const AS_FILED =
  'Holdings are those of the fund’s NPORT-P filings (ETFs and mutual funds file one for each quarter); values are shares times the close of the period end, in US dollars at that day’s currency rates, so a filing’s figures never change.';

const optionalCik = cikParam
  .optional()
  .describe(
    'SEC Central Index Key of the fund’s registrant, leading zeros optional; another registrant’s answers []',
  );

/** ETF and mutual fund holdings are sold with Professional. */
const FUNDS_TIER = DATA_TIERS.professional;

export const fundEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'etf/holdings',
    dataset: 'indexes',
    group: 'ETFs and funds',
    summary: 'ETF and mutual fund holdings',
    description: `Every security an ETF or a mutual fund holds, largest position first. ${VALUED_NOW} A fund without stored holdings (bond and commodity funds) answers [].`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: fundSymbol }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker of the fund'),
      asset: z.string().describe('Ticker of the security held'),
      name: z.string().describe('Name of the security held'),
      isin: z.string().describe('ISIN of the security held'),
      securityCusip: z.string().describe('CUSIP of the security held'),
      sharesNumber: z.number().describe('Shares held'),
      weightPercentage: z.number().describe('Percent of the fund’s holdings by market value'),
      marketValue: z.number().describe('Shares times the current price, in US dollars'),
      updatedAt: z.string().describe('When the holdings were reported (YYYY-MM-DD HH:MM:SS)'),
      updated: z.string().describe('Date of the holdings report (YYYY-MM-DD)'),
    }),
    maxAge: 300,
    cadence: HOLDINGS_CADENCE,
    example: 'symbol=SPY',
    csv: true,
    handler: ({ db, params, symbols, now }) => etfHoldingRows(db, symbols, [params.symbol], now),
  }),
  defineEndpoint({
    path: 'etf/sector-weightings',
    dataset: 'indexes',
    group: 'ETFs and funds',
    summary: 'ETF sector weightings',
    description: `The share of an ETF’s (or a mutual fund’s) holdings in each sector, largest first, summed from its positions. ${VALUED_NOW}`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: fundSymbol }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker of the fund'),
      sector: z.string().describe('Sector'),
      weightPercentage: z.number().describe('Percent of the fund’s holdings in the sector'),
    }),
    maxAge: 300,
    cadence: HOLDINGS_CADENCE,
    example: 'symbol=SPY',
    csv: true,
    handler: async ({ db, params, symbols, now }) =>
      weightings(
        await fundPositions(db, symbols, params.symbol, now),
        (asset) => asset.sector || 'Other',
      ).map(([sector, weightPercentage]) => ({ symbol: params.symbol, sector, weightPercentage })),
  }),
  defineEndpoint({
    path: 'etf/country-weightings',
    dataset: 'indexes',
    group: 'ETFs and funds',
    summary: 'ETF country weightings',
    description: `The share of an ETF’s (or a mutual fund’s) holdings in companies of each country, largest first, written as FMP writes it ('97.29%'). ${VALUED_NOW}`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: fundSymbol }),
    symbolParam: 'symbol',
    row: z.object({
      country: z.string().describe('Country of the companies held'),
      weightPercentage: z.string().describe('Percent of the fund’s holdings, with a percent sign: 97.29%'),
    }),
    maxAge: 300,
    cadence: HOLDINGS_CADENCE,
    example: 'symbol=SPY',
    csv: true,
    handler: async ({ db, params, symbols, now }) =>
      weightings(await fundPositions(db, symbols, params.symbol, now), (asset) =>
        countryName(asset.country),
      ).map(([country, weight]) => ({ country, weightPercentage: `${weight.toFixed(2)}%` })),
  }),
  defineEndpoint({
    path: 'etf/asset-exposure',
    dataset: 'indexes',
    group: 'ETFs and funds',
    summary: 'ETFs holding a stock',
    description: `Every fund, ETF or mutual fund, whose latest holdings include a security, with its position, the largest weight first. ${VALUED_NOW}`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: symbolParam.describe('Ticker of the security held') }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker of the fund'),
      asset: z.string().describe('Ticker of the security held'),
      sharesNumber: z.number().describe('Shares the fund holds'),
      weightPercentage: z.number().describe('Percent of the fund’s holdings in the security'),
      marketValue: z.number().describe('Shares times the current price, in US dollars'),
    }),
    maxAge: 300,
    cadence: HOLDINGS_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: async ({ db, params, symbols, now }) =>
      (await fundsHolding(db, symbols, params.symbol, now)).map((position) => ({
        symbol: position.etf,
        asset: position.asset.symbol,
        sharesNumber: position.shares,
        weightPercentage: round(position.weight, 4),
        marketValue: round(position.value, 2),
      })),
  }),
  defineEndpoint({
    path: 'etf/info',
    dataset: 'indexes',
    group: 'ETFs and funds',
    summary: 'ETF and mutual fund information',
    description: `An ETF’s or a mutual fund’s issuer, asset class, costs and size: assets under management are its price times its shares outstanding, the net asset value per share its price (a mutual fund’s price is its net asset value), the sector list its sector weightings. ${VALUED_NOW} An unknown symbol or one that is not a fund answers [].`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: fundSymbol }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker of the fund'),
      name: z.string().describe('Name of the fund'),
      description: z.string().describe('What the fund invests in'),
      isin: z.string().describe('ISIN of the fund'),
      assetClass: z.string().describe('Equity, Fixed Income or Commodity'),
      securityCusip: z.string().describe('CUSIP of the fund'),
      domicile: z.string().describe('Country the fund is domiciled in'),
      website: z.string().describe('Web site of the fund'),
      etfCompany: z.string().describe('Issuer of the fund'),
      expenseRatio: z.number().describe('Yearly costs, in percent of assets'),
      assetsUnderManagement: z.number().describe('Price times shares outstanding, in US dollars'),
      avgVolume: z.number().describe('Mean daily volume of the last three months'),
      inceptionDate: z.string().describe('Launch date (YYYY-MM-DD)'),
      nav: z.number().describe('Net asset value per share: the current price'),
      navCurrency: z.string().describe('Currency of the net asset value'),
      holdingsCount: z.number().describe('Number of positions'),
      updatedAt: z.string().describe('When the holdings were last reported (ISO 8601)'),
      sectorsList: z
        .array(
          z.object({
            industry: z.string().describe('Sector'),
            exposure: z.number().describe('Percent of the holdings in the sector'),
          }),
        )
        .describe('Sector weightings of the holdings, largest first'),
    }),
    maxAge: 300,
    cadence: HOLDINGS_CADENCE,
    example: 'symbol=SPY',
    csv: false,
    handler: async ({ db, params, symbols, now }) => {
      const etf = symbols.get(params.symbol);
      if (!isFund(etf)) return [];
      const [[quote], facts, positions, ids] = await Promise.all([
        quotes(db, symbols, [etf.symbol], now),
        quoteFacts(db, [etf], now),
        fundPositions(db, symbols, etf.symbol, now),
        identifiers(db, [etf.symbol]),
      ]);
      if (quote === undefined) return [];
      const details = etf.details;
      const text = (key: string): string => (typeof details[key] === 'string' ? details[key] : '');
      const number = (key: string): number => (typeof details[key] === 'number' ? details[key] : 0);
      return [
        {
          symbol: etf.symbol,
          name: etf.name,
          description: `${etf.name} is ${etf.assetType === 'etf' ? 'an exchange-traded fund' : 'a mutual fund'} issued by ${text('etfCompany')} that invests in ${text('assetClass').toLowerCase()} securities.`,
          isin: ids.get(etf.symbol)?.isin ?? '',
          assetClass: text('assetClass'),
          securityCusip: ids.get(etf.symbol)?.cusip ?? '',
          domicile: etf.country,
          website: ids.get(etf.symbol)?.website ?? '',
          etfCompany: text('etfCompany'),
          expenseRatio: number('expenseRatio'),
          assetsUnderManagement: quote.marketCap,
          avgVolume: round(facts.get(etf.symbol)?.averageVolume ?? 0, 0),
          inceptionDate: text('inceptionDate'),
          nav: quote.price,
          navCurrency: etf.currency,
          holdingsCount: positions.length,
          updatedAt: positions[0] === undefined ? '' : `${positions[0].reportDate}T00:00:00.000Z`,
          sectorsList: weightings(positions, (asset) => asset.sector || 'Other').map(
            ([industry, exposure]) => ({
              industry,
              exposure,
            }),
          ),
        },
      ];
    },
  }),
  defineEndpoint({
    path: 'funds/disclosure-holders-latest',
    dataset: 'ownership-senate-insider',
    group: 'ETFs and funds',
    summary: 'Funds holding a stock, as disclosed',
    description: `Every fund (ETF or mutual fund) whose latest NPORT-P filing holds a security: its shares, their weight in the filing and the change in shares since the fund’s filing before (the whole position when it held none then, 0 without an earlier filing), most shares first. ${AS_FILED} A security no fund has disclosed answers [].`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: symbolParam.describe('Ticker of the security held') }),
    symbolParam: 'symbol',
    row: z.object({
      cik: z.string().describe('CIK of the fund’s registrant (ten digits)'),
      holder: z.string().describe('Name of the fund that filed'),
      shares: z.number().describe('Shares the filing reports'),
      dateReported: z.string().describe('Period end of the filing (YYYY-MM-DD)'),
      change: z.number().describe('Change in shares since the fund’s filing before'),
      weightPercent: z.number().describe('Percent of the filing’s value in the security'),
    }),
    maxAge: 3600,
    cadence: DISCLOSURE_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params, symbols, now }) => latestDisclosureHolders(db, symbols, params.symbol, now),
  }),
  defineEndpoint({
    path: 'funds/disclosure',
    dataset: 'ownership-senate-insider',
    group: 'ETFs and funds',
    summary: 'Fund disclosure of a quarter',
    description: `What a fund (ETF or mutual fund) reported on its NPORT-P for a calendar quarter, one row per position with N-PORT’s own fields, largest value first. ${AS_FILED} Issuers without a legal entity identifier on record read N/A. A quarter without a filing, another registrant’s CIK or a symbol that is not a fund answers [].`,
    tier: FUNDS_TIER,
    params: z.object({
      symbol: fundSymbol.meta({ example: 'VFIAX' }),
      year: yearParam,
      quarter: quarterParam,
      cik: optionalCik,
    }),
    symbolParam: 'symbol',
    row: z.object({
      cik: z.string().describe('CIK of the fund’s registrant (ten digits)'),
      date: z.string().describe('Period end the holdings are as of (YYYY-MM-DD)'),
      acceptedDate: z
        .string()
        .describe('When the SEC accepted the filing (YYYY-MM-DD HH:MM:SS, New York time)'),
      symbol: z.string().describe('Ticker of the security held'),
      name: z.string().describe('Name of the issuer'),
      lei: z.string().describe('Legal entity identifier of the issuer, N/A when none is on record'),
      title: z.string().describe('Title of the issue'),
      cusip: z.string().describe('CUSIP of the security, N/A when unknown'),
      isin: z.string().describe('ISIN of the security, N/A when unknown'),
      balance: z.number().describe('Shares held'),
      units: z.string().describe('Unit of the balance: NS (number of shares)'),
      cur_cd: z.string().describe('Currency the security is priced in'),
      valUsd: z.number().describe('Value at the period end’s close, in US dollars'),
      pctVal: z.number().describe('Percent of the filing’s value'),
      payoffProfile: z.string().describe('Long or Short'),
      assetCat: z.string().describe('Asset category: EC (common equity)'),
      issuerCat: z.string().describe('Issuer category: CORP (corporate)'),
      invCountry: z.string().describe('Country of the issuer (ISO code)'),
      isRestrictedSec: z.string().describe('Restricted security: Y or N'),
      fairValLevel: z.string().describe('Fair value level: 1 for a price quoted on an exchange'),
      isCashCollateral: z.string().describe('Cash collateral: Y or N'),
      isNonCashCollateral: z.string().describe('Non-cash collateral: Y or N'),
      isLoanByFund: z.string().describe('Lent out by the fund: Y or N'),
    }),
    maxAge: 3600,
    cadence: DISCLOSURE_CADENCE,
    example: 'symbol=VFIAX&year=2026&quarter=2',
    csv: true,
    handler: ({ db, params, symbols, now }) => fundDisclosure(db, symbols, params, now),
  }),
  defineEndpoint({
    path: 'funds/disclosure-holders-search',
    dataset: 'ownership-senate-insider',
    group: 'ETFs and funds',
    summary: 'Search funds by name',
    description:
      'Funds (ETFs and mutual funds) whose registrant, series or name contains the text, any case, with their SEC registration (registrant CIK, series and class ids, file number) and the registrant’s address, by registrant and series name. No match answers [].',
    tier: FUNDS_TIER,
    params: z.object({
      name: z
        .string({ error: 'is required' })
        .trim()
        .min(2, 'must be at least 2 characters')
        .max(100, 'must be at most 100 characters')
        .describe('Part of the fund’s or its registrant’s name (any case)')
        .meta({ example: 'Vanguard' }),
    }),
    row: z.object({
      symbol: z.string().describe('Ticker of the fund'),
      cik: z.string().describe('CIK of the registrant (ten digits)'),
      classId: z.string().describe('SEC id of the share class'),
      seriesId: z.string().describe('SEC id of the series (the fund)'),
      entityName: z.string().describe('Registrant: the trust or company that files for the fund'),
      entityOrgType: z.string().describe('Organisation type of the registrant as N-PORT codes it: 30'),
      seriesName: z.string().describe('Name of the series'),
      className: z.string().describe('Name of the share class'),
      reportingFileNumber: z.string().describe('Investment Company Act file number (811-…)'),
      address: z.string().describe('Street address of the registrant'),
      city: z.string().describe('City'),
      zipCode: z.string().describe('Postal code'),
      state: z.string().describe('State'),
    }),
    maxAge: 86_400,
    cadence: DISCLOSURE_CADENCE,
    example: 'name=Vanguard',
    csv: true,
    handler: ({ db, params, symbols }) => searchFundRegistrations(db, symbols, params.name),
  }),
  defineEndpoint({
    path: 'funds/disclosure-dates',
    dataset: 'ownership-senate-insider',
    group: 'ETFs and funds',
    summary: 'Fund disclosure dates',
    description:
      'The period ends of a fund’s (ETF or mutual fund) NPORT-P filings with their calendar year and quarter, newest first: the year and quarter funds/disclosure reads. A fund that has filed no holdings, another registrant’s CIK or a symbol that is not a fund answers [].',
    tier: FUNDS_TIER,
    params: z.object({ symbol: fundSymbol.meta({ example: 'VFIAX' }), cik: optionalCik }),
    symbolParam: 'symbol',
    row: z.object({
      date: z.string().describe('Period end of the filing (YYYY-MM-DD)'),
      year: z.number().describe('Calendar year of the period end'),
      quarter: z.number().describe('Calendar quarter of the period end (1–4)'),
    }),
    maxAge: 3600,
    cadence: DISCLOSURE_CADENCE,
    example: 'symbol=VFIAX',
    csv: true,
    handler: ({ db, params, symbols, now }) => disclosureDates(db, symbols, params, now),
  }),
];
