/**
 * SQL of the analysis of a case (what the jobs write): the case's processing status, runs,
 * annotated variants, ranked phenotypes and genes. Writes are keyed by run id; the case only
 * points at a run once the run is complete. (Tables keep their first names: a case is a row
 * of `products`; see docs/ARCHITECTURE.md.)
 */
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { AnnotatedVariant } from '@rarelens/engine';
import { appendLastField, cachedCopyTable, yieldToRequests, type BulkLoad } from '../../db/bulk-copy.ts';
import { rowsOf, type Database, type Executor } from '../../db/database.ts';
import { findOne } from '../../db/find-one.ts';
import type { GeneVariantStats } from '../../db/gene-significance.ts';
import { CANDIDATE_ROW_TEXT, ENCODED_VARIANTS, fromVariantRow, RANKED_FILTER_COLUMNS, rawRowDecoder, type StoredCandidates } from '../../db/run-variants.ts';
import {
  analysisRuns,
  productFiles,
  products,
  runGenes,
  runPhenotypes,
  runVariantGenes,
  runVariantRanks,
  runVariants,
  type AnalysisRunRow,
  type RunVariantRankRow,
  type NewRunFields,
  type ProductFileRow,
  type ProductRow,
} from '../../db/schema/products.ts';
import { readAlignments } from '../../db/schema/read-alignments.ts';

export { geneVariantStats, storedGeneVariantStats, type GeneVariantStats } from '../../db/gene-significance.ts';

export interface NewRun extends NewRunFields {
  /** The case (column product_id). */
  productId: string;
}

export async function insertRun(db: Executor, run: NewRun): Promise<string> {
  const [row] = await db.insert(analysisRuns).values(run).returning({ id: analysisRuns.id });
  if (!row) throw new Error('insert into analysis_runs returned no row');
  return row.id;
}

/** Deletes runs of a case that never completed (partial results of a crashed attempt). */
export async function deleteUnfinishedRuns(db: Executor, caseId: string): Promise<void> {
  await db
    .delete(analysisRuns)
    .where(and(eq(analysisRuns.productId, caseId), eq(analysisRuns.state, 'running')));
}

/** Deletes every run of the case except `keepRunId` (older results, once a new run is live). */
export async function deleteOtherRuns(
  db: Executor,
  caseId: string,
  keepRunId: string,
): Promise<void> {
  await db
    .delete(analysisRuns)
    .where(and(eq(analysisRuns.productId, caseId), ne(analysisRuns.id, keepRunId)));
}

export { fromVariantRow, toVariantRow } from '../../db/run-variants.ts';


type VariantInsert = typeof runVariants.$inferInsert;

/** Writes variant rows with COPY (see db/bulk-copy.ts). */
export async function copyVariants(
  into: Pick<BulkLoad, 'copy'>,
  kind: Database['kind'],
  rows: VariantInsert[],
): Promise<void> {
  await into.copy(cachedCopyTable(runVariants, kind), rows);
}

/** Writes variants encoded by encodeStoredVariants under `runId` (PostgreSQL). */
export async function copyEncodedVariants(into: Pick<BulkLoad, 'copyText'>, runId: string, text: string): Promise<void> {
  await into.copyText(ENCODED_VARIANTS, appendLastField(text, runId));
}

/**
 * Writes the ranks of a run's candidates (run_variant_ranks, rows in rank order: rankRows) with
 * COPY; the run has none (a first ranking, or deleteRanked before it in the same transaction).
 */
export async function copyVariantRanks(into: Pick<BulkLoad, 'copy'>, kind: Database['kind'], rows: RunVariantRankRow[]): Promise<void> {
  await into.copy(cachedCopyTable(runVariantRanks, kind), rows);
}

