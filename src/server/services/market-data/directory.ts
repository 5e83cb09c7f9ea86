import { asc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { securities, type AssetType, type DataSource, type Security } from '../../db/schema.ts';

/** US listing venues: their stocks and ETFs are in every paid plan, the rest of the world in Power. */
export const US_EXCHANGES: ReadonlySet<string> = new Set(['NASDAQ', 'NYSE', 'AMEX']);

/**
 * The symbols each data tier adds, in words, for the pricing page and the plans guide; the tiers
 * are those symbolTier gives (a test holds them together).
 */
export const SYMBOL_COVERAGE: Readonly<Record<number, string>> = {
  0: 'the free sample: the largest US companies, major ETFs and indexes, the main currency pairs, cryptocurrencies and commodities',
  1: 'every stock, ETF and fund listed in the US (NASDAQ, NYSE, AMEX)',
  3: 'stocks on exchanges outside the US, and every cryptocurrency, currency pair, index and commodity',
};

/** Lowest data tier (see DATA_TIERS) that may read a symbol. */
export function symbolTier(security: Pick<Security, 'sample' | 'assetType' | 'exchange'>): number {
  if (security.sample) return 0;
  const usListed = US_EXCHANGES.has(security.exchange);
  if (
    usListed &&
    (security.assetType === 'stock' || security.assetType === 'etf' || security.assetType === 'fund')
  ) {
    return 1;
  }
  return 3;
}

export interface SearchOptions {
  limit: number;
  exchange?: string | undefined;
  /** 'symbol' ranks ticker matches first (search-symbol), 'name' matches company names (search-name). */
  by: 'symbol' | 'name';
}

interface Entry {
  security: Security;
  symbolLower: string;
  nameLower: string;
}

/** How long a loaded directory is trusted before it is read again (new listings, imports). */
export const DIRECTORY_TTL_MS = 60_000;

/**
 * Every security held in memory: symbol lookups on each request (coverage, data source) and search
 * must not cost a database round trip, and 70,000 rows are a few megabytes.
 */
export class SymbolDirectory {
  private readonly bySymbol = new Map<string, Entry>();
  private readonly entries: Entry[] = [];
  /** The entries in search display order: active first, then shorter tickers, then alphabetical. */
  private readonly ranked: Entry[];
  readonly loadedAt: number;
  private dataSource: DataSource | undefined;

  constructor(rows: readonly Security[], loadedAt: number = Date.now()) {
    this.loadedAt = loadedAt;
    for (const security of rows) {
      const entry = {
        security,
        symbolLower: security.symbol.toLowerCase(),
        nameLower: security.name.toLowerCase(),
      };
      this.bySymbol.set(security.symbol, entry);
      this.entries.push(entry);
    }
    this.ranked = [...this.entries].sort(
      (a, b) =>
        Number(b.security.active) - Number(a.security.active) ||
        a.symbolLower.length - b.symbolLower.length ||
        a.symbolLower.localeCompare(b.symbolLower),
    );
  }

  get size(): number {
    return this.entries.length;
  }

  get(symbol: string): Security | undefined {
    return this.bySymbol.get(symbol.toUpperCase())?.security;
  }

  /** Securities of one asset type, in symbol order. */
  list(assetType: AssetType): Security[] {
    return this.entries
      .filter((entry) => entry.security.assetType === assetType)
      .map((entry) => entry.security);
  }

  all(): readonly Security[] {
    return this.entries.map((entry) => entry.security);
  }

  /**
   * Whether any row is demo data: lists and market-wide answers are labelled by it. Read on every
   * answer, so worked out once (the rows never change; a reload builds a new directory).
   */
  get source(): DataSource {
    this.dataSource ??= this.entries.some((entry) => entry.security.source === 'demo') ? 'demo' : 'imported';
    return this.dataSource;
  }

  /**
   * Ranked matches: exact ticker, then ticker prefix, then a name starting with the query, then a
   * name word starting with it (search by symbol); by name the name matches come first (the best
   * way a row matches decides its place). Inside a
   * rank, active listings and shorter tickers come first (AAPL before AAPL.MX).
   */
  search(query: string, options: SearchOptions): Security[] {
    const needle = query.trim().toLowerCase();
    if (needle === '' || options.limit < 1) return [];
    const exchange = options.exchange?.toUpperCase();
    const wordNeedle = ` ${needle}`;
    const bySymbol = options.by === 'symbol';
    const buckets: Entry[][] = [[], [], [], []];
    // By symbol the exact ticker is a map lookup, so the scan below only meets prefix and name matches.
    const found0 = bySymbol ? this.bySymbol.get(needle.toUpperCase()) : undefined;
    const exact =
      found0 !== undefined && (exchange === undefined || found0.security.exchange === exchange)
        ? found0
        : undefined;
    if (exact !== undefined) buckets[0]?.push(exact);
    // Entries are kept in display order, so each bucket fills already sorted and the scan can stop
    // once the buckets no later entry can outrank hold enough: short queries ('A') match thousands.
    const settled = bySymbol ? 2 : 1;
    for (const entry of this.ranked) {
      if (entry === exact) continue;
      if (exchange !== undefined && entry.security.exchange !== exchange) continue;
      const rank = bySymbol ? symbolRank(entry, needle, wordNeedle) : nameRank(entry, needle, wordNeedle);
      if (rank === undefined) continue;
      buckets[rank]?.push(entry);
      let sure = 0;
      for (let index = 0; index < settled; index += 1) sure += buckets[index]?.length ?? 0;
      if (sure >= options.limit) break;
    }
    const found: Security[] = [];
    for (const bucket of buckets) {
      for (const entry of bucket) {
        if (found.length >= options.limit) return found;
        found.push(entry.security);
      }
    }
    return found;
  }
}

/** By symbol: 1 ticker prefix, 2 name prefix, 3 a name word (0, the exact ticker, is looked up). */
function symbolRank(entry: Entry, needle: string, wordNeedle: string): number | undefined {
  if (entry.symbolLower.startsWith(needle)) return 1;
  if (entry.nameLower.startsWith(needle)) return 2;
  if (entry.nameLower.includes(wordNeedle)) return 3;
  return undefined;
}

/** By name: 0 name prefix, 1 a name word, 2 the exact ticker, 3 a ticker prefix. */
function nameRank(entry: Entry, needle: string, wordNeedle: string): number | undefined {
  if (entry.nameLower.startsWith(needle)) return 0;
  if (entry.nameLower.includes(wordNeedle)) return 1;
  if (entry.symbolLower === needle) return 2;
  if (entry.symbolLower.startsWith(needle)) return 3;
  return undefined;
}

/** Reads every security, in symbol order. */
export async function loadSymbolDirectory(db: Db, now: number = Date.now()): Promise<SymbolDirectory> {
  const rows = await db.select().from(securities).orderBy(asc(securities.symbol));
  return new SymbolDirectory(rows, now);
}

/**
 * A directory that reloads itself when older than DIRECTORY_TTL_MS; concurrent callers share one load,
 * and a failed or running reload keeps serving the previous directory.
 */
export class CachedDirectory {
  private current: SymbolDirectory | undefined;
  private loading: Promise<SymbolDirectory> | undefined;
  private readonly db: () => Promise<Db>;
  private readonly clock: () => number;

  constructor(db: () => Promise<Db>, clock: () => number = Date.now) {
    this.db = db;
    this.clock = clock;
  }

  /** The loaded directory while it is fresh, without a promise: the hot path's way in. */
  fresh(): SymbolDirectory | undefined {
    const current = this.current;
    return current !== undefined && this.clock() - current.loadedAt < DIRECTORY_TTL_MS ? current : undefined;
  }

  /**
   * The loaded directory; a stale one is still served while the reload runs in the background, so
   * no request waits for 70,000 rows except the very first.
   */
  async get(): Promise<SymbolDirectory> {
    const fresh = this.fresh();
    if (fresh !== undefined) return fresh;
    const current = this.current;
    this.loading ??= this.db()
      .then((db) => loadSymbolDirectory(db, this.clock()))
      .then((loaded) => {
        this.current = loaded;
        return loaded;
      })
      .finally(() => {
        this.loading = undefined;
      });
    if (current === undefined) return this.loading;
    // A failed reload keeps the previous directory; the next request tries again.
    this.loading.catch(() => undefined);
    return current;
  }

  /** Forgets the loaded directory (after a seed or import in this process). */
  invalidate(): void {
    this.current = undefined;
  }
}
