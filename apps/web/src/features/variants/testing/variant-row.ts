/** A ranked variant row as the variants API returns it (FGFR2 c.1694A>C, the Pfeiffer exome's), for web tests. */
import type { VariantRow } from '@rarelens/contract';

export function buildVariantRow(over: Partial<VariantRow> = {}): VariantRow {
  return {
    id: 7,
    rank: 1,
    chrom: '10',
    pos: 121496701,
    ref: 'T',
    alt: 'G',
    gene: 'FGFR2',
    transcript: 'NM_000141',
    consequence: 'missense_variant',
    consequences: ['missense_variant'],
    impact: 'MODERATE',
    hgvsC: 'c.1694A>C',
    hgvsP: 'p.(Glu565Ala)',
    af: null,
    clinvar: null,
    clinvarAssertion: null,
    reviewerClassification: null,
    acmg: 'Uncertain significance',
    acmgPoints: 3,
    zygosity: 'heterozygous',
    score: 0.8,
    genotypes: null,
    inheritance: [],
    compoundHetPartners: [],
    inheritanceRules: [],
    ...over,
  };
}
