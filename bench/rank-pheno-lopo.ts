/**
 * Leave-own-publication-out check of the phenotype-only disease ranking (issue 17 part a;
 * analysis, not a product benchmark; bench:rank reports the shipped LOPO rows through the same
 * bench/lib/lopo.ts, this script adds variants, the grouped CV over them and the term analysis). The 2025-05-06 phenotype.hpoa holds n/m tallies curated from
 * the very phenopacket-store cohorts the dev split is drawn from, so a dev case's own record is
 * counted in its diagnosis' annotations. Here the diagnosis' annotations are rebuilt from the hpoa
 * rows whose reference is NOT one of the case's publications (`pmids`), every other disease kept
 * as shipped, and the diagnosis is ranked as bench:rank does (engine scoreDiseases / scoreWithPostings,
 * Mondo groups, capped borrowed profiles, pessimistic ties). Also measures the "checked feature"
 * credit of excluded terms (session 11, not shipped): w * IC(t) for an excluded term t a disease
 * shows with P < 0.7, with and without the case's own publication.
 *
 *   nice node --import tsx bench/rank-pheno-lopo.ts [--sample N] [--check] [--no-checked] [--variants 'partialPenalty=0.1;defaultFrequency=0.2;union=1;checked=0.5']
 *
 * Variants: DEFAULT_SCORING_OPTIONS overrides, model options (defaultFrequency, priorCount: a new
 * PhenotypeModel), union=1 (Mondo-group union profiles), checked=w (the checked-feature credit); the
 * shipped options and checked=0.5 (unless --no-checked) are always measured. The grouped 5-fold CV
 * chooses among the variants on the own-publication-left-out ranks.
 */
import { loadavg } from 'node:os';
import { DEFAULT_MODEL_OPTIONS, PhenotypeModel, type PhenotypeModelOptions, type PhenotypeScoringOptions, getPhenotypeModel, loadHpoKb, resolveQuery, scoreDiseases, DEFAULT_SCORING_OPTIONS as O } from '../packages/engine/src/index.ts';
import { borrowedScores, capBorrowed, getDiseaseGroups } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { countAtLeast, crossValidateGrid, formatTopK, kbDir, loadDevCases } from './lib/pheno-cv.ts';
import { diagnosisMembers, loadHpoaRows, profilePostings, rebuildDisease, scoreRebuilt, type RebuiltDisease } from './lib/lopo.ts';

const sources = process.env.RARELENS_SOURCES ?? '../shared/data';
const cases = loadDevCases() as (ReturnType<typeof loadDevCases>[number] & { pmids?: string[] })[];
const kb = await loadHpoKb(kbDir);
const model = getPhenotypeModel(kb);
const groups = getDiseaseGroups(model);
const G = groups.members.length;
const D = model.diseases.length;

const rowsOf = loadHpoaRows(kb, sources);

/** Disease d rebuilt from its hpoa rows whose references are not in `drop` (bench/lib/lopo.ts). */
const rebuild = (d: number, drop: Set<string>): RebuiltDisease => rebuildDisease(rowsOf.get(model.diseases[d]?.id ?? ''), drop);

const CHECKED_MAX = Math.fround(0.7);
/**
 * `union=1`: every disease of a Mondo group is scored on the union of its group's annotations (max
 * P per term after propagation) instead of the group taking the best of its members' separate scores.
 */
