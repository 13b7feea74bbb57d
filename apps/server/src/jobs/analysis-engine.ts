/**
 * The small interface the analysis jobs need from the genomics engine. The production
 * implementation (engine.analysis.ts) wires @rarelens/engine's VCF reader, annotator and
 * ranking; keeping the jobs against this seam lets the job plumbing (queue, idempotent
 * result writes, status, recovery) be tested on its own.
 */
import type { AnnotatedVariant, Assembly } from '@rarelens/engine';

export interface TermRefValue {
  id: string;
  label: string;
}

export interface AnnotateInput {
  /** Local path of the uploaded VCF (plain, gzip or bgzip). */
  path: string;
  /** The file name the user uploaded, used in error messages. */
  displayName: string;
  /** Assembly given at upload; null = detect from the header (fail if it cannot be). */
  assembly: Assembly | null;
  signal: AbortSignal;
  /** Fraction of the input read so far, in [0, 1]. */
  onProgress: (fraction: number) => void;
}

export interface AnnotationStream {
  /** Assembly of the input file (as given, or detected). */
  inputAssembly: Assembly;
  /** Annotated variants in input order (GRCh38; inputs on GRCh37 are lifted over). */
  variants: AsyncIterable<AnnotatedVariant>;
  /** Pipeline counts known at the end (records read, lifted, failed to lift, ...). */
  counts(): Record<string, number>;
}

export interface RankingPatient {
  hpoTerms: string[];
  excludedTerms: string[];
  sex: 'male' | 'female';
}

export interface RankedDiseaseValue {
  id: string;
  name: string;
  mergedIds: string[];
  score: number;
  probability: number;
  inheritance: TermRefValue[];
  onset: TermRefValue[];
  genes: string[];
  matchedTerms: {
    id: string;
    label: string;
    match: string;
    diseaseTermId: string | null;
    diseaseTermLabel: string | null;
  }[];
  explanation: string[];
}

export interface RankedGeneValue {
  symbol: string;
  hgncId: string | null;
  score: number;
  phenotypeScore: number;
  variantScore: number;
  /** Modes of inheritance (labels) compatible with the case for this gene. */
  inheritance: string[];
  explanation: string[];
  diseases: TermRefValue[];
}

export interface RankingValue {
  diseases: RankedDiseaseValue[];
  genes: RankedGeneValue[];
  /**
   * The engine's rank of a candidate variant (the same object passed to `rank`), or null when
   * it did not rank it; candidates without one are ordered after, by gene rank then score.
   */
  variantRank?: (v: AnnotatedVariant) => number | null;
}

export interface GeneFacts {
  hgncId: string | null;
  name: string | null;
  chromosome: string | null;
  locusType: string | null;
  description: string | null;
  synonyms: string[];
  /** Age-of-onset labels of the gene's diseases. */
  onset: string[];
}

export interface AnalysisEngine {
  readonly softwareVersion: string;
  /** e.g. { hpo, hpoAnnotations, clinvar, transcripts, genes, assembly }. */
  readonly kbVersions: Record<string, string>;
  annotate(input: AnnotateInput): Promise<AnnotationStream>;
  /** Variants the ranking looks at (kept in memory during a run; flagged for re-ranking). */
  isRankCandidate(v: AnnotatedVariant): boolean;
  rank(
    candidates: AnnotatedVariant[],
    patient: RankingPatient,
  ): RankingValue | Promise<RankingValue>;
  geneFacts(symbol: string): GeneFacts | null;
}

/** Input problems no retry can fix (bad VCF line, unknown assembly, unsupported input). */
export class AnalysisInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnalysisInputError';
  }
}
