import { isoDaysBetween, shiftIsoDays } from '../../../lib/iso-date.ts';
import type { AssetType, Security } from '../../db/schema.ts';
import {
  latestExtendedSpan,
  marketDay,
  marketKind,
  sessionSpan,
  type ExtendedSpan,
  type TimeSpan,
} from './market-session.ts';
import { roundPrice } from './prices.ts';
import type { QuoteFacts } from './quotes.ts';
import { hashString } from './seed/random.ts';

/**
 * The live market of the demo: prices that move during each market's hours (the exchange calendar's, holidays
 * and early closes included: `market-session.ts`), simulated from the stored daily bars. The price of a symbol at an instant is a pure function of the simulator's seed, the symbol, its
 * stored bars and the instant, so every process (and every transport: quotes, pages, the websocket streams)
 * tells the same price at the same moment without talking to the others.
 *
 * The walk is a Brownian bridge over fixed one-second steps, built by Lévy's construction: the value of a
 * step is found by halving the session, each midpoint drawn from a hash of (seed, symbol, day, midpoint), so
 * any instant costs about 17 draws and no state. A session whose daily bar is stored walks from the bar's
 * open to its close (and stays within its high and low), so the live price ends the session on the stored
 * close. Sessions past the stored data continue the walk: each starts at the close the one before it ended
 * on (the first at the last stored close) and ends on a close drawn from (seed, symbol, day), which the
 * price then keeps until the next session opens. Mutual funds do not walk: their price is the latest net
 * asset value struck after a session's close.
 */

/** The walk's step: prices change once a second. */
export const LIVE_STEP_MS = 1_000;
/** The demo data set's seed, which the simulator's draws also start from. */
export const LIVE_MARKET_SEED = 20_260_101;

/** Daily volatility of the log price, per asset type. */
const DAILY_VOLATILITY: Record<AssetType, number> = {
  stock: 0.015,
  etf: 0.01,
  fund: 0.008,
  crypto: 0.03,
  forex: 0.005,
  commodity: 0.012,
  index: 0.01,
};
/** Half the bid-ask spread, as a fraction of the price, per asset type. */
const HALF_SPREAD: Record<AssetType, number> = {
  stock: 0.0001,
  etf: 0.00005,
  fund: 0.0001,
  crypto: 0.00025,
  forex: 0.00001,
  commodity: 0.0002,
  index: 0.00005,
};
/** Extended hours move less than the regular session: a share of the daily volatility. */
const EXTENDED_VOLATILITY_SHARE = 0.35;
/** Grid of the day range: the walk is sampled every five minutes for the day's high and low. */
const RANGE_GRID_STEPS = 300;

/** The stored facts a live quote starts from: the latest bar's quote and the one before it. */
export interface StoredQuote {
  latest: QuoteFacts;
  /** The quote as of the bar before the latest (null for a first trading day). */
  earlier: QuoteFacts | null;
}

/** One moment of a symbol's book and last trade, as the streams send it. */
export interface LiveTick {
  symbol: string;
  /** The step's instant, ms since the epoch. */
  at: number;
  /** Whether the symbol's market is in its session (the price moves). */
  trading: boolean;
  price: number;
  bidPrice: number;
  bidSize: number;
  askPrice: number;
  askSize: number;
  lastPrice: number;
  lastSize: number;
}

/** The latest US extended-hours trade and book of a stock. */
export interface ExtendedTick {
  symbol: string;
  /** The instant of the trade, ms since the epoch. */
  at: number;
  price: number;
  tradeSize: number;
  bidPrice: number;
  bidSize: number;
  askPrice: number;
  askSize: number;
  window: ExtendedSpan['window'];
}

