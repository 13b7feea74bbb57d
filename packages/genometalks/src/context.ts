/**
 * What GenomeTalks knows about one case: the case's own results as the cases API presents
 * them (ranked genes, diseases and candidate variants with their evidence), plus the run's
 * provenance. The server builds it from the stored run; the benchmark builds it from the
 * same engine path the analysis job uses.
 */
import type {
  AnalysisRunInfo,
  GeneDetails,
  PhenotypeRow,
  ProductStatus,
  TermRef,
  VariantDetails,
} from '@rarelens/contract';

/** A ranked gene with the KB facts shown on the gene page (its variants are in `variants`). */
export type CaseGene = Omit<GeneDetails, 'variants'>;

/** A ranked disease with the readable lines the phenotype page shows. */
export type CaseDisease = PhenotypeRow & { explanation: string[]; mergedIds: string[] };

/** A ranked candidate variant with the evidence the variant screen shows. */
export type CaseVariant = VariantDetails;

export interface CaseContext {
  product: {
    id: string;
    caseId: string;
    sex: 'male' | 'female';
    status: ProductStatus;
    /** The present terms the ranking used. */
    hpoTerms: TermRef[];
    excludedTerms: TermRef[];
    hpoTermsSource: 'given' | 'phenome';
  };
  /** The run whose results are shown; null while the case has none. */
  run: AnalysisRunInfo | null;
  /** Ranked genes, rank order. */
  genes: CaseGene[];
  /** Ranked diseases, rank order. */
  diseases: CaseDisease[];
  /** Ranked candidate variants (rank not null), rank order; the top of the list only. */
  variants: CaseVariant[];
  totals: {
    /** Every variant stored for the run. */
    variants: number;
    /** Variants the ranking considered (rare, not benign, in a gene, FILTER PASS). */
    candidates: number;
  };
}

export type CitationKind = 'gene' | 'disease' | 'variant' | 'hpo' | 'clinvar' | 'acmg';

/** One piece of evidence an answer rests on, with the case screen that shows it. */
export interface Citation {
  kind: CitationKind;
  /** Gene symbol, disease id, variant id (as a string), HPO id, ClinVar id or `<variantId>:<ACMG code>`. */
  id: string;
  label: string;
  /** Path of the web app screen showing it. */
  href: string;
}

export type Intent =
  | 'top-candidate'
  | 'gene'
  | 'variant'
  | 'symptom'
  | 'disease'
  | 'examine-next'
  | 'compare'
  | 'inheritance'
  | 'limitations'
  | 'help'
  | 'not-ready'
  | 'unknown';

export interface ChatAnswer {
  /** Plain text; lines starting with "- " are list items. */
  text: string;
  citations: Citation[];
  intent: Intent;
}
