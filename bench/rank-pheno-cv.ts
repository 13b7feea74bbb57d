/**
 * Cohort-grouped cross-validation of additive disease priors in the phenotype-only disease
 * ranking (issue 17 part a), plus a failure analysis of the annotated cases ranked outside the top 10.
 *
 *   nice node --import tsx bench/rank-pheno-cv.ts [--sample N] [--variants 'noMatchLr=0.1;partialPenalty=0.2,specificPenalty=0.5'] [--save F.json]
 *   nice node --import tsx bench/rank-pheno-cv.ts [--priors 0,0] --cv F1.json F2.json ...   (--cv last)
 *
 * Scoring-option variants (`--variants`, ';'-separated, each a ','-separated list of
 * DEFAULT_SCORING_OPTIONS overrides; the shipped options are always scored first) are each a
 * full scoring pass (`--no-shipped`: not the shipped options); `--save` writes every grid point's ranks, and `--cv` cross-validates over
 * the union of saved files (same cases, same order).
 * Every dev case is scored once with the engine's own functions (scoreDiseases + groupScores for
 * the annotated disease groups, borrowedScores + capBorrowed for the diseases known only by name, as
 * rankPhenotype does). Candidate priors, added to each annotated disease's log-LR before the
 * Mondo-group maximum:
 *   - annotations: a * ln(number of the disease's annotated terms)
 *   - sex: ln-prior b for an X-linked recessive disease (no other mode of inheritance) in a female case.
 * The diagnosis is ranked (pessimistic ties, as bench:rank) under each grid point; each of 5 folds
 * (sha256(cohort) mod 5, bench/lib/rank-cv.ts) is ranked with the point that scores best
 * (top-1 + 0.5 top-10 + 0.1 top-100) on the other four.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { DEFAULT_MODEL_OPTIONS, PhenotypeModel, getPhenotypeModel, loadHpoKb, resolveQuery, scoreDiseases, DEFAULT_SCORING_OPTIONS, type PhenotypeModelOptions, type PhenotypeScoringOptions } from '../packages/engine/src/index.ts';
import { borrowedScores, getDiseaseGroups } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { getBorrowedProfiles } from '../packages/engine/src/phenotype/series.ts';
import { arg, crossValidateGrid, diagnosisRank, diagnosisTargets, formatTopK, kbDir, loadDevCases } from './lib/pheno-cv.ts';

const ANN = [-0.2, 0, 0.1, 0.2];
const SEX = [0, -1];
interface Point {
  variant: string;
  ann: number;
  sex: number;
}
interface Saved {
  cohorts: string[];
  annotated: boolean[];
  points: { point: Point; ranks: (number | null)[] }[];
}
const CAP = 101;
const XLR = 'HP:0001419';
const OTHER_MODES = new Set(['HP:0000006', 'HP:0000007', 'HP:0001423', 'HP:0001450', 'HP:0001427', 'HP:0010982', 'HP:0003745']);

function parseVariant(spec: string): { name: string; options: PhenotypeScoringOptions } {
  const options: PhenotypeScoringOptions = { ...DEFAULT_SCORING_OPTIONS };
  for (const kv of spec.split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    if (!k || v === undefined || !(k in options) || typeof options[k as keyof PhenotypeScoringOptions] !== 'number' || !Number.isFinite(Number(v)))
      throw new Error(`--variants: '${kv}' is not <numeric scoring option>=<number>`);
    (options as unknown as Record<string, number>)[k] = Number(v);
  }
  return { name: spec || 'shipped', options };
}

/** `--model defaultFrequency=0.3,priorCount=2,propagation=noisy-or`: DEFAULT_MODEL_OPTIONS overrides. */
function parseModel(spec: string): PhenotypeModelOptions {
  const o: PhenotypeModelOptions = { ...DEFAULT_MODEL_OPTIONS };
  for (const kv of spec.split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    if (k === 'propagation' && (v === 'max' || v === 'noisy-or')) o.propagation = v;
    else if ((k === 'defaultFrequency' || k === 'priorCount') && Number.isFinite(Number(v))) o[k] = Number(v);
    else throw new Error(`--model: '${kv}' is not defaultFrequency=<number>, priorCount=<number> or propagation=max|noisy-or`);
  }
  return o;
}

