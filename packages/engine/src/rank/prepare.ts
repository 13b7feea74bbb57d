/**
 * Phenotype-independent work of a case, done once: the candidate variants grouped by gene, each
 * with its pathogenicity, most pathogenic first. `rank` (rank-case.ts) re-ranks these prepared
 * variants for any phenotype in milliseconds.
 */
import type { AnnotatedVariant } from '../types.ts';
import { carriesAlt, variantPathogenicity, type QualifyingVariant } from './inheritance.ts';

export interface GeneVariants {
  symbol: string;
  /** Variants carrying the alt allele, most pathogenic first. */
  variants: QualifyingVariant[];
}

export interface PreparedVariants {
  genes: Map<string, GeneVariants>;
  /** Variants without a gene or without an alt allele in the sample (kept for counts only). */
  unassigned: number;
  total: number;
}

/** Groups variants by gene and precomputes their pathogenicity (phenotype-independent). */
export function prepareVariants(variants: Iterable<AnnotatedVariant>): PreparedVariants {
  const genes = new Map<string, GeneVariants>();
  let unassigned = 0;
  let total = 0;
  for (const v of variants) {
    total++;
    if (!v.gene || !carriesAlt(v)) {
      unassigned++;
      continue;
    }
    let g = genes.get(v.gene);
    if (!g) {
      g = { symbol: v.gene, variants: [] };
      genes.set(v.gene, g);
    }
    g.variants.push({ variant: v, p: variantPathogenicity(v) });
  }
  for (const g of genes.values()) g.variants.sort((a, b) => b.p - a.p || a.variant.chrom.localeCompare(b.variant.chrom) || a.variant.pos - b.variant.pos || a.variant.alt.localeCompare(b.variant.alt));
  return { genes, unassigned, total };
}
