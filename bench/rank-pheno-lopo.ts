/**
 * Leave-own-publication-out check of the phenotype-only disease ranking (issue 17 part a;
 * analysis, not a product benchmark). The 2025-05-06 phenotype.hpoa holds n/m tallies curated from
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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { annotationProbability, DEFAULT_MODEL_OPTIONS, PhenotypeModel, type PhenotypeModelOptions, type PhenotypeScoringOptions, getPhenotypeModel, loadHpoKb, parseFrequency, resolveQuery, scoreDiseases, scoreWithPostings, DEFAULT_SCORING_OPTIONS as O, type DiseaseAnnotation, type Postings } from '../packages/engine/src/index.ts';
import { borrowedScores, capBorrowed, getDiseaseGroups } from '../packages/engine/src/phenotype/rank-phenotype.ts';
import { countAtLeast, crossValidateGrid, formatTopK, kbDir, loadDevCases } from './lib/pheno-cv.ts';

const sources = process.env.RARELENS_SOURCES ?? '../shared/data';
const cases = loadDevCases() as (ReturnType<typeof loadDevCases>[number] & { pmids?: string[] })[];
const kb = await loadHpoKb(kbDir);
const model = getPhenotypeModel(kb);
const groups = getDiseaseGroups(model);
const G = groups.members.length;
const D = model.diseases.length;
const T = model.termIds.length;

// hpoa phenotype rows per disease: term, reference, frequency, NOT
interface Row { term: string; ref: string; freq: string; not: boolean }
const rowsOf = new Map<string, Row[]>();
for (const line of gunzipSync(readFileSync(join(sources, 'hpo/phenotype.v2025-05-06.hpoa.gz'))).toString('utf8').split('\n')) {
  if (!line || line.startsWith('#') || line.startsWith('database_id')) continue;
  const f = line.split('\t');
  if (f[10] !== 'P') continue;
  const term = kb.ontology.resolve(f[3] ?? '');
  if (!term) continue;
  const list = rowsOf.get(f[0] ?? '') ?? [];
  list.push({ term, ref: f[4] ?? '', freq: (f[7] ?? '').trim(), not: f[2] === 'NOT' || parseFrequency(f[7] ?? '') === 0 });
  rowsOf.set(f[0] ?? '', list);
}

/** The disease's annotations and NOT terms from the rows whose references are not in `drop` (pooled as the KB build does). */
function rebuild(id: string, drop: Set<string>): { ann: DiseaseAnnotation[]; not: number[]; dropped: number } {
  const acc = new Map<string, { n: number; m: number; other: number | null }>();
  const not = new Set<number>();
  let dropped = 0;
  for (const r of rowsOf.get(id) ?? []) {
    if (r.ref.split(';').some((x) => drop.has(x))) { dropped++; continue; }
    if (r.not) { not.add(model.termIndex.get(r.term) ?? -1); continue; }
    const a = acc.get(r.term) ?? { n: 0, m: 0, other: null };
    const frac = /^(\d+)\/(\d+)$/.exec(r.freq);
    const f = parseFrequency(r.freq);
    if (frac) { a.n += Number(frac[1]); a.m += Number(frac[2]); } else if (f !== undefined) a.other = Math.max(a.other ?? 0, f);
    acc.set(r.term, a);
  }
  const ann = [...acc].map(([term, a]) => ({ term, frequency: a.m > 0 ? (a.other != null ? Math.max(a.n / a.m, a.other) : a.n / a.m) : a.other, frequencyText: null, onset: null, counts: a.m > 0 ? ([a.n, a.m] as [number, number]) : null }));
  return { ann, not: [...not].filter((x) => x >= 0), dropped };
}

/** Postings of one profile (index 0) from its annotations: max-propagated P, direct flags, as PhenotypeModel builds them. */
function profilePostings(ann: DiseaseAnnotation[], options: PhenotypeModelOptions = model.options): { postings: Postings[]; p: Map<number, number> } {
  const p = new Map<number, number>();
  const direct = new Set<number>();
  for (const a of ann) {
    const ti = model.termIndex.get(a.term);
    if (ti === undefined) continue;
    direct.add(ti);
    const f = Math.fround(annotationProbability(a, options));
    for (const c of model.ancestors[ti] ?? []) if (f > (p.get(c) ?? -1)) p.set(c, f);
  }
  const postings: Postings[] = new Array<Postings>(T);
  const empty: Postings = { disease: new Int32Array(0), prob: new Float32Array(0), direct: new Uint8Array(0) };
  for (let t = 0; t < T; t++) postings[t] = empty;
  for (const [c, f] of p) postings[c] = { disease: Int32Array.of(0), prob: Float32Array.of(f), direct: Uint8Array.of(direct.has(c) ? 1 : 0) };
  return { postings, p };
}

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
  const truthMembers = [...new Set(truthD.map((d) => groups.groupOf[d] ?? 0))].flatMap((g) => groups.members[g] ?? []);
  const rebuilt = truthMembers.map((d) => {
    const rb = rebuild(model.diseases[d]?.id ?? '', pm);
    if (rb.dropped) anyDropped = true;
    return { d, rb, ...profilePostings(rb.ann) };
  });
  // union variant: the diagnosis' whole group, each member rebuilt without the case's publication
  const rebuiltUnion = truthMembers.map((d) => {
    const ann = (groups.members[groups.groupOf[d] ?? 0] ?? []).flatMap((m) => rebuild(model.diseases[m]?.id ?? '', pm).ann);
    const rb = { ...rebuild(model.diseases[d]?.id ?? '', pm), ann };
    return { d, rb, ...profilePostings(ann) };
  });
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
  left.push(rebuilt.some((x) => x.rb.ann.length > 0));
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
    const profiles = pm2 === model ? rebuilt : pm2 === unionModel ? rebuiltUnion : rebuilt.map((x) => ({ ...x, ...profilePostings(x.rb.ann, pm2.options) }));
    for (const { d, rb, postings, p } of profiles) {
      const s = scoreWithPostings(pm2, postings, 1, q, pv.o, (t, best) => {
        if (rb.not.some((e) => model.isA(t, e))) best[0] = Math.min(best[0] ?? pv.o.contradictionLr, pv.o.contradictionLr);
      })[0] ?? -Infinity;
      let cr = 0;
      for (const t of q.excluded) {
        const f = p.get(t) ?? 0;
        if (f > 0 && f < CHECKED_MAX) cr += pv.checked * (pm2.ic[t] ?? 0);
      }
      lopo.set(d, rb.ann.length ? s + cr : -Infinity);
      if (pi === 0 && process.argv.includes('--check')) {
        const full = rebuild(model.diseases[d]?.id ?? '', new Set());
        const fs = scoreWithPostings(model, profilePostings(full.ann).postings, 1, q, O, (t, best) => {
          if (full.not.some((e) => model.isA(t, e))) best[0] = Math.min(best[0] ?? O.contradictionLr, O.contradictionLr);
        })[0] ?? NaN;
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
