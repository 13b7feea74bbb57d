/**
 * Offline: a gene's annotated diseases combined as a mixture instead of the best one (session 11, gene side).
 * `node --import tsx bench/rank-rescore-mixture.ts raw.jsonl` with raw.jsonl from `rank-dev.ts --save-raw`.
 * Annotated part of a gene's score: m + a * ln(sum_d exp(s_d - m)) ('sum': the gene's diseases add up)
 * or m + a * ln(mean_d exp(s_d - m)) ('mean': a uniform prior over its diseases); a = 0 is today's max.
 * The constant is chosen per cohort fold on the other four (top-1 + 0.5 top-10 + 0.1 top-100).
 */
import { readFileSync } from 'node:fs';
import { chooseByFold, formatTopK, pessimisticRankOf } from './lib/rank-cv.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: rank-rescore-mixture.ts raw.jsonl');
const cases = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; cohort: string; genes: [number, number, number[]][] });
type Mode = 'sum' | 'mean';
function rankOf(c: (typeof cases)[number], mode: Mode, a: number): number | null {
  const scores = c.genes.map(([, rest, ann]) => {
    if (!ann.length) return rest;
    const m = Math.max(...ann);
    let s = 0;
    for (const x of ann) s += Math.exp(x - m);
    const mix = m + a * Math.log(mode === 'sum' ? s : s / ann.length);
    return Math.max(rest, mix);
  });
  return pessimisticRankOf(scores, (i) => c.genes[i]?.[0] === 1);
}
for (const mode of ['sum', 'mean'] as const) {
  const grid = [0, 0.25, 0.5, 0.75, 1];
  const ranks = grid.map((a) => cases.map((c) => rankOf(c, mode, a)));
  console.log(`## ${mode}`);
  grid.forEach((a, j) => console.log(`in-sample a=${a}: ${formatTopK(ranks[j] ?? [])}`));
  const { chosen, heldOut } = chooseByFold(ranks, cases.map((c) => c.cohort));
  console.log(`folds chose ${chosen.map((j) => grid[j]).join(' ')}; held out ${formatTopK(heldOut)}`);
}
