/**
 * Seeded pseudo-random numbers for the demo data set. Every series draws from its own stream, derived from
 * the data set's seed and a key (symbol and purpose), so that a series never shifts when another one is added,
 * removed or generated over a different date range.
 */

/** A deterministic stream of numbers; never mixes with Math.random. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (mean 0, standard deviation 1). */
  normal(): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** Integer uniform in [min, max] (both included). */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** Log-normal around `median` with the given log-space standard deviation. */
  logNormal(median: number, sigma: number): number;
}

/** 32-bit string hash (MurmurHash3 finaliser over FNV-1a), used to derive stream seeds from keys. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A stream keyed by the data set's seed and any number of key parts (symbol, purpose, date…). sfc32 is small,
 * fast and passes PractRand far beyond the few million draws one seeding needs.
 */
export function createRandom(seed: number, ...key: readonly (string | number)[]): Random {
  const base = `${seed}|${key.join('|')}`;
  let a = hashString(`a${base}`);
  let b = hashString(`b${base}`);
  let c = hashString(`c${base}`);
  let d = hashString(`d${base}`) | 1;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i += 1) next();
  let spare: number | null = null;
  const normal = (): number => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    let u = next();
    while (u <= 1e-12) u = next();
    const v = next();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
  return {
    next,
    normal,
    range: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    weighted: <T>(items: readonly (readonly [T, number])[]): T => {
      let total = 0;
      for (const [, w] of items) total += w;
      let r = next() * total;
      for (const [item, w] of items) {
        r -= w;
        if (r < 0) return item;
      }
      const last = items[items.length - 1];
      if (last === undefined) throw new Error('weighted pick from an empty list');
      return last[0];
    },
    logNormal: (median, sigma) => median * Math.exp(sigma * normal()),
  };
}

/** A version-4-shaped UUID drawn from a stream, so generated rows keep the same ids from run to run. */
export function randomUuid(random: Random): string {
  let hex = '';
  for (let i = 0; i < 4; i += 1)
    hex += Math.floor(random.next() * 4294967296)
      .toString(16)
      .padStart(8, '0');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Rounds to a number of decimals, the way prices and ratios are published. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
