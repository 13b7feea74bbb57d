/**
 * Precomputed HPO semantics over a loaded HPO KB: integer term indices, ancestor closures,
 * per-disease term probabilities propagated to ancestors (the "annotation-propagation rule":
 * a disease showing a term also shows each of its ancestors), background probabilities,
 * annotation-based information content, and inverted postings used by the ranking.
 */
import { PHENOTYPIC_ABNORMALITY } from '../hpo/ontology.ts';
import type { DiseaseAnnotation, HpoDisease, HpoKb } from '../kb/hpo-kb.ts';

const ROOT = 'HP:0000001';

export interface PhenotypeModelOptions {
  /** Frequency assumed for an annotation whose source gives none. */
  defaultFrequency: number;
  /**
   * Pseudo-count of the Beta prior (mean `defaultFrequency`) that shrinks n/m frequencies
   * observed in few patients: P = (n + k * prior) / (m + k). A feature seen in 1 of 1
   * published patients is not obligate.
   */
  priorCount: number;
  /** How a term's probability combines its annotated descendants: the largest, or noisy-or. */
  propagation: 'max' | 'noisy-or';
}

export const DEFAULT_MODEL_OPTIONS: PhenotypeModelOptions = { defaultFrequency: 0.4, priorCount: 5, propagation: 'max' };

/** Probability that a patient with the disease shows an annotated term. */
export function annotationProbability(a: DiseaseAnnotation, o: PhenotypeModelOptions): number {
  if (a.counts) {
    const [n, m] = a.counts;
    const shrunk = (n + o.priorCount * o.defaultFrequency) / (m + o.priorCount);
    // A class or percentage given alongside the counts is kept as a lower bound.
    return a.frequency != null && a.frequency > n / m ? Math.max(shrunk, a.frequency) : shrunk;
  }
  return a.frequency ?? o.defaultFrequency;
}

/**
 * The patient counts an annotation source wrote ("2/2") for a frequency shown as a percentage:
 * the counts alone when they give the same rounded percentage, "estimated from 2/2 reported: ..."
 * when the model shrank them toward the typical frequency (annotationProbability: few reports
 * say little), null for a class or no text.
 */
export function reportedCounts(probability: number, text: string | null): string | null {
  const counts = text ? /^(\d+)\/(\d+)$/.exec(text) : null;
  if (!counts) return null;
  const [n, m] = [Number(counts[1]), Number(counts[2])];
  return m > 0 && Math.round((n / m) * 100) === Math.round(probability * 100) ? text : `estimated from ${text} reported: small counts are drawn toward a typical frequency`;
}

/** Term t -> diseases whose (propagated) annotations contain t, with P(t | disease). */
export interface Postings {
  disease: Int32Array;
  prob: Float32Array;
  /** 1 when the disease is annotated with this very term (not only through a descendant). */
  direct: Uint8Array;
}

export class PhenotypeModel {
  readonly kb: HpoKb;
  readonly options: PhenotypeModelOptions;
  readonly termIds: string[];
  readonly termIndex: Map<string, number>;
  /** Ancestors of each term, itself included. */
  readonly ancestors: Int32Array[];
  /** Depth-independent "generality" guard: root and Phenotypic abnormality. */
  readonly isTopTerm: Uint8Array;
  /** Background probability of each term: mean over diseases of P(term | disease), smoothed. */
  readonly background: Float64Array;
  /** Annotation-based information content: -ln(fraction of diseases annotated with the term or a descendant). */
  readonly ic: Float64Array;
  readonly postings: Postings[];
  /** Per disease: sorted term indices of its propagated annotation set and the matching P. */
  readonly diseaseTerms: Int32Array[];
  readonly diseaseProbs: Float32Array[];
  /** Per disease: term indices annotated NOT (with their descendants implied). */
  readonly diseaseExcluded: Int32Array[];
  /** Diseases with at least one NOT annotation. */
  readonly diseasesWithExclusions: number[] = [];
  readonly diseases: HpoDisease[];
  readonly diseaseIndex: Map<string, number>;

