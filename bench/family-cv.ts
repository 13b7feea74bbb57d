/**
 * Cross-validation of the family evidence weights (issue 13): `npm run bench:family-cv`.
 *
 * The simulated trios of bench:family (same cases, same seed, same parents) are read and
 * annotated once each; then the family analysis and the ranking (the engine's own analyseFamily
 * and rank, as analyseVcfCase runs them) are repeated for every point of a small grid of
 * FamilyWeights. Folds: the dev cases' cohorts (the causal gene), sha256(cohort) mod 5, as the
 * ranking CV. Each fold is scored with the grid point that maximises gene top-1 (then top-10) on
 * the other four: the held-out figure. Held-in: the best grid point on all cases.
 *
 * Usage: npm run bench:family-cv -- [--sample N] [--seed S]
 * Env: RARELENS_SOURCES, RARELENS_KB, RARELENS_BENCH as bench:family.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { analyseFamily, DEFAULT_FAMILY_WEIGHTS, filterCandidates, prepareVariants, rank, readAndAnnotateVcf, trioQc, type FamilyWeights } from '../packages/engine/src/index.ts';
import { arg, familyBenchPaths, openKbSession, simulatedTrios, type Pattern } from './lib/family-sim.ts';
import { ROOT as root } from './lib/inputs.ts';
import { foldOf, FOLDS } from './lib/rank-cv.ts';
import { formatMachine } from './lib/machine.ts';
import { causalGeneRank, pct } from './lib/ranks.ts';

const { sources, benchDir, kbDir, giabVcf: GIAB_VCF } = familyBenchPaths(root);

/**
 * The grid: the de novo prior (inheritedInTrio), the factor a fit on inherited variants keeps next
 * to a fit on a de novo in a trio whose parentage is confirmed (1 = no prior). The dominant
 * penetrance stays at its default, chosen by the previous run of this benchmark (0.95).
 */
const AXES: Partial<Record<keyof FamilyWeights, readonly number[]>> = {
  inheritedInTrio: [1, 0.5, 0.2, 0.1, 0.05],
};

function grid(): Partial<FamilyWeights>[] {
  let out: Partial<FamilyWeights>[] = [{}];
  for (const [key, values] of Object.entries(AXES) as [keyof FamilyWeights, readonly number[]][]) out = out.flatMap((w) => values.map((v) => ({ ...w, [key]: v })));
  return out;
}

const describe = (w: Partial<FamilyWeights>): string => (Object.keys(AXES) as (keyof FamilyWeights)[]).map((k) => `${k} ${w[k] ?? DEFAULT_FAMILY_WEIGHTS[k]}`).join(', ');

interface CaseRanks {
  id: string;
  cohort: string;
  pattern: Pattern;
  solo: number | null;
  /** Per grid point. */
  trio: (number | null)[];
}

const top = (ranks: readonly (number | null)[], k: number): number => ranks.filter((r) => r != null && r <= k).length;
const objective = (ranks: readonly (number | null)[]): number => top(ranks, 1) + 0.01 * top(ranks, 10);