/** Writes the ranked genes and phenotypes of a run that has none yet, with COPY. */
export async function copyRanked(
  into: Pick<BulkLoad, 'copy'>,
  kind: Database['kind'],
  genes: NewRunGene[],
  phenotypes: NewRunPhenotype[],
): Promise<void> {
  await into.copy(cachedCopyTable(runGenes, kind), genes);
  await into.copy(cachedCopyTable(runPhenotypes, kind), phenotypes);
}

/**
 * Writes the per-gene aggregate of a run's stored variants (run_variant_genes: the clustered
 * view's gene list) from geneVariantStats, in the publishing transaction.
 */
export async function copyVariantGenes(
  into: Pick<BulkLoad, 'copy'>,
  kind: Database['kind'],
  runId: string,
  stats: Map<string, GeneVariantStats>,
): Promise<void> {
  const rows = [...stats].map(([gene, s]) => ({ runId, gene, variantCount: s.count, maxScore: s.maxScore, automaticSignificance: s.automatic }));
  await into.copy(cachedCopyTable(runVariantGenes, kind), rows);
}

/** Candidate variants of a run with their ids, in id order. */
export async function loadCandidates(
  db: Executor,
  runId: string,
): Promise<{ id: number; variant: AnnotatedVariant; inheritance: { tags: string[]; partners: number[]; rules: string[] } }[]> {
  const rows = await db
    .select()
    .from(runVariants)
    .where(and(eq(runVariants.runId, runId), eq(runVariants.isCandidate, true)))
    .orderBy(asc(runVariants.id));
  // The family tags go with them: a re-rank writes them into the candidates' rank rows.
  return rows.map((r) => ({
    id: r.id,
    variant: fromVariantRow(r),
    inheritance: { tags: r.inheritance, partners: r.inheritanceDetail?.partners ?? [], rules: r.inheritanceDetail?.rules ?? [] },
  }));
}


/**
 * The run's candidates in id order as stored-row texts (CANDIDATE_ROW_TEXT, decoded where the
 * ranking runs) with the id, gene and score the candidate order needs.
 */
export async function loadCandidateRows(db: Executor, runId: string): Promise<StoredCandidates> {
  const rows = rowsOf(
    await db.execute(sql`
      select ${runVariants.id} as id, ${runVariants.score} as score, ${CANDIDATE_ROW_TEXT} as row,
        ${sql.join(Object.values(RANKED_FILTER_COLUMNS), sql`, `)}
      from ${runVariants} where ${runVariants.runId} = ${runId} and ${runVariants.isCandidate} order by ${runVariants.id}`),
  );
  const filterColumns = rows.map(filterColumnsOf);
  return {
    ids: rows.map((r) => Number(r.id)),
    genes: filterColumns.map((c) => c.gene ?? null),
    scores: rows.map((r) => Number(r.score)),
    filterColumns,
    rows: rows.map((r) => String(r.row)),
  };
}

/** A candidate's filter columns (RANKED_FILTER_COLUMNS, selected under their names) from a raw row. */
const filterColumnsOf = rawRowDecoder(RANKED_FILTER_COLUMNS);

export type NewRunGene = typeof runGenes.$inferInsert;
export type NewRunPhenotype = typeof runPhenotypes.$inferInsert;

/**
 * Deletes the run's ranked genes and phenotypes and its candidates' ranks (re-ranking, before
 * copyRanked and copyVariantRanks in the same transaction).
 */
export async function deleteRanked(tx: Executor, runId: string): Promise<void> {
  await tx.delete(runPhenotypes).where(eq(runPhenotypes.runId, runId));
  await tx.delete(runGenes).where(eq(runGenes.runId, runId));
  await tx.delete(runVariantRanks).where(eq(runVariantRanks.runId, runId));
}

/**
 * The columns of run_variants whose statistics the planner reads: those of the readers' WHERE,
 * ORDER BY and allele lookups (db/run-variants.ts, the repositories). The JSON columns and the
 * display-only text are never filtered on, and computing their statistics (every sampled value
 * detoasted, compared and hashed) was four fifths of an ANALYZE.
 */
