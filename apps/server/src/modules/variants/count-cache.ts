/**
 * Totals of filtered variant lists are computed once per run, ranking and filter instead of on
 * every page request (kept in a ResultsCache, http/results-cache.ts). The key holds the run's
 * `ranked_at` (read by the access check of each request), so a re-ranking — which changes
 * candidate ranks and therefore the candidate and inheritance totals — makes the next request
 * count again, in every API process at once; the stored variants of a run never change otherwise.
 */

/** The cache key of a list total: run, ranking time and the filters (order-insensitive). */
export function countKey(runId: string, rankedAt: string | null, kind: string, filters: object): string {
  const canonical = Object.entries(filters)
    .filter(([, v]) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => [k, Array.isArray(v) ? [...(v as unknown[])].map(String).sort() : v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([runId, rankedAt, kind, canonical]);
}
