/** A small least-recently-used cache of promises, with an optional time to live. */
export class Lru<V> {
  private entries = new Map<string, { value: Promise<V>; expires: number }>();

  constructor(readonly max: number, private readonly ttlMs = Infinity) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.peek(key);
    if (hit) return hit;
    const value = load();
    this.set(key, value);
    return value;
  }

  /** The cached value, now the most recently used; undefined when absent or expired. */
  peek(key: string): Promise<V> | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.expires <= Date.now()) return undefined;
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: Promise<V>): void {
    const entry = { value, expires: Date.now() + this.ttlMs };
    // A failed load is not kept: the next request tries again.
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
