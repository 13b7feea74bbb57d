/** Whitelists of what the variants API returns (CONVENTIONS §2). */
import { InheritanceFilter, type ClinvarAssertion, type ReviewerClassification, type VariantDetails, type VariantRow } from '@rarelens/contract';
import { filterOutcomes, reviewStatusOfStars, type FilterInput } from '@rarelens/engine';
import { presentGenotype } from '../family/index.ts';
import { presentZygosity, readStoredDetails, readStoredInput, type ListedVariantRow } from '../../db/run-variants.ts';
import type { RunVariantRow } from '../../db/schema/products.ts';

/** Reviewer classifications of a case by allele key (`alleleKey`). */
export type ReviewerClassifications = ReadonlyMap<string, ReviewerClassification>;

const NO_REVIEWS: ReviewerClassifications = new Map();

/** The key a reviewer classification is stored under: the GRCh38 allele (stable across re-analysis). */
export function alleleKey(v: { chrom: string; pos: number; ref: string; alt: string }): string {
  return `${v.chrom}:${v.pos}:${v.ref}:${v.alt}`;
}

interface StoredClinvar {
  significance?: string;
  stars?: number;
  id?: string;
  conditions?: string[];
  match?: string;
  reviewStatus?: string;
  release?: string | null;
  source?: string;
  idType?: string;
}

const SOURCE_LABEL: Record<string, string> = {
  grch38: 'ClinVar GRCh38 VCF',
  'grch37-lifted': 'ClinVar GRCh37 (lifted to GRCh38)',
  intervar: 'InterVar PS1 table (from ClinVar)',
};

/** The ClinVar site page of a record: a Variation ID opens the variation, an AlleleID is searched. */
export function clinvarUrl(id: string | null, idType: 'variation' | 'allele' | null): string | null {
  const digits = id ? /(\d+)/.exec(id)?.[1] : undefined;
  if (!digits) return null;
  return idType === 'allele' ? `https://www.ncbi.nlm.nih.gov/clinvar/?term=${digits}%5Balleleid%5D` : `https://www.ncbi.nlm.nih.gov/clinvar/variation/${digits}/`;
}

/** ClinVar's assertion as stored with the variant (results stored before review status/release were kept show them as unknown). */
export function presentClinvarAssertion(raw: unknown): ClinvarAssertion | null {
  const c = raw as StoredClinvar | null;
  if (!c?.significance) return null;
  const match = c.match === 'same_codon' || c.match === 'same_amino_acid' ? c.match : 'exact';
  const idType = c.idType === 'allele' || c.idType === 'variation' ? c.idType : c.id ? (match === 'exact' ? 'variation' : 'allele') : null;
  const stars = Math.max(0, Math.min(4, Math.round(c.stars ?? 0)));
  return {
    significance: c.significance.replace(/_/g, ' '),
    stars,
    reviewStatus: c.reviewStatus ?? (match === 'exact' ? reviewStatusOfStars(stars) : null),
    release: c.release ?? null,
    source: c.source ? (SOURCE_LABEL[c.source] ?? c.source) : null,
    id: c.id ?? null,
    idType,
    url: clinvarUrl(c.id ?? null, idType),
    match,
  };
}

export function presentVariant(v: ListedVariantRow, reviews: ReviewerClassifications = NO_REVIEWS): VariantRow {
  return {
    id: v.id,
    rank: v.rank,
    chrom: v.chrom,
    pos: v.pos,
    ref: v.ref,
    alt: v.alt,
    gene: v.gene,
    transcript: v.transcript,
    consequence: v.consequence,
    consequences: v.consequences,
    impact: v.impact,
    hgvsC: v.hgvsC,
    hgvsP: v.hgvsP,
    af: v.af,
    clinvar: v.clinvarSignificance,
    clinvarAssertion: presentClinvarAssertion(v.clinvar),
    acmg: v.acmgClass,
    acmgPoints: v.acmgPoints,
    reviewerClassification: reviews.get(alleleKey(v)) ?? null,
    zygosity: presentZygosity(v.chrom, v.zygosity),
    score: v.score,
    genotypes: v.genotypes ? Object.fromEntries(Object.entries(v.genotypes).map(([sample, g]) => [sample, presentGenotype(g)])) : null,
    inheritance: v.inheritance.filter((t): t is InheritanceFilter => (InheritanceFilter.options as readonly string[]).includes(t)),
    compoundHetPartners: v.inheritanceDetail?.partners ?? [],
    inheritanceRules: v.inheritanceDetail?.rules ?? [],
  };
}

interface StoredGenotype {
  gt?: string;
  zygosity?: string;
  depth?: number;
  genotypeQuality?: number;
  alleleDepths?: number[];
  heteroplasmy?: number;
}
export function presentVariantDetails(v: RunVariantRow, inputAssembly: string, reviews: ReviewerClassifications = NO_REVIEWS): VariantDetails {
  const g = (v.genotype ?? {}) as StoredGenotype;
  const c = v.clinvar as StoredClinvar | null;
  const input = readStoredInput(v);
  const criteria = (v.acmgCriteria ?? []) as { code: string; strength: string; points: number; reason: string }[];
  const details = readStoredDetails(v.details);
  return {
    ...presentVariant(v, reviews),
    hgncId: v.hgncId,
    isManeSelect: v.isManeSelect,
    afSource: v.afSource,
    qual: v.qual,
    filter: v.filter,
    genotype: {
      gt: g.gt ?? '.',
      zygosity: presentZygosity(v.chrom, v.zygosity),
      depth: g.depth ?? null,
      genotypeQuality: g.genotypeQuality ?? null,
      alleleDepths: g.alleleDepths ?? null,
      heteroplasmy: g.heteroplasmy ?? null,
    },
    input: { chrom: input.chrom, pos: input.pos, ref: input.ref, alt: input.alt, line: input.line },
    inputAssembly,
    acmgCriteria: criteria.map((k) => ({ code: k.code, strength: k.strength, points: k.points, reason: k.reason })),
    clinvarRecord: c
      ? {
          significance: c.significance ?? 'unknown',
          stars: c.stars ?? 0,
          id: c.id ?? null,
          conditions: c.conditions ?? [],
          match: c.match ?? 'exact',
        }
      : null,
    frequencies: v.af == null ? [] : [{ source: v.afSource ?? 'population', af: v.af }],
    acmgNotAssessed: (details?.acmgNotAssessed ?? []).map((n) => ({ code: n.code, reason: n.reason })),
    codingOutcome: (details?.codingOutcome ?? []).map((o) => ({ term: o.term, p: o.p })),
    rankingFilters: filterOutcomes(filterInputOf(v)),
    otherGenes: (details?.otherGenes ?? []).map((o) => ({ gene: o.gene, transcript: o.transcript, consequences: o.consequences, impact: o.impact })),
    geneConstraint: details?.geneConstraint
      ? {
          pLI: details.geneConstraint.pLI,
          loeuf: details.geneConstraint.loeuf,
          misZ: details.geneConstraint.misZ,
          source: details.geneConstraint.source,
        }
      : null,
  };
}


/** What the engine's ranking filters read, from a stored row. */
function filterInputOf(v: RunVariantRow): FilterInput {
  return {
    gene: v.gene,
    filter: v.filter,
    af: v.af,
    impact: v.impact as FilterInput['impact'],
    consequences: v.consequences,
    genotype: { zygosity: v.zygosity as FilterInput['genotype']['zygosity'] },
    acmg: { classification: v.acmgClass as FilterInput['acmg']['classification'] },
    clinvar: v.clinvarSignificance === null ? null : { significance: v.clinvarSignificance },
  };
}