async function main(): Promise<void> {
  const sample = Number(arg('--sample') ?? 150);
  const seed = Number(arg('--seed') ?? 13);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root }).toString().trim() !== '';
  const { kb, session } = await openKbSession(kbDir);
  const points = grid();
  const { chosen, eligible, step, trios } = await simulatedTrios({ sources, benchDir, giabVcf: GIAB_VCF }, sample, seed);
  const cases: CaseRanks[] = [];
  let readMs = 0;
  let rankMs = 0;
  const options = { limit: 1000, explainTop: 0 };
  try {
    for (const { k, c, sim, path, pedigree } of trios()) {
      const t0 = performance.now();
      const read = await readAndAnnotateVcf(session, path, { assembly: 'GRCh38', pedigree });
      const t1 = performance.now();
      readMs += t1 - t0;
      const family = read.family!;
      const candidates = filterCandidates(read.variants).candidates;
      const qc = trioQc(read.variants, family);
      const proband = family.members.find((m) => m.id === family.proband)!;
      const sex = sim.sex !== 'unknown' ? sim.sex : proband.sex;
      const phenotype = { hpoPresent: c.hpo_present, hpoExcluded: c.hpo_excluded, sex };
      const symbols = c.genes.map((g) => g.symbol);
      const solo = causalGeneRank(rank(prepareVariants(candidates), kb, phenotype, options).genes, symbols);
      const trio = points.map((w) => {
        const fa = analyseFamily({ family, variants: read.variants, candidates, kb, weights: w, qc });
        return causalGeneRank(rank(prepareVariants(fa.candidates), kb, phenotype, { ...options, family: fa.context }).genes, symbols);
      });
      rankMs += performance.now() - t1;
      cases.push({ id: c.id, cohort: c.cohort, pattern: sim.pattern, solo, trio });
      if ((k + 1) % 10 === 0) console.log(`  ${k + 1}/${chosen.length}: read ${(readMs / (k + 1) / 1000).toFixed(1)} s, ${points.length + 1} rankings ${(rankMs / (k + 1) / 1000).toFixed(1)} s per case`);
    }
  } finally {
    session.close();
  }

  const n = cases.length;
  const soloRanks = cases.map((c) => c.solo);
  const shippedIdx = points.findIndex((w) => (Object.keys(AXES) as (keyof FamilyWeights)[]).every((k) => (w[k] ?? DEFAULT_FAMILY_WEIGHTS[k]) === DEFAULT_FAMILY_WEIGHTS[k]));
  const ranksAt = (i: number, cs: readonly CaseRanks[] = cases): (number | null)[] => cs.map((c) => c.trio[i] ?? null);
  const best = (cs: readonly CaseRanks[]): number => {
    let bi = 0;
    for (let i = 1; i < points.length; i++) if (objective(ranksAt(i, cs)) > objective(ranksAt(bi, cs))) bi = i;
    return bi;
  };
  const heldInIdx = best(cases);
  const heldOut: (number | null)[] = new Array<number | null>(n).fill(null);
  const foldRows: string[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const train = cases.filter((c) => foldOf(c.cohort) !== f);
    const test = cases.map((c, i) => ({ c, i })).filter((x) => foldOf(x.c.cohort) === f);
    const bi = best(train);
    for (const { c, i } of test) heldOut[i] = c.trio[bi] ?? null;
    const testRanks = test.map((x) => x.c.trio[bi] ?? null);
    foldRows.push(`| ${f} | ${test.length} | ${describe(points[bi]!)} | ${pct(top(testRanks, 1), test.length)} | ${pct(top(test.map((x) => x.c.solo), 1), test.length)} |`);
  }
  const row = (name: string, ranks: readonly (number | null)[]): string => `| ${name} | ${n} | ${pct(top(ranks, 1), n)} | ${pct(top(ranks, 10), n)} | ${((100 * (top(ranks, 1) - top(soloRanks, 1))) / n).toFixed(1)} |`;
  const gridRows = points.map((w, i) => `| ${describe(w)}${i === shippedIdx ? ' (shipped before)' : ''} | ${pct(top(ranksAt(i), 1), n)} | ${pct(top(ranksAt(i), 10), n)} |`);
  const md = [
    '# Family weights: cross-validation (issue 13)',
    '',
    `Generated by \`npm run bench:family-cv -- --sample ${sample} --seed ${seed}\` on ${new Date().toISOString().slice(0, 10)} at commit ${commit}${dirty ? ' (with uncommitted changes)' : ''}. Machine: ${formatMachine()}. KB ${kbDir}: HPO ${kb.versions.hpo}, annotations ${kb.versions.annotations}.`,
    '',
    `Data: the simulated trios of bench:family (${n} dev cases, every ${step.toFixed(2)}-th of ${eligible}; seed ${seed}). Each is read and annotated once, then ranked alone and, for each of ${points.length} grid points of FamilyWeights (others at their defaults), with analyseFamily + rank (the product's path, limit 1000). Folds: sha256(cohort) mod ${FOLDS} (cohort = the causal gene); objective gene top-1 (top-10 breaks ties). Gene ranks are pessimistic.`,
    '',
    '| analysis | cases | gene top-1 | gene top-10 | top-1 gain over proband-only (points) |',
    '| --- | --- | --- | --- | --- |',
    row('proband only', soloRanks),
    row(`trio, previous defaults (${describe(points[shippedIdx] ?? {})})`, ranksAt(shippedIdx)),
    row(`trio, held-in best (${describe(points[heldInIdx]!)})`, ranksAt(heldInIdx)),
    row('trio, held-out (each fold with the point chosen on the other four)', heldOut),
    '',
    '| fold | cases | grid point chosen on the other folds | held-out trio top-1 | proband-only top-1 |',
    '| --- | --- | --- | --- | --- |',
    ...foldRows,
    '',
    '| grid point | trio top-1 | trio top-10 |',
    '| --- | --- | --- |',
    ...gridRows,
    '',
    `Speed (machine shared, under load): read + annotate ${(readMs / n / 1000).toFixed(1)} s per case; ${points.length + 1} rankings ${(rankMs / n / 1000).toFixed(1)} s per case.`,
    '',
  ];
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/family-cv.md'), md.join('\n'));
  console.log(md.join('\n'));
  if (process.env.FAMILY_CV_DUMP) writeFileSync(process.env.FAMILY_CV_DUMP, JSON.stringify({ points, cases }, null, 1));
  const changed = cases.filter((c) => c.trio[heldInIdx] !== c.trio[shippedIdx]);
  for (const c of changed) console.log(`  ${c.id} (${c.pattern}, ${c.cohort}): solo ${c.solo}, previous ${c.trio[shippedIdx]}, held-in best ${c.trio[heldInIdx]}`);
}

await main();
