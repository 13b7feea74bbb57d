/** A ranked variant row as the variants API returns it (FGFR2 c.1694A>C, the Pfeiffer exome's), for web tests. */
import type { ClinvarAssertion, ReviewerClassification, VariantRow } from '@rarelens/contract';

/** ClinVar's assertion of FGFR2 c.1694A>C (2 stars, the 2016 release lifted to GRCh38). */
export const fgfr2ClinvarAssertion: ClinvarAssertion = {
  significance: 'Pathogenic',
  stars: 2,
  reviewStatus: 'criteria provided, multiple submitters, no conflicts',
  release: '2016-09',
  source: 'ClinVar GRCh37 (lifted to GRCh38)',
  id: '13294',
  idType: 'variation',
  url: 'https://www.ncbi.nlm.nih.gov/clinvar/variation/13294/',
  match: 'exact',
};

/** A reviewer's class over the automatic one. */
export function buildReview(over: Partial<ReviewerClassification> = {}): ReviewerClassification {
  return {
    classification: 'Pathogenic',
    reason: 'recurrent Pfeiffer allele',
    reviewer: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.org' },
    updatedAt: '2026-11-25T09:30:00.000Z',
    automaticClass: 'Uncertain significance',
    ...over,
  };
}

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
