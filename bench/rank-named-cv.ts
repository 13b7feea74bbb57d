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
 *
 *   nice node --import tsx bench/rank-named-cv.ts --titles [--sample N] [--k 3,5,10,20] [--min 0.1,0.2,0.3] [--priors -6,-4,-2,-1,0,1,2,3]
 *
 * instead chooses, with the series profiles at the shipped prior and cap, the 'similar-titles'
 * profiles of named diseases in no series (inferred from the annotated diseases with the most similar
 * titles; series.ts buildBorrowedProfiles titleNeighbours / minTitleSimilarity): neighbours k × least
 * similarity × their log prior × cap below the best neighbour, or none. (The phenotype-only ranking
 * ships none: session 12.)
 */
import { loadavg } from 'node:os';
import { getPhenotypeModel, loadHpoKb, resolveQuery, scoreDiseases, DEFAULT_SCORING_OPTIONS } from '../packages/engine/src/index.ts';
import { getDiseaseGroups, groupScores } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { buildBorrowedProfiles, getBorrowedProfiles, scoreBorrowed, SERIES_PRIOR_LN, DEFAULT_BORROWED_OPTIONS, type BorrowedProfiles } from '../packages/engine/src/phenotype/series.ts';
import { scoreWithPostings } from '../packages/engine/src/phenotype/score.ts';
import { arg, countAtLeast, crossValidateGrid, diagnosisTargets, formatTopK, kbDir, loadDevCases } from './lib/pheno-cv.ts';

const SERIES = [-1000, -6, -4, -3, -2, -1, 0, 0.5, 1, 1.5, 2, 3, 4];
const CAP = 101;

type Subset = [string, (i: number) => boolean];

/** The rows every table prints (all, annotated, not annotated, twin, series), then `extra`. */
function subsetsOf(kind: readonly string[], extra: Subset[]): Subset[] {
  return [
    ['all', () => true],
    ['disease annotated', (i) => kind[i] === 'annotated'],
    ['disease not annotated', (i) => kind[i] !== 'annotated'],
    ['  of which with an annotated Mondo twin', (i) => kind[i] === 'twin'],
    ['  of which with a series profile', (i) => kind[i] === 'series'],
    ...extra,
  ];
}