const PLANNER_COLUMNS = [
  runVariants.runId,
  runVariants.id,
  runVariants.score,
  runVariants.chrom,
  runVariants.pos,
  runVariants.ref,
  runVariants.alt,
  runVariants.gene,
  runVariants.consequence,
  runVariants.af,
  runVariants.clinvarSignificance,
  runVariants.acmgClass,
  runVariants.zygosity,
  runVariants.isCandidate,
  runVariants.inheritance,
];
const analyzeRunVariants = sql.raw(`analyze run_variants (${PLANNER_COLUMNS.map((c) => `"${c.name}"`).join(', ')}), run_variant_ranks`);

/** ANALYZE once the rows loaded since the last one reach this share of the table (PostgreSQL autovacuum's default rule). */
export const ANALYZE_SCALE_FACTOR = 0.1;
/** Rows loaded since the last ANALYZE, per database handle (PGlite keeps no table statistics counters). */
const loadedSinceAnalyze = new WeakMap<object, number>();

/**
 * After a bulk load or a re-rank (`loadedRows` 0): VACUUM sets the visibility map of the pages
 * written, so list pages are index-only scans at once (not after autovacuum gets to it; PGlite
 * has none). ANALYZE (of the planner's columns) follows when the rows loaded since the last one
 * reach ANALYZE_SCALE_FACTOR of the table — the first runs always, a small case into a large
 * table not: it samples 30,000 rows of the whole table, seconds on a loaded laptop, and on
 * PGlite, whose single connection runs on the API's thread, every request waits for it.
 * A re-rank writes no run_variants row (the ranks are in run_variant_ranks) and never changes
 * the statistics. It vacuums run_variants still: a load's VACUUM leaves pages not all-visible
 * while an older snapshot of the database is open (bench:cases: the list's index-only scans
 * then fetched 10-26 k heap rows per count), and the next VACUUM, which skips the all-visible
 * pages, sets them. run_variant_ranks, run_genes and run_phenotypes are vacuumed too: every
 * re-rank deletes and rewrites a run's ranks, ranked genes and phenotypes, and on PGlite (no autovacuum) their dead rows and index entries
 * piled up: an exome's delete of them took 13-17 ms CPU at the first re-rank and 150-175 ms
 * after 20, its COPY of 5,296 genes ~350 ms and then ~515 ms.
 * Before each statement the requests in flight get the connection (yieldToRequests).
 * Runs outside any transaction (VACUUM cannot run inside one).
 */
export async function refreshVariantStats(db: Executor, loadedRows: number): Promise<void> {
  await yieldToRequests();
  await db.execute(sql`vacuum run_variants, run_variant_ranks, run_genes, run_phenotypes`);
  if (loadedRows <= 0) return;
  const pending = (loadedSinceAnalyze.get(db) ?? 0) + loadedRows;
  // After the VACUUM, reltuples counts the rows just loaded.
  const [row] = rowsOf(await db.execute(sql`select reltuples::float8 as n from pg_class where oid = 'run_variants'::regclass`));
  const tableRows = Number(row?.n ?? -1);
  if (tableRows > 0 && pending < ANALYZE_SCALE_FACTOR * tableRows) {
    loadedSinceAnalyze.set(db, pending);
    return;
  }
  await yieldToRequests();
  await db.execute(analyzeRunVariants);
  loadedSinceAnalyze.set(db, 0);
}

export async function completeRun(
  tx: Executor,
  runId: string,
  counts: Record<string, number>,
): Promise<void> {
  await tx
    .update(analysisRuns)
    .set({ state: 'completed', counts, completedAt: sql`now()`, rankedAt: sql`now()` })
    .where(eq(analysisRuns.id, runId));
}

export async function markRanked(
  tx: Executor,
  runId: string,
  terms: { hpoTerms: string[]; excludedTerms: string[] },
  counts?: Record<string, number>,
): Promise<void> {
  await tx
    .update(analysisRuns)
    .set({
      ...terms,
      rankedAt: sql`now()`,
      ...(counts ? { counts: sql`${analysisRuns.counts} || ${JSON.stringify(counts)}::jsonb` } : {}),
    })
    .where(eq(analysisRuns.id, runId));
}

