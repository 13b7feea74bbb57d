/**
 * Cohort-grouped cross-validation of the onset likelihood ratio (engine phenotype/onset.ts; issue 17
 * item 3) in the phenotype-only disease ranking, in-sample and leave-own-publication-out (LOPO).
 *
 *   nice node --import tsx bench/rank-onset-cv.ts [--sample N] [--grid] [--check] [--defaults]
 *
 * Each dev case's onset term (raw phenopacket, bench/lib/case-onset.ts; loadDevCases) joins its present
 * terms, the product's input. Every case is scored once by the engine (resolveQuery + scoreDiseases with the
 * onset weight 0, borrowedScores); each grid point (onsetFrequencyPower x onsetNeighbour x onsetSmoothing x onsetWeight,
 * and "off") adds the engine's onset log-LR (addOnsetLn) and ranks the diagnosis as rankPhenotype
 * lists it (Mondo groups, capped borrowed profiles, pessimistic ties). Under LOPO the diagnosis'
 * members are rebuilt from the phenotype.hpoa rows not citing the case's publications, their onset
 * rows (aspect C) included (bench/lib/lopo.ts). Each of 5 folds (sha256(cohort) mod 5) is ranked
 * with the grid point that scores best (top-1 + 0.5 top-10 + 0.1 top-100) on the other four.
 * `--check`: the chosen in-sample point scored through scoreDiseases itself must give the same ranks.
 */
import { loadavg } from 'node:os';
import { getPhenotypeModel, loadHpoKb, resolveQuery, scoreDiseases, DEFAULT_SCORING_OPTIONS, type PhenotypeScoringOptions } from '../packages/engine/src/index.ts';
import { addOnsetLn, getOnsetTable, onsetDistribution, onsetLr } from '../packages/engine/src/phenotype/onset.ts';
import { borrowedScores, getDiseaseGroups } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { diagnosisMembers, loadHpoaRows, rebuildDisease, scoreRebuilt } from './lib/lopo.ts';
import { crossValidateGrid, diagnosisRank, diagnosisTargets, formatTopK, kbDir, loadDevCases } from './lib/pheno-cv.ts';

/**
 * The grid (session 17: a first pass over neighbour 0-0.75 and smoothing 0.02-0.2 chose within these;
 * a cap of 1 on the LR, onsetMaxLr, lost in-sample and gained nothing left out, `--max-lr` puts it back).
 * Session 18: the exponent of the onset terms' frequencies (onsetFrequencyPower; 0 = session 17).
 */
const NEIGHBOUR = [0, 0.25, 0.5];
const SMOOTHING = [0.02, 0.05];
const WEIGHT = [0.5, 1];
const MAX_LR = process.argv.includes('--max-lr') ? [Infinity, 1] : [Infinity];
const FREQ_POWER = [0, 0.5, 1];
const CAP = 101;