/** The murmur3 finaliser: a well-mixed 32-bit value from a key and an index. */
function mix(key: number, index: number): number {
  let h = (key ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform in (0, 1) from a key and an index. */
function uniform(key: number, index: number): number {
  return (mix(key, index) + 0.5) / 4294967296;
}

/** A standard normal from a key and an index (Box–Muller over two independent uniforms). */
function normal(key: number, index: number): number {
  const u = uniform(key, index);
  const v = uniform(key ^ 0x5bd1e995, index);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * The value at `step` of a Brownian bridge over `steps` steps from `start` to `end`, each step of standard
 * deviation `sigma`: Lévy's construction, each midpoint a function of the key and its index only.
 */
export function bridgeAt(
  key: number,
  steps: number,
  step: number,
  start: number,
  end: number,
  sigma: number,
): number {
  let low = 0;
  let high = steps;
  let lowValue = start;
  let highValue = end;
  for (;;) {
    if (step <= low) return lowValue;
    if (step >= high) return highValue;
    const middle = Math.floor((low + high) / 2);
    const share = (middle - low) / (high - low);
    const spread = sigma * Math.sqrt(((middle - low) * (high - middle)) / (high - low));
    const value = lowValue + share * (highValue - lowValue) + spread * normal(key, middle);
    if (step < middle) {
      high = middle;
      highValue = value;
    } else {
      low = middle;
      lowValue = value;
    }
  }
}

/** A walk over one span: its key, its steps and its ends in log price. */
interface Walk {
  key: number;
  span: TimeSpan;
  steps: number;
  start: number;
  end: number;
  sigma: number;
  /** The price range the walk stays in (a stored bar's low and high), if any. */
  floor: number;
  ceiling: number;
}

/** A session after the stored data: its day, span, opening price and closing log price. */
interface ContinuedSession {
  day: string;
  span: TimeSpan;
  /** The price it opens at: the close before it, exactly. */
  open: number;
  /** The log of the price it closes at. */
  end: number;
}

/** The sessions after a symbol's stored data, in day order, computed as far as they have been asked for. */
interface Continuation {
  /** The last calendar day looked at. */
  through: string;
  sessions: ContinuedSession[];
}

/**
 * How many days one chain of sessions after the stored data runs; the next chain starts again from the
 * stored close, so no instant needs more than this many days computed.
 */
const CONTINUATION_DAYS = 400;

/** The step of an instant within a span (the last step that has begun). */
function stepOf(span: TimeSpan, at: number): number {
  return Math.floor((Math.min(at, span.end) - span.start) / LIVE_STEP_MS);
}

/** The simulator: stateless but for small caches; one instance per seed. */
export class LiveMarket {
  readonly seed: number;
  private readonly ranges = new Map<string, { upTo: number; high: number; low: number }>();
  private readonly continuations = new Map<string, Continuation>();

  constructor(options: { seed?: number } = {}) {
    this.seed = options.seed ?? LIVE_MARKET_SEED;
  }

  private key(symbol: string, day: string, purpose: string): number {
    return hashString(`${String(this.seed)}|${symbol}|${day}|${purpose}`);
  }

  private walkPrice(walk: Walk, step: number): number {
    const value = Math.exp(bridgeAt(walk.key, walk.steps, step, walk.start, walk.end, walk.sigma));
    return Math.min(walk.ceiling, Math.max(walk.floor, value));
  }

  /** A walk over a span from one price to another (or, with `to` null, to a drawn end around the start). */
  private walk(
    security: Pick<Security, 'symbol' | 'assetType'>,
    day: string,
    purpose: string,
    span: TimeSpan,
    from: number,
    to: number | null,
    volatility: number,
    range: { low: number; high: number } | null,
  ): Walk {
    const key = this.key(security.symbol, day, purpose);
    const steps = Math.max(1, Math.ceil((span.end - span.start) / LIVE_STEP_MS));
    const sigma = volatility / Math.sqrt(steps);
    const start = Math.log(from);
    const end = to === null ? start + volatility * normal(key, 0) : Math.log(to);
    return {
      key,
      span,
      steps,
      start,
      end,
      sigma,
      floor: range?.low ?? 0,
      ceiling: range?.high ?? Infinity,
    };
  }

  /** The regular-session walk at an instant, or null when the price rests (the stored facts then hold). */
  private sessionWalk(
    security: Pick<Security, 'symbol' | 'assetType' | 'exchange'>,
    stored: StoredQuote,
    at: number,
  ): { walk: Walk; facts: QuoteFacts; pinned: boolean; open: number } | null {
    // A mutual fund does not trade: its price is the net asset value struck once a day after the close.
    if (security.assetType === 'fund') return null;
    const volatility = DAILY_VOLATILITY[security.assetType];
    const { latest } = stored;
    const barSpan = sessionSpan(security, latest.date);
    if (barSpan !== null && at >= barSpan.start && at < barSpan.end && latest.price > 0 && latest.open > 0) {
      const range = { low: latest.dayLow, high: latest.dayHigh };
      const walk = this.walk(
        security,
        latest.date,
        'session',
        barSpan,
        latest.open,
        latest.price,
        volatility,
        range,
      );
      return { walk, facts: latest, pinned: true, open: latest.open };
    }
    const today = marketDay(security, at);
    if (today <= latest.date || latest.price <= 0) return null;
    const session = this.continuedSession(security, stored, today);
    if (session === null || at < session.span.start || at >= session.span.end) return null;
    const walk = this.continuedWalk(security, session);
    return { walk, facts: latest, pinned: false, open: session.open };
  }

  /** The walk of a session after the stored data, between the ends the continuation drew for it. */
  private continuedWalk(security: Pick<Security, 'symbol' | 'assetType'>, session: ContinuedSession): Walk {
    const volatility = DAILY_VOLATILITY[security.assetType];
    const { day, span, open, end } = session;
    return this.walk(security, day, 'session', span, open, Math.exp(end), volatility, null);
  }

  /**
   * The sessions after the stored data up to a day (inclusive), each opening at the close of the one before
   * and closing on a drawn move of one day's volatility. Computed once per symbol and day, then kept.
   */
  private continuation(
    security: Pick<Security, 'symbol' | 'assetType' | 'exchange'>,
    stored: StoredQuote,
    day: string,
  ): ContinuedSession[] {
    const { latest } = stored;
    // Eras of CONTINUATION_DAYS after the stored data, each starting again from the stored close: a day's
    // chain then depends on the day alone, not on how long this process has run.
    const era = Math.max(0, Math.floor((isoDaysBetween(latest.date, day) - 1) / CONTINUATION_DAYS));
    const id = `${security.symbol}|${latest.date}|${String(latest.price)}|${String(era)}`;
    let known = this.continuations.get(id);
    if (known === undefined) {
      if (this.continuations.size > 20_000) this.continuations.clear();
      known = { through: shiftIsoDays(latest.date, era * CONTINUATION_DAYS), sessions: [] };
      this.continuations.set(id, known);
    }
    const volatility = DAILY_VOLATILITY[security.assetType];
    while (known.through < day) {
      const next = shiftIsoDays(known.through, 1);
      const span = sessionSpan(security, next);
      if (span !== null) {
        const before = known.sessions.at(-1);
        const open = before === undefined ? latest.price : Math.exp(before.end);
        const end = Math.log(open) + volatility * normal(this.key(security.symbol, next, 'session'), 0);
        known.sessions.push({ day: next, span, open, end });
      }
      known.through = next;
    }
    return known.sessions;
  }

  /** A day's session after the stored data, or null when the market does not trade that day. */
  private continuedSession(
    security: Pick<Security, 'symbol' | 'assetType' | 'exchange'>,
    stored: StoredQuote,
    day: string,
  ): ContinuedSession | null {
    const session = this.continuation(security, stored, day).findLast((known) => known.day <= day);
    return session?.day === day ? session : null;
  }

  /** The latest session after the stored data that has closed by an instant, if any. */
  private closedContinuedSession(
    security: Pick<Security, 'symbol' | 'assetType' | 'exchange'>,
    stored: StoredQuote,
    at: number,
  ): ContinuedSession | null {
    const today = marketDay(security, at);
    if (today <= stored.latest.date || stored.latest.price <= 0) return null;
    const sessions = this.continuation(security, stored, today);
    return sessions.findLast((session) => session.day <= today && session.span.end <= at) ?? null;
  }

  /**
   * The facts that hold outside a session: the close of the latest session after the stored data, once one
   * has closed; otherwise the latest stored bar, or the bar before it until the latest bar's session opens.
   * A mutual fund's bar is its net asset value, known once the session has closed.
   */
  private resting(
    security: Pick<Security, 'symbol' | 'exchange' | 'assetType'>,
    stored: StoredQuote,
    at: number,
  ): QuoteFacts {
    if (security.assetType !== 'fund') {
      const closed = this.closedContinuedSession(security, stored, at);
      if (closed !== null) return this.continuedClose(security, stored.latest, closed);
    }
    const span = sessionSpan(security, stored.latest.date);
    const known = span === null ? null : security.assetType === 'fund' ? span.end : span.start;
    const notYet = known !== null ? at < known : marketDay(security, at) < stored.latest.date;
    return notYet && stored.earlier !== null ? stored.earlier : stored.latest;
  }

  /** The facts a closed session after the stored data leaves: its close, open and whole day's range. */
  private continuedClose(
    security: Pick<Security, 'symbol' | 'assetType'>,
    latest: QuoteFacts,
    session: ContinuedSession,
  ): QuoteFacts {
    const walk = this.continuedWalk(security, session);
    const { open } = session;
    const price = this.walkPrice(walk, walk.steps);
    const range = this.dayRange(walk, walk.steps, open, price);
    return {
      ...latest,
      date: session.day,
      price,
      open,
      previousClose: open,
      dayHigh: range.high,
      dayLow: range.low,
      volume: latest.averageVolume,
    };
  }

  /** The highest and lowest price of a walk up to a step, sampled on a five-minute grid (cached per walk). */
  private dayRange(walk: Walk, step: number, open: number, price: number): { high: number; low: number } {
    const id = `${String(walk.key)}|${String(walk.steps)}`;
    const upTo = Math.floor(step / RANGE_GRID_STEPS);
    let known = this.ranges.get(id);
    if (known === undefined || known.upTo > upTo) known = { upTo: 0, high: open, low: open };
    for (let index = known.upTo + 1; index <= upTo; index += 1) {
      const sample = this.walkPrice(walk, index * RANGE_GRID_STEPS);
      known = { upTo: index, high: Math.max(known.high, sample), low: Math.min(known.low, sample) };
    }
    if (this.ranges.size > 20_000) this.ranges.clear();
    this.ranges.set(id, known);
    return { high: Math.max(known.high, price), low: Math.min(known.low, price) };
  }

  /**
   * The quote facts of a security at an instant: in its session, the walk's price, the day's range so far
   * and the volume traded so far; outside it, the stored facts of the latest session that has opened.
   */
  facts(
    security: Pick<Security, 'symbol' | 'assetType' | 'exchange'>,
    stored: StoredQuote,
    at: number,
  ): QuoteFacts {
    const moving = this.sessionWalk(security, stored, at);
    if (moving === null) return this.resting(security, stored, at);
    const { walk, facts, pinned, open } = moving;
    const step = stepOf(walk.span, at);
    const price = this.walkPrice(walk, step);
    const elapsed = step / walk.steps;
    if (pinned) {
      const range = this.dayRange(walk, step, open, price);
      return {
        ...facts,
        price,
        dayHigh: Math.min(facts.dayHigh, range.high),
        dayLow: Math.max(facts.dayLow, range.low),
        volume: Math.round(facts.volume * elapsed),
      };
    }
    const range = this.dayRange(walk, step, open, price);
    return {
      ...facts,
      price,
      open,
      previousClose: open,
      dayHigh: range.high,
      dayLow: range.low,
      volume: Math.round(facts.averageVolume * elapsed),
    };
  }

  /** The book and last trade of a security at an instant, around the price {@link facts} tells. */
  tick(
    security: Pick<Security, 'symbol' | 'assetType' | 'exchange'>,
    stored: StoredQuote,
    at: number,
  ): LiveTick {
    const facts = this.facts(security, stored, at);
    const trading = this.sessionWalk(security, stored, at) !== null;
    const step = Math.floor(at / LIVE_STEP_MS);
    const key = this.key(security.symbol, 'book', 'sizes');
    return {
      symbol: security.symbol,
      at: step * LIVE_STEP_MS,
      trading,
      ...this.book(security.assetType, facts.price, key, step),
      lastPrice: roundPrice(facts.price, security.assetType),
      lastSize: lotSize(security.assetType, key ^ 0x2545f491, step),
    };
  }

  private book(
    assetType: AssetType,
    price: number,
    key: number,
    step: number,
  ): Pick<LiveTick, 'price' | 'bidPrice' | 'bidSize' | 'askPrice' | 'askSize'> {
    const half = price * HALF_SPREAD[assetType];
    return {
      price: roundPrice(price, assetType),
      bidPrice: roundPrice(price - half, assetType),
      bidSize: lotSize(assetType, key ^ 0x68e31da4, step),
      askPrice: roundPrice(price + half, assetType),
      askSize: lotSize(assetType, key ^ 0x1b873593, step),
    };
  }

  /**
   * The latest US extended-hours trade of a stock at an instant: during pre-market (04:00–09:30 New York) and
   * after-hours (16:00–20:00, 13:00–17:00 after an early close) the walk's price now, otherwise the last one of
   * the latest window. Pre-market walks from the previous close to the day's stored open; after-hours walks
   * freely from the close.
   */
  extendedTick(
    security: Pick<Security, 'symbol' | 'assetType' | 'exchange'>,
    stored: StoredQuote,
    at: number,
  ): ExtendedTick | null {
    const span = latestExtendedSpan(at);
    if (span === null || marketKind(security.assetType) !== 'exchange') return null;
    const volatility = DAILY_VOLATILITY[security.assetType] * EXTENDED_VOLATILITY_SHARE;
    const { latest, earlier } = stored;
    let walk: Walk;
    const continued = span.day > latest.date ? this.continuedSession(security, stored, span.day) : null;
    if (span.window === 'pre' && latest.date === span.day && earlier !== null) {
      walk = this.walk(security, span.day, 'pre', span, earlier.price, latest.open, volatility, null);
    } else if (continued !== null && latest.price > 0) {
      // After the stored data: pre-market walks from the previous close to the open (the same price, as the
      // continued session opens where the one before closed); after-hours walk freely from the close.
      const { open } = continued;
      walk =
        span.window === 'pre'
          ? this.walk(security, span.day, 'pre', span, open, open, volatility, null)
          : this.walk(security, span.day, 'post', span, Math.exp(continued.end), null, volatility, null);
    } else {
      const base = latest.date <= span.day ? latest : (earlier ?? latest);
      if (base.price <= 0) return null;
      walk = this.walk(security, span.day, span.window, span, base.price, null, volatility, null);
    }
    const step = Math.min(stepOf(span, at), walk.steps - 1);
    const price = this.walkPrice(walk, step);
    const book = this.book(security.assetType, price, walk.key, step);
    return {
      symbol: security.symbol,
      at: span.start + step * LIVE_STEP_MS,
      price: book.price,
      tradeSize: lotSize(security.assetType, walk.key ^ 0x2545f491, step),
      bidPrice: book.bidPrice,
      bidSize: book.bidSize,
      askPrice: book.askPrice,
      askSize: book.askSize,
      window: span.window,
    };
  }
}

/** A trade or book size: shares (1–500), coins (0.001–2) or forex lots (1,000–100,000 units). */
function lotSize(assetType: AssetType, key: number, step: number): number {
  const u = uniform(key, step);
  if (assetType === 'crypto') return Math.round((0.001 + u * u * 2) * 1000) / 1000;
  if (assetType === 'forex') return 1000 * (1 + Math.floor(u * u * 100));
  return 1 + Math.floor(u * u * 500);
}

let shared: LiveMarket | undefined;

/** The process's simulator (the demo seed): quotes, pages and streams read it alike. */
export function liveMarket(): LiveMarket {
  shared ??= new LiveMarket();
  return shared;
}
