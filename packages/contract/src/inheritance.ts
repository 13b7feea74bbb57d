/**
 * Per-variant family fields (issue 13): each member's genotype and the inheritance patterns a
 * variant fits. Kept apart from family.ts so the variant rows of products.ts can use them.
 */
import { z } from 'zod';

/** Inheritance patterns a variant can be filtered by (GET /variants?inheritance=...). */
export const InheritanceFilter = z.enum(['de_novo', 'compound_het', 'hom_recessive', 'x_linked', 'segregates']);
export type InheritanceFilter = z.infer<typeof InheritanceFilter>;

export const INHERITANCE_FILTER_LABELS: Readonly<Record<InheritanceFilter, string>> = {
  de_novo: 'De novo',
  compound_het: 'Compound heterozygous',
  hom_recessive: 'Homozygous recessive',
  x_linked: 'X-linked',
  segregates: 'Segregates',
};

/** One member's genotype at a variant: GT as written, with depth / quality / allele depths when the VCF has them. */
export const MemberGenotype = z.object({
  gt: z.string(),
  zygosity: z.string(),
  depth: z.number().nullable(),
  genotypeQuality: z.number().nullable(),
  /** Reads for REF and this ALT. */
  alleleDepths: z.tuple([z.number(), z.number()]).nullable(),
});
export type MemberGenotype = z.infer<typeof MemberGenotype>;

