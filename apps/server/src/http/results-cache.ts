/**
 * Results an API process computed for requests and keeps for the next ones: a bounded map of
 * promises, least recently used first out. Concurrent requests for a missing entry share one
 * computation; a failed computation is not kept (the next request computes again). An entry may
 * carry a version (e.g. a case's run and ranking time): a request for another version replaces
 * the key's entry instead of adding one, so old versions never pile up.
 */
export class ResultsCache<T> {
  readonly #entries = new Map<string, { version: string; value: Promise<T> }>();

  constructor(readonly maxEntries = 5000) {}

  get(key: string, compute: () => Promise<T>, version = ''): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit) this.#entries.delete(key);
    if (hit?.version === version) {
      this.#entries.set(key, hit);
      return hit.value;
    }
    const entry = { version, value: compute() };
    this.#entries.set(key, entry);
    entry.value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    return entry.value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
