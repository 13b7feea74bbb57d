/**
 * Likelihood-ratio phenotype scoring in the spirit of LIRICAL (Robinson et al. 2020).
 *
 * For every disease D and every observed patient term t:
 *   LR(t) = P(t | D) / P(t | background)
 * - t is annotated to D, or implied by one of D's annotations (D shows a descendant of t):
 *   P(t | D) is the propagated annotation frequency; background is the mean over all diseases.
 * - otherwise t is matched through its most informative ancestor c that D shows ("partial"
 *   match, e.g. the patient's term is more specific than the disease annotation):
 *   LR = partialPenalty * P(c | D) / P(c | background).
 * - no informative common ancestor: LR = noMatchLr (the feature is unexplained by D).
 * - D is annotated NOT to show t (or an ancestor of t): LR = contradictionLr.
 * For each excluded patient term t: LR = (1 - P(t | D)) / (1 - P(t | background)), floored.
 * The patient's age of onset (an HPO onset term) adds one LR against the disease's onset
 * annotations (onset.ts); none when the disease has no onset annotation.
 * The disease's likelihood ratio is the product; with a uniform pre-test probability the
 * post-test probability is LR_D / sum over diseases of LR.
 */
import { ONSET_ROOT } from '../kb/hpo-kb.ts';
import { annotationProbability, type PhenotypeModel, type Postings } from './model.ts';
import { addOnsetLn, getOnsetTable, onsetClassesOf, onsetLr, onsetProbability, patientOnset, type OnsetOptions } from './onset.ts';

export interface PhenotypeScoringOptions extends OnsetOptions {
  /** Factor applied to a match through a shared ancestor of the patient's term that the disease is not annotated with (0, 1]. */
  partialPenalty: number;
  /** Factor when the patient's term is more specific than a term the disease is annotated with (0, 1]. */
  specificPenalty: number;
  /** LR of an observed term the disease does not explain at all. */
  noMatchLr: number;
  /** LR of an observed term that the disease is annotated NOT to show. */
  contradictionLr: number;
  /** Floor of 1 - P(t | D) for an excluded term that the disease usually shows. */
  excludedFloor: number;
  /**
   * Weight of the excluded-term evidence (exponent of its LR). Excluded findings in a record
   * are strongly correlated with each other (lists of features checked together), so treating
   * them as independent overstates them.
   */
  excludedWeight: number;
  /** Drop observed terms that are ancestors of other observed terms (they carry no new information). */
  dropImpliedAncestors: boolean;
}

/**
 * partialPenalty, specificPenalty and excludedWeight: chosen by 5-fold cohort-grouped CV on the dev
 * split (bench/rank-pheno-cv.ts, every 2nd case; each fold's training folds chose 0.02 / 0.15 / 0.02
 * over 0.1 / 0.3 / 0.1 and the other tested values, 21 variants; rank-analysis.md session 9).
 * noMatchLr and contradictionLr: the same CV kept them.
 * onsetNeighbour / onsetSmoothing / onsetWeight (onset.ts): 5-fold cohort-grouped CV on the whole dev
 * split with each case's stated onset among its terms (bench/rank-onset-cv.ts, 33 grid points; every
 * fold's training folds chose 0.5 / 0.02 / 1 or a neighbour of it; held out disease top-1 45.1 ->
 * 46.1 %, own publication left out 12.2 -> 12.3 % with these constants; rank-analysis.md session 17).
 * onsetMaxLr: no cap (a cap of 1 gained less in-sample and nothing left out).
 * onsetFrequencyPower 1 (an onset term's share of the disease's onset distribution in proportion to
 * its hpoa frequency, e.g. Infantile 12/15 vs Adult 1/15): the same CV over power 0 / 0.5 / 1 x the
 * kernel grid (37 points; every fold chose power 1): held out disease top-1 46.2 % (in-sample 46.4 vs
 * 46.2 at power 0), own publication left out 12.2 vs 12.3 (neutral); rank-analysis.md session 18.
 */
export const DEFAULT_SCORING_OPTIONS: PhenotypeScoringOptions = {
  partialPenalty: 0.02,
  specificPenalty: 0.15,
  noMatchLr: 0.05,
  contradictionLr: 0.01,
  excludedFloor: 0.1,
  excludedWeight: 0.02,
  dropImpliedAncestors: true,
  onsetNeighbour: 0.5,
  onsetSmoothing: 0.02,
  onsetWeight: 1,
  onsetMaxLr: Infinity,
  onsetFrequencyPower: 1,
};

export interface PhenotypeQuery {
  present: readonly string[];
  excluded?: readonly string[];
}

