/** Sequence Ontology consequence terms, their severity order (Ensembl VEP's) and impact. */
import type { Impact } from '../types.ts';

export const SO_TERMS = [
  'transcript_ablation',
  'transcript_amplification',
  'splice_acceptor_variant',
  'splice_donor_variant',
  'stop_gained',
  'frameshift_variant',
  'stop_lost',
  'start_lost',
  'inframe_insertion',
  'inframe_deletion',
  'missense_variant',
  'protein_altering_variant',
  'splice_region_variant',
  'incomplete_terminal_codon_variant',
  'start_retained_variant',
  'stop_retained_variant',
  'synonymous_variant',
  'coding_sequence_variant',
  '5_prime_UTR_variant',
  '3_prime_UTR_variant',
  'non_coding_transcript_exon_variant',
  'intron_variant',
  'non_coding_transcript_variant',
  'feature_truncation',
  'feature_elongation',
  'structural_variant',
  'upstream_gene_variant',
  'downstream_gene_variant',
  'gene_variant',
  'intergenic_variant',
] as const;

export type SoTerm = (typeof SO_TERMS)[number];

const RANK = new Map<string, number>(SO_TERMS.map((t, i) => [t, i]));

/** Severity rank (0 = most severe); unknown terms (e.g. from CSQ) sort after known ones. */
export function soRank(term: string): number {
  return RANK.get(term) ?? SO_TERMS.length;
}

const HIGH = new Set(['transcript_ablation', 'transcript_amplification', 'splice_acceptor_variant', 'splice_donor_variant', 'stop_gained', 'frameshift_variant', 'stop_lost', 'start_lost']);
const MODERATE = new Set(['inframe_insertion', 'inframe_deletion', 'missense_variant', 'protein_altering_variant']);
const LOW = new Set(['splice_region_variant', 'incomplete_terminal_codon_variant', 'start_retained_variant', 'stop_retained_variant', 'synonymous_variant', 'splice_donor_5th_base_variant', 'splice_donor_region_variant', 'splice_polypyrimidine_tract_variant']);

/** HIGH, MODERATE and LOW terms (one lookup per call; every other term is MODIFIER). */
const IMPACT = new Map<string, Impact>([...[...LOW].map((t) => [t, 'LOW'] as const), ...[...MODERATE].map((t) => [t, 'MODERATE'] as const), ...[...HIGH].map((t) => [t, 'HIGH'] as const)]);

export function impactOf(term: string): Impact {
  return IMPACT.get(term) ?? 'MODIFIER';
}

/** Terms sorted most severe first, de-duplicated. */
export function sortTerms(terms: Iterable<string>): string[] {
  const list = terms instanceof Set ? [...(terms as Set<string>)] : [...new Set(terms)];
  return list.length < 2 ? list : list.sort((a, b) => soRank(a) - soRank(b));
}

export const IMPACT_ORDER: Record<Impact, number> = { HIGH: 0, MODERATE: 1, LOW: 2, MODIFIER: 3 };

/** Null (loss-of-function) consequences in the PVS1 sense. */
export const LOF_TERMS = new Set(['stop_gained', 'frameshift_variant', 'splice_acceptor_variant', 'splice_donor_variant', 'start_lost', 'transcript_ablation']);

/** Bit of each term (by severity rank) for allocation-free term sets. */
export const SO_BIT: Readonly<Record<SoTerm, number>> = Object.fromEntries(SO_TERMS.map((t, i) => [t, 2 ** i])) as Record<SoTerm, number>;

const maskCache = new Map<number, string[]>();

/** Terms of a bit mask, most severe first (shared frozen arrays; do not mutate). */
export function termsOfMask(mask: number): string[] {
  let out = maskCache.get(mask);
  if (!out) {
    const list: string[] = [];
    for (let i = 0; i < SO_TERMS.length; i++) if (Math.floor(mask / 2 ** i) % 2 === 1) list.push(SO_TERMS[i]!);
    out = Object.freeze(list) as string[];
    maskCache.set(mask, out);
  }
  return out;
}
