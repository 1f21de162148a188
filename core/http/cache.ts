/** A bounded map with a time to live: the oldest entry goes first when full (insertion order). */
export class TtlCache<V> {
  private readonly map = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (hit.expires <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** `ttlMs` shortens the cache's own, for an entry that was already kept elsewhere for a while. */
  set(key: string, value: V, ttlMs = this.ttlMs): void {
    const ttl = Math.min(ttlMs, this.ttlMs);
    if (ttl <= 0 || this.maxEntries <= 0) return;
    this.map.delete(key);
    this.map.set(key, { value, expires: this.now() + ttl });
    while (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
  }

  get size(): number {
    return this.map.size;
  }
}