async function main(): Promise<void> {
  const cases = loadDevCases();
  const kb = await loadHpoKb(kbDir);
  const model = getPhenotypeModel(kb);
  const { profiles } = getBorrowedProfiles(model);
  const targets = diagnosisTargets(kb, model);
  const groupsOf = getDiseaseGroups(model);
  const sibGroups = profiles.map((p) => p.siblings.map((id) => groupsOf.groupOf[model.diseaseIndex.get(id) ?? 0] ?? 0));
  const GRIDX = SERIES.flatMap((s) => [0, 1].map((cap) => ({ s, cap })));
  console.log(`${cases.length} cases; ${profiles.filter((p) => p.kind === 'series').length} borrowed (series) profiles; load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  // ranks[g][case]
  const ranks: (number | null)[][] = GRIDX.map(() => []);
  const kind: ('annotated' | 'twin' | 'series' | 'none')[] = [];
  for (const c of cases) {
    const q = resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }, DEFAULT_SCORING_OPTIONS);
    const { score } = groupScores(model, scoreDiseases(model, q, DEFAULT_SCORING_OPTIONS));
    const raw = scoreBorrowed(model, q, DEFAULT_SCORING_OPTIONS);
    // A named disease of an annotated Mondo class is listed among that group's ids (rankPhenotype's mergedIds).
    const { groups: truthGroups, profiles: truthProfiles } = targets(c.disease_ids);
    kind.push(c.disease_ids.some((id) => kb.diseaseById.has(id)) ? 'annotated' : truthGroups.size ? 'twin' : truthProfiles.some((i) => profiles[i]?.kind === 'series') ? 'series' : 'none');
    const gSorted = Float64Array.from(score).sort();
    GRIDX.forEach(({ s: prior, cap }, gi) => {
      const adj = Float64Array.from(raw, (x, i) => {
        if (profiles[i]?.kind !== 'series') return -Infinity; // 'similar-titles': --titles
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
  const subsets = subsetsOf(kind, [['  of which with no profile (no annotated series)', (i) => kind[i] === 'none']]);
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

async function mainTitles(): Promise<void> {
  const cases = loadDevCases();
  const kb = await loadHpoKb(kbDir);
  const model = getPhenotypeModel(kb);
  const shipped = getBorrowedProfiles(model);
  const targets = diagnosisTargets(kb, model);
  const groupsOf = getDiseaseGroups(model);
  const K = (arg('--k') ?? '5,10,20').split(',').map(Number);
  const MIN = (arg('--min') ?? '0.15,0.3').split(',').map(Number);
  const PRIOR = (arg('--priors') ?? '-6,-4,-2,-1,0,1,2,3').split(',').map(Number);
  // One profile set per (k, least similarity); only its 'similar-titles' profiles are used (the series ones are the shipped set's).
  const sets = K.flatMap((k) =>
    MIN.map((min) => ({
      k,
      min,
      b: buildBorrowedProfiles(model, { titleNeighbours: k, minTitleSimilarity: min }),
    })),
  );
  const titleIdx = sets.map(({ b }) =>
    b.profiles.flatMap((p, i) => (p.kind === 'similar-titles' ? [i] : [])),
  );
  const titleGroups = (b: BorrowedProfiles): number[][] =>
    b.profiles.map((p) =>
      p.siblings.map((id) => groupsOf.groupOf[model.diseaseIndex.get(id) ?? 0] ?? 0),
    );
  const lenderGroups = sets.map(({ b }) => titleGroups(b));
  const seriesGroups = titleGroups(shipped);
  const titleOf = sets.map(
    ({ b }) =>
      new Map(
        b.profiles.flatMap((p, i) =>
          p.kind === 'similar-titles' ? [[p.disease.id, i] as const] : [],
        ),
      ),
  );
  const GRIDX: { k: number; min: number; prior: number; cap: number; set: number }[] = [
    { k: 0, min: 0, prior: -1000, cap: 0, set: -1 },
  ];
  sets.forEach(({ k, min }, set) =>
    PRIOR.forEach((prior) => [0, 1].forEach((cap) => GRIDX.push({ k, min, prior, cap, set }))),
  );
  console.log(
    `${cases.length} cases; ${shipped.profiles.length} series profiles; title profiles ${sets.map((x, i) => `k ${x.k} min ${x.min}: ${titleIdx[i]?.length}`).join(', ')}; load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const ranks: (number | null)[][] = GRIDX.map(() => []);
  const kind: ('annotated' | 'twin' | 'series' | 'title' | 'none')[] = [];
  const permissive = sets.findIndex((x) => x.min === Math.min(...MIN));
  const capAt = (v: number, groups: number[] | undefined, score: Float64Array): number => {
    let m = -Infinity;
    for (const g of groups ?? []) m = Math.max(m, score[g] ?? -Infinity);
    return Math.min(v, m - 1e-9);
  };
  const t0 = Date.now();
  for (const [ci, c] of cases.entries()) {
    const q = resolveQuery(
      model,
      { present: c.hpo_present, excluded: c.hpo_excluded },
      DEFAULT_SCORING_OPTIONS,
    );
    const { score } = groupScores(model, scoreDiseases(model, q, DEFAULT_SCORING_OPTIONS));
    const rawSeries = scoreBorrowed(model, q, DEFAULT_SCORING_OPTIONS);
    const series = Float64Array.from(rawSeries, (x, i) =>
      shipped.profiles[i]?.kind === 'series'
        ? capAt(x + SERIES_PRIOR_LN, seriesGroups[i], score)
        : -Infinity,
    );
    const { groups: truthGroups, profiles: truthProfiles } = targets(c.disease_ids);
    const hasTitle = c.disease_ids.some((id) => titleOf[permissive]?.has(id));
    kind.push(
      c.disease_ids.some((id) => kb.diseaseById.has(id))
        ? 'annotated'
        : truthGroups.size
          ? 'twin'
          : truthProfiles.length
            ? 'series'
            : hasTitle
              ? 'title'
              : 'none',
    );
    const gSorted = Float64Array.from(score).sort();
    const sSorted = Float64Array.from(series).sort();
    let base = -Infinity;
    for (const g of truthGroups) base = Math.max(base, score[g] ?? -Infinity);
    for (const i of truthProfiles) base = Math.max(base, series[i] ?? -Infinity);
    const rawTitle = sets.map(({ b }) =>
      scoreWithPostings(model, b.postings, b.profiles.length, q, DEFAULT_SCORING_OPTIONS),
    );
    GRIDX.forEach(({ prior, cap, set }, gi) => {
      let truth = base;
      let tSorted = new Float64Array(0);
      if (set >= 0) {
        const raw = rawTitle[set] ?? new Float64Array(0);
        const lg = lenderGroups[set] ?? [];
        const adj = Float64Array.from(titleIdx[set] ?? [], (i) =>
          cap ? capAt((raw[i] ?? 0) + prior, lg[i], score) : (raw[i] ?? 0) + prior,
        );
        for (const id of c.disease_ids) {
          const i = titleOf[set]?.get(id);
          if (i === undefined) continue;
          const v = cap ? capAt((raw[i] ?? 0) + prior, lg[i], score) : (raw[i] ?? 0) + prior;
          truth = Math.max(truth, v);
        }
        tSorted = adj.sort();
      }
      if (truth === -Infinity) {
        ranks[gi]?.push(null);
        return;
      }
      ranks[gi]?.push(
        Math.min(
          countAtLeast(gSorted, truth) +
            countAtLeast(sSorted, truth) +
            countAtLeast(tSorted, truth),
          CAP,
        ),
      );
    });
    if (ci % 500 === 499)
      console.log(`${ci + 1} cases, ${((Date.now() - t0) / (ci + 1)).toFixed(1)} ms per case`);
  }
  const {
    heldOut,
    chosen,
    inSampleBest: inBest,
  } = crossValidateGrid(
    cases.map((c) => c.cohort),
    ranks,
  );
  const fmt = formatTopK;
  const subsets = subsetsOf(kind, [
    [
      '  of which with a similar-titles profile (least similarity ' +
        String(Math.min(...MIN)) +
        ')',
      (i) => kind[i] === 'title',
    ],
    ['  of which with no profile', (i) => kind[i] === 'none'],
  ]);
  console.log(chosen.map((c) => `fold ${c.fold}: ${JSON.stringify(GRIDX[c.point])}`).join('; '));
  console.log(
    `in-sample best: ${JSON.stringify(GRIDX[inBest])}; engine default ${JSON.stringify(DEFAULT_BORROWED_OPTIONS)} (the phenotype-only ranking does not list 'similar-titles' profiles)`,
  );
  for (const [gi, g] of GRIDX.entries())
    console.log(
      `${JSON.stringify(g)}: ${fmt(ranks[gi] ?? [], () => true)} | annotated ${fmt(ranks[gi] ?? [], (i) => kind[i] === 'annotated')} | title ${fmt(ranks[gi] ?? [], (i) => kind[i] === 'title')}`,
    );
  console.log('| configuration | subset | cases | top-1 | top-3 | top-10 | top-100 |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, sel] of subsets) {
    console.log(
      `| series only (no similar-titles profiles) | ${name} | ${fmt(ranks[0] ?? [], sel)} |`,
    );
    console.log(`| in-sample best | ${name} | ${fmt(ranks[inBest] ?? [], sel)} |`);
    console.log(`| held out (chosen on the other folds) | ${name} | ${fmt(heldOut, sel)} |`);
  }
}

await (process.argv.includes('--titles') ? mainTitles() : main());

