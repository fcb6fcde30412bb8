import { Lru } from './lru.ts';

/**
 * A bounded cache of lookups by a key a visitor chooses (a path, an entry id). Found values and
 * misses live in separate LRUs: a flood of made-up keys fills the small cache of misses and never
 * evicts the pages people actually read. Concurrent lookups of one key share one query.
 */
export class LookupCache<V> {
  private readonly found: Lru<V>;
  private readonly missing: Lru<undefined>;
  private readonly loading = new Map<string, Promise<V | undefined>>();
  /** Bumped on clear(): a lookup that started before it does not fill the fresh cache. */
  private generation = 0;

  constructor(max: number, maxMissing: number) {
    this.found = new Lru<V>(max);
    this.missing = new Lru<undefined>(maxMissing);
  }

  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.found.peek(key) ?? this.missing.peek(key) ?? this.loading.get(key);
    if (hit) return hit;
    const generation = this.generation;
    const pending = load().then((value) => {
      if (generation === this.generation) {
        if (value === undefined) this.missing.set(key, Promise.resolve(undefined));
        else this.found.set(key, Promise.resolve(value));
      }
      return value;
    }).finally(() => {
      if (this.loading.get(key) === pending) this.loading.delete(key);
    });
    this.loading.set(key, pending);
    return pending;
  }

  /**
   * Many keys at once: those not in memory are loaded by one call to `loadMany` (one query for a
   * list of ids), which answers the ones it found; the others are remembered as misses.
   */
  async getMany(keys: readonly string[], loadMany: (keys: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const unique = [...new Set(keys)];
    const known = new Map<string, Promise<V | undefined>>();
    const absent: string[] = [];
    for (const key of unique) {
      const hit = this.found.peek(key) ?? this.missing.peek(key) ?? this.loading.get(key);
      if (hit) known.set(key, hit);
      else absent.push(key);
    }
    if (absent.length > 0) {
      const batch = loadMany(absent);
      for (const key of absent) known.set(key, this.get(key, async () => (await batch).get(key)));
    }
    // All at once, so that a failed batch rejects once and leaves no rejection unhandled.
    const values = await Promise.all(unique.map((key) => known.get(key)));
    const out = new Map<string, V>();
    unique.forEach((key, i) => {
      const value = values[i];
      if (value !== undefined) out.set(key, value);
    });
    return out;
  }

  get sizes(): { found: number; missing: number; loading: number; max: number; maxMissing: number } {
    return { found: this.found.size, missing: this.missing.size, loading: this.loading.size, max: this.found.max, maxMissing: this.missing.max };
  }

  clear(): void {
    this.generation++;
    this.found.clear();
    this.missing.clear();
    this.loading.clear();
  }
}
