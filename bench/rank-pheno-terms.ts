/**
 * Analysis (session 11, not shipped): transforms of each present term's log-LR, measured in one
 * scoring pass with the shipped options, the best-matching ancestor kept as shipped (approximate
 * for the transforms that would change it): cap of a term's log-LR at v; +v * (-ln background(t))
 * per matched term ("rare"); P^v instead of P ("gamma"); background(c)^v ("beta"). The borrowed
 * profiles keep the shipped arithmetic. Grouped 5-fold CV over the grid.
 *
 *   nice node --import tsx bench/rank-pheno-terms.ts [--sample N]
 */
import { loadavg } from 'node:os';
import { getPhenotypeModel, loadHpoKb, resolveQuery, scoreDiseases, DEFAULT_SCORING_OPTIONS as O } from '../packages/engine/src/index.ts';
import { borrowedScores, getDiseaseGroups } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { crossValidateGrid, diagnosisRank, diagnosisTargets, formatTopK, kbDir, loadDevCases } from './lib/pheno-cv.ts';

const cases = loadDevCases();
const kb = await loadHpoKb(kbDir);
const model = getPhenotypeModel(kb);
const groups = getDiseaseGroups(model);
const G = groups.members.length;
const D = model.diseases.length;
const targets = diagnosisTargets(kb, model);
type P = { k: string; v: number };
const grid: P[] = [{ k: 'base', v: 0 }, ...[2, 3, 4, 5].map((v) => ({ k: 'cap', v })), ...[-0.3, -0.15, 0.15, 0.3].map((v) => ({ k: 'rare', v })), ...[0.5, 0.75, 1.25].map((v) => ({ k: 'gamma', v })), ...[0.8, 0.9, 1.1].map((v) => ({ k: 'beta', v }))];
const ranks: (number | null)[][] = grid.map(() => []);
const annotated: boolean[] = [];
const best = new Float64Array(D), bestP = new Float64Array(D), bestBg = new Float64Array(D);
const acc = grid.map(() => new Float64Array(D));
const adj = new Float64Array(D);
const gScore = new Float64Array(G);
const t0 = Date.now();
for (const c of cases) {
  const { groups: tg, profiles: tp } = targets(c.disease_ids);
  annotated.push(c.disease_ids.some((id) => kb.diseaseById.has(id)));
  const q = resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }, O);
  const ln = scoreDiseases(model, q, O);
  const raw = borrowedScores(model, q, O);
  for (const a of acc) a.fill(0);
  for (const t of q.present) {
    best.fill(O.noMatchLr); bestP.fill(0); bestBg.fill(1);
    for (const cc of model.ancestors[t] ?? []) {
      if (model.isTopTerm[cc]) continue;
      const bgC = model.background[cc]!;
      const post = model.postings[cc]!;
      const f = (cc === t ? 1 : O.partialPenalty) / bgC, fd = (cc === t ? 1 : O.specificPenalty) / bgC;
      for (let k = 0; k < post.disease.length; k++) {
        const d = post.disease[k]!; const lr = post.prob[k]! * (post.direct[k] ? fd : f);
        if (lr > best[d]!) { best[d] = lr; bestP[d] = post.prob[k]!; bestBg[d] = bgC; }
      }
    }
    const z = -Math.log(model.background[t]!);
    grid.forEach((p, gi) => {
      const a = acc[gi]!;
      if (p.k === 'base') return;
      for (let d = 0; d < D; d++) {
        const matched = best[d]! > O.noMatchLr;
        const lb = Math.log(best[d]!);
        if (p.k === 'cap') { if (lb > p.v) a[d]! += p.v - lb; }
        else if (p.k === 'rare') { if (matched) a[d]! += p.v * z; }
        else if (p.k === 'gamma') { if (matched) a[d]! += (p.v - 1) * Math.log(bestP[d]!); }
        else if (p.k === 'beta') { if (matched) a[d]! += (1 - p.v) * Math.log(bestBg[d]!); }
      }
    });
  }
  grid.forEach((p, gi) => {
    const a = acc[gi]!;
    for (let d = 0; d < D; d++) adj[d] = ln[d]! + a[d]!;
    const found = diagnosisRank(model, groups.groupOf, adj, raw, gScore, tg, tp);
    ranks[gi]!.push(found && Math.min(found.rank, 101));
  });
}
console.log(`${cases.length} cases in ${((Date.now() - t0) / 1000).toFixed(0)} s; load ${loadavg()[0]!.toFixed(1)}`);
const name = (i: number) => JSON.stringify(grid[i]);
for (const [i] of grid.entries()) console.log(`${name(i)} | ${formatTopK(ranks[i]!, () => true)} | ann ${formatTopK(ranks[i]!, (j) => annotated[j]!)}`);
const cv = crossValidateGrid(cases.map((c) => c.cohort), ranks);
console.log(cv.chosen.map((c) => `fold ${c.fold}: ${name(c.point)}`).join('; '));
console.log(`in-sample best ${name(cv.inSampleBest)}; held out ${formatTopK(cv.heldOut, () => true)}`);
