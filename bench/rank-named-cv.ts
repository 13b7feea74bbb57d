/**
 * Cohort-grouped cross-validation of the prior of diseases known only by name, ranked on their
 * series' borrowed profile, in the phenotype-only disease ranking
 * (packages/engine/src/phenotype/series.ts SERIES_PRIOR_LN; -1000 = such profiles not ranked).
 * Each prior with and without the phenotype-only cap (rank-phenotype.ts capBorrowed: a profile
 * scored just below its best series member; rankPhenotype ships it). (Title-only profiles were
 * dropped in session 10, when this grid, then with a title prior, chose -1000 for them in every fold.)
 *
 *   nice node --import tsx bench/rank-named-cv.ts [--sample N]
 *
 * Every dev case is scored once with the engine's own functions (scoreDiseases + groupScores for
 * the annotated disease groups, scoreBorrowed for the borrowed profiles, as rankPhenotype does);
 * its diagnosis is ranked (pessimistic ties, as bench:rank) under each prior. Each of 5
 * folds (sha256(cohort) mod 5, bench/lib/rank-cv.ts) is ranked with the prior that scores best
 * (top-1 + 0.5 top-10 + 0.1 top-100) on the other four.
 */
import { loadavg } from 'node:os';
import { getPhenotypeModel, loadHpoKb, resolveQuery, scoreDiseases, DEFAULT_SCORING_OPTIONS } from '../packages/engine/src/index.ts';
import { getDiseaseGroups, groupScores } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { getBorrowedProfiles, scoreBorrowed, SERIES_PRIOR_LN } from '../packages/engine/src/phenotype/series.ts';
import { countAtLeast, crossValidateGrid, diagnosisTargets, formatTopK, kbDir, loadDevCases } from './lib/pheno-cv.ts';

const SERIES = [-1000, -6, -4, -3, -2, -1, 0, 0.5, 1, 1.5, 2, 3, 4];
const CAP = 101;

async function main(): Promise<void> {
  const cases = loadDevCases();
  const kb = await loadHpoKb(kbDir);
  const model = getPhenotypeModel(kb);
  const { profiles } = getBorrowedProfiles(model);
  const targets = diagnosisTargets(kb, model);
  const groupsOf = getDiseaseGroups(model);
  const sibGroups = profiles.map((p) => p.siblings.map((id) => groupsOf.groupOf[model.diseaseIndex.get(id) ?? 0] ?? 0));
  const GRIDX = SERIES.flatMap((s) => [0, 1].map((cap) => ({ s, cap })));
  console.log(`${cases.length} cases; ${profiles.length} borrowed (series) profiles; load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  // ranks[g][case]
  const ranks: (number | null)[][] = GRIDX.map(() => []);
  const kind: ('annotated' | 'twin' | 'series' | 'none')[] = [];
  for (const c of cases) {
    const q = resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }, DEFAULT_SCORING_OPTIONS);
    const { score } = groupScores(model, scoreDiseases(model, q, DEFAULT_SCORING_OPTIONS));
    const raw = scoreBorrowed(model, q, DEFAULT_SCORING_OPTIONS);
    // A named disease of an annotated Mondo class is listed among that group's ids (rankPhenotype's mergedIds).
    const { groups: truthGroups, profiles: truthProfiles } = targets(c.disease_ids);
    kind.push(c.disease_ids.some((id) => kb.diseaseById.has(id)) ? 'annotated' : truthGroups.size ? 'twin' : truthProfiles.length ? 'series' : 'none');
    const gSorted = Float64Array.from(score).sort();
    GRIDX.forEach(({ s: prior, cap }, gi) => {
      const adj = Float64Array.from(raw, (x, i) => {
        const v = x + prior;
        if (!cap) return v;
        let m = -Infinity;
        for (const g of sibGroups[i] ?? []) m = Math.max(m, score[g] ?? -Infinity);
        return Math.min(v, m - 1e-9);
      });
      const sSorted = Float64Array.from(adj).sort();
      let truth = -Infinity;
      for (const g of truthGroups) truth = Math.max(truth, score[g] ?? -Infinity);
      if (prior > -1000) for (const i of truthProfiles) truth = Math.max(truth, adj[i] ?? 0);
      if (truth === -Infinity) {
        ranks[gi]?.push(null);
        return;
      }
      let r = countAtLeast(gSorted, truth);
      if (prior > -1000) r += countAtLeast(sSorted, truth);
      ranks[gi]?.push(Math.min(r, CAP));
    });
  }
  const { heldOut, chosen, inSampleBest: inBest } = crossValidateGrid(
    cases.map((c) => c.cohort),
    ranks,
  );
  const fmt = formatTopK;
  const at = (s: number, cap: number): (number | null)[] => ranks[GRIDX.findIndex((g) => g.s === s && g.cap === cap)] ?? [];
  const subsets: [string, (i: number) => boolean][] = [
    ['all', () => true],
    ['disease annotated', (i) => kind[i] === 'annotated'],
    ['disease not annotated', (i) => kind[i] !== 'annotated'],
    ['  of which with an annotated Mondo twin', (i) => kind[i] === 'twin'],
    ['  of which with a series profile', (i) => kind[i] === 'series'],
    ['  of which with no profile (no annotated series)', (i) => kind[i] === 'none'],
  ];
  console.log(chosen.map((c) => `fold ${c.fold}: ${JSON.stringify(GRIDX[c.point])}`).join('; '));
  console.log(`in-sample best: ${JSON.stringify(GRIDX[inBest])}; shipped: series ${SERIES_PRIOR_LN}`);
  for (const [gi, g] of GRIDX.entries()) if (g.s >= 0) console.log(`${JSON.stringify(g)}: ${fmt(ranks[gi] ?? [], () => true)} | annotated ${fmt(ranks[gi] ?? [], (i) => kind[i] === 'annotated')} | series ${fmt(ranks[gi] ?? [], (i) => kind[i] === 'series')}`);
  console.log('| configuration | subset | cases | top-1 | top-3 | top-10 | top-100 |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, sel] of subsets) {
    console.log(`| before (no named diseases ranked) | ${name} | ${fmt(at(-1000, 0), sel)} |`);
    console.log(`| shipped prior, capped, in-sample | ${name} | ${fmt(at(SERIES_PRIOR_LN, 1), sel)} |`);
    console.log(`| in-sample best | ${name} | ${fmt(ranks[inBest] ?? [], sel)} |`);
    console.log(`| held out (prior chosen on the other folds) | ${name} | ${fmt(heldOut, sel)} |`);
  }
}

await main();
