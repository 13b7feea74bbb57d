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
 * A disease in no series gets a 'similar-titles' profile instead: the similarity-weighted mean of the
 * annotated diseases (one per Mondo class) whose titles are most alike (IDF-weighted cosine over the
 * title's words and word pairs, `titleFeatures`; DEFAULT_BORROWED_OPTIONS), with the features its
 * title names at NAMED_FEATURE_FREQUENCY at least, as a series profile. It ranks genes (rank/
 * prioritisers.ts, candidate 'similar-titles', beside the title-feature candidate 'disease-name') but
 * is not listed in the disease rankings: in the phenotype-only ranking these profiles cost the
 * annotated diagnoses more top-1 than they gained held out (rank-analysis.md, session 12). (A profile
 * of the title's own two or three features alone never ranked its disease in the dev split's top 100:
 * session 10.)
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
  /**
   * 'series': borrowed from the annotated members of its phenotypic series; 'similar-titles': a disease
   * in no series, its profile inferred from the annotated diseases whose titles are most alike
   * (`titleFeatures`, IDF-weighted cosine).
   */
  kind: 'series' | 'similar-titles';
  /** The series stem (the profile is borrowed from the annotated siblings of its series and the features its title names); for 'similar-titles' the title's own stem. */
  stem: string;
  /** The annotated diseases it borrows from (one id per Mondo class): sorted for a series, by decreasing title similarity for 'similar-titles'. */
  siblings: string[];
  /** Title similarity (cosine, 0–1) of each sibling, aligned with `siblings` ('similar-titles'; empty for a series). */
  similarity: number[];
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

/** How the profiles of diseases known only by name are built. */
export interface BorrowedProfilesOptions {
  /** Number of most-similar annotated titles (Mondo classes) a disease in no series borrows from; 0: no such profile. */
  titleNeighbours: number;
  /** Least IDF-weighted cosine similarity of titles for an annotated disease to lend its phenotype (0, 1]. */
  minTitleSimilarity: number;
}

export const DEFAULT_BORROWED_OPTIONS: BorrowedProfilesOptions = {
  titleNeighbours: 5,
  minTitleSimilarity: 0.1,
};

const cache = new WeakMap<PhenotypeModel, BorrowedProfiles>();

/** The borrowed profiles of every named disease of the model's KB, with the default options (built once per model). */
export function getBorrowedProfiles(model: PhenotypeModel): BorrowedProfiles {
  let p = cache.get(model);
  if (!p) {
    p = buildBorrowedProfiles(model, DEFAULT_BORROWED_OPTIONS);
    cache.set(model, p);
  }
  return p;
}

const TITLE_STOPWORDS = new Set([
  'with',
  'without',
  'and',
  'or',
  'of',
  'the',
  'a',
  'an',
  'to',
  'in',
  'due',
  'by',
  'for',
  'on',
  'type',
  'group',
  'form',
  'subtype',
  'complementation',
  'associated',
  'related',
  'susceptibility',
]);

/**
 * The words and adjacent word pairs of a disease title, as compared between titles: lower case,
 * punctuation and inheritance qualifiers removed, series designators (numbers, single letters, roman
 * numerals) and connecting words dropped, a plural 's' removed. "Neurodevelopmental disorder with
 * seizures and impaired intellectual development" -> neurodevelopmental, disorder, seizure, …,
 * "neurodevelopmental disorder", "disorder seizure", ….
 */
export function titleFeatures(title: string): string[] {
  const words = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(INHERITANCE_PHRASES, ' ')
    .split(' ')
    .filter((w) => w && !DESIGNATOR.test(w) && !TITLE_STOPWORDS.has(w))
    .map((w) => (w.length > 4 && w.endsWith('s') && !/(?:ss|is|us)$/.test(w) ? w.slice(0, -1) : w));
  const out = new Set(words);
  for (let i = 0; i + 1 < words.length; i++) out.add(`${words[i] ?? ''} ${words[i + 1] ?? ''}`);
  return [...out].sort();
}

/** IDF-weighted title vectors of the model's annotated diseases and an inverted index over their features. */
interface TitleIndex {
  idf: Map<string, number>;
  /** Unseen feature weight: ln(N + 1) (a word no annotated title has still counts in the norm). */
  unseenIdf: number;
  byFeature: Map<string, number[]>;
  norm: Float64Array;
  /** Mondo class key of each disease (mondo or id). */
  classOf: string[];
}

function buildTitleIndex(model: PhenotypeModel): TitleIndex {
  const N = model.diseases.length;
  const byFeature = new Map<string, number[]>();
  const feats = model.diseases.map((d) => titleFeatures(d.name));
  feats.forEach((fs, i) => {
    for (const f of fs) {
      const list = byFeature.get(f);
      if (list) list.push(i);
      else byFeature.set(f, [i]);
    }
  });
  const idf = new Map<string, number>();
  for (const [f, list] of byFeature) idf.set(f, Math.log((N + 1) / list.length));
  const norm = Float64Array.from(feats, (fs) =>
    Math.sqrt(fs.reduce((s, f) => s + (idf.get(f) ?? 0) ** 2, 0)),
  );
  return {
    idf,
    unseenIdf: Math.log(N + 1),
    byFeature,
    norm,
    classOf: model.diseases.map((d) => d.mondo ?? d.id),
  };
}

/**
 * The annotated diseases whose titles are most like `title` (IDF-weighted cosine of `titleFeatures`),
 * one per Mondo class (its most similar member), at least `minSimilarity`, the `k` most similar
 * (ties by id).
 */
function similarTitles(
  model: PhenotypeModel,
  index: TitleIndex,
  title: string,
  k: number,
  minSimilarity: number,
): { disease: number; similarity: number }[] {
  const fs = titleFeatures(title);
  const w = fs.map((f) => index.idf.get(f) ?? index.unseenIdf);
  const qNorm = Math.sqrt(w.reduce((s, x) => s + x * x, 0));
  if (!(qNorm > 0)) return [];
  const dot = new Map<number, number>();
  fs.forEach((f, j) => {
    const idf = index.idf.get(f);
    if (idf === undefined || idf <= 0) return;
    const wq = w[j] ?? 0;
    for (const d of index.byFeature.get(f) ?? []) dot.set(d, (dot.get(d) ?? 0) + wq * idf);
  });
  const bestOfClass = new Map<string, { disease: number; similarity: number }>();
  for (const [d, v] of dot) {
    const similarity = v / (qNorm * (index.norm[d] ?? 1));
    if (similarity < minSimilarity) continue;
    const key = index.classOf[d] ?? '';
    const cur = bestOfClass.get(key);
    const id = model.diseases[d]?.id ?? '';
    if (
      !cur ||
      similarity > cur.similarity ||
      (similarity === cur.similarity && id < (model.diseases[cur.disease]?.id ?? ''))
    )
      bestOfClass.set(key, { disease: d, similarity });
  }
  const idOf = (d: number): string => model.diseases[d]?.id ?? '';
  return [...bestOfClass.values()]
    .sort((a, b) => b.similarity - a.similarity || (idOf(a.disease) < idOf(b.disease) ? -1 : 1))
    .slice(0, k);
}

/**
 * The borrowed profiles of the model's named diseases. Derived from the model's own annotated
 * diseases only, so a model built from reduced annotations borrows nothing from what it does not hold.
 */
export function buildBorrowedProfiles(
  model: PhenotypeModel,
  options: BorrowedProfilesOptions = DEFAULT_BORROWED_OPTIONS,
): BorrowedProfiles {
  if (!(Number.isInteger(options.titleNeighbours) && options.titleNeighbours >= 0))
    throw new RangeError('titleNeighbours must be a non-negative integer');
  if (!(options.minTitleSimilarity > 0 && options.minTitleSimilarity <= 1))
    throw new RangeError('minTitleSimilarity must be in (0, 1]');
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
  const annotatedMondo = new Set(
    model.diseases.map((d) => d.mondo).filter((m): m is string => !!m),
  );
  const titleIndex = options.titleNeighbours > 0 ? buildTitleIndex(model) : null;
  const profiles: BorrowedProfile[] = [];
  const twins = new Map<string, string[]>();
  const T = model.termIds.length;
  const sum = new Float64Array(T);
  const seen = new Uint8Array(T);
  const touched: number[] = [];
  for (const nd of [...model.kb.namedDiseases.values()].sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  )) {
    // Known to the annotations under another id of the same Mondo class: ranked there.
    if (nd.mondo && annotatedMondo.has(nd.mondo)) {
      twins.set(nd.mondo, [...(twins.get(nd.mondo) ?? []), nd.id]);
      continue;
    }
    const stem = seriesStem(nd.name);
    const seriesSiblings = (stem ? byStem.get(stem) : undefined) ?? [];
    let kind: BorrowedProfile['kind'] = 'series';
    // Weighted mean: P(term) = sum of weight * P(term | lender) / total (series: equal weights).
    let lenders: { disease: number; weight: number }[] = seriesSiblings.map((d) => ({
      disease: d,
      weight: 1,
    }));
    let total = seriesSiblings.length;
    let similarity: number[] = [];
    if (!stem || !seriesSiblings.length) {
      const near = titleIndex
        ? similarTitles(
            model,
            titleIndex,
            nd.name,
            options.titleNeighbours,
            options.minTitleSimilarity,
          )
        : [];
      if (!near.length) continue;
      kind = 'similar-titles';
      total = near.reduce((s, x) => s + x.similarity, 0);
      lenders = near.map((x) => ({ disease: x.disease, weight: x.similarity }));
      similarity = near.map((x) => x.similarity);
    }
    touched.length = 0;
    const direct = new Set<number>();
    const add = (c: number, p: number): void => {
      if (!seen[c]) {
        seen[c] = 1;
        touched.push(c);
      }
      sum[c] = (sum[c] ?? 0) + p;
    };
    for (const { disease: s, weight } of lenders) {
      const terms = model.diseaseTerms[s] ?? new Int32Array(0);
      const probs = model.diseaseProbs[s] ?? new Float32Array(0);
      for (let k = 0; k < terms.length; k++) add(terms[k] ?? 0, ((probs[k] ?? 0) * weight) / total);
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
    const ids = lenders.map((l) => model.diseases[l.disease]?.id ?? '');
    profiles.push({
      disease: nd,
      kind,
      stem: stem ?? '',
      siblings: kind === 'series' ? ids.sort() : ids,
      similarity,
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
  if (p.kind === 'similar-titles') {
    const near = p.siblings.map((id, i) => `${id} ${(p.similarity[i] ?? 0).toFixed(2)}`);
    return `no HPO annotations yet; phenotype inferred from ${p.siblings.length} ${p.siblings.length === 1 ? 'disease' : 'diseases'} with similar names (${near.join(', ')}; title similarity)${p.disease.nameTerms.length ? ' and the features its name states' : ''}`;
  }
  return `no HPO annotations yet; phenotype borrowed from ${p.siblings.length} ${p.siblings.length === 1 ? 'disease' : 'diseases'} of the series '${p.stem}' (${p.siblings.slice(0, 12).join(', ')}${p.siblings.length > 12 ? ', …' : ''})${p.disease.nameTerms.length ? ' and the features its name states' : ''}`;
}

/** Per-term breakdown of a borrowed profile's LR (the same arithmetic as `scoreBorrowed`). */
export function explainBorrowed(model: PhenotypeModel, q: ResolvedQuery, p: BorrowedProfile, options: PhenotypeScoringOptions = DEFAULT_SCORING_OPTIONS): { matched: TermMatch[]; excluded: ExcludedTermEffect[] } {
  const frequencyText = p.kind === 'series' ? `mean over ${p.siblings.length} diseases of the series` : `similarity-weighted mean over ${p.siblings.length} diseases with similar names`;
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
