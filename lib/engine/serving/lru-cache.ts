// A count-bounded least-recently-used cache whose entries may be in use: when over its limit it
// evicts the least recently used entries that are not, and stays over the limit until some are
// released (callers then call trim()).

export class LruCache<K, V> {
  private readonly entries = new Map<K, V>(); // Map order = recency, oldest first

  constructor(
    private readonly maxEntries: number,
    private readonly inUse: (value: V) => boolean,
    private readonly evict: (value: V) => void,
  ) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    this.trim();
  }

  /** Evicts idle entries, oldest first, while over the limit; never the most recent one (which a
   *  caller has just added and not yet had a chance to use). */
  trim(): void {
    let olderEntries = this.entries.size - 1;
    for (const [key, value] of this.entries) {
      if (this.entries.size <= this.maxEntries || olderEntries-- <= 0) return;
      if (this.inUse(value)) continue;
      this.entries.delete(key);
      this.evict(value);
    }
  }

  /** Forgets `key` without evicting it, if it still maps to `value`. */
  forget(key: K, value: V): void {
    if (this.entries.get(key) === value) this.entries.delete(key);
  }

  clear(): void {
    for (const value of this.entries.values()) this.evict(value);
    this.entries.clear();
  }
}
