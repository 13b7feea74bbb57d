/**
 * Borrowed phenotype profiles for diseases known only by name (linked to a gene by
 * genes_to_disease, not annotated in phenotype.hpoa; kb/hpo-kb.ts `namedDiseases`).
 *
 * Such a disease very often belongs to a phenotypic series of annotated ones ("Noonan syndrome 12",
 * "Spinocerebellar ataxia 48", "Intellectual developmental disorder, autosomal dominant 75"):
 * its siblings are the annotated diseases whose title has the same stem once the series number or
 * type and the inheritance qualifiers are removed (`seriesStem`). Its profile is, for each HPO term,
 * the mean over the siblings (one per Mondo class) of P(term | sibling) with the model's annotation
 * propagation; a feature its own title names counts at least NAMED_FEATURE_FREQUENCY. The profile is
 * then scored with exactly the per-term likelihood-ratio arithmetic of annotated diseases
 * (score.ts `scoreWithPostings`), plus a log prior (`SERIES_PRIOR_LN`), chosen by cohort-grouped
 * cross-validation on the dev split (bench/rank-named-cv.ts).
 *
 * A disease in no series gets no profile: a profile of the two or three features its title names
 * never ranked its own disease in the top 100 of the dev split (247 cases) and only crowded out
 * annotated diseases; every cohort fold of the grouped CV turned such profiles off (rank-analysis.md,
 * session 10). The gene ranking still uses those named features (rank/prioritisers.ts, 'disease-name').
 *
 * The profiles are derived from the model's own diseases when the model is built (not stored in
 * the KB), so a model built from reduced annotations (bench/lib/hidden-disease.ts) borrows only from
 * what it holds: a hidden disease never lends its own annotations to its profile.
 */
import type { NamedDisease } from '../kb/hpo-kb.ts';
import type { PhenotypeModel, Postings } from './model.ts';
import { NAMED_FEATURE_FREQUENCY } from './name-evidence.ts';
import { bestAncestorMatch, DEFAULT_SCORING_OPTIONS, excludedEffects, scoreWithPostings, type ExcludedTermEffect, type PhenotypeScoringOptions, type ResolvedQuery, type TermMatch, type TermMatchKind } from './score.ts';

/**
 * Log prior of a disease ranked on its series' borrowed profile (natural log; 5-fold cohort-grouped
 * CV on the 4,489 dev cases, bench/rank-named-cv.ts, with the phenotype-only score capped below the
 * best series member (rank-phenotype.ts capBorrowed): folds chose 3 (three) and 4 (two) of -6 … 4;
 * session 10).
 */
export const SERIES_PRIOR_LN = 3;

const INHERITANCE_PHRASES = /\b(?:autosomal (?:dominant|recessive)|x linked(?: (?:dominant|recessive))?|y linked|mitochondrial inheritance)\b/g;
const DESIGNATOR = /^(?:\d+[a-z]*\d*|[a-z]|i{1,3}|iv|vi{0,3}|ix|xi{0,3})$/;
const DESIGNATOR_WORDS = new Set(['type', 'group', 'complementation', 'subtype', 'form']);

/**
 * The series stem of a disease title: lower case, punctuation removed, inheritance qualifiers
 * removed anywhere, then trailing series designators (numbers, letters, roman numerals, 'type',
 * 'complementation group') dropped. Null when nothing of at least 5 characters remains.
 * "Ciliary dyskinesia, primary, 52" -> "ciliary dyskinesia primary";
 * "Intellectual developmental disorder, autosomal dominant 75" -> "intellectual developmental disorder".
 */
export function seriesStem(title: string): string | null {
  const s = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(INHERITANCE_PHRASES, ' ');
  const words = s.split(' ').filter(Boolean);
  while (words.length > 1) {
    const last = words[words.length - 1] ?? '';
    if (DESIGNATOR.test(last) || DESIGNATOR_WORDS.has(last)) words.pop();
    else break;
  }
  const stem = words.join(' ');
  return stem.length >= 5 ? stem : null;
}

