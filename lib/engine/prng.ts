// A small seeded pseudo-random generator (mulberry32): the same seed gives the same stream on every
// machine, which makes corpora, sampling and test fixtures reproducible. Not for cryptography.

export class Prng {
  private state: number;

  /** Streams for different `keys` under one seed are independent (the keys are hashed in). */
  constructor(seed: number, ...keys: number[]) {
    let h = mix32(seed >>> 0);
    for (const k of keys) h = mix32(h ^ (k >>> 0));
    this.state = h;
  }

  /** Uniform integer in [0, 2^32). */
  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1], so log is finite
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}

/** A 32-bit integer hash (from splitmix32) that spreads nearby seeds apart. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
