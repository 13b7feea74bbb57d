/**
 * Cohort-grouped cross-validation of the priors of diseases known only by name in the
 * phenotype-only disease ranking (packages/engine/src/phenotype/series.ts SERIES_PRIOR_LN,
 * TITLE_PRIOR_LN; -1000 = such profiles not ranked).
 *
 *   nice node --import tsx bench/rank-named-cv.ts [--sample N]
 *
 * Every dev case is scored once with the engine's own functions (scoreDiseases + groupScores for
 * the annotated disease groups, scoreBorrowed for the borrowed profiles, as rankPhenotype does);
 * its diagnosis is ranked (pessimistic ties, as bench:rank) under each pair of priors. Each of 5
 * folds (sha256(cohort) mod 5, bench/lib/rank-cv.ts) is ranked with the pair that scores best
 * (top-1 + 0.5 top-10 + 0.1 top-100) on the other four.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { getPhenotypeModel, loadHpoKb, resolveQuery, scoreDiseases, DEFAULT_SCORING_OPTIONS } from '../packages/engine/src/index.ts';
import { getDiseaseGroups, groupScores } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { getBorrowedProfiles, scoreBorrowed, SERIES_PRIOR_LN, TITLE_PRIOR_LN } from '../packages/engine/src/phenotype/series.ts';
import { FOLDS, foldOf, topK } from './lib/rank-cv.ts';

interface DevCase {
  cohort: string;
  disease_ids: string[];
  hpo_present: string[];
  hpo_excluded: string[];
}

const root = resolve(import.meta.dirname, '..');
const benchDir = process.env.RARELENS_BENCH ?? resolve(root, '../shared/bench');
const kbDir = process.env.RARELENS_KB ?? resolve(root, 'data/kb');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const SERIES = [-1000, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4];
const TITLE = [-1000, -8, -6, -4, -2, 0];
const GRID = SERIES.flatMap((s) => TITLE.map((t) => ({ series: s, title: t })));
const CAP = 101;

/** Number of entries of ascending `sorted` that are >= x. */
function countAtLeast(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < x) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