/** The patient's age of onset: the onset term used and the age classes it names (onset.ts). */
export interface QueryOnset {
  term: number;
  classes: number[];
}

/** A query after id resolution: term indices, and ids that could not be used (with why). */
export interface ResolvedQuery {
  present: number[];
  excluded: number[];
  /** The patient's onset term (onset terms are listed among the present terms), or null. */
  onset: QueryOnset | null;
  ignored: { id: string; reason: string }[];
}

/**
 * Resolves alt/obsolete ids, drops unknown and non-phenotype terms, and de-duplicates. An onset
 * term among the present terms is the patient's age of onset: with several, the earliest is used
 * (onset is when the disease first shows; a more general term implied by a more specific one is
 * dropped as for findings), the others are listed as ignored with the reason. An excluded onset
 * term is not used.
 */
export function resolveQuery(model: PhenotypeModel, query: PhenotypeQuery, options: PhenotypeScoringOptions = DEFAULT_SCORING_OPTIONS): ResolvedQuery {
  const ignored: ResolvedQuery['ignored'] = [];
  const pa = model.kb.ontology.resolve('HP:0000118');
  const paIdx = pa ? (model.termIndex.get(pa) ?? -1) : -1;
  const onsetIdx = model.termIndex.get(ONSET_ROOT) ?? -1;
  const onsetIds: string[] = [];
  const take = (ids: readonly string[], isPresent: boolean): number[] => {
    const out: number[] = [];
    for (const id of ids) {
      const i = model.indexOf(id);
      if (i < 0) ignored.push({ id, reason: 'unknown HPO id' });
      else if (onsetIdx >= 0 && model.isA(i, onsetIdx)) {
        if (!isPresent) ignored.push({ id, reason: 'an excluded onset term is not used (give the onset the patient had)' });
        else onsetIds.push(model.termId(i));
      } else if (paIdx >= 0 && !model.isA(i, paIdx)) ignored.push({ id, reason: 'not a phenotypic abnormality (inheritance, course or modifier term)' });
      else if (model.isTopTerm[i]) ignored.push({ id, reason: 'too general' });
      else if (!out.includes(i)) out.push(i);
    }
    return out;
  };
  let present = take(query.present, true);
  let excluded = take(query.excluded ?? [], false);
  // The patient's onset: the rule the exports share (onset.ts patientOnset).
  const patient = patientOnset(model.kb.ontology, onsetIds);
  ignored.push(...patient.ignored);
  const onset = patient.onset ? { term: model.indexOf(patient.onset.term), classes: patient.onset.classes } : null;
  // A term both observed and excluded is contradictory input: keep it as observed only.
  excluded = excluded.filter((e) => {
    if (present.includes(e)) {
      ignored.push({ id: model.termId(e), reason: 'listed as both present and excluded; kept as present' });
      return false;
    }
    return true;
  });
  if (options.dropImpliedAncestors) {
    present = present.filter((t) => {
      const implied = present.some((o) => o !== t && model.isA(o, t));
      if (implied) ignored.push({ id: model.termId(t), reason: 'implied by a more specific observed term' });
      return !implied;
    });
    // Absence of a term implies absence of all its descendants: keep the most general.
    excluded = excluded.filter((t) => {
      const implied = excluded.some((o) => o !== t && model.isA(t, o));
      if (implied) ignored.push({ id: model.termId(t), reason: 'implied by a more general excluded term' });
      return !implied;
    });
  }
  return { present, excluded, onset, ignored };
}

/** Natural-log likelihood ratio of every disease (index-aligned with model.diseases). */
export function scoreDiseases(model: PhenotypeModel, q: ResolvedQuery, options: PhenotypeScoringOptions = DEFAULT_SCORING_OPTIONS): Float64Array {
  const total = scoreWithPostings(model, model.postings, model.diseases.length, q, options, (t, best) => applyContradictions(model, t, best, options.contradictionLr));
  if (q.onset) addOnsetLn(model, q.onset.classes, options, total);
  return total;
}

/**
 * The per-term LR arithmetic over any set of `D` phenotype profiles given as postings (term ->
 * profiles showing it, with P(term | profile)): the model's annotated diseases (`scoreDiseases`)
 * or borrowed profiles of diseases known only by name (series.ts), against the model's background.
 */