/** One named disease's borrowed profile. */
export interface BorrowedProfile {
  disease: NamedDisease;
  /** The series stem (the profile is borrowed from the annotated siblings of its series and the features its title names). */
  stem: string;
  /** The annotated diseases it borrows from (one id per Mondo class), sorted. */
  siblings: string[];
  /** Sorted term indices of the propagated profile and P(term | disease) of each. */
  terms: Int32Array;
  probs: Float32Array;
  /** Terms the siblings or the title state directly, not only through a descendant. */
  direct: Set<number>;
}

export interface BorrowedProfiles {
  profiles: BorrowedProfile[];
  byId: Map<string, number>;
  /** Term -> profiles showing it (same layout as the model's postings). */
  postings: Postings[];
  /** Named diseases of a Mondo class that has annotated members (ranked there, listed among its ids), by Mondo id. */
  twins: Map<string, string[]>;
}

const cache = new WeakMap<PhenotypeModel, BorrowedProfiles>();

/** The borrowed profiles of every named disease of the model's KB (built once per model). */
export function getBorrowedProfiles(model: PhenotypeModel): BorrowedProfiles {
  let p = cache.get(model);
  if (!p) {
    p = buildBorrowedProfiles(model);
    cache.set(model, p);
  }
  return p;
}

function buildBorrowedProfiles(model: PhenotypeModel): BorrowedProfiles {
  // Annotated diseases by stem, one per Mondo class (the first id in order).
  const byStem = new Map<string, number[]>();
  const seenClass = new Set<string>();
  model.diseases.forEach((d, i) => {
    const stem = seriesStem(d.name);
    if (!stem) return;
    const cls = `${stem}|${d.mondo ?? d.id}`;
    if (seenClass.has(cls)) return;
    seenClass.add(cls);
    const list = byStem.get(stem);
    if (list) list.push(i);
    else byStem.set(stem, [i]);
  });
  const annotatedMondo = new Set(model.diseases.map((d) => d.mondo).filter((m): m is string => !!m));
  const profiles: BorrowedProfile[] = [];
  const twins = new Map<string, string[]>();
  const T = model.termIds.length;
  const sum = new Float64Array(T);
  const seen = new Uint8Array(T);
  const touched: number[] = [];
  for (const nd of [...model.kb.namedDiseases.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    // Known to the annotations under another id of the same Mondo class: ranked there.
    if (nd.mondo && annotatedMondo.has(nd.mondo)) {
      twins.set(nd.mondo, [...(twins.get(nd.mondo) ?? []), nd.id]);
      continue;
    }
    const stem = seriesStem(nd.name);
    const siblings = (stem ? byStem.get(stem) : undefined) ?? [];
    if (!stem || !siblings.length) continue;
    touched.length = 0;
    const direct = new Set<number>();
    const add = (c: number, p: number): void => {
      if (!seen[c]) {
        seen[c] = 1;
        touched.push(c);
      }
      sum[c] = (sum[c] ?? 0) + p;
    };
    for (const s of siblings) {
      const terms = model.diseaseTerms[s] ?? new Int32Array(0);
      const probs = model.diseaseProbs[s] ?? new Float32Array(0);
      for (let k = 0; k < terms.length; k++) add(terms[k] ?? 0, (probs[k] ?? 0) / siblings.length);
      for (const a of model.diseases[s]?.annotations ?? []) {
        const ti = model.termIndex.get(a.term);
        if (ti !== undefined) direct.add(ti);
      }
    }
    // The features the title names: at least NAMED_FEATURE_FREQUENCY (their ancestors too).
    for (const id of nd.nameTerms) {
      const t = model.termIndex.get(id);
      if (t === undefined) continue;
      direct.add(t);
      for (const c of model.ancestors[t] ?? []) {
        const cur = sum[c] ?? 0;
        if (cur < NAMED_FEATURE_FREQUENCY) add(c, NAMED_FEATURE_FREQUENCY - cur);
      }
    }
    touched.sort((a, b) => a - b);
    const terms = Int32Array.from(touched);
    const probs = Float32Array.from(touched, (c) => Math.min(1, sum[c] ?? 0));
    for (const c of touched) {
      sum[c] = 0;
      seen[c] = 0;
    }
    profiles.push({
      disease: nd,
      stem,
      siblings: siblings.map((s) => model.diseases[s]?.id ?? '').sort(),
      terms,
      probs,
      direct,
    });
  }
  // Postings, as the model's.
  const counts = new Int32Array(T);
  for (const p of profiles) for (const c of p.terms) counts[c] = (counts[c] ?? 0) + 1;
  const postings: Postings[] = Array.from({ length: T }, (_, t) => {
    const n = counts[t] ?? 0;
    return { disease: new Int32Array(n), prob: new Float32Array(n), direct: new Uint8Array(n) };
  });
  const fill = new Int32Array(T);
  profiles.forEach((p, i) => {
    for (let k = 0; k < p.terms.length; k++) {
      const c = p.terms[k] ?? 0;
      const post = postings[c];
      if (!post) continue;
      const at = fill[c] ?? 0;
      post.disease[at] = i;
      post.prob[at] = p.probs[k] ?? 0;
      post.direct[at] = p.direct.has(c) ? 1 : 0;
      fill[c] = at + 1;
    }
  });
  return { profiles, byId: new Map(profiles.map((p, i) => [p.disease.id, i])), postings, twins };
}

/** P(term | profile) (0 when the profile has neither the term nor a descendant). */
export function profileProbability(p: BorrowedProfile, term: number): number {
  let lo = 0;
  let hi = p.terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = p.terms[mid] ?? 0;
    if (v === term) return p.probs[mid] ?? 0;
    if (v < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** Natural-log LR of every borrowed profile (index-aligned with `profiles`), without the prior: the arithmetic of annotated diseases. */
export function scoreBorrowed(model: PhenotypeModel, q: ResolvedQuery, options: PhenotypeScoringOptions = DEFAULT_SCORING_OPTIONS): Float64Array {
  const b = getBorrowedProfiles(model);
  return scoreWithPostings(model, b.postings, b.profiles.length, q, options);
}

/** Where a borrowed profile comes from, for explanations and term matches. */
export function describeBorrowed(p: BorrowedProfile): string {
  return `no HPO annotations yet; phenotype borrowed from ${p.siblings.length} ${p.siblings.length === 1 ? 'disease' : 'diseases'} of the series '${p.stem}' (${p.siblings.slice(0, 12).join(', ')}${p.siblings.length > 12 ? ', …' : ''})${p.disease.nameTerms.length ? ' and the features its name states' : ''}`;
}

/** Per-term breakdown of a borrowed profile's LR (the same arithmetic as `scoreBorrowed`). */
export function explainBorrowed(model: PhenotypeModel, q: ResolvedQuery, p: BorrowedProfile, options: PhenotypeScoringOptions = DEFAULT_SCORING_OPTIONS): { matched: TermMatch[]; excluded: ExcludedTermEffect[] } {
  const frequencyText = `mean over ${p.siblings.length} diseases of the series`;
  const matched: TermMatch[] = q.present.map((t) => {
    const base = { term: model.termId(t), label: model.label(t) };
    const { lr: best, term: bestC } = bestAncestorMatch(
      model,
      t,
      options,
      (c) => profileProbability(p, c),
      (c) => p.direct.has(c),
    );
    if (bestC < 0) return { ...base, kind: 'unmatched', diseaseTerm: null, diseaseTermLabel: null, frequency: null, frequencyText: null, lr: best };
    const kind: TermMatchKind = bestC !== t ? 'partial' : p.direct.has(t) ? 'exact' : 'implied';
    return { ...base, kind, diseaseTerm: model.termId(bestC), diseaseTermLabel: model.label(bestC), frequency: profileProbability(p, bestC), frequencyText, lr: best };
  });
  return { matched, excluded: excludedEffects(model, q, options, (t) => profileProbability(p, t)) };
}
