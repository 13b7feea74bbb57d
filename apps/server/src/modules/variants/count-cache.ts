/**
 * Totals of filtered variant lists, computed once per run, ranking and filter instead of on
 * every page request. The key holds the run's `ranked_at` (read by the access check of each
 * request), so a re-ranking — which changes candidate ranks and therefore the candidate and
 * inheritance totals — makes the next request count again, in every API process at once; the
 * stored variants of a run never change otherwise. Concurrent requests for the same missing
 * total share one count query. Bounded (least recently used entries go first).
 */
export class CountCache<T> {
  readonly #entries = new Map<string, Promise<T>>();

  constructor(readonly maxEntries = 5000) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const value = compute();
    this.#entries.set(key, value);
    // A failed count is not kept: the next request counts again.
    value.catch(() => {
      if (this.#entries.get(key) === value) this.#entries.delete(key);
    });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** The cache key of a list total: run, ranking time and the filters (order-insensitive). */
export function countKey(runId: string, rankedAt: string | null, kind: string, filters: object): string {
  const canonical = Object.entries(filters)
    .filter(([, v]) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => [k, Array.isArray(v) ? [...(v as unknown[])].map(String).sort() : v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([runId, rankedAt, kind, canonical]);
}