export function scoreWithPostings(
  model: PhenotypeModel,
  postings: readonly Postings[],
  D: number,
  q: ResolvedQuery,
  options: PhenotypeScoringOptions,
  contradict?: (t: number, best: Float64Array) => void,
): Float64Array {
  const total = new Float64Array(D);
  const best = new Float64Array(D);
  const lnNoMatch = Math.log(options.noMatchLr);
  for (const t of q.present) {
    best.fill(options.noMatchLr);
    for (const c of model.ancestors[t] ?? []) {
      if (model.isTopTerm[c]) continue;
      const bgC = model.background[c] ?? 1;
      const factor = (c === t ? 1 : options.partialPenalty) / bgC;
      const directFactor = (c === t ? 1 : options.specificPenalty) / bgC;
      const post = postings[c];
      if (!post) continue;
      const { disease, prob, direct } = post;
      for (let k = 0; k < disease.length; k++) {
        const d = disease[k] ?? 0;
        const lr = (prob[k] ?? 0) * (direct[k] ? directFactor : factor);
        if (lr > (best[d] ?? 0)) best[d] = lr;
      }
    }
    contradict?.(t, best);
    for (let d = 0; d < D; d++) {
      const b = best[d] ?? options.noMatchLr;
      total[d] = (total[d] ?? 0) + (b === options.noMatchLr ? lnNoMatch : Math.log(b));
    }
  }
  for (const t of q.excluded) {
    const bg = model.background[t] ?? 0;
    const w = options.excludedWeight;
    const base = -w * Math.log(Math.max(1 - bg, options.excludedFloor));
    for (let d = 0; d < D; d++) total[d] = (total[d] ?? 0) + base;
    const post = postings[t];
    if (!post) continue;
    for (let k = 0; k < post.disease.length; k++) {
      const d = post.disease[k] ?? 0;
      total[d] = (total[d] ?? 0) + w * Math.log(Math.max(1 - (post.prob[k] ?? 0), options.excludedFloor));
    }
  }
  return total;
}

/** Diseases annotated NOT to show t (or an ancestor of t) get the contradiction LR. */
function applyContradictions(model: PhenotypeModel, t: number, best: Float64Array, lr: number): void {
  for (const d of model.diseasesWithExclusions) {
    for (const e of model.diseaseExcluded[d] ?? []) {
      if (model.isA(t, e)) {
        best[d] = Math.min(best[d] ?? lr, lr);
        break;
      }
    }
  }
}

/** 'onset': the patient's age of onset against the disease's onset annotations (onset.ts). */
export type TermMatchKind = 'exact' | 'implied' | 'partial' | 'unmatched' | 'contradicted' | 'onset';

/** How one observed patient term is explained by one disease. */
export interface TermMatch {
  term: string;
  label: string;
  kind: TermMatchKind;
  /** The disease annotation (or shared ancestor for a partial match) that explains the term. */
  diseaseTerm: string | null;
  diseaseTermLabel: string | null;
  /** P(term | disease) used (propagated annotation frequency; for onset P(onset class | disease)), null when unmatched or the disease has no onset annotation. */
  frequency: number | null;
  /** The frequency as written in the annotation source (e.g. '12/20', 'HP:0040282'), when known. */
  frequencyText: string | null;
  lr: number;
}

/** Effect of one excluded patient term on one disease. */
export interface ExcludedTermEffect {
  term: string;
  label: string;
  /** P(term | disease): how often the disease shows the term the patient does not have. */
  diseaseFrequency: number;
  lr: number;
}

/**
 * The best match of patient term `t` among its ancestors in a profile (annotated disease or
 * borrowed profile) whose P(term) is `probability` and whose directly stated terms `isDirect` tells:
 * the per-term arithmetic of `scoreWithPostings`, for explanations. `term` is -1 when nothing matches.
 */
export function bestAncestorMatch(
  model: PhenotypeModel,
  t: number,
  options: PhenotypeScoringOptions,
  probability: (c: number) => number,
  isDirect: (c: number) => boolean,
): { lr: number; term: number } {
  let best = options.noMatchLr;
  let bestC = -1;
  for (const c of model.ancestors[t] ?? []) {
    if (model.isTopTerm[c]) continue;
    const p = probability(c);
    if (p <= 0) continue;
    const lr = (p * (c === t ? 1 : isDirect(c) ? options.specificPenalty : options.partialPenalty)) / (model.background[c] ?? 1);
    if (lr > best) {
      best = lr;
      bestC = c;
    }
  }
  return { lr: best, term: bestC };
}

