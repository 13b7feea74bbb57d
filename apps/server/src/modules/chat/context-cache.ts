/**
 * What GenomeTalks keeps of a case between questions: one value per case with the version it
 * was built for (run, ranking, status). A question about the same version reads nothing; a new
 * version replaces the case's entry (a re-ranking never adds one); at most `maxCases` cases are
 * kept, the least recently asked about leave first. Concurrent questions about a version not
 * kept yet share one load; a failed load is not kept.
 */
export class PerCaseCache<T> {
  readonly #entries = new Map<string, { version: string; value: Promise<T> }>();

  constructor(readonly maxCases: number) {}

  get(caseId: string, version: string, load: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(caseId);
    this.#entries.delete(caseId);
    if (hit?.version === version) {
      this.#entries.set(caseId, hit);
      return hit.value;
    }
    const value = load();
    const entry = { version, value };
    while (this.#entries.size >= this.maxCases) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(caseId, entry);
    value.catch(() => {
      if (this.#entries.get(caseId) === entry) this.#entries.delete(caseId);
    });
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
