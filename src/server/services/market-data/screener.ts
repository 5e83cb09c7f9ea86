import { sql, type SQL } from 'drizzle-orm';
import { isoDay } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { resultRows } from './seed/bulk.ts';
import { US_EXCHANGES } from './directory.ts';
import { memoPerDatabase } from './memo.ts';
import { round, roundPrice } from './prices.ts';
import { marketCap } from './quotes.ts';

/**
 * The company screener: stocks, ETFs and funds filtered on their latest daily bar (price, volume, market
 * capitalisation), the trailing year's dividends, beta and their listing facts, all in one SQL statement
 * so that only the matching rows leave the database. Prices are end of day, as the endpoint says: the latest
 * close on or before the day (not the live quote), divided by the later split ratios, rounded to four decimals.
 */

export interface ScreenerFilters {
  marketCapMoreThan?: number | undefined;
  marketCapLowerThan?: number | undefined;
  priceMoreThan?: number | undefined;
  priceLowerThan?: number | undefined;
  betaMoreThan?: number | undefined;
  betaLowerThan?: number | undefined;
  volumeMoreThan?: number | undefined;
  volumeLowerThan?: number | undefined;
  dividendMoreThan?: number | undefined;
  dividendLowerThan?: number | undefined;
  sector?: string | undefined;
  industry?: string | undefined;
  /** Exchange codes, any of which matches. */
  exchange?: readonly string[] | undefined;
  country?: string | undefined;
  isEtf?: boolean | undefined;
  isFund?: boolean | undefined;
  isActivelyTrading?: boolean | undefined;
  includeAllShareClasses?: boolean | undefined;
  limit: number;
}

export interface ScreenerRow {
  symbol: string;
  companyName: string;
  marketCap: number;
  sector: string;
  industry: string;
  beta: number;
  price: number;
  lastAnnualDividend: number;
  volume: number;
  exchange: string;
  exchangeShortName: string;
  country: string;
  isEtf: boolean;
  isFund: boolean;
  isActivelyTrading: boolean;
}

interface RawRow {
  symbol: string;
  name: string;
  asset_type: string;
  exchange: string;
  exchange_full_name: string;
  country: string;
  sector: string;
  industry: string;
  active: boolean;
  shares: number | string | null;
  beta: number | string;
  price: number | string;
  volume: number | string;
  dividend: number | string;
}

const screenMemo = memoPerDatabase<ScreenerRow[]>({ max: 64, ttlMs: 60_000 });

/** The optional conditions of a screen, each on a column the inner query computes. */
function conditions(filters: ScreenerFilters, dataTier: number): SQL[] {
  const where: SQL[] = [];
  const range = (column: SQL, above: number | undefined, below: number | undefined): void => {
    if (above !== undefined) where.push(sql`${column} > ${above}`);
    if (below !== undefined) where.push(sql`${column} < ${below}`);
  };
  range(sql`x.market_cap`, filters.marketCapMoreThan, filters.marketCapLowerThan);
  range(sql`x.price`, filters.priceMoreThan, filters.priceLowerThan);
  range(sql`x.beta`, filters.betaMoreThan, filters.betaLowerThan);
  range(sql`x.volume`, filters.volumeMoreThan, filters.volumeLowerThan);
  range(sql`x.dividend`, filters.dividendMoreThan, filters.dividendLowerThan);
  if (filters.sector !== undefined) where.push(sql`lower(x.sector) = lower(${filters.sector})`);
  if (filters.industry !== undefined) where.push(sql`lower(x.industry) = lower(${filters.industry})`);
  if (filters.country !== undefined) where.push(sql`x.country = ${filters.country}`);
  if (filters.exchange !== undefined && filters.exchange.length > 0) {
    where.push(
      sql`x.exchange in (${sql.join(
        filters.exchange.map((code) => sql`${code}`),
        sql`, `,
      )})`,
    );
  }
  if (filters.isEtf !== undefined)
    where.push(filters.isEtf ? sql`x.asset_type = 'etf'` : sql`x.asset_type <> 'etf'`);
  if (filters.isFund !== undefined)
    where.push(filters.isFund ? sql`x.asset_type = 'fund'` : sql`x.asset_type <> 'fund'`);
  if (filters.isActivelyTrading !== undefined) where.push(sql`x.active = ${filters.isActivelyTrading}`);
  // The plan's symbols (see symbolTier): the sample, US listings from Starter, the world from Power.
  if (dataTier < 3) {
    const us = sql.join(
      [...US_EXCHANGES].map((code) => sql`${code}`),
      sql`, `,
    );
    where.push(dataTier >= 1 ? sql`(x.sample or x.exchange in (${us}))` : sql`x.sample`);
  }
  return where;
}

