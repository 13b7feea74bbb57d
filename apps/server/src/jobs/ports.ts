/**
 * What the analysis jobs need from the rest of the server, as interfaces: the jobs drive the
 * analysis of a case through these ports and never import a module. The implementation is
 * `modules/analysis/analysis.service.ts`; app.ts and worker.ts wire it in (boot/).
 */
import type { AnnotatedVariant } from '@rarelens/engine';
import type { Executor } from '../db/database.ts';
import type { ProductFileRow, ProductRow } from '../db/schema/products.ts';
import type { GeneFacts, RankingValue } from './analysis-engine.ts';

/** The processing state shown in the UI. */
export type CaseStatusUpdate =
  | { status: 'In queue' }
  | { status: 'Processing'; progress: number }
  | { status: 'Completed'; runId: string; assembly: string }
  | { status: 'Error'; reason: string };

export interface NewRunInfo {
  caseId: string;
  jobId: string | null;
  softwareVersion: string;
  kbVersions: Record<string, string>;
  assembly: string;
  inputAssembly: string;
  hpoTerms: string[];
  excludedTerms: string[];
}

/** An annotated variant of a run: `id` is its 1-based position in the input's variant stream. */
export interface RunVariant {
  id: number;
  variant: AnnotatedVariant;
}

/** The case, its runs and results as the analysis jobs read and write them. */
export interface CaseAnalysisStore {
  findCase(db: Executor, caseId: string): Promise<ProductRow | null>;
  /** Locks the case row until the transaction ends. */
  lockCase(tx: Executor, caseId: string): Promise<ProductRow | null>;
  setStatus(db: Executor, caseId: string, update: CaseStatusUpdate): Promise<void>;
  /** Progress only, and only while the case is Processing. */
  setProgress(db: Executor, caseId: string, progress: number): Promise<void>;
  findGenomeFile(db: Executor, caseId: string): Promise<ProductFileRow | null>;
  findRun(db: Executor, runId: string): Promise<{ jobId: string | null } | null>;
  insertRun(db: Executor, run: NewRunInfo): Promise<string>;
  /** Deletes runs that never completed (partial results of a crashed attempt). */
  deleteUnfinishedRuns(db: Executor, caseId: string): Promise<void>;
  /** Deletes every run of the case except `keepRunId`. */
  deleteOtherRuns(db: Executor, caseId: string, keepRunId: string): Promise<void>;
  /** Stores variants the ranking does not look at (no rank). */
  insertVariants(db: Executor, runId: string, variants: RunVariant[]): Promise<void>;
  /** Stores the ranking's candidates with their rank in `ranking`. */
  insertCandidates(db: Executor, runId: string, candidates: RunVariant[], ranking: RankingValue): Promise<void>;
  /** The run's candidate variants, in id order. */
  loadCandidates(db: Executor, runId: string): Promise<RunVariant[]>;
  /**
   * Replaces the run's ranked phenotypes and genes; with `rerankedCandidates` (the run's
   * candidates, ranked again), also their ranks.
   */
  storeRanking(
    tx: Executor,
    runId: string,
    ranking: RankingValue,
    geneFacts: (symbol: string) => GeneFacts | null,
    rerankedCandidates?: RunVariant[],
  ): Promise<void>;
  markRanked(tx: Executor, runId: string, terms: { hpoTerms: string[]; excludedTerms: string[] }): Promise<void>;
  completeRun(tx: Executor, runId: string, counts: Record<string, number>): Promise<void>;
  /** Planner statistics after a bulk write (outside any transaction). */
  refreshVariantStats(db: Executor): Promise<void>;
}
