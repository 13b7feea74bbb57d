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
import { loadavg } from 'node:os';
import { getPhenotypeModel, loadHpoKb, resolveQuery, scoreDiseases, DEFAULT_SCORING_OPTIONS } from '../packages/engine/src/index.ts';
import { groupScores } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { getBorrowedProfiles, scoreBorrowed, SERIES_PRIOR_LN, TITLE_PRIOR_LN } from '../packages/engine/src/phenotype/series.ts';
import { countAtLeast, crossValidateGrid, diagnosisTargets, formatTopK, kbDir, loadDevCases } from './lib/pheno-cv.ts';

const SERIES = [-1000, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4];
const TITLE = [-1000, -8, -6, -4, -2, 0];
const GRID = SERIES.flatMap((s) => TITLE.map((t) => ({ series: s, title: t })));
const CAP = 101;

async function main(): Promise<void> {
  const cases = loadDevCases();
  const kb = await loadHpoKb(kbDir);
  const model = getPhenotypeModel(kb);
  const { profiles } = getBorrowedProfiles(model);
  const targets = diagnosisTargets(kb, model);
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
    // A named disease of an annotated Mondo class is listed among that group's ids (rankPhenotype's mergedIds).
    const { groups: truthGroups, profiles: truthProfiles } = targets(c.disease_ids);
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
  const { heldOut, chosen, inSampleBest: inBest } = crossValidateGrid(
    cases.map((c) => c.cohort),
    ranks,
  );
  const fmt = formatTopK;
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
  console.log(chosen.map((c) => `fold ${c.fold}: series ${GRID[c.point]?.series}, title ${GRID[c.point]?.title}`).join('; '));
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