/** Stores the family and trio QC of a family case's run. */
export async function storeFamily(db: Executor, runId: string, family: NonNullable<AnalysisRunRow['family']>): Promise<void> {
  await db.update(analysisRuns).set({ family }).where(eq(analysisRuns.id, runId));
}

export { findRun } from '../../db/analysis-runs.ts';

export function findCase(db: Executor, caseId: string): Promise<ProductRow | null> {
  return findOne(db, products, eq(products.id, caseId));
}

/** Lock the case row for the rest of the transaction (serialises status changes). */
export async function lockCase(tx: Executor, caseId: string): Promise<ProductRow | null> {
  const [row] = await tx.select().from(products).where(eq(products.id, caseId)).for('update');
  return row ?? null;
}

/** The uploaded genome file of a case (VCF or FASTQ; 'mate' = the mate FASTQ of paired reads), if any. */
export async function findGenomeFile(db: Executor, caseId: string, role: 'genome' | 'mate' = 'genome'): Promise<ProductFileRow | null> {
  const [row] = await findGenomeFiles(db, caseId, role, 1);
  return row ?? null;
}

/** Every uploaded file of a role, by upload time then file name (files of one upload share the time; 'relative' = the relatives' separately called VCFs). */
export async function findGenomeFiles(db: Executor, caseId: string, role: 'genome' | 'mate' | 'relative', limit?: number): Promise<ProductFileRow[]> {
  const q = db
    .select()
    .from(productFiles)
    .where(and(eq(productFiles.productId, caseId), eq(productFiles.role, role)))
    .orderBy(productFiles.createdAt, productFiles.originalName, productFiles.id);
  return limit === undefined ? q : q.limit(limit);
}

export type StatusUpdate =
  | { status: 'In queue' }
  | { status: 'Processing'; progress: number; stage?: string | null }
  | { status: 'Completed'; runId: string; assembly: string }
  | { status: 'Error'; reason: string };

/** The columns of a case that a processing state sets. */
function statusColumns(update: StatusUpdate): Partial<typeof products.$inferInsert> {
  switch (update.status) {
    case 'In queue':
      return { status: 'In queue', progress: 0, progressStage: null, errorReason: null };
    case 'Processing':
      return {
        status: 'Processing',
        progress: Math.max(0, Math.min(100, Math.round(update.progress))),
        progressStage: update.stage ?? null,
        errorReason: null,
      };
    case 'Completed':
      return {
        status: 'Completed',
        progress: 100,
        progressStage: null,
        errorReason: null,
        currentRunId: update.runId,
        assembly: update.assembly,
      };
    case 'Error':
      return { status: 'Error', progressStage: null, errorReason: update.reason.slice(0, 2000) };
  }
}

/** Sets the processing state shown in the UI. */
export async function setStatus(
  db: Executor,
  caseId: string,
  update: StatusUpdate,
): Promise<void> {
  await db
    .update(products)
    .set({ updatedAt: sql`now()`, ...statusColumns(update) })
    .where(eq(products.id, caseId));
}

/** Progress only, and only while the case is Processing (cheap, called often). */
export async function setProgress(
  db: Executor,
  caseId: string,
  progress: number,
  stage?: string,
): Promise<void> {
  await db
    .update(products)
    .set({ progress: Math.max(0, Math.min(99, Math.round(progress))), ...(stage === undefined ? {} : { progressStage: stage }) })
    .where(and(eq(products.id, caseId), eq(products.status, 'Processing')));
}

/** Records what the raw data analysis of a run produced (in the run's publishing transaction). */
export async function insertReadAlignment(db: Executor, row: typeof readAlignments.$inferInsert): Promise<void> {
  await db.insert(readAlignments).values(row);
}