/**
 * A company's other share classes (GOOG beside GOOGL) share its CIK and its name's first word (two
 * filers given the same number by mistake do not): unless asked for all classes, only the listing with
 * the shortest, then alphabetically first, ticker is kept. Mutual funds are left alone: the funds of one
 * trust share its CIK and family name but are different funds.
 */
const SECONDARY_CLASS = sql`exists (
  select 1 from company_profiles p2 join securities s2 on s2.symbol = p2.symbol
  where p2.cik = p.cik and p2.cik <> '' and s.asset_type <> 'fund' and s2.asset_type = s.asset_type
    and split_part(s2.name, ' ', 1) = split_part(s.name, ' ', 1)
    and (length(p2.symbol), p2.symbol) < (length(s.symbol), s.symbol))`;

async function runScreen(
  db: Db,
  filters: ScreenerFilters,
  dataTier: number,
  asOf: string,
): Promise<ScreenerRow[]> {
  const where = conditions(filters, dataTier);
  const classes = filters.includeAllShareClasses === true ? sql`true` : sql`not ${SECONDARY_CLASS}`;
  const result = await db.execute(sql`
    select x.* from (
      select s.symbol, s.name, s.asset_type, s.exchange, s.exchange_full_name, s.country, s.sector,
        s.industry, s.active, s.sample, s.shares_outstanding as shares,
        round(coalesce(p.beta, 0)::numeric, 4) as beta,
        b.price, b.volume,
        round(b.price * coalesce(s.shares_outstanding, 0)) as market_cap,
        round(coalesce((select sum(dv.adj_dividend) from dividends dv
          where dv.symbol = s.symbol and dv.date > (b.date - interval '1 year') and dv.date <= ${asOf}::date
        ), 0)::numeric, 4) as dividend
      from securities s
      left join company_profiles p on p.symbol = s.symbol
      join lateral (
        select d.date,
          round((d.close / f.factor)::numeric, 4) as price,
          round(d.volume * f.factor) as volume
        from daily_prices d
        cross join lateral (
          select coalesce(round(exp(sum(ln(sp.numerator / sp.denominator)))::numeric, 9), 1)::float8 as factor
          from splits sp where sp.symbol = d.symbol and sp.date > d.date
        ) f
        where d.symbol = s.symbol and d.date <= ${asOf}::date
        order by d.date desc
        limit 1
      ) b on true
      where s.asset_type in ('stock', 'etf', 'fund') and ${classes}
    ) x
    ${where.length === 0 ? sql`` : sql`where ${sql.join(where, sql` and `)}`}
    order by x.market_cap desc, x.symbol
    limit ${filters.limit}`);
  return resultRows<RawRow>(result).map((row) => {
    const type = row.asset_type === 'etf' ? 'etf' : row.asset_type === 'fund' ? 'fund' : 'stock';
    const price = roundPrice(Number(row.price), type);
    return {
      symbol: row.symbol,
      companyName: row.name,
      marketCap: marketCap(price, { sharesOutstanding: row.shares === null ? null : Number(row.shares) }),
      sector: row.sector,
      industry: row.industry,
      beta: round(Number(row.beta), 4),
      price,
      lastAnnualDividend: round(Number(row.dividend), 4),
      volume: round(Number(row.volume), 0),
      exchange: row.exchange_full_name,
      exchangeShortName: row.exchange,
      country: row.country,
      isEtf: type === 'etf',
      isFund: type === 'fund',
      isActivelyTrading: row.active,
    };
  });
}

/**
 * Stocks, ETFs and funds matching every filter given, the largest market capitalisation first, within
 * the symbols the caller's data tier covers; bounds are exclusive. Memoized per screen for a minute.
 */
export function companyScreener(
  db: Db,
  filters: ScreenerFilters,
  dataTier: number,
  now: Date,
): Promise<ScreenerRow[]> {
  const asOf = isoDay(now);
  const key = `${asOf}|${dataTier}|${JSON.stringify(filters)}`;
  return screenMemo(db).load(key, () => runScreen(db, filters, dataTier, asOf));
}
