/**
 * Analysis (session 11, not shipped): the "checked feature" credit of excluded terms — an excluded
 * term t that a disease shows with P(t | D) < 0.7 adds a * IC(t) to its log-LR — taken from all
 * annotations, from those with n/m counts (cohort tallies) only, or from those without counts only
 * (the last via a PhenotypeModel of the same KB with the counted annotations removed). One scoring
 * pass with the shipped options (excludedWeight 0 here), ranked as bench:rank ranks.
 *
 *   nice node --import tsx bench/rank-pheno-checked.ts [--sample N]
 */
import { loadavg } from 'node:os';
import { PhenotypeModel, getPhenotypeModel, loadHpoKb, resolveQuery, scoreDiseases, DEFAULT_SCORING_OPTIONS } from '../packages/engine/src/index.ts';
import { borrowedScores, getDiseaseGroups } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { diagnosisRank, diagnosisTargets, formatTopK, kbDir, loadDevCases } from './lib/pheno-cv.ts';

const cases = loadDevCases();
const kb = await loadHpoKb(kbDir);
const model = getPhenotypeModel(kb);
// the same diseases, annotations without n/m counts only (OMIM/Orphanet-style, not cohort tallies)
const nc = new PhenotypeModel({ ...kb, diseases: kb.diseases.map((d) => ({ ...d, annotations: d.annotations.filter((a) => !a.counts) })) });
const groups = getDiseaseGroups(model);
const G = groups.members.length;
const D = model.diseases.length;
const targets = diagnosisTargets(kb, model);
const grid = [{ src: 'none', a: 0 }, { src: 'all', a: 0.5 }, { src: 'nocounts', a: 0.5 }, { src: 'counts', a: 0.5 }, { src: 'nocounts', a: 0.33 }, { src: 'nocounts', a: 0.67 }];
const ranks: (number | null)[][] = grid.map(() => []);
const annotated: boolean[] = [];
const opts = DEFAULT_SCORING_OPTIONS;
const all = new Float64Array(D), noc = new Float64Array(D);
const adj = new Float64Array(D);
const gScore = new Float64Array(G);
const st = { shown: 0, shownNc: 0, excl: 0 };
for (const c of cases) {
  const { groups: tg, profiles: tp } = targets(c.disease_ids);
  annotated.push(c.disease_ids.some((id) => kb.diseaseById.has(id)));
  const q = resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }, opts);
  const ln = scoreDiseases(model, q, opts);
  const raw = borrowedScores(model, q, opts);
  all.fill(0); noc.fill(0);
  for (const t of q.excluded) {
    for (const [m, arr] of [[model, all], [nc, noc]] as const) {
      const post = m.postings[t];
      if (!post) continue;
      for (let k = 0; k < post.disease.length; k++) if (post.prob[k]! < Math.fround(0.7)) arr[post.disease[k]!]! += model.ic[t]!;
    }
  }
  for (const g of tg) { const d = groups.members[g]![0]!; for (const t of q.excluded) { st.excl++; if (model.probability(d, t) > 0) st.shown++; if (nc.probability(d, t) > 0) st.shownNc++; } break; }
  grid.forEach(({ src, a }, gi) => {
    for (let d = 0; d < D; d++) adj[d] = ln[d]! + a * (src === 'all' ? all[d]! : src === 'nocounts' ? noc[d]! : src === 'counts' ? all[d]! - noc[d]! : 0);
    const found = diagnosisRank(model, groups.groupOf, adj, raw, gScore, tg, tp);
    ranks[gi]!.push(found && Math.min(found.rank, 101));
  });
}
console.log(`${cases.length} cases; load ${loadavg()[0]!.toFixed(1)}; excluded terms of the diagnosis' first member shown by it: ${st.shown}/${st.excl}, by its annotations without n/m counts: ${st.shownNc}`);
for (const [i, p] of grid.entries()) console.log(`${JSON.stringify(p)} | ${formatTopK(ranks[i]!, () => true)} | ann ${formatTopK(ranks[i]!, (j) => annotated[j]!)}`);