async function main(): Promise<void> {
  const lines = gunzipSync(readFileSync(join(benchDir, 'phenopackets-dev.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean);
  const all = lines.map((l) => JSON.parse(l) as DevCase);
  const sample = Number(arg('--sample') ?? Infinity);
  const step = Number.isFinite(sample) && sample < all.length ? all.length / sample : 1;
  const cases = step > 1 ? Array.from({ length: Math.floor(all.length / step) }, (_, i) => all[Math.floor(i * step)]).filter((c): c is DevCase => c != null) : all;
  const kb = await loadHpoKb(kbDir);
  const model = getPhenotypeModel(kb);
  const groups = getDiseaseGroups(model);
  const { profiles, twins } = getBorrowedProfiles(model);
  const groupOfMondo = new Map<string, number>();
  model.diseases.forEach((d, i) => {
    if (d.mondo) groupOfMondo.set(d.mondo, groups.groupOf[i] ?? 0);
  });
  const seriesIdx = profiles.flatMap((p, i) => (p.kind === 'series' ? [i] : []));
  const titleIdx = profiles.flatMap((p, i) => (p.kind === 'title' ? [i] : []));
  console.log(`${cases.length} cases; ${profiles.length} borrowed profiles (${seriesIdx.length} series, ${titleIdx.length} title only); load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  // ranks[g][case]
  const ranks: (number | null)[][] = GRID.map(() => []);
  const kind: ('annotated' | 'twin' | 'series' | 'title' | 'none')[] = [];
  for (const c of cases) {
    const q = resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }, DEFAULT_SCORING_OPTIONS);
    const { score } = groupScores(model, scoreDiseases(model, q, DEFAULT_SCORING_OPTIONS));
    const raw = scoreBorrowed(model, q, DEFAULT_SCORING_OPTIONS);
    const truthGroups = new Set<number>();
    for (const id of c.disease_ids) {
      const d = model.diseaseIndex.get(id);
      if (d !== undefined) truthGroups.add(groups.groupOf[d] ?? 0);
      // A named disease of an annotated Mondo class is listed among that group's ids (rankPhenotype's mergedIds).
      const mondo = kb.namedDiseases.get(id)?.mondo;
      const g = mondo ? groupOfMondo.get(mondo) : undefined;
      if (g !== undefined && twins.has(mondo ?? '')) truthGroups.add(g);
    }
    const truthProfiles = c.disease_ids.map((id) => profiles.findIndex((p) => p.disease.id === id)).filter((i) => i >= 0);
    kind.push(c.disease_ids.some((id) => kb.diseaseById.has(id)) ? 'annotated' : truthGroups.size ? 'twin' : truthProfiles.some((i) => profiles[i]?.kind === 'series') ? 'series' : truthProfiles.length ? 'title' : 'none');
    const gSorted = Float64Array.from(score).sort();
    const sSorted = Float64Array.from(seriesIdx, (i) => raw[i] ?? 0).sort();
    const tSorted = Float64Array.from(titleIdx, (i) => raw[i] ?? 0).sort();
    GRID.forEach((pr, gi) => {
      let truth = -Infinity;
      for (const g of truthGroups) truth = Math.max(truth, score[g] ?? -Infinity);
      for (const i of truthProfiles) {
        const p = profiles[i];
        const prior = p?.kind === 'series' ? pr.series : pr.title;
        if (prior > -1000) truth = Math.max(truth, (raw[i] ?? 0) + prior);
      }
      if (truth === -Infinity) {
        ranks[gi]?.push(null);
        return;
      }
      let r = countAtLeast(gSorted, truth);
      if (pr.series > -1000) r += countAtLeast(sSorted, truth - pr.series);
      if (pr.title > -1000) r += countAtLeast(tSorted, truth - pr.title);
      ranks[gi]?.push(Math.min(r, CAP));
    });
  }
  const objective = (rs: (number | null)[]): number => {
    const t = topK(rs);
    return (t.top1 + 0.5 * t.top10 + 0.1 * t.top100) / Math.max(1, t.n);
  };
  const fold = cases.map((c) => foldOf(c.cohort));
  const heldOut: (number | null)[] = new Array<number | null>(cases.length).fill(null);
  const chosen: string[] = [];
  for (let f = 0; f < FOLDS; f++) {
    let best = 0;
    let bestObj = -Infinity;
    GRID.forEach((_, gi) => {
      const o = objective((ranks[gi] ?? []).filter((_, i) => fold[i] !== f));
      if (o > bestObj) {
        bestObj = o;
        best = gi;
      }
    });
    chosen.push(`fold ${f}: series ${GRID[best]?.series}, title ${GRID[best]?.title}`);
    fold.forEach((fi, i) => {
      if (fi === f) heldOut[i] = ranks[best]?.[i] ?? null;
    });
  }
  let inBest = 0;
  GRID.forEach((_, gi) => {
    if (objective(ranks[gi] ?? []) > objective(ranks[inBest] ?? [])) inBest = gi;
  });
  const fmt = (rs: (number | null)[], sel: (i: number) => boolean): string => {
    const t = topK(rs.filter((_, i) => sel(i)));
    const p = (x: number): string => ((100 * x) / Math.max(1, t.n)).toFixed(1);
    return `${t.n} | ${p(t.top1)} | ${p(t.top3)} | ${p(t.top10)} | ${p(t.top100)}`;
  };
  const at = (s: number, t: number): (number | null)[] => ranks[GRID.findIndex((g) => g.series === s && g.title === t)] ?? [];
  const subsets: [string, (i: number) => boolean][] = [
    ['all', () => true],
    ['disease annotated', (i) => kind[i] === 'annotated'],
    ['disease not annotated', (i) => kind[i] !== 'annotated'],
    ['  of which with an annotated Mondo twin', (i) => kind[i] === 'twin'],
    ['  of which with a series profile', (i) => kind[i] === 'series'],
    ['  of which with a title profile', (i) => kind[i] === 'title'],
    ['  of which with no profile', (i) => kind[i] === 'none'],
  ];
  console.log(chosen.join('; '));
  console.log(`in-sample best: series ${GRID[inBest]?.series}, title ${GRID[inBest]?.title}; shipped: series ${SERIES_PRIOR_LN}, title ${TITLE_PRIOR_LN}`);
  console.log('| configuration | subset | cases | top-1 | top-3 | top-10 | top-100 |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, sel] of subsets) {
    console.log(`| before (no named diseases ranked) | ${name} | ${fmt(at(-1000, -1000), sel)} |`);
    console.log(`| shipped priors, in-sample | ${name} | ${fmt(at(SERIES_PRIOR_LN, TITLE_PRIOR_LN), sel)} |`);
    console.log(`| held out (priors chosen on the other folds) | ${name} | ${fmt(heldOut, sel)} |`);
  }
}

await main();
