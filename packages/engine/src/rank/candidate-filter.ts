/**
 * Which variants drive the gene ranking (Exomiser's default filters in spirit). Each filter is a
 * value with an id and a reason, so a caller can record per variant which step it failed and
 * why; the same filters are used by the worker, the Diagnose re-rank, `rarelens analyze` and the
 * benchmarks. Variants that fail stay stored and listed, but do not drive the gene ranking.
 */
import type { AnnotatedVariant } from '../types.ts';

/** What the filters read of a variant (an AnnotatedVariant, or a stored row mapped back). */
export type FilterInput = Pick<AnnotatedVariant, 'gene' | 'filter' | 'af' | 'impact' | 'consequences'> & {
  genotype: Pick<AnnotatedVariant['genotype'], 'zygosity'>;
  acmg: Pick<AnnotatedVariant['acmg'], 'classification'>;
  clinvar: { significance: string } | null;
};

export interface VariantFilter {
  id: string;
  /** Why a variant that fails this filter is left out of the ranking. */
  reason: string;
  pass(v: FilterInput): boolean;
}

/** One filter's outcome for one variant (Exomiser style: every step, passed or not, and why). */
export interface FilterOutcome {
  id: string;
  passed: boolean;
  /** Why a variant failing this step is left out of the ranking. */
  reason: string;
}

/** Population AF above which a variant is too common to cause a rare disease (BS1-like). */
export const MAX_CANDIDATE_AF = 0.02;

/** ClinVar calls it pathogenic and nobody calls it benign (no conflict). */
export function clinvarPathogenicUncontested(v: Pick<FilterInput, 'clinvar'>): boolean {
  const sig = v.clinvar?.significance.toLowerCase() ?? '';
  return /(^|[^a-z])pathogenic/.test(sig) && !sig.includes('conflicting') && !/benign/.test(sig);
}

export const VARIANT_FILTERS: readonly VariantFilter[] = [
  { id: 'gene', reason: 'not in a gene', pass: (v) => v.gene !== null },
  { id: 'genotype', reason: 'the sample does not carry the alternate allele', pass: (v) => v.genotype.zygosity !== 'reference' && v.genotype.zygosity !== 'no_call' },
  { id: 'quality', reason: "failed the caller's FILTER", pass: (v) => v.filter.length === 0 || v.filter.includes('PASS') },
  { id: 'frequency', reason: `population allele frequency above ${MAX_CANDIDATE_AF * 100} %`, pass: (v) => v.af === null || v.af <= MAX_CANDIDATE_AF },
  { id: 'benign', reason: 'classified benign or likely benign (ACMG)', pass: (v) => v.acmg.classification !== 'Benign' && v.acmg.classification !== 'Likely benign' },
  {
    id: 'consequence',
    reason: 'not protein-altering or splice-affecting (intronic, UTR, synonymous, intergenic) and not pathogenic in ClinVar',
    pass: (v) =>
      v.impact === 'HIGH' ||
      v.impact === 'MODERATE' ||
      v.consequences.some((c) => c.startsWith('splice_')) ||
      // Without a reference FASTA a coding SNV's codon change is unknown: the annotator says
      // coding_sequence_variant (impact MODIFIER) honestly. It may be a causal missense, so it stays.
      v.consequences.includes('coding_sequence_variant') ||
      v.consequences.includes('protein_altering_variant') ||
      clinvarPathogenicUncontested(v),
  },
];

/** The first filter a variant fails, or null when it is a ranking candidate. */
export function failedFilter(v: AnnotatedVariant, filters: readonly VariantFilter[] = VARIANT_FILTERS): VariantFilter | null {
  for (const f of filters) if (!f.pass(v)) return f;
  return null;
}

/** Every filter's outcome for `v`, in order: which steps it passed and why it failed the others. */
export function filterOutcomes(v: FilterInput, filters: readonly VariantFilter[] = VARIANT_FILTERS): FilterOutcome[] {
  return filters.map((f) => ({ id: f.id, passed: f.pass(v), reason: f.reason }));
}

export function isCandidate(v: AnnotatedVariant): boolean {
  return failedFilter(v) === null;
}

/** Splits variants into ranking candidates and the rest (with the filter each failed). */
export function filterCandidates<T extends AnnotatedVariant>(variants: Iterable<T>, filters: readonly VariantFilter[] = VARIANT_FILTERS): { candidates: T[]; filtered: { variant: T; filter: VariantFilter }[] } {
  const candidates: T[] = [];
  const filtered: { variant: T; filter: VariantFilter }[] = [];
  for (const v of variants) {
    const f = failedFilter(v, filters);
    if (f) filtered.push({ variant: v, filter: f });
    else candidates.push(v);
  }
  return { candidates, filtered };
}
