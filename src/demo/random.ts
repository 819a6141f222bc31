/**
 * A small seeded pseudo-random generator (sfc32, seeded through splitmix32) with the helpers the
 * demo generator needs. Everything the demo makes comes from one of these, so the same seed gives
 * the same data set on every machine; `Math.random` is never used.
 */

/**
 * A 32-bit seed for an independent stream, mixed from a parent seed and labels (FNV-1a + fmix32).
 */
export function deriveSeed(seed: number, ...labels: ReadonlyArray<string | number>): number {
  let hash = (seed ^ 0x811c9dc5) >>> 0;
  for (const label of labels) {
    const text = `/${label}`;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  hash ^= hash >>> 16;
  return hash >>> 0;
}

const HEX = '0123456789abcdef';

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Uniform in [min, max). */
  float(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An index chosen with probability proportional to its (non-negative) weight. */
  weightedIndex(weights: readonly number[]): number;
  /** An item chosen from [item, weight] pairs with probability proportional to the weight. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T;
  /** Approximately normal (Box–Muller). */
  normal(mean?: number, sd?: number): number;
  /** Poisson-distributed count (Knuth; fine for the small means used here). */
  poisson(mean: number): number;
  /** Shuffles in place (Fisher–Yates) and returns the array. */
  shuffle<T>(items: T[]): T[];
  /** Lower-case hex digits. */
  hex(length: number): string;
  /** A version-4-formatted UUID. */
  uuid(): string;
  /** A player account id, `account.<32 hex>`. */
  accountId(): string;
}

/** A generator seeded from a 32-bit integer. */
export function createRandom(seed: number): Random {
  // splitmix32 spreads a small seed over the 128-bit sfc32 state.
  let s = seed >>> 0;
  const split = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const u32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) u32();

  const next = (): number => u32() / 4294967296;
  const hex = (length: number): string => {
    let out = '';
    for (let i = 0; i < length; i++) out += HEX[u32() & 15];
    return out;
  };
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    weightedIndex: (weights) => {
      let total = 0;
      for (const w of weights) total += w;
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i]!;
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
    weighted: (entries) => {
      // No weights array: this runs for many events of every match.
      let total = 0;
      for (const e of entries) total += e[1];
      let r = next() * total;
      for (const e of entries) {
        r -= e[1];
        if (r < 0) return e[0];
      }
      return entries[entries.length - 1]![0];
    },
    normal: (mean = 0, sd = 1) => {
      const u = 1 - next();
      const v = next();
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    poisson: (mean) => {
      if (mean <= 0) return 0;
      const limit = Math.exp(-mean);
      let k = 0;
      let p = next();
      while (p > limit) {
        k++;
        p *= next();
      }
      return k;
    },
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const held = items[i]!;
        items[i] = items[j]!;
        items[j] = held;
      }
      return items;
    },
    hex,
    uuid: () => {
      const variant = HEX[8 + (u32() & 3)];
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
    },
    accountId: () => `account.${hex(32)}`,
  };
  return random;
}

/** 100-ns intervals between the Gregorian epoch of UUID v1 (1582-10-15) and 1970-01-01. */
const UUID_V1_EPOCH_OFFSET = 122_192_928_000_000_000n;

/**
 * A time-based (version 1) UUID for `at` (epoch ms), as the real service gives telemetry assets;
 * the clock sequence and node come from `random`, so it is deterministic too.
 */
export function timeUuid(at: number, random: Random): string {
  const ticks =
    BigInt(Math.floor(at)) * 10_000n + BigInt(random.int(0, 9_999)) + UUID_V1_EPOCH_OFFSET;
  const low = (ticks & 0xffffffffn).toString(16).padStart(8, '0');
  const mid = ((ticks >> 32n) & 0xffffn).toString(16).padStart(4, '0');
  const high = ((ticks >> 48n) & 0x0fffn).toString(16).padStart(3, '0');
  const sequence = (0x8000 | random.int(0, 0x3fff)).toString(16);
  return `${low}-${mid}-1${high}-${sequence}-${random.hex(12)}`;
}
