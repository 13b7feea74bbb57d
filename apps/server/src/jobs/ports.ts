/**
 * What the analysis jobs need from the rest of the server, as interfaces: the jobs drive the
 * analysis of a case through these ports and never import a module. The implementation is
 * `modules/analysis/analysis.service.ts`; app.ts and worker.ts wire it in (boot/).
 */
import type { AnnotatedVariant } from '@rarelens/engine';
import type { Executor } from '../db/database.ts';
import type { StoredCandidates } from '../db/run-variants.ts';
import type { NewRunFields, ProductFileRow, ProductRow } from '../db/schema/products.ts';
import type { GeneFacts, RankingValue, RunFamily } from './analysis-engine.ts';

/** The processing state shown in the UI. */
export type CaseStatusUpdate =
  | { status: 'In queue' }
  | { status: 'Processing'; progress: number; stage?: string | null }
  | { status: 'Completed'; runId: string; assembly: string }
  | { status: 'Error'; reason: string };

export interface NewRunInfo extends NewRunFields {
  caseId: string;
}

/** What the raw data analysis of a run produced (files are storage keys). */
export interface ReadAlignmentInfo {
  runId: string;
  productId: string;
  layout: 'single' | 'paired' | 'interleaved';
  reference: { label: string; assembly: string; demo: boolean; contigs: { name: string; length: number }[] };
  qc: Record<string, number | null>;
  tools: Record<string, string>;
  commands: string[];
  bamKey: string;
  baiKey: string;
  vcfKey: string;
  tbiKey: string;
  bamBytes: number;
  vcfBytes: number;
}

/** An annotated variant of a run: `id` is its 1-based position in the input's variant stream. */
export interface RunVariant {
  id: number;
  variant: AnnotatedVariant;
  /** Family case: the inheritance patterns a candidate fits, its compound-het partners (ids) and the rules. */
  inheritance?: { tags: string[]; partners: number[]; rules: string[] } | null;
}

/** The bulk writes of one analysis (CaseAnalysisStore.loadRun). */
export interface RunLoad {
  /** Runs statements inside the load (after every batch sent so far). */
  executor(): Promise<Executor>;
  insertRun(run: NewRunInfo): Promise<string>;
  /** Stores variants the ranking does not look at (no rank); returns while the batch is written. */
  insertVariants(runId: string, variants: RunVariant[]): Promise<void>;
  /**
   * Stores variants given as COPY text (EncodedBatch.rows) like insertVariants; only when the
   * store `takesEncodedRows` (PostgreSQL).
   */
  insertEncodedVariants(runId: string, rows: string): Promise<void>;
  /** Runs `fn` atomically, with the bulk writes of the ranked results. */
  publish<T>(fn: (tx: Executor, results: RankedResultsWriter) => Promise<T>): Promise<T>;
}

/** The ranked results of a run, written in bulk inside RunLoad.publish. */
export interface RankedResultsWriter {
  /** Stores the ranking's candidates with their rank in `ranking`. */
  insertCandidates(runId: string, candidates: RunVariant[], ranking: RankingValue): Promise<void>;
  /** Stores the run's ranked phenotypes and genes (the run has none yet). */
  insertRanking(runId: string, ranking: RankingValue, geneFacts: (symbol: string) => GeneFacts | null): Promise<void>;
}

/** Writes a ranking again inside CaseAnalysisStore.rankingTransaction. */
export interface RankingWriter {
  /**
   * Replaces the run's ranked phenotypes and genes; with `rerankedCandidates` (the run's
   * candidates, ranked again, or as loadCandidateRows gave them with the engine's ranks), also
   * their ranks.
   */
  replaceRanking(
    runId: string,
    ranking: RankingValue,
    geneFacts: (symbol: string) => GeneFacts | null,
    rerankedCandidates?: RunVariant[] | RerankedStoredCandidates,
  ): Promise<void>;
}

/** The case, its runs and results as the analysis jobs read and write them. */
export interface CaseAnalysisStore {
  findCase(db: Executor, caseId: string): Promise<ProductRow | null>;
  /** Locks the case row until the transaction ends. */
  lockCase(tx: Executor, caseId: string): Promise<ProductRow | null>;
  setStatus(db: Executor, caseId: string, update: CaseStatusUpdate): Promise<void>;
  /** Progress (and the stage running, when given) only, and only while the case is Processing. */
  setProgress(db: Executor, caseId: string, progress: number, stage?: string): Promise<void>;
  /** The genome file, or with 'mate' the mate FASTQ of paired reads. */
  findGenomeFile(db: Executor, caseId: string, role?: 'genome' | 'mate'): Promise<ProductFileRow | null>;
  /** The relatives' separately called VCFs (merged with the genome file before the analysis). */
  findGenomeFiles(db: Executor, caseId: string, role: 'relative'): Promise<ProductFileRow[]>;
  /** Records the raw data analysis outputs of a run (in its publishing transaction). */
  insertReadAlignment(db: Executor, row: ReadAlignmentInfo): Promise<void>;
  findRun(db: Executor, runId: string): Promise<{ jobId: string | null; family: RunFamily | null } | null>;
  /** Stores the family and trio QC of a family case's run. */
  storeFamily(db: Executor, runId: string, family: RunFamily): Promise<void>;
  insertRun(db: Executor, run: NewRunInfo): Promise<string>;
  /** Deletes runs that never completed (partial results of a crashed attempt). */
  deleteUnfinishedRuns(db: Executor, caseId: string): Promise<void>;
  /** Deletes every run of the case except `keepRunId`. */
  deleteOtherRuns(db: Executor, caseId: string, keepRunId: string): Promise<void>;
  /**
   * Writes a run's results in bulk (COPY): on PostgreSQL in one transaction, so a failure
   * leaves nothing; on PGlite the variants commit batch by batch under the unpublished run and
   * `publish` is the atomic step (see db/bulk-copy.ts).
   */
  loadRun<T>(fn: (load: RunLoad) => Promise<T>): Promise<T>;
  /** Does RunLoad.insertEncodedVariants work (PostgreSQL)? The annotation may then give encoded batches. */
  readonly takesEncodedRows?: boolean;
  /** The run's candidate variants, in id order. */
  loadCandidates(db: Executor, runId: string): Promise<RunVariant[]>;
  /** The run's candidates as stored-row texts for AnalysisEngine.rankStored, in id order. */
  loadCandidateRows?(db: Executor, runId: string): Promise<StoredCandidates>;
  /**
   * Runs `fn` in one transaction (re-ranking) in which RankingWriter replaces the run's ranked
   * results (written with COPY): a failure leaves the previous ranking.
   */
  rankingTransaction<T>(fn: (tx: Executor, ranking: RankingWriter) => Promise<T>): Promise<T>;
  /** Records the terms a ranking used; `counts` (a re-ranking's timings) are merged into the run's counts. */
  markRanked(tx: Executor, runId: string, terms: { hpoTerms: string[]; excludedTerms: string[] }, counts?: Record<string, number>): Promise<void>;
  completeRun(tx: Executor, runId: string, counts: Record<string, number>): Promise<void>;
  /** Visibility map and planner statistics after a bulk load of `loadedRows` variants or a re-rank (0), outside any transaction. */
  refreshVariantStats(db: Executor, loadedRows: number): Promise<void>;
}

/** Stored candidates ranked again (AnalysisEngine.rankStored's variantRanks, aligned with ids). */
export interface RerankedStoredCandidates extends Omit<StoredCandidates, 'rows'> {
  variantRanks: (number | null)[];
}
