/**
 * analyse-case: reads the case's uploaded VCF, annotates every variant, stores them, ranks
 * diseases/genes/variants against the patient's HPO terms and publishes the run.
 *
 * Idempotent: results are written under a fresh run id. A retry first deletes runs that never
 * completed (partial results of a crashed attempt); the run becomes visible only in the final
 * transaction, which also checks that this worker still holds the job, so a worker presumed
 * dead can never publish a second copy.
 */
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { AnalysisInputError, type AnalysisEngine } from './analysis-engine.ts';
import { defineJob, type JobDefinition } from './job.registry.ts';
import type { CaseAnalysisStore, RunVariant } from './ports.ts';

/** The queued payload keeps its first field name (`productId` = the case id) so queued jobs stay readable. */
export const AnalyseCasePayload = z.object({ productId: z.uuid() });
export type AnalyseCasePayload = z.infer<typeof AnalyseCasePayload>;

export const FASTQ_NOT_AVAILABLE =
  'Raw FASTQ analysis is not available yet: the FASTQ file was stored, but aligning reads and calling variants is a planned add-on. Upload a VCF to analyse this case now.';

export interface AnalysisDeps {
  db: Db;
  store: CaseAnalysisStore;
  storage: ObjectStorage;
  /** Loaded lazily (the KB is large): the first job waits for it, later jobs reuse it. */
  engine: () => Promise<AnalysisEngine>;
}

/** Share of the progress bar taken by reading + annotating + storing (ranking gets the rest). */
const ANNOTATE_SHARE = 90;
const PROGRESS_EVERY_MS = 1000;
/** Variants stored per write while streaming. */
const STORE_BATCH = 5000;

/** Is this error a problem with the input (no point retrying)? */
export function isInputError(e: unknown): boolean {
  if (e instanceof AnalysisInputError) return true;
  // Engine parse errors carry the file line; they are named rather than imported so the job
  // does not depend on which engine module throws them.
  const name = e instanceof Error ? e.name : '';
  return [
    'VcfParseError',
    'AssemblyConflictError',
    'AssemblyDetectionError',
    'LiftoverError',
  ].includes(name);
}

/** The text shown under "An error occurred". */
export function describeFailure(e: unknown): string {
  if (isInputError(e)) return (e as Error).message;
  return `The analysis failed unexpectedly (${e instanceof Error ? e.message : String(e)}). Please try again or contact support.`;
}

export function createAnalyseCaseJob(deps: AnalysisDeps): JobDefinition<AnalyseCasePayload> {
  return defineJob({
    name: 'analyse-case',
    payload: AnalyseCasePayload,
    retry: { maxAttempts: 3, delaySeconds: 2, backoff: true },
    isPermanent: isInputError,
    async perform({ productId: caseId }, ctx) {
      const { db, store, storage } = deps;
      const caseRow = await store.findCase(db, caseId);
      if (!caseRow) return; // case deleted meanwhile: nothing to do
      if (caseRow.status === 'Completed' && caseRow.currentRunId) {
        const run = await store.findRun(db, caseRow.currentRunId);
        if (run?.jobId === ctx.jobId) return; // this job already published its run
      }
      await store.setStatus(db, caseId, { status: 'Processing', progress: 0 });
      if (caseRow.genomeFormat === 'fastq') throw new AnalysisInputError(FASTQ_NOT_AVAILABLE);

      const genome = await store.findGenomeFile(db, caseId);
      if (!genome) throw new AnalysisInputError('The case has no genome file.');
      const t0 = performance.now();
      const engine = await deps.engine();
      const msEngineLoad = performance.now() - t0;
      await store.deleteUnfinishedRuns(db, caseId);

      await storage.withLocalFile(genome.storageKey, async (path) => {
        let lastProgressAt = 0;
        let fraction = 0;
        const stream = await engine.annotate({
          path,
          displayName: genome.originalName,
          assembly:
            caseRow.assemblyRequested === 'auto' ? null : caseRow.assemblyRequested,
          signal: ctx.signal,
          onProgress: (f) => {
            fraction = f;
          },
        });
        const runId = await store.insertRun(db, {
          caseId,
          jobId: ctx.jobId,
          softwareVersion: engine.softwareVersion,
          kbVersions: engine.kbVersions,
          assembly: 'GRCh38',
          inputAssembly: stream.inputAssembly,
          hpoTerms: caseRow.hpoTerms,
          excludedTerms: caseRow.excludedTerms,
        });
        const tAnnotate = performance.now();
        let msInsert = 0;
        // Candidates stay in memory until ranked and are stored with their rank (no later
        // UPDATE of indexed rows); all other variants are stored as they stream by.
        const candidates: RunVariant[] = [];
        let batch: RunVariant[] = [];
        let ordinal = 0;
        for await (const v of stream.variants) {
          ctx.signal.throwIfAborted();
          ordinal++;
          if (engine.isRankCandidate(v)) {
            candidates.push({ id: ordinal, variant: v });
            continue;
          }
          batch.push({ id: ordinal, variant: v });
          if (batch.length >= STORE_BATCH) {
            const ti = performance.now();
            await store.insertVariants(db, runId, batch);
            msInsert += performance.now() - ti;
            batch = [];
            const now = Date.now();
            if (now - lastProgressAt > PROGRESS_EVERY_MS) {
              lastProgressAt = now;
              await store.setProgress(db, caseId, fraction * ANNOTATE_SHARE);
            }
          }
        }
        const ti = performance.now();
        await store.insertVariants(db, runId, batch);
        msInsert += performance.now() - ti;
        const msAnnotateAndStore = performance.now() - tAnnotate;
        await store.setProgress(db, caseId, ANNOTATE_SHARE);
        const tRank = performance.now();

        // Ranking uses the terms as they are now (the user may have edited them while queued).
        const latest = (await store.findCase(db, caseId)) ?? caseRow;
        const ranking = await engine.rank(candidates.map((c) => c.variant), {
          hpoTerms: latest.hpoTerms,
          excludedTerms: latest.excludedTerms,
          sex: latest.gender,
        });
        ctx.signal.throwIfAborted();
        const msRank = performance.now() - tRank;
        const tPublish = performance.now();
        await store.insertCandidates(db, runId, candidates, ranking);
        const counts: Record<string, number> = {
          ...stream.counts(),
          variantsStored: ordinal,
          rankCandidates: candidates.length,
        };
        await db.transaction(async (tx) => {
          await ctx.assertOwnership(tx);
          await store.storeRanking(tx, runId, ranking, (s) => engine.geneFacts(s));
          await store.markRanked(tx, runId, {
            hpoTerms: latest.hpoTerms,
            excludedTerms: latest.excludedTerms,
          });
          // Step timings (ms), kept with the run like the counts.
          Object.assign(counts, {
            msEngineLoad: Math.round(msEngineLoad),
            msAnnotateAndStore: Math.round(msAnnotateAndStore),
            msInsert: Math.round(msInsert),
            msRank: Math.round(msRank),
            msPublish: Math.round(performance.now() - tPublish),
          });
          await store.completeRun(tx, runId, counts);
          await store.setStatus(tx, caseId, {
            status: 'Completed',
            runId,
            assembly: stream.inputAssembly,
          });
          await store.deleteOtherRuns(tx, caseId, runId);
        });
        await store.refreshVariantStats(db);
      });
    },
    async onFailed({ productId: caseId }, error) {
      await deps.store.deleteUnfinishedRuns(deps.db, caseId);
      await deps.store.setStatus(deps.db, caseId, {
        status: 'Error',
        reason: describeFailure(error),
      });
    },
  });
}
