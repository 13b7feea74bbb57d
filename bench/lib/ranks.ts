/** Top-k tallies of the ranking benchmarks: cases whose truth ranks 1st, in the top 3, in the top 10. */

export interface TopK {
  n: number;
  top1: number;
  top3: number;
  top10: number;
  top100: number;
}

export const emptyTopK = (): TopK => ({ n: 0, top1: 0, top3: 0, top10: 0, top100: 0 });

/** Counts one case; a null rank (the truth was not ranked) counts in `n` only. */
export function addRank(t: TopK, rank: number | null): void {
  t.n++;
  if (rank == null) return;
  if (rank <= 1) t.top1++;
  if (rank <= 3) t.top3++;
  if (rank <= 10) t.top10++;
  if (rank <= 100) t.top100++;
}

export const pct = (x: number, n: number): string => (n ? `${((100 * x) / n).toFixed(1)} %` : 'n/a');

/** Markdown row: | name | cases | top-1 | top-3 | top-10 |. */
export const topKRow = (name: string, t: TopK): string => `| ${name} | ${t.n} | ${pct(t.top1, t.n)} | ${pct(t.top3, t.n)} | ${pct(t.top10, t.n)} |`;

/** Markdown row: | name | cases | top-1 | top-3 | top-10 | top-100 |. */
export const topK100Row = (name: string, t: TopK): string => `${topKRow(name, t)} ${pct(t.top100, t.n)} |`;

/** Pessimistic rank: the number of items scored at least as high as the target (ties count against it). */
export function pessimisticRank(scores: readonly number[], target: number): number {
  let rank = 0;
  for (const s of scores) if (s >= target) rank++;
  return rank;
}

/** Pessimistic rank of the first ranked gene among `symbols`; null when none of them is ranked. */
export function causalGeneRank(genes: readonly { symbol: string; score: number }[], symbols: readonly string[]): number | null {
  const g = genes.find((x) => symbols.includes(x.symbol));
  return g ? pessimisticRank(genes.map((x) => x.score), g.score) : null;
}