/** Per-term breakdown of a disease's likelihood ratio (the same arithmetic as scoreDiseases). */
export function explainDisease(
  model: PhenotypeModel,
  q: ResolvedQuery,
  d: number,
  options: PhenotypeScoringOptions = DEFAULT_SCORING_OPTIONS,
): { matched: TermMatch[]; excluded: ExcludedTermEffect[] } {
  const dis = model.diseases[d];
  const matched: TermMatch[] = [];
  for (const t of q.present) {
    const base = { term: model.termId(t), label: model.label(t) };
    const contradicted = (model.diseaseExcluded[d] ?? []).find((e) => model.isA(t, e));
    const { lr: best, term: bestC } = bestAncestorMatch(
      model,
      t,
      options,
      (c) => model.probability(d, c),
      (c) => (dis?.annotations ?? []).some((a) => a.term === model.termId(c)),
    );
    if (contradicted !== undefined) {
      matched.push({ ...base, kind: 'contradicted', diseaseTerm: model.termId(contradicted), diseaseTermLabel: model.label(contradicted), frequency: 0, frequencyText: 'NOT', lr: Math.min(best, options.contradictionLr) });
      continue;
    }
    if (bestC < 0) {
      matched.push({ ...base, kind: 'unmatched', diseaseTerm: null, diseaseTermLabel: null, frequency: null, frequencyText: null, lr: best });
      continue;
    }
    // Find the annotation behind the propagated probability at bestC: the most frequent
    // annotated term at or below bestC.
    let ann: { term: string; frequency: number | null; frequencyText: string | null } | null = null;
    let annP = -1;
    for (const a of dis?.annotations ?? []) {
      const ai = model.termIndex.get(a.term);
      if (ai === undefined || !model.isA(ai, bestC)) continue;
      const f = annotationProbability(a, model.options);
      if (f > annP || (f === annP && ai === t)) {
        annP = f;
        ann = a;
      }
    }
    const kind: TermMatchKind = bestC !== t ? 'partial' : ann?.term === base.term ? 'exact' : 'implied';
    matched.push({
      ...base,
      kind,
      diseaseTerm: ann?.term ?? model.termId(bestC),
      diseaseTermLabel: ann ? (model.kb.ontology.label(ann.term) ?? ann.term) : model.label(bestC),
      frequency: model.probability(d, bestC),
      frequencyText: ann?.frequencyText ?? null,
      lr: best,
    });
  }
  const onset = onsetMatch(model, q, d, options);
  if (onset) matched.push(onset);
  return { matched, excluded: excludedEffects(model, q, options, (t) => model.probability(d, t)) };
}

/**
 * The onset line of a disease's explanation (the arithmetic of scoreDiseases' onset LR): the
 * patient's onset term, the disease's onset term nearest to it on the age scale, P(onset | disease)
 * and the weighted LR (1 when the disease has no onset annotation); null without a patient onset.
 */
export function onsetMatch(model: PhenotypeModel, q: ResolvedQuery, d: number, options: PhenotypeScoringOptions = DEFAULT_SCORING_OPTIONS): TermMatch | null {
  if (!q.onset || options.onsetWeight === 0) return null;
  const { dist, background } = getOnsetTable(model, options);
  const p = dist[d] ?? null;
  const base = { term: model.termId(q.onset.term), label: model.label(q.onset.term), kind: 'onset' as const, frequencyText: null };
  if (!p) return { ...base, diseaseTerm: null, diseaseTermLabel: null, frequency: null, lr: 1 };
  const patient = q.onset.classes;
  let nearest: string | null = null;
  let nearestGap = Infinity;
  for (const id of model.diseases[d]?.onset ?? []) {
    const cs = onsetClassesOf(model.kb.ontology, id);
    const gap = Math.min(...cs.flatMap((c) => patient.map((x) => Math.abs(c - x))));
    if (gap < nearestGap) {
      nearestGap = gap;
      nearest = id;
    }
  }
  return {
    ...base,
    diseaseTerm: nearest,
    diseaseTermLabel: nearest ? (model.kb.ontology.label(nearest) ?? nearest) : null,
    frequency: onsetProbability(p, patient),
    lr: onsetLr(p, background, patient, options.onsetWeight, options.onsetMaxLr),
  };
}

/** The effect of each excluded patient term on a profile whose P(term) is `probability` (the arithmetic of `scoreWithPostings`). */
export function excludedEffects(model: PhenotypeModel, q: ResolvedQuery, options: PhenotypeScoringOptions, probability: (t: number) => number): ExcludedTermEffect[] {
  return q.excluded.map((t) => {
    const bg = model.background[t] ?? 0;
    const p = probability(t);
    return {
      term: model.termId(t),
      label: model.label(t),
      diseaseFrequency: p,
      lr: (Math.max(1 - p, options.excludedFloor) / Math.max(1 - bg, options.excludedFloor)) ** options.excludedWeight,
    };
  });
}