let unionModel: PhenotypeModel | undefined;
const getUnionModel = (): PhenotypeModel => {
  if (!unionModel) {
    const byGroup = groups.members.map((ms) => ms.flatMap((d) => model.diseases[d]?.annotations ?? []));
    unionModel = new PhenotypeModel({ ...kb, diseases: kb.diseases.map((d, i) => ({ ...d, annotations: byGroup[groups.groupOf[i] ?? 0] ?? [] })) });
  }
  return unionModel;
};
/** `--variants 'partialPenalty=0.1;checked=0.5'`: DEFAULT_SCORING_OPTIONS overrides; `checked=w` adds the checked-feature credit w * IC(t). */
const specs = ['', ...(process.argv.includes('--no-checked') ? [] : ['checked=0.5']), ...(process.argv.includes('--variants') ? (process.argv[process.argv.indexOf('--variants') + 1] ?? '').split(';').filter(Boolean) : [])];
const parsed = specs.map((spec) => {
  const o: PhenotypeScoringOptions = { ...O };
  let checked = 0;
  let union = false;
  let modelOptions: PhenotypeModelOptions | undefined;
  for (const kv of spec.split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    if (k === 'checked') checked = Number(v);
    else if (k === 'union') union = v === '1';
    else if (k === 'defaultFrequency' || k === 'priorCount') modelOptions = { ...(modelOptions ?? DEFAULT_MODEL_OPTIONS), [k]: Number(v) };
    else if (k && k in o && Number.isFinite(Number(v))) (o as unknown as Record<string, number>)[k] = Number(v);
    else throw new Error(`--variants: '${kv}' is not <numeric scoring option>=<number> or checked=<number>`);
  }
  if (union && modelOptions) throw new Error('--variants: union=1 with model options is not supported');
  return { name: spec || 'shipped', o, checked, m: union ? getUnionModel() : modelOptions ? new PhenotypeModel(kb, modelOptions) : model };
});
const variants = parsed.flatMap((p) => [p.name, `${p.name}, own publication left out`]);
const ranks: (number | null)[][] = variants.map(() => []);
const sel: boolean[] = [];
let own = 0;
const termKinds = { full: [0, 0, 0], lopo: [0, 0, 0] };
const left: boolean[] = [];
let mismatch = 0;
let checked = 0;
const gScore = new Float64Array(G);
const credit = new Float64Array(D);
for (const c of cases) {
  const pm = new Set(c.pmids ?? []);
  const truthD = c.disease_ids.map((id) => model.diseaseIndex.get(id)).filter((d): d is number => d !== undefined);
  sel.push(truthD.length > 0);
  if (!truthD.length) { for (const r of ranks) r.push(null); left.push(false); continue; }
  let anyDropped = false;
  // every member of the diagnosis' Mondo groups (an ORPHA twin may cite the publication too)
  const truthMembers = diagnosisMembers(model, c.disease_ids);
  const rebuilt = truthMembers.map((d) => {
    const rb = rebuild(d, pm);
    if (rb.dropped) anyDropped = true;
    return { d, rb, p: profilePostings(model, rb.annotations).p };
  });
  // union variant: the diagnosis' whole group, each member rebuilt without the case's publication
  const rebuiltUnion = truthMembers.map((d) => ({ d, rb: { ...rebuild(d, pm), annotations: (groups.members[groups.groupOf[d] ?? 0] ?? []).flatMap((m) => rebuild(m, pm).annotations) } }));
  if (anyDropped) own++;
  // How the diagnosis (its best group member) explains the present terms, with and without the own publication.
  {
    const qq = resolveQuery(model, { present: c.hpo_present, excluded: c.hpo_excluded }, O);
    const kinds = (prob: (t: number) => number): [number, number, number] => {
      let shown = 0;
      let partial = 0;
      for (const t of qq.present) {
        if (prob(t) > 0) shown++;
        else if ((model.ancestors[t] ?? []).some((a) => !model.isTopTerm[a] && prob(a) > 0 && (prob(a) * O.partialPenalty) / (model.background[a] ?? 1) > O.noMatchLr)) partial++;
      }
      return [shown, partial, qq.present.length - shown - partial];
    };
    const best = (xs: [number, number, number][]): [number, number, number] => xs.reduce((a, b) => (b[0] + b[1] > a[0] + a[1] ? b : a), [0, 0, qq.present.length]);
    const full = best(truthMembers.map((d) => kinds((t) => model.probability(d, t))));
    const lo = best(rebuilt.map((x) => kinds((t) => x.p.get(t) ?? 0)));
    for (let i = 0; i < 3; i++) {
      termKinds.full[i] = (termKinds.full[i] ?? 0) + (full[i] ?? 0);
      termKinds.lopo[i] = (termKinds.lopo[i] ?? 0) + (lo[i] ?? 0);
    }
  }
  left.push(rebuilt.some((x) => x.rb.annotations.length > 0));
  parsed.forEach((pv, pi) => {
    const pm2 = pv.m;
    const q = resolveQuery(pm2, { present: c.hpo_present, excluded: c.hpo_excluded }, pv.o);
    const ln = scoreDiseases(pm2, q, pv.o);
    const raw = borrowedScores(pm2, q, pv.o);
    credit.fill(0);
    if (pv.checked)
      for (const t of q.excluded) {
        const post = pm2.postings[t];
        if (post) for (let k = 0; k < post.disease.length; k++) if ((post.prob[k] ?? 0) < CHECKED_MAX) credit[post.disease[k] ?? 0] = (credit[post.disease[k] ?? 0] ?? 0) + pv.checked * (pm2.ic[t] ?? 0);
      }
    // the diagnosis rebuilt without the case's own publication
    const lopo = new Map<number, number>();
    const profiles = pm2 === unionModel ? rebuiltUnion : rebuilt;
    for (const { d, rb } of profiles) {
      const { ln: s, p } = scoreRebuilt(pm2, rb, q, pv.o, pm2.options);
      let cr = 0;
      for (const t of q.excluded) {
        const f = p.get(t) ?? 0;
        if (f > 0 && f < CHECKED_MAX) cr += pv.checked * (pm2.ic[t] ?? 0);
      }
      lopo.set(d, rb.annotations.length ? s + cr : -Infinity);
      if (pi === 0 && process.argv.includes('--check')) {
        const fs = scoreRebuilt(model, rebuild(d, new Set()), q, O).ln;
        if (Math.abs(fs - (ln[d] ?? NaN)) > 1e-6) mismatch++;
        checked++;
      }
    }
    for (const leave of [false, true]) {
      gScore.fill(-Infinity);
      for (let d = 0; d < D; d++) {
        const l = leave ? lopo.get(d) : undefined;
        const sc = l ?? (ln[d] ?? 0) + (credit[d] ?? 0);
        const g = groups.groupOf[d] ?? 0;
        if (sc > (gScore[g] ?? -Infinity)) gScore[g] = sc;
      }
      const borrowed = capBorrowed(pm2, gScore, raw).score;
      const bs = Float64Array.from(borrowed).sort();
      let truth = -Infinity;
      for (const d of truthD) truth = Math.max(truth, gScore[groups.groupOf[d] ?? 0] ?? -Infinity);
      let r = countAtLeast(bs, truth);
      for (let g = 0; g < G; g++) if ((gScore[g] ?? -Infinity) >= truth) r++;
      ranks[2 * pi + (leave ? 1 : 0)]?.push(Math.min(r, 101));
    }
  });
}
console.log(`${cases.length} dev cases, ${sel.filter(Boolean).length} with an annotated diagnosis; ${own} of them have hpoa rows citing the case's own publication; load ${loadavg()[0]?.toFixed(1)}`);
if (process.argv.includes('--check')) console.log(`check: the diagnosis rebuilt from every hpoa row scores as the KB's in ${checked - mismatch} of ${checked}`);
const kindLine = (k: number[]): string => { const n = k.reduce((a, b) => a + b, 0); return k.map((x) => `${((100 * x) / Math.max(1, n)).toFixed(1)} %`).join(' / '); };
console.log(`present terms of the annotated cases shown (exactly or by a descendant) / matched through an ancestor above noMatchLr / unexplained by the diagnosis: with its own publication ${kindLine(termKinds.full)}; without ${kindLine(termKinds.lopo)}`);
console.log('| variant | cases | top-1 | top-3 | top-10 | top-100 |');
console.log('| --- | --- | --- | --- | --- | --- |');
variants.forEach((v, vi) => console.log(`| ${v} | ${formatTopK(ranks[vi] ?? [], (i) => sel[i] === true)} |`));
console.log('Only the cases whose diagnosis keeps annotations from other publications:');
variants.forEach((v, vi) => console.log(`| ${v} | ${formatTopK(ranks[vi] ?? [], (i) => left[i] === true)} |`));
const lopoIdx = variants.map((_, i) => i).filter((i) => i % 2 === 1);
const cohorts = cases.map((c) => c.cohort);
const cv = crossValidateGrid(cohorts, lopoIdx.map((i) => (ranks[i] ?? []).map((r, j) => (sel[j] ? r : null))));
console.log(`grouped CV on the own-publication-left-out ranks: folds chose ${cv.chosen.map((x) => variants[lopoIdx[x.point] ?? 0]).join(' | ')}; held out ${formatTopK(cv.heldOut, (i) => sel[i] === true)}`);