  constructor(kb: HpoKb, options: PhenotypeModelOptions = DEFAULT_MODEL_OPTIONS) {
    if (!(options.defaultFrequency > 0 && options.defaultFrequency <= 1)) throw new RangeError('defaultFrequency must be in (0, 1]');
    if (!(options.priorCount >= 0)) throw new RangeError('priorCount must be >= 0');
    this.kb = kb;
    this.options = options;
    this.diseases = kb.diseases;
    this.diseaseIndex = new Map(kb.diseases.map((d, i) => [d.id, i]));
    const ont = kb.ontology;
    this.termIds = ont.currentIds().sort();
    this.termIndex = new Map(this.termIds.map((id, i) => [id, i]));
    const T = this.termIds.length;
    this.ancestors = new Array<Int32Array>(T);
    const idxOf = (id: string): number => this.termIndex.get(id) ?? -1;
    for (let i = 0; i < T; i++) {
      const anc = [...ont.ancestors(this.termIds[i] ?? '')].map(idxOf).filter((x) => x >= 0);
      this.ancestors[i] = Int32Array.from(anc.sort((a, b) => a - b));
    }
    this.isTopTerm = new Uint8Array(T);
    for (const top of [ROOT, PHENOTYPIC_ABNORMALITY]) {
      const i = idxOf(top);
      if (i >= 0) this.isTopTerm[i] = 1;
    }

    const D = kb.diseases.length;
    const sumProb = new Float64Array(T);
    const count = new Float64Array(T);
    const scratch = new Float64Array(T).fill(-1);
    const touched: number[] = [];
    this.diseaseTerms = new Array<Int32Array>(D);
    this.diseaseProbs = new Array<Float32Array>(D);
    this.diseaseExcluded = new Array<Int32Array>(D);
    const postCounts = new Int32Array(T);
    for (let d = 0; d < D; d++) {
      const dis = kb.diseases[d];
      if (!dis) continue;
      touched.length = 0;
      for (const a of dis.annotations) {
        const ti = idxOf(a.term);
        if (ti < 0) continue;
        const f = annotationProbability(a, options);
        const noisyOr = options.propagation === 'noisy-or';
        for (const c of this.ancestors[ti] ?? []) {
          const cur = scratch[c] ?? -1;
          if (cur < 0) {
            touched.push(c);
            scratch[c] = f;
          } else if (noisyOr) scratch[c] = 1 - (1 - cur) * (1 - f);
          else if (f > cur) scratch[c] = f;
        }
      }
      touched.sort((a, b) => a - b);
      const terms = Int32Array.from(touched);
      const probs = new Float32Array(terms.length);
      for (let k = 0; k < terms.length; k++) {
        const c = terms[k] ?? 0;
        const p = scratch[c] ?? 0;
        probs[k] = p;
        sumProb[c] = (sumProb[c] ?? 0) + p;
        count[c] = (count[c] ?? 0) + 1;
        postCounts[c] = (postCounts[c] ?? 0) + 1;
        scratch[c] = -1;
      }
      this.diseaseTerms[d] = terms;
      this.diseaseProbs[d] = probs;
      this.diseaseExcluded[d] = Int32Array.from(dis.excluded.map(idxOf).filter((x) => x >= 0));
      if (dis.excluded.length) this.diseasesWithExclusions.push(d);
    }
    // Smoothing: a term no disease shows still has a small background probability
    // (half an annotation), so likelihood ratios stay finite.
    this.background = new Float64Array(T);
    this.ic = new Float64Array(T);
    for (let t = 0; t < T; t++) {
      this.background[t] = Math.min(1, ((sumProb[t] ?? 0) + 0.5) / (D + 0.5));
      this.ic[t] = -Math.log(((count[t] ?? 0) + 0.5) / (D + 0.5));
    }
    const rootIdx = idxOf(ROOT);
    if (rootIdx >= 0) {
      this.background[rootIdx] = 1;
      this.ic[rootIdx] = 0;
    }
    this.postings = new Array<Postings>(T);
    for (let t = 0; t < T; t++) {
      const n = postCounts[t] ?? 0;
      this.postings[t] = { disease: new Int32Array(n), prob: new Float32Array(n), direct: new Uint8Array(n) };
    }
    const fill = new Int32Array(T);
    const directSet = new Set<number>();
    for (let d = 0; d < D; d++) {
      directSet.clear();
      for (const a of kb.diseases[d]?.annotations ?? []) directSet.add(idxOf(a.term));
      const terms = this.diseaseTerms[d];
      const probs = this.diseaseProbs[d];
      if (!terms || !probs) continue;
      for (let k = 0; k < terms.length; k++) {
        const c = terms[k] ?? 0;
        const post = this.postings[c];
        const at = fill[c] ?? 0;
        if (!post) continue;
        post.disease[at] = d;
        post.prob[at] = probs[k] ?? 0;
        post.direct[at] = directSet.has(c) ? 1 : 0;
        fill[c] = at + 1;
      }
    }
  }

  /** Index of a term id after alt/obsolete resolution, or -1. */
  indexOf(id: string): number {
    const r = this.kb.ontology.resolve(id);
    return r === undefined ? -1 : (this.termIndex.get(r) ?? -1);
  }

  /** P(term | disease) from the propagated annotations (0 when the disease has neither the term nor a descendant). */
  probability(disease: number, term: number): number {
    const terms = this.diseaseTerms[disease];
    const probs = this.diseaseProbs[disease];
    if (!terms || !probs) return 0;
    let lo = 0;
    let hi = terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = terms[mid] ?? 0;
      if (v === term) return probs[mid] ?? 0;
      if (v < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** Is `ancestor` equal to or an ancestor of `term` (indices)? */
  isA(term: number, ancestor: number): boolean {
    const anc = this.ancestors[term];
    if (!anc) return false;
    let lo = 0;
    let hi = anc.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = anc[mid] ?? 0;
      if (v === ancestor) return true;
      if (v < ancestor) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  termId(i: number): string {
    return this.termIds[i] ?? `#${i}`;
  }

  label(i: number): string {
    return this.kb.ontology.terms.get(this.termId(i))?.label ?? this.termId(i);
  }
}

const cache = new WeakMap<HpoKb, PhenotypeModel>();

/** The phenotype model of a KB with default options, built once per KB object. */
export function getPhenotypeModel(kb: HpoKb, options?: PhenotypeModelOptions): PhenotypeModel {
  if (options) return new PhenotypeModel(kb, options);
  let m = cache.get(kb);
  if (!m) {
    m = new PhenotypeModel(kb);
    cache.set(kb, m);
  }
  return m;
}