async function score(): Promise<Saved> {
  const cases = loadDevCases();
  const variants = [...(process.argv.includes('--no-shipped') ? [] : ['']), ...(arg('--variants') ?? '').split(';').filter(Boolean)].map(parseVariant);
  const kb = await loadHpoKb(kbDir);
  const modelSpec = arg('--model');
  const model = modelSpec ? new PhenotypeModel(kb, parseModel(modelSpec)) : getPhenotypeModel(kb);
  const tag = modelSpec ? `${modelSpec} ` : '';
  const groups = getDiseaseGroups(model);
  const G = groups.members.length;
  const { profiles } = getBorrowedProfiles(model);
  const targets = diagnosisTargets(kb, model);
  const D = model.diseases.length;
  const lnAnn = Float64Array.from(model.diseases, (d) => Math.log(Math.max(1, d.annotations.length)));
  const xlrOnly = Uint8Array.from(model.diseases, (d) => (d.inheritance.includes(XLR) && !d.inheritance.some((m) => OTHER_MODES.has(m)) ? 1 : 0));
  console.log(`${cases.length} cases; ${D} diseases in ${G} groups; ${profiles.length} borrowed profiles; ${xlrOnly.reduce((s, x) => s + x, 0)} X-linked recessive only; variants ${variants.map((v) => v.name).join(' | ')}; load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const grid: Point[] = variants.flatMap((v) => ANN.flatMap((a) => SEX.map((s) => ({ variant: tag + v.name, ann: a, sex: s }))));
  const ranks: (number | null)[][] = grid.map(() => []);
  const annotated: boolean[] = [];
  const failures: { truthAnn: number; topAnn: number; sameGene: boolean; tiedAtTop: number; rank: number }[] = [];
  let femaleXlr = 0;
  let maleXlr = 0;
  const adj = new Float64Array(D);
  const gScore = new Float64Array(G);
  const t0 = Date.now();
  for (const c of cases) {
    const { groups: truthGroups, profiles: truthProfiles } = targets(c.disease_ids);
    const isAnnotated = c.disease_ids.some((id) => kb.diseaseById.has(id));
    annotated.push(isAnnotated);
    const female = c.sex === 'FEMALE';
    for (const g of truthGroups)
      for (const d of groups.members[g] ?? []) {
        if (xlrOnly[d] && female) femaleXlr++;
        if (xlrOnly[d] && c.sex === 'MALE') maleXlr++;
      }
    let gi = 0;
    for (const v of variants) {
      const q = resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }, v.options);
      const ln = scoreDiseases(model, q, v.options);
      const raw = borrowedScores(model, q, v.options);
      for (const a of ANN)
        for (const sx of SEX) {
          const out = ranks[gi++] as (number | null)[];
          for (let d = 0; d < D; d++) adj[d] = (ln[d] ?? 0) + a * (lnAnn[d] ?? 0) + (female && xlrOnly[d] ? sx : 0);
          // As rankPhenotype: each borrowed profile capped below its best series member.
          const found = diagnosisRank(model, groups.groupOf, adj, raw, gScore, truthGroups, truthProfiles);
          if (found === null) {
            out.push(null);
            continue;
          }
          const { rank: r, truth } = found;
          out.push(Math.min(r, CAP));
          if (!modelSpec && v.name === 'shipped' && a === 0 && sx === 0 && isAnnotated && r > 10) {
            let top = -1;
            for (let g = 0; g < G; g++) if (!truthGroups.has(g) && (top < 0 || (gScore[g] ?? -Infinity) > (gScore[top] ?? -Infinity))) top = g;
            const truthGenes = new Set<string>();
            let truthAnn = 0;
            for (const g of truthGroups)
              for (const d of groups.members[g] ?? []) {
                model.diseases[d]?.genes.forEach((x) => truthGenes.add(x));
                truthAnn = Math.max(truthAnn, model.diseases[d]?.annotations.length ?? 0);
              }
            const topAnn = Math.max(...(groups.members[top] ?? []).map((d) => model.diseases[d]?.annotations.length ?? 0));
            const sameGene = (groups.members[top] ?? []).some((d) => (model.diseases[d]?.genes ?? []).some((x) => truthGenes.has(x)));
            let tied = 0;
            for (let g = 0; g < G; g++) if (!truthGroups.has(g) && gScore[g] === truth) tied++;
            failures.push({ truthAnn, topAnn, sameGene, tiedAtTop: tied, rank: r });
          }
        }
    }
  }
  console.log(`scored in ${((Date.now() - t0) / 1000).toFixed(1)} s; diagnoses X-linked recessive only: ${femaleXlr} in female cases, ${maleXlr} in male cases; load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const n = failures.length;
  const med = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  console.log(
    `failure analysis (shipped): ${n} annotated cases outside the top 10; the first other disease has more annotations than the diagnosis in ${failures.filter((f) => f.topAnn > f.truthAnn).length} (median ${med(failures.map((f) => f.topAnn))} vs ${med(failures.map((f) => f.truthAnn))}); shares a gene with the diagnosis in ${failures.filter((f) => f.sameGene).length}; diagnosis tied with other diseases in ${failures.filter((f) => f.tiedAtTop > 0).length}; rank > 100 in ${failures.filter((f) => f.rank > 100).length}`,
  );
  return { cohorts: cases.map((c) => c.cohort), annotated, points: grid.map((point, i) => ({ point, ranks: ranks[i] ?? [] })) };
}

function crossValidate(saved: Saved): void {
  const { cohorts, annotated, points } = saved;
  const { heldOut, chosen, inSampleBest: inBest } = crossValidateGrid(
    cohorts,
    points.map((p) => p.ranks),
  );
  const name = (gi: number): string => `${points[gi]?.point.variant}, annotations ${points[gi]?.point.ann}, sex ${points[gi]?.point.sex}`;
  const base = points.findIndex((p) => p.point.variant === 'shipped' && p.point.ann === 0 && p.point.sex === 0);
  console.log(chosen.map((c) => `fold ${c.fold} (${c.cases} cases): ${name(c.point)}`).join('; '));
  console.log(`in-sample best: ${name(inBest)}`);
  console.log('| configuration | subset | cases | top-1 | top-3 | top-10 | top-100 |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [label, sel] of [
    ['all', () => true],
    ['disease annotated', (i: number) => annotated[i] === true],
    ['disease not annotated', (i: number) => annotated[i] === false],
  ] as [string, (i: number) => boolean][]) {
    console.log(`| shipped | ${label} | ${formatTopK(points[base]?.ranks ?? [], sel)} |`);
    console.log(`| in-sample best (${name(inBest)}) | ${label} | ${formatTopK(points[inBest]?.ranks ?? [], sel)} |`);
    console.log(`| held out | ${label} | ${formatTopK(heldOut, sel)} |`);
  }
  for (const [gi, p] of points.entries()) if (p.point.sex === 0 || p.point.sex === -1) console.log(`${name(gi)}: ${formatTopK(p.ranks, () => true)}`);
}

async function main(): Promise<void> {
  const cvAt = process.argv.indexOf('--cv');
  if (cvAt >= 0) {
    const files = process.argv.slice(cvAt + 1);
    const sets = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Saved);
    const first = sets[0];
    if (!first) throw new Error('--cv: no saved rank files given');
    for (const [i, s] of sets.entries())
      if (s.cohorts.length !== first.cohorts.length || s.cohorts.some((c, j) => c !== first.cohorts[j])) throw new Error(`--cv: ${files[i]} holds other cases than ${files[0]}`);
    const seen = new Set<string>();
    // --priors a,s: only the grid points with annotation prior a and sex prior s.
    const only = arg('--priors')?.split(',').map(Number);
    const points = sets.flatMap((s) => s.points).filter((p) => {
      if (only && (p.point.ann !== only[0] || p.point.sex !== only[1])) return false;
      const key = JSON.stringify(p.point);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    crossValidate({ cohorts: first.cohorts, annotated: first.annotated, points });
    return;
  }
  const saved = await score();
  const out = arg('--save');
  if (out) writeFileSync(out, JSON.stringify(saved));
  crossValidate(saved);
}

await main();
