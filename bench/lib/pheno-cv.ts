/**
 * Shared pieces of the phenotype-only cross-validations (bench/rank-named-cv.ts,
 * bench/rank-pheno-cv.ts): the dev cases, the diagnosis' disease groups and borrowed profiles as
 * rankPhenotype lists them, pessimistic rank counting and the fold-wise choice of a grid point.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { HpoKb, PhenotypeModel } from '../../packages/engine/src/index.ts';
import { capBorrowed, getDiseaseGroups } from '../../packages/engine/src/phenotype/rank-phenotype.ts';
import { getBorrowedProfiles } from '../../packages/engine/src/phenotype/series.ts';
import { addCaseOnsets } from './case-onset.ts';
import { FOLDS, foldOf, topK } from './rank-cv.ts';

export interface DevCase {
  cohort: string;
  sex: string | null;
  disease_ids: string[];
  hpo_present: string[];
  hpo_excluded: string[];
}

const root = resolve(import.meta.dirname, '../..');
export const benchDir = process.env.RARELENS_BENCH ?? resolve(root, '../shared/bench');
export const kbDir = process.env.RARELENS_KB ?? resolve(root, 'data/kb');
export const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** The dev split, or every (length / --sample)-th case of it; each case's onset term (raw phenopacket) among its present terms unless --no-onset. */
export function loadDevCases(): DevCase[] {
  const lines = gunzipSync(readFileSync(join(benchDir, 'phenopackets-dev.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean);
  const all = lines.map((l) => JSON.parse(l) as DevCase);
  addCaseOnsets(all, benchDir);
  const sample = Number(arg('--sample') ?? Infinity);
  const step = Number.isFinite(sample) && sample < all.length ? all.length / sample : 1;
  return step > 1 ? Array.from({ length: Math.floor(all.length / step) }, (_, i) => all[Math.floor(i * step)]).filter((c): c is DevCase => c != null) : all;
}

/**
 * The disease groups (getDiseaseGroups) and borrowed profiles (getBorrowedProfiles) under which
 * rankPhenotype lists a case's diagnosis: its annotated diseases, an annotated Mondo twin of a
 * disease known only by name (listed among the group's mergedIds), its borrowed profiles.
 */
export function diagnosisTargets(kb: HpoKb, model: PhenotypeModel): (diseaseIds: readonly string[]) => { groups: Set<number>; profiles: number[] } {
  const groups = getDiseaseGroups(model);
  const { profiles, twins } = getBorrowedProfiles(model);
  const groupOfMondo = new Map<string, number>();
  model.diseases.forEach((d, i) => {
    if (d.mondo) groupOfMondo.set(d.mondo, groups.groupOf[i] ?? 0);
  });
  const profileOf = new Map(profiles.map((p, i) => [p.disease.id, i]));
  return (diseaseIds) => {
    const truth = new Set<number>();
    for (const id of diseaseIds) {
      const d = model.diseaseIndex.get(id);
      if (d !== undefined) truth.add(groups.groupOf[d] ?? 0);
      const mondo = kb.namedDiseases.get(id)?.mondo;
      const g = mondo ? groupOfMondo.get(mondo) : undefined;
      if (g !== undefined && twins.has(mondo ?? '')) truth.add(g);
    }
    return { groups: truth, profiles: diseaseIds.map((id) => profileOf.get(id)).filter((i): i is number => i !== undefined) };
  };
}

/** Number of entries of ascending `sorted` that are >= x. */
export function countAtLeast(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/** top-1 + 0.5 top-10 + 0.1 top-100, per case: what a grid point is chosen by. */
export const cvObjective = (rs: readonly (number | null)[]): number => {
  const t = topK(rs);
  return (t.top1 + 0.5 * t.top10 + 0.1 * t.top100) / Math.max(1, t.n);
};

/**
 * Grouped CV over grid points (`ranks[point][case]`): each fold (sha256(cohort) mod 5) is ranked
 * with the point that scores best on the other four; also the in-sample best point.
 */
export function crossValidateGrid(cohorts: readonly string[], ranks: readonly (readonly (number | null)[])[]): { heldOut: (number | null)[]; chosen: { fold: number; cases: number; point: number }[]; inSampleBest: number } {
  const fold = cohorts.map((c) => foldOf(c));
  const heldOut: (number | null)[] = new Array<number | null>(cohorts.length).fill(null);
  const chosen: { fold: number; cases: number; point: number }[] = [];
  const bestOf = (sel: (i: number) => boolean): number => {
    let best = 0;
    let bestObj = -Infinity;
    ranks.forEach((rs, gi) => {
      const o = cvObjective(rs.filter((_, i) => sel(i)));
      if (o > bestObj) {
        bestObj = o;
        best = gi;
      }
    });
    return best;
  };
  for (let f = 0; f < FOLDS; f++) {
    const best = bestOf((i) => fold[i] !== f);
    chosen.push({ fold: f, cases: fold.filter((x) => x === f).length, point: best });
    fold.forEach((fi, i) => {
      if (fi === f) heldOut[i] = ranks[best]?.[i] ?? null;
    });
  }
  return { heldOut, chosen, inSampleBest: bestOf(() => true) };
}

/** "cases | top-1 | top-3 | top-10 | top-100" (percent) of the selected cases. */
export function formatTopK(rs: readonly (number | null)[], sel: (i: number) => boolean): string {
  const t = topK(rs.filter((_, i) => sel(i)));
  const p = (x: number): string => ((100 * x) / Math.max(1, t.n)).toFixed(1);
  return `${t.n} | ${p(t.top1)} | ${p(t.top3)} | ${p(t.top10)} | ${p(t.top100)}`;
}

/**
 * The diagnosis' pessimistic rank among rankPhenotype's entries and its best score: each disease group
 * scored by its best member's score in `scores` (written into `gScore`, which callers may read
 * afterwards), each borrowed profile's `raw` score capped below its best series member
 * (capBorrowed, as rankPhenotype); null when no entry of the diagnosis has a score.
 */
export function diagnosisRank(
  model: PhenotypeModel,
  groupOf: ArrayLike<number>,
  scores: ArrayLike<number>,
  raw: Parameters<typeof capBorrowed>[2],
  gScore: Float64Array,
  truthGroups: Iterable<number>,
  truthProfiles: Iterable<number>,
): { rank: number; truth: number } | null {
  gScore.fill(-Infinity);
  for (let d = 0; d < scores.length; d++) {
    const g = groupOf[d] ?? 0;
    if ((scores[d] ?? 0) > (gScore[g] ?? -Infinity)) gScore[g] = scores[d] ?? 0;
  }
  const borrowed = capBorrowed(model, gScore, raw).score;
  const sorted = Float64Array.from(borrowed).sort();
  let truth = -Infinity;
  for (const g of truthGroups) truth = Math.max(truth, gScore[g] ?? -Infinity);
  for (const i of truthProfiles) truth = Math.max(truth, borrowed[i] ?? -Infinity);
  if (truth === -Infinity) return null;
  let r = countAtLeast(sorted, truth);
  for (let g = 0; g < gScore.length; g++) if ((gScore[g] ?? -Infinity) >= truth) r++;
  return { rank: r, truth };
}
