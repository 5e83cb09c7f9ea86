import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { loadFilingPage } from '../../src/server/filings/filing-page.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';
import { databaseTargets } from './databases.ts';

type Row = Record<string, unknown>;

describe.each(databaseTargets())('filings on $name', (target) => {
  let h: DataApiHarness;
  let key: string;
  let database: Database;

  beforeAll(async () => {
    database = await target.open();
    h = await openDataApiHarness({ database });
    key = await h.keyFor('commercialEnterprise');
  });

  afterAll(async () => {
    await h.close();
    await database.close();
  });

  async function rows(path: string, query: Record<string, string>): Promise<Row[]> {
    const res = await h.request(`/stable/${path}`, { ...query, apikey: key });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Row[];
  }

  async function refusal(res: Response): Promise<string> {
    const body = (await res.json()) as Row;
    expect(Object.keys(body)).toEqual(['Error Message']);
    return String(body['Error Message']);
  }

  const idOf = (link: unknown): string => String(link).split('/filings/')[1] ?? '';

  describe('SEC filings', () => {
    it('files each 10-K after its fiscal year ends, on the day its annual statements were filed', async () => {
      const tenKs = await rows('sec-filings-search/form-type', { formType: '10-K', limit: '1000' });
      const statements = await rows('income-statement', { symbol: 'AAPL', limit: '10' });
      const aapl = tenKs.filter((f) => f.symbol === 'AAPL');
      expect(aapl.length).toBeGreaterThan(0);
      for (const filing of aapl) {
        const filed = String(filing.filingDate).slice(0, 10);
        const statement = statements.find((s) => s.filingDate === filed);
        expect(statement, `a statement filed on ${filed}`).toBeDefined();
        expect(filed > String(statement?.date)).toBe(true);
        const page = await loadFilingPage(h.db, idOf(filing.link));
        expect(page?.fiscalPeriod).toBe(`FY ${String(statement?.fiscalYear)}`);
        const revenue = page?.statements[0]?.figures.find((f) => f.label === 'Revenue')?.value;
        expect(revenue).toBe(statement?.revenue);
      }
    });

    it('narrows filings to one form type and to the days from and to name, newest first', async () => {
      const found = await rows('sec-filings-search/form-type', {
        formType: '8-k',
        from: '2026-07-01',
        to: '2026-09-30',
        limit: '1000',
      });
      expect(found.length).toBeGreaterThan(0);
      const days = found.map((f) => String(f.filingDate).slice(0, 10));
      expect(found.every((f) => f.formType === '8-K')).toBe(true);
      expect(days.every((d) => d >= '2026-07-01' && d <= '2026-09-30')).toBe(true);
      expect([...days].sort().reverse()).toEqual(days);
      const current = await rows('sec-filings-8k', { from: '2026-07-01', to: '2026-09-30', limit: '1000' });
      expect(current.length).toBe(found.length);
      const financials = await rows('sec-filings-financials', {
        from: '2026-07-01',
        to: '2026-09-30',
        limit: '1000',
      });
      expect(financials.every((f) => f.hasFinancials === true)).toBe(true);
      expect(new Set(financials.map((f) => f.formType))).toContain('10-Q');
    });

    it('refuses a range that ends before it starts, naming from', async () => {
      const res = await h.request('/stable/sec-filings-8k', {
        from: '2026-09-30',
        to: '2026-07-01',
        apikey: key,
      });
      expect(res.status).toBe(400);
      expect(await refusal(res)).toContain('"from"');
    });

    it('finds the same filer by its CIK with or without leading zeros, and refuses a CIK that is not digits', async () => {
      const full = await rows('sec-filings-search/cik', { cik: '0000320193', limit: '5' });
      const short = await rows('sec-filings-search/cik', { cik: '320193', limit: '5' });
      expect(short).toEqual(full);
      expect(full.every((f) => f.symbol === 'AAPL')).toBe(true);
      const res = await h.request('/stable/sec-filings-company-search/cik', { cik: 'AAPL', apikey: key });
      expect(res.status).toBe(400);
      expect(await refusal(res)).toContain('cik');
    });

    it('classifies a company under the SIC code of its industry, the same in every answer', async () => {
      const [company] = await rows('sec-filings-company-search/symbol', { symbol: 'AAPL' });
      expect(company).toMatchObject({
        cik: '0000320193',
        sicCode: '3571',
        industryTitle: 'ELECTRONIC COMPUTERS',
      });
      const [profile] = await rows('sec-profile', { symbol: 'AAPL' });
      expect(profile).toMatchObject({
        sicCode: '3571',
        sicDescription: 'ELECTRONIC COMPUTERS',
        sicGroup: 'Manufacturing',
      });
      const bySic = await rows('industry-classification-search', { sicCode: '3571' });
      expect(bySic.map((c) => c.symbol)).toContain('AAPL');
      const list = await rows('standard-industrial-classification-list', { sicCode: '3571' });
      expect(list).toEqual([
        { office: 'Office of Technology', sicCode: '3571', industryTitle: 'ELECTRONIC COMPUTERS' },
      ]);
    });

    it('sells filings with Professional, as the plan catalogue says, and refuses Free with 402', async () => {
      const free = await h.keyFor('free');
      const res = await h.request('/stable/sec-filings-8k', { apikey: free });
      expect(res.status).toBe(402);
      expect(await refusal(res)).toMatch(/Professional|plan/);
      const pro = await h.keyFor('monthlyT2');
      expect((await h.request('/stable/sec-filings-8k', { apikey: pro })).status).toBe(200);
    });

    it('has no page for an id that names no filing', async () => {
      expect(await loadFilingPage(h.db, '0000320193-26-999999')).toBeNull();
      expect(await loadFilingPage(h.db, '../etc')).toBeNull();
    });
  });

  describe('insider statistics', () => {
    it('counts, sums and averages each quarter’s acquisitions and dispositions from the trades', async () => {
      const trades = await rows('insider-trading/search', { symbol: 'AAPL', limit: '1000' });
      const stats = await rows('insider-trading/statistics', { symbol: 'AAPL' });
      expect(stats.length).toBeGreaterThan(0);
      for (const quarter of stats) {
        const inQuarter = trades.filter((t) => {
          const day = String(t.transactionDate);
          return (
            Number(day.slice(0, 4)) === quarter.year &&
            Math.ceil(Number(day.slice(5, 7)) / 3) === quarter.quarter
          );
        });
        const acquired = inQuarter.filter((t) => t.acquisitionOrDisposition === 'A');
        const disposed = inQuarter.filter((t) => t.acquisitionOrDisposition === 'D');
        const shares = (list: Row[]): number =>
          list.reduce((sum, t) => sum + Number(t.securitiesTransacted), 0);
        expect(quarter.acquiredTransactions).toBe(acquired.length);
        expect(quarter.disposedTransactions).toBe(disposed.length);
        expect(quarter.totalAcquired).toBe(shares(acquired));
        expect(quarter.totalDisposed).toBe(shares(disposed));
        expect(quarter.acquiredDisposedRatio).toBeCloseTo(
          disposed.length === 0 ? 0 : acquired.length / disposed.length,
          4,
        );
        expect(quarter.averageDisposed).toBeCloseTo(
          disposed.length === 0 ? 0 : shares(disposed) / disposed.length,
          3,
        );
        expect(quarter.totalSales).toBe(inQuarter.filter((t) => t.transactionType === 'S-Sale').length);
        expect(quarter.totalPurchases).toBe(
          inQuarter.filter((t) => t.transactionType === 'P-Purchase').length,
        );
      }
      const order = stats.map((s) => Number(s.year) * 4 + Number(s.quarter));
      expect([...order].sort((a, b) => b - a)).toEqual(order);
    });

    it('finds trades by transaction type and every Form 4 has a filing of its own', async () => {
      const sales = await rows('insider-trading/search', {
        symbol: 'AAPL',
        transactionType: 's-sale',
        limit: '1000',
      });
      expect(sales.length).toBeGreaterThan(0);
      expect(sales.every((t) => t.transactionType === 'S-Sale')).toBe(true);
      const all = await rows('insider-trading/search', { symbol: 'AAPL', limit: '1000' });
      const form4s = await rows('sec-filings-search/symbol', { symbol: 'AAPL', limit: '1000' });
      expect(form4s.filter((f) => f.formType === '4').length).toBe(all.length);
    });

    it('files each insider under one CIK, which finds every trade of that insider', async () => {
      const trades = await rows('insider-trading/search', { limit: '1000' });
      expect(trades.length).toBeGreaterThan(50);
      expect(trades.length).toBeLessThan(1000);
      const byName = new Map<string, Row[]>();
      for (const trade of trades)
        byName.set(String(trade.reportingName), [...(byName.get(String(trade.reportingName)) ?? []), trade]);
      const ciksOf = (list: Row[]): string[] => [...new Set(list.map((t) => String(t.reportingCik)))];
      for (const [name, own] of byName) expect(ciksOf(own), name).toHaveLength(1);
      expect(ciksOf(trades)).toHaveLength(byName.size);
      const busiest = [...byName.values()].sort((a, b) => b.length - a.length).slice(0, 3);
      for (const own of busiest) {
        expect(own.length).toBeGreaterThan(1);
        const found = await rows('insider-trading/search', { reportingCik: String(own[0]?.reportingCik) });
        expect(found.map((t) => t.url).sort()).toEqual(own.map((t) => t.url).sort());
      }
      const [insider] = await rows('insider-trading/reporting-name', {
        name: String(busiest[0]?.[0]?.reportingName),
      });
      expect(insider?.reportingCik).toBe(busiest[0]?.[0]?.reportingCik);
    });
  });

  describe('13F holdings', () => {
    it('never names more holders’ shares than the stock’s 13F total, valued at the quarter-end close', async () => {
      const [summary] = await rows('institutional-ownership/symbol-positions-summary', {
        symbol: 'AAPL',
        year: '2026',
        quarter: '2',
      });
      const holders = await rows('institutional-ownership/extract-analytics/holder', {
        symbol: 'AAPL',
        year: '2026',
        quarter: '2',
        limit: '100',
      });
      expect(holders.length).toBeGreaterThan(3);
      const held = holders.reduce((sum, r) => sum + Number(r.sharesNumber), 0);
      expect(held).toBeLessThanOrEqual(Number(summary?.numberOf13Fshares));
      const price = Number(summary?.totalInvested) / Number(summary?.numberOf13Fshares);
      for (const row of holders) {
        expect(row.quarterEndPrice).toBeCloseTo(price, 1);
        expect(
          Math.abs(Number(row.marketValue) - Number(row.sharesNumber) * Number(row.quarterEndPrice)),
        ).toBeLessThan(Number(row.sharesNumber) * 0.01);
      }
      const values = holders.map((r) => Number(r.marketValue));
      expect([...values].sort((a, b) => b - a)).toEqual(values);
    });

    it('adds a filer’s extract up to its portfolio value, and its industry weights up to 100 percent', async () => {
      const cik = '0000810001';
      const extract = await rows('institutional-ownership/extract', { cik, year: '2026', quarter: '2' });
      const total = extract.reduce((sum, r) => sum + Number(r.value), 0);
      const summary = await rows('institutional-ownership/holder-performance-summary', { cik });
      const q2 = summary.find((r) => r.date === '2026-06-30');
      expect(q2?.marketValue).toBe(total);
      expect(q2?.portfolioSize).toBe(extract.length);
      const industries = await rows('institutional-ownership/holder-industry-breakdown', {
        cik,
        year: '2026',
        quarter: '2',
      });
      expect(industries.reduce((sum, r) => sum + Number(r.weight), 0)).toBeCloseTo(100, 2);
      const dates = await rows('institutional-ownership/dates', { cik });
      expect(dates[0]).toMatchObject({ year: 2026, quarter: 3, date: '2026-09-30' });
      const page = await loadFilingPage(h.db, idOf(extract[0]?.link));
      expect(page?.holdings.reduce((sum, r) => sum + r.value, 0)).toBe(total);
    });

    it('sums every filer’s holdings per industry in the industry summary', async () => {
      const summary = await rows('institutional-ownership/industry-summary', { year: '2026', quarter: '2' });
      const filers = await rows('institutional-ownership/latest', { limit: '1000' });
      const ciks = [...new Set(filers.map((f) => String(f.cik)))];
      let total = 0;
      for (const cik of ciks) {
        const extract = await rows('institutional-ownership/extract', { cik, year: '2026', quarter: '2' });
        total += extract.reduce((sum, r) => sum + Number(r.value), 0);
      }
      expect(summary.reduce((sum, r) => sum + Number(r.industryValue), 0)).toBe(total);
    });
  });

  describe('Congress and private offerings', () => {
    it('finds House members’ trades by symbol and by part of a name', async () => {
      const bySymbol = await rows('house-trades', { symbol: 'AAPL' });
      expect(bySymbol.length).toBeGreaterThan(0);
      expect(bySymbol.every((t) => t.symbol === 'AAPL')).toBe(true);
      const lastName = String(bySymbol[0]?.lastName);
      const byName = await rows('house-trades-by-name', { name: lastName.toLowerCase() });
      expect(byName.length).toBeGreaterThan(0);
      expect(byName.every((t) => String(t.office).toLowerCase().includes(lastName.toLowerCase()))).toBe(true);
    });

    it('lists an issuer’s Form D filings by the CIK its search names', async () => {
      const [issuer] = await rows('fundraising-search', { name: 'fund' });
      expect(String(issuer?.name)).toMatch(/fund/i);
      const filings = await rows('fundraising', { cik: String(issuer?.cik) });
      expect(filings.length).toBeGreaterThan(0);
      expect(filings.every((f) => f.cik === issuer?.cik && String(f.formType).startsWith('D'))).toBe(true);
      expect(filings[0]?.date).toBe(issuer?.date);
    });
  });
});
