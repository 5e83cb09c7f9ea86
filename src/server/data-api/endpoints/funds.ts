import { z } from 'zod';
import {
  countryName,
  fundPositions,
  fundsHolding,
  identifiers,
  weightings,
} from '../../services/market-data/etf-holdings.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { round } from '../../services/market-data/prices.ts';
import { quoteFacts, quotes } from '../../services/market-data/quotes.ts';
import { defineEndpoint, symbolParam, type EndpointDefinition, type UpdateCadence } from '../endpoint.ts';

const fundSymbol = symbolParam.describe('Ticker of the ETF').meta({ example: 'SPY' });

const VALUED_NOW =
  'Shares are those of the fund’s latest report; market values come from the current prices (in US dollars at the current currency rates), so the weights always sum to 100.';

const HOLDINGS_CADENCE: UpdateCadence = {
  frequency: 'daily',
  when: 'Holdings as each fund reports them, usually the day before; values and weights follow the prices.',
};

/** ETF and mutual fund holdings are sold with Professional. */
const FUNDS_TIER = DATA_TIERS.professional;

export const fundEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'etf/holdings',
    group: 'ETFs and funds',
    summary: 'ETF holdings',
    description: `Every security an ETF holds, largest position first. ${VALUED_NOW} A fund without stored holdings (bond and commodity funds) answers [].`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: fundSymbol }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker of the ETF'),
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
    handler: async ({ db, params, symbols, now }) => {
      const positions = await fundPositions(db, symbols, params.symbol, now);
      const ids = await identifiers(
        db,
        positions.map((position) => position.asset.symbol),
      );
      return positions.map((position) => ({
        symbol: position.etf,
        asset: position.asset.symbol,
        name: position.asset.name,
        isin: ids.get(position.asset.symbol)?.isin ?? '',
        securityCusip: ids.get(position.asset.symbol)?.cusip ?? '',
        sharesNumber: position.shares,
        weightPercentage: round(position.weight, 4),
        marketValue: round(position.value, 2),
        updatedAt: `${position.reportDate} 00:00:00`,
        updated: position.reportDate,
      }));
    },
  }),
  defineEndpoint({
    path: 'etf/sector-weightings',
    group: 'ETFs and funds',
    summary: 'ETF sector weightings',
    description: `The share of an ETF’s holdings in each sector, largest first, summed from its positions. ${VALUED_NOW}`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: fundSymbol }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker of the ETF'),
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
    group: 'ETFs and funds',
    summary: 'ETF country weightings',
    description: `The share of an ETF’s holdings in companies of each country, largest first, written as FMP writes it ('97.29%'). ${VALUED_NOW}`,
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
    group: 'ETFs and funds',
    summary: 'ETFs holding a stock',
    description: `Every ETF holding a security, with its position, the largest weight first. ${VALUED_NOW}`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: symbolParam.describe('Ticker of the security held') }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker of the ETF'),
      asset: z.string().describe('Ticker of the security held'),
      sharesNumber: z.number().describe('Shares the ETF holds'),
      weightPercentage: z.number().describe('Percent of the ETF’s holdings in the security'),
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
    group: 'ETFs and funds',
    summary: 'ETF information',
    description: `An ETF’s issuer, asset class, costs and size: assets under management are its price times its shares outstanding, the net asset value per share its price, the sector list its sector weightings. ${VALUED_NOW} An unknown symbol or one that is not an ETF answers [].`,
    tier: FUNDS_TIER,
    params: z.object({ symbol: fundSymbol }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker of the ETF'),
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
      if (etf?.assetType !== 'etf') return [];
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
          description: `${etf.name} is an exchange-traded fund issued by ${text('etfCompany')} that invests in ${text('assetClass').toLowerCase()} securities.`,
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
];
