/** A small least-recently-used cache of promises, with an optional time to live. */
export class Lru<V> {
  private entries = new Map<string, { value: Promise<V>; expires: number }>();

  constructor(private readonly max: number, private readonly ttlMs = Infinity) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    this.entries.delete(key);
    if (hit && hit.expires > now) {
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = load();
    value.catch(() => this.entries.delete(key));
    this.entries.set(key, { value, expires: now + this.ttlMs });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
