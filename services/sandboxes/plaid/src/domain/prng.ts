// Seeded, index-addressable randomness. Every generated transaction draws from its own small generator seeded
// by (history seed, index), so transaction i can be produced without producing 0..i-1: that is what makes a
// 100,000-transaction item cost nothing until it is read.

/** FNV-1a over the UTF-16 code units of `text`, finished with murmur3's avalanche. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return finalize(h);
}

/** Combines two 32-bit values into a well-mixed 32-bit value. */
export function mix(a: number, b: number): number {
  return finalize((a ^ Math.imul(b ^ (b >>> 16), 0x9e3779b1)) >>> 0);
}

function finalize(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for test data. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Picks by weight; `weights` must be positive and as long as `items`. */
  weighted<T>(items: readonly T[], cumulativeWeights: readonly number[]): T {
    const item = items[this.weightedIndex(cumulativeWeights)];
    if (item === undefined) throw new Error('weighted pick from an empty list');
    return item;
  }

  /** The index a weighted pick lands on (one draw, like `weighted`). */
  weightedIndex(cumulativeWeights: readonly number[]): number {
    const total = cumulativeWeights[cumulativeWeights.length - 1] ?? 0;
    const target = this.next() * total;
    let lo = 0;
    let hi = cumulativeWeights.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulativeWeights[mid] ?? 0) > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

export function cumulative(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((w) => (sum += w));
}