const sources = process.env.RARELENS_SOURCES ?? '../shared/data';
const cases = loadDevCases() as (ReturnType<typeof loadDevCases>[number] & { pmids?: string[]; source_path?: string })[];
const kb = await loadHpoKb(kbDir);
const model = getPhenotypeModel(kb);
const groups = getDiseaseGroups(model);
const targets = diagnosisTargets(kb, model);
const rowsOf = loadHpoaRows(kb, sources);
const D = model.diseases.length;
const off: PhenotypeScoringOptions = { ...DEFAULT_SCORING_OPTIONS, onsetWeight: 0 };
// --defaults: only off and the engine's defaults (a quick look at the rows, no grid).
const grid: PhenotypeScoringOptions[] = process.argv.includes('--defaults') ? [off, DEFAULT_SCORING_OPTIONS] : [off, ...FREQ_POWER.flatMap((f) => MAX_LR.flatMap((m) => NEIGHBOUR.flatMap((n) => SMOOTHING.flatMap((s) => WEIGHT.map((w) => ({ ...DEFAULT_SCORING_OPTIONS, onsetNeighbour: n, onsetSmoothing: s, onsetWeight: w, onsetMaxLr: m, onsetFrequencyPower: f }))))))];
const name = (o: PhenotypeScoringOptions): string => (o.onsetWeight === 0 ? 'off' : `neighbour ${o.onsetNeighbour}, smoothing ${o.onsetSmoothing}, weight ${o.onsetWeight}, frequency power ${o.onsetFrequencyPower}${Number.isFinite(o.onsetMaxLr) ? `, max LR ${o.onsetMaxLr}` : ''}`);
console.log(`${cases.length} cases, ${cases.filter((c) => c.hpo_present.some((t) => kb.ontology.isA(t, 'HP:0003674'))).length} with an onset term; ${D} diseases, ${model.diseases.filter((d) => d.onset.length).length} with onset annotations; ${grid.length} grid points; load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);

const inRanks: (number | null)[][] = grid.map(() => []);
const lopoRanks: (number | null)[][] = grid.map(() => []);
const hasOnset: boolean[] = [];
const annotated: boolean[] = [];
const annotatedOnset: boolean[] = [];
/** The diagnosis keeps onset rows from other publications when its own are left out (LOPO). */
const keepsOnset: boolean[] = [];
const gScore = new Float64Array(groups.members.length);
const adj = new Float64Array(D);
const t0 = Date.now();
for (const [ci, c] of cases.entries()) {
  if (ci % 500 === 0) console.log(`case ${ci}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const q = resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }, off);
  hasOnset.push(q.onset !== null);
  const isAnnotated = c.disease_ids.some((id) => kb.diseaseById.has(id));
  annotated.push(isAnnotated);
  const base = scoreDiseases(model, q, off);
  const raw = borrowedScores(model, q, off);
  const { groups: truthGroups, profiles: truthProfiles } = targets(c.disease_ids);
  const members = diagnosisMembers(model, c.disease_ids);
  annotatedOnset.push(members.some((d) => (model.diseases[d]?.onset.length ?? 0) > 0));
  const drop = new Set(c.pmids ?? []);
  const rebuilt = members.map((d) => ({ d, rb: rebuildDisease(rowsOf.get(model.diseases[d]?.id ?? ''), drop) }));
  keepsOnset.push(rebuilt.some(({ rb }) => rb.onset.length > 0));
  const lopoBase = new Map(rebuilt.map(({ d, rb }) => [d, rb.annotations.length ? scoreRebuilt(model, rb, q, off).ln : -Infinity]));
  grid.forEach((o, gi) => {
    adj.set(base);
    if (q.onset) addOnsetLn(model, q.onset.classes, o, adj);
    const r = diagnosisRank(model, groups.groupOf, adj, raw, gScore, truthGroups, truthProfiles);
    inRanks[gi]?.push(r ? Math.min(r.rank, CAP) : null);
    // LOPO: the diagnosis' members rebuilt (phenotype and onset rows) without the case's publications.
    for (const { d, rb } of rebuilt) {
      const l = lopoBase.get(d) ?? -Infinity;
      const on = q.onset && o.onsetWeight ? Math.log(onsetLr(onsetDistribution(kb.ontology, rb.onset, o, rb.onsetFrequency), getOnsetTable(model, o).background, q.onset.classes, o.onsetWeight, o.onsetMaxLr)) : 0;
      adj[d] = l + on;
    }
    const rl = diagnosisRank(model, groups.groupOf, adj, raw, gScore, truthGroups, truthProfiles);
    lopoRanks[gi]?.push(rl && isAnnotated ? Math.min(rl.rank, CAP) : null);
  });
}
console.log(`scored in ${((Date.now() - t0) / 1000).toFixed(0)} s; load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);

const cohorts = cases.map((c) => c.cohort);
const all = (): boolean => true;
const rows: [string, (i: number) => boolean][] = [
  ['all cases', all],
  ['cases with an onset term', (i) => hasOnset[i] === true],
  ['cases with an onset term, diagnosis with onset annotations', (i) => hasOnset[i] === true && annotatedOnset[i] === true],
  ['cases with an onset term, diagnosis keeping onset annotations from other publications', (i) => hasOnset[i] === true && keepsOnset[i] === true],
  ['cases with an onset term, diagnosis with onset annotations only from the own publication', (i) => hasOnset[i] === true && annotatedOnset[i] === true && keepsOnset[i] !== true],
  ['annotated diagnoses', (i) => annotated[i] === true],
];
for (const [label, ranks] of [
  ['in-sample', inRanks],
  ['own publication left out (LOPO)', lopoRanks],
] as const) {
  const cv = crossValidateGrid(cohorts, ranks);
  console.log(`\n### ${label}\nfolds chose: ${cv.chosen.map((x) => `fold ${x.fold} (${x.cases} cases): ${name(grid[x.point] ?? off)}`).join('; ')}; in-sample best: ${name(grid[cv.inSampleBest] ?? off)}`);
  console.log('| cases | setting | n | top-1 | top-3 | top-10 | top-100 |\n| --- | --- | --- | --- | --- | --- | --- |');
  for (const [rl, sel] of rows) {
    console.log(`| ${rl} | off | ${formatTopK(ranks[0] ?? [], sel)} |`);
    console.log(`| ${rl} | in-sample best (${name(grid[cv.inSampleBest] ?? off)}) | ${formatTopK(ranks[cv.inSampleBest] ?? [], sel)} |`);
    console.log(`| ${rl} | held out | ${formatTopK(cv.heldOut, sel)} |`);
  }
  if (process.argv.includes('--grid'))
    grid.forEach((o, gi) => console.log(`| grid | ${name(o)} | ${formatTopK(ranks[gi] ?? [], all)} | onset cases ${formatTopK(ranks[gi] ?? [], (i) => hasOnset[i] === true)} |`));
}

if (process.argv.includes('--check')) {
  const cv = crossValidateGrid(cohorts, inRanks);
  const o = grid[cv.inSampleBest] ?? off;
  let same = 0;
  cases.forEach((c, i) => {
    const q = resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }, o);
    const r = diagnosisRank(model, groups.groupOf, scoreDiseases(model, q, o), borrowedScores(model, q, o), gScore, targets(c.disease_ids).groups, targets(c.disease_ids).profiles);
    if ((r ? Math.min(r.rank, CAP) : null) === inRanks[cv.inSampleBest]?.[i]) same++;
  });
  console.log(`check: scoreDiseases with ${name(o)} gives the grid's rank in ${same} of ${cases.length} cases`);
}
