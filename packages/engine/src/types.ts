/**
 * Core value types shared by the engine's parts (VCF reading, annotation, ranking) and by the
 * apps. Coordinates: `pos` is the 1-based VCF position; internal interval maths is 0-based
 * half-open and converted only through `fromVcfPos`/`toVcfPos` (CONVENTIONS §5).
 */

export type Assembly = 'GRCh37' | 'GRCh38';
export type Sex = 'male' | 'female' | 'unknown';
export type Zygosity = 'heterozygous' | 'homozygous' | 'hemizygous' | 'reference' | 'no_call' | 'unknown';

/** 1-based VCF POS -> 0-based start. */
export const fromVcfPos = (pos: number): number => pos - 1;
/** 0-based start -> 1-based VCF POS. */
export const toVcfPos = (start0: number): number => start0 + 1;

/** A variant allele in VCF style (after multi-allelic splitting), as read from the input. */
export interface VariantKey {
  /** Normalised contig without 'chr' prefix: '1'..'22', 'X', 'Y', 'MT', or other names verbatim. */
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
}

export interface Genotype {
  /** The GT string as in the file, e.g. '0/1', '1|1', '1', './.'. */
  gt: string;
  zygosity: Zygosity;
  depth?: number;
  genotypeQuality?: number;
  /** Reads supporting ref and this alt, when AD is present. */
  alleleDepths?: [number, number];
  /**
   * Mitochondrial variants only: the fraction of reads carrying this allele (FORMAT AF, else AD),
   * from which the call reads as homoplasmic or heteroplasmic (mitochondrialZygosity).
   */
  heteroplasmy?: number;
}

export type Impact = 'HIGH' | 'MODERATE' | 'LOW' | 'MODIFIER';
export type AcmgClass = 'Pathogenic' | 'Likely pathogenic' | 'Uncertain significance' | 'Likely benign' | 'Benign';
export type AcmgStrength =
  | 'VeryStrong'
  | 'Strong'
  | 'Moderate'
  | 'Supporting'
  | 'StandAlone';

export interface AcmgCriterion {
  /** e.g. 'PVS1', 'PM2', 'BP4'. */
  code: string;
  /** Evidence direction is implied by the code (P* pathogenic, B* benign). */
  strength: AcmgStrength;
  /** Points on the Tavtigian scale (+8/+4/+2/+1 pathogenic, negative for benign). */
  points: number;
  reason: string;
}

export interface ClinvarHit {
  significance: string;
  stars: number;
  /** ClinVar id when known: a Variation ID for exact matches, an AlleleID for same-codon hits (see `idType`). */
  id?: string;
  conditions?: string[];
  /** 'exact' allele match, or a pathogenic change at the same codon/amino acid. */
  match: 'exact' | 'same_codon' | 'same_amino_acid';
  /** Review status as ClinVar displays it (absent in results stored before it was kept). */
  reviewStatus?: string;
  /** ClinVar release of the record, e.g. '2026-02-26' or '2016-09'; null when the KB does not record it. */
  release?: string | null;
  /** Which file the record comes from: native GRCh38 ClinVar VCF, the GRCh37 file lifted, or the InterVar PS1 table. */
  source?: 'grch38' | 'grch37-lifted' | 'intervar';
  idType?: 'variation' | 'allele';
}

/** One annotated, classified variant: the unit the ranking, the apps and the report consume. */
export interface AnnotatedVariant extends VariantKey {
  /** The record as written in the input file (before liftover/normalisation). */
  input: VariantKey & { line: number };
  assembly: 'GRCh38';
  genotype: Genotype;
  filter: string[];
  qual: number | null;
  gene: string | null;
  /** HGNC id when known, e.g. 'HGNC:3689'. */
  hgncId?: string | null;
  transcript: string | null;
  isManeSelect?: boolean;
  /** Sequence Ontology terms, most severe first. */
  consequences: string[];
  /**
   * When the consequence is `coding_sequence_variant` because the codon is not known (no reference
   * sequence): the probability of each possible outcome (missense_variant, synonymous_variant,
   * stop_gained, ...) over the codons consistent with the known bases, weighted by human codon
   * usage; most probable first. The pathogenicity score uses their expected severity.
   */
  codingOutcome?: { term: string; p: number }[] | null;
  impact: Impact;
  hgvsC: string | null;
  hgvsP: string | null;
  /** Population allele frequency (max over recognised populations), null when unknown. */
  af: number | null;
  afSource?: string | null;
  clinvar: ClinvarHit | null;
  acmg: {
    classification: AcmgClass;
    points: number;
    criteria: AcmgCriterion[];
    /** Criteria that could not be evaluated for lack of data (e.g. PM2 without population data), with why. */
    notAssessed?: { code: string; reason: string }[];
  };
  /** Pathogenicity in [0, 1] for ranking. */
  score: number;
  /** Other overlapping genes (their representative transcript and consequences), most severe first; up/downstream-only genes left out. */
  otherGenes?: { gene: string; transcript: string; consequences: string[]; impact: Impact }[];
  /**
   * Genotypes of the family's sequenced members at this allele (sample id -> genotype), set by a
   * family analysis; absent for a single-sample analysis (then `genotype` is the only one).
   */
  familyGenotypes?: Record<string, Genotype>;
  /** Constraint of the reported gene (gnomAD), when known. */
  geneConstraint?: { pLI: number | null; loeuf: number | null; misZ: number | null; source: string } | null;
}
