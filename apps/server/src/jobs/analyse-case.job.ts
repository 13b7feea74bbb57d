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
import type { AnnotatedVariant } from '@rarelens/engine';
import type { Db } from '../db/database.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import * as productsRepo from '../modules/products/products.repository.ts';
import * as resultsRepo from '../modules/products/results.repository.ts';
import { AnalysisInputError, type AnalysisEngine } from './analysis-engine.ts';
import { defineJob, type JobDefinition } from './job.registry.ts';

export const AnalyseCasePayload = z.object({ productId: z.uuid() });
export type AnalyseCasePayload = z.infer<typeof AnalyseCasePayload>;

export const FASTQ_NOT_AVAILABLE =
  'Raw FASTQ analysis is not available yet: the FASTQ file was stored, but aligning reads and calling variants is a planned add-on. Upload a VCF to analyse this case now.';

export interface AnalysisDeps {
  db: Db;
  storage: ObjectStorage;
  /** Loaded lazily (the KB is large): the first job waits for it, later jobs reuse it. */
  engine: () => Promise<AnalysisEngine>;
}

/** Share of the progress bar taken by reading + annotating + storing (ranking gets the rest). */
const ANNOTATE_SHARE = 90;
const PROGRESS_EVERY_MS = 1000;

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
    async perform({ productId }, ctx) {
      const { db, storage } = deps;
      const product = await productsRepo.findProduct(db, productId);
      if (!product) return; // case deleted meanwhile: nothing to do
      if (product.status === 'Completed' && product.currentRunId) {
        const run = await resultsRepo.findRun(db, product.currentRunId);
        if (run?.jobId === ctx.jobId) return; // this job already published its run
      }
      await productsRepo.setStatus(db, productId, { status: 'Processing', progress: 0 });
      if (product.genomeFormat === 'fastq') throw new AnalysisInputError(FASTQ_NOT_AVAILABLE);

      const genome = (await productsRepo.listFiles(db, productId)).find((f) => f.role === 'genome');
      if (!genome) throw new AnalysisInputError('The case has no genome file.');
      const t0 = performance.now();
      const engine = await deps.engine();
      const msEngineLoad = performance.now() - t0;
      await resultsRepo.deleteUnfinishedRuns(db, productId);

      await storage.withLocalFile(genome.storageKey, async (path) => {
        let lastProgressAt = 0;
        let fraction = 0;
        const stream = await engine.annotate({
          path,
          displayName: genome.originalName,
          assembly:
            product.assemblyRequested === 'auto' ? null : product.assemblyRequested,
          signal: ctx.signal,
          onProgress: (f) => {
            fraction = f;
          },
        });
        const runId = await resultsRepo.insertRun(db, {
          productId,
          jobId: ctx.jobId,
          softwareVersion: engine.softwareVersion,
          kbVersions: engine.kbVersions,
          assembly: 'GRCh38',
          inputAssembly: stream.inputAssembly,
          hpoTerms: product.hpoTerms,
          excludedTerms: product.excludedTerms,
        });
        const tAnnotate = performance.now();
        let msInsert = 0;
        // Candidates stay in memory until ranked and are stored with their rank (no later
        // UPDATE of indexed rows); all other variants are stored as they stream by.
        const candidates: AnnotatedVariant[] = [];
        const candidateIds: number[] = [];
        let batch: ReturnType<typeof resultsRepo.toVariantRow>[] = [];
        let ordinal = 0;
        for await (const v of stream.variants) {
          ctx.signal.throwIfAborted();
          ordinal++;
          if (engine.isRankCandidate(v)) {
            candidates.push(v);
            candidateIds.push(ordinal);
            continue;
          }
          batch.push(resultsRepo.toVariantRow(runId, ordinal, v, false));
          if (batch.length >= resultsRepo.VARIANT_BATCH) {
            const ti = performance.now();
            await resultsRepo.insertVariants(db, batch);
            msInsert += performance.now() - ti;
            batch = [];
            const now = Date.now();
            if (now - lastProgressAt > PROGRESS_EVERY_MS) {
              lastProgressAt = now;
              await productsRepo.setProgress(db, productId, fraction * ANNOTATE_SHARE);
            }
          }
        }
        const ti = performance.now();
        await resultsRepo.insertVariants(db, batch);
        msInsert += performance.now() - ti;
        const msAnnotateAndStore = performance.now() - tAnnotate;
        await productsRepo.setProgress(db, productId, ANNOTATE_SHARE);
        const tRank = performance.now();

        // Ranking uses the terms as they are now (the user may have edited them while queued).
        const latest = (await productsRepo.findProduct(db, productId)) ?? product;
        const ranking = await engine.rank(candidates, {
          hpoTerms: latest.hpoTerms,
          excludedTerms: latest.excludedTerms,
          sex: latest.gender,
        });
        ctx.signal.throwIfAborted();
        const msRank = performance.now() - tRank;
        const tPublish = performance.now();
        const ranks = resultsRepo.candidateRanks(candidates, candidateIds, ranking);
        await resultsRepo.insertVariants(
          db,
          candidates.map((v, i) => ({
            ...resultsRepo.toVariantRow(runId, candidateIds[i] ?? 0, v, true),
            rank: ranks[i] ?? null,
          })),
        );
        const counts: Record<string, number> = {
          ...stream.counts(),
          variantsStored: ordinal,
          rankCandidates: candidates.length,
        };
        await db.transaction(async (tx) => {
          await ctx.assertOwnership(tx);
          await resultsRepo.applyRanking(tx, runId, ranking, (s) => engine.geneFacts(s), { variantRanksStored: true });
          await resultsRepo.markRanked(tx, runId, {
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
          await resultsRepo.completeRun(tx, runId, counts);
          await productsRepo.setStatus(tx, productId, {
            status: 'Completed',
            runId,
            assembly: stream.inputAssembly,
          });
          await resultsRepo.deleteOtherRuns(tx, productId, runId);
        });
        await resultsRepo.refreshVariantStats(db);
      });
    },
    async onFailed({ productId }, error) {
      await resultsRepo.deleteUnfinishedRuns(deps.db, productId);
      await productsRepo.setStatus(deps.db, productId, {
        status: 'Error',
        reason: describeFailure(error),
      });
    },
  });
}
