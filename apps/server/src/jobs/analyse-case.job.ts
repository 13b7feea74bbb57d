/**
 * analyse-case: reads the case's uploaded VCF, annotates every variant, stores them, ranks
 * diseases/genes/variants against the patient's HPO terms and publishes the run.
 *
 * Idempotent: results are written under a fresh run id. A retry first deletes runs that never
 * completed (partial results of a crashed attempt); the run becomes visible only in the final
 * transaction, which also checks that this worker still holds the job, so a worker presumed
 * dead can never publish a second copy.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { mergeSampleVcfs, type Assembly } from '@rarelens/engine';
import type { ProductFileRow } from '../db/schema/products.ts';
import type { Db, Executor } from '../db/database.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { AnalysisInputError, type AnalysisEngine } from './analysis-engine.ts';
import { defineJob, type JobDefinition } from './job.registry.ts';
import type { CaseAnalysisStore, RunVariant } from './ports.ts';
import { rawDataPrefix, runRawDataAnalysis, type RawDataDeps } from './reads/raw-data.stage.ts';

/** The queued payload keeps its first field name (`productId` = the case id) so queued jobs stay readable. */
export const AnalyseCasePayload = z.object({ productId: z.uuid() });
export type AnalyseCasePayload = z.infer<typeof AnalyseCasePayload>;

export interface AnalysisDeps {
  db: Db;
  store: CaseAnalysisStore;
  storage: ObjectStorage;
  /** Loaded lazily (the KB is large): the first job waits for it, later jobs reuse it. */
  engine: () => Promise<AnalysisEngine>;
  /** Variants a genome may hold (RARELENS_MAX_RECORDS); more ends in an input Error. */
  maxRecords?: number;
  /** Raw data analysis (FASTQ cases); absent = FASTQ cases end in Error saying so. */
  reads?: RawDataDeps;
}

/** The VCF to analyse: the upload, or the calls of the raw data analysis. */
export interface VcfInput {
  path: string;
  displayName: string;
  /** null = detect from the header. */
  assembly: Assembly | null;
  /** Progress already reached by earlier stages (0-100). */
  progressFrom: number;
  /** Counts of earlier stages, stored with the run. */
  counts?: Record<string, number>;
  /** Runs inside the publishing transaction (records what earlier stages produced). */
  beforeCommit?: (tx: Executor, runId: string) => Promise<void>;
  /** Notes stored with the family (the merge of separately called VCFs says what it could not see). */
  familyNotes?: string[];
}

/**
 * Separately called VCFs (the proband's genome file and each relative's): brings every file to a
 * local path, merges them by position and allele into one multi-sample VCF in a temporary
 * directory and analyses that. The merge's note (no-calls where a person's VCF is silent) is kept
 * with the family.
 */
async function analyseMerged(
  storage: ObjectStorage,
  genomePath: string,
  genomeName: string,
  relatives: readonly ProductFileRow[],
  assembly: Assembly | null,
  signal: AbortSignal,
  run: (input: Pick<VcfInput, 'path' | 'displayName' | 'familyNotes'>) => Promise<void>,
): Promise<void> {
  const paths: string[] = [genomePath];
  const withAll = async (i: number): Promise<void> => {
    const rel = relatives[i];
    if (rel) return storage.withLocalFile(rel.storageKey, async (p) => {
      paths.push(p);
      await withAll(i + 1);
    });
    const dir = await mkdtemp(join(tmpdir(), 'rarelens-merge-'));
    try {
      const out = join(dir, 'family.vcf');
      const merged = await mergeSampleVcfs(
        paths.map((path) => ({ path })),
        out,
        { ...(assembly ? { assembly } : {}), signal },
      );
      const names = [genomeName, ...relatives.map((r) => r.originalName)];
      await run({ path: out, displayName: names.join(' + '), familyNotes: [`${merged.note} Files: ${names.map((n, k) => `${n} (${merged.samples[k]})`).join(', ')}.`] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  await withAll(0);
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
    'AssemblyRequiredError',
    'UnknownSampleError',
    'PedParseError',
    'FamilyCheckError',
    'AssemblyConflictError',
    'AssemblyDetectionError',
    'LiftoverError',
    'FastqParseError',
    'ReadsMappingError',
    'ReferenceConfigError',
    // A tool that failed on these reads fails again on a retry; its own message is shown.
    'ToolError',
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

      const genome = await store.findGenomeFile(db, caseId);
      if (!genome) throw new AnalysisInputError('The case has no genome file.');
      const t0 = performance.now();
      const engine = await deps.engine();
      const msEngineLoad = performance.now() - t0;
      await store.deleteUnfinishedRuns(db, caseId);

      const analyse = async (input: VcfInput): Promise<void> => {
        const path = input.path;
        let lastProgressAt = 0;
        let fraction = 0;
        const annotateEnd = input.progressFrom + (100 - input.progressFrom) * (ANNOTATE_SHARE / 100);
        const stream = await engine.annotate({
          path,
          displayName: input.displayName,
          assembly: input.assembly,
          signal: ctx.signal,
          onProgress: (f) => {
            fraction = f;
          },
          pedigree: caseRow.pedigree,
          sample: caseRow.probandSample,
          encodeStored: store.takesEncodedRows ?? false,
        });
        const familyRun = stream.family ? engine.familyRun(stream.family) : null;
        // One bulk load per case (COPY; one transaction on PostgreSQL): see ports.ts RunLoad.
        const stored = await store.loadRun(async (load) => {
          const runId = await load.insertRun({
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
          let ordinal = 0;
          const maxRecords = deps.maxRecords ?? Number.POSITIVE_INFINITY;
          const count = (n: number) => {
            ctx.signal.throwIfAborted();
            ordinal += n;
            if (ordinal > maxRecords) {
              throw new AnalysisInputError(
                `${input.displayName} holds more than ${maxRecords.toLocaleString('en-US')} variants, the most this server analyses in one case (RARELENS_MAX_RECORDS).`,
              );
            }
          };
          const stored = async (write: Promise<void>) => {
            const ti = performance.now();
            await write;
            msInsert += performance.now() - ti;
            const now = Date.now();
            if (now - lastProgressAt > PROGRESS_EVERY_MS) {
              lastProgressAt = now;
              await store.setProgress(db, caseId, input.progressFrom + fraction * (annotateEnd - input.progressFrom));
            }
          };
          if (stream.encoded) {
            // Rows encoded where they were annotated; about STORE_BATCH of them per COPY.
            let rows = '';
            let pending = 0;
            for await (const b of stream.encoded) {
              count(b.count);
              for (const c of b.candidates) candidates.push(c);
              rows += b.rows;
              pending += b.count - b.candidates.length;
              if (pending >= STORE_BATCH) {
                const text = rows;
                rows = '';
                pending = 0;
                await stored(load.insertEncodedVariants(runId, text));
              }
            }
            const ti = performance.now();
            await load.insertEncodedVariants(runId, rows);
            msInsert += performance.now() - ti;
          } else {
            let batch: RunVariant[] = [];
            for await (const v of stream.variants) {
              count(1);
              familyRun?.add(v);
              if (engine.isRankCandidate(v)) {
                candidates.push({ id: ordinal, variant: v });
                continue;
              }
              batch.push({ id: ordinal, variant: v });
              if (batch.length >= STORE_BATCH) {
                const full = batch;
                batch = [];
                await stored(load.insertVariants(runId, full));
              }
            }
            const ti = performance.now();
            await load.insertVariants(runId, batch);
            msInsert += performance.now() - ti;
          }
          const msAnnotateAndStore = performance.now() - tAnnotate;
          await store.setProgress(db, caseId, annotateEnd, 'ranking');
          const tRank = performance.now();

          // Family case: trio QC, PS2/PM6/PM3 on the candidates and their inheritance patterns.
          const family = familyRun ? await familyRun.finish(candidates.map((c) => c.variant)) : null;
          if (family) {
            const idOf = new Map(family.candidates.map((v, i) => [v, candidates[i]!.id]));
            candidates.forEach((c, i) => {
              const v = family.candidates[i]!;
              const inh = family.inheritance(v);
              c.variant = v;
              c.inheritance = inh ? { tags: inh.tags, partners: inh.partners.map((p) => idOf.get(p)!).filter((id) => id !== undefined), rules: inh.rules } : null;
            });
            const stored = input.familyNotes?.length ? { ...family.family, family: { ...family.family.family, notes: [...input.familyNotes, ...family.family.family.notes] } } : family.family;
            await store.storeFamily(await load.executor(), runId, stored);
          }
          // Ranking uses the terms as they are now (the user may have edited them while queued).
          const latest = (await store.findCase(db, caseId)) ?? caseRow;
          const ranking = await engine.rank(
            candidates.map((c) => c.variant),
            { hpoTerms: latest.hpoTerms, excludedTerms: latest.excludedTerms, sex: latest.gender },
            family?.family ?? null,
          );
          ctx.signal.throwIfAborted();
          const msRank = performance.now() - tRank;
          const tPublish = performance.now();
          const counts: Record<string, number> = {
            ...stream.counts(),
            ...input.counts,
            variantsStored: ordinal,
            rankCandidates: candidates.length,
          };
          await load.publish(async (tx, results) => {
            await ctx.assertOwnership(tx);
            await input.beforeCommit?.(tx, runId);
            await results.insertCandidates(runId, candidates, ranking);
            await results.insertRanking(runId, ranking, (s) => engine.geneFacts(s));
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
          return ordinal;
        });
        await store.refreshVariantStats(db, stored);
      };

      if (caseRow.genomeFormat !== 'fastq') {
        await store.setStatus(db, caseId, { status: 'Processing', progress: 0, stage: 'annotation' });
        const assembly = caseRow.assemblyRequested === 'auto' ? null : caseRow.assemblyRequested;
        const relatives = await store.findGenomeFiles(db, caseId, 'relative');
        await storage.withLocalFile(genome.storageKey, (path) =>
          relatives.length
            ? analyseMerged(storage, path, genome.originalName, relatives, assembly, ctx.signal, (merged) => analyse({ ...merged, assembly, progressFrom: 0 }))
            : analyse({ path, displayName: genome.originalName, assembly, progressFrom: 0 }),
        );
        return;
      }
      if (!deps.reads) throw new AnalysisInputError('Raw data analysis (FASTQ) is not configured on this worker.');
      const mate = await store.findGenomeFile(db, caseId, 'mate');
      await runRawDataAnalysis({ deps, reads: deps.reads, caseId, caseRow, ctx, genome, mate }, analyse);
    },
    async onFailed({ productId: caseId }, error) {
      await deps.store.deleteUnfinishedRuns(deps.db, caseId);
      // No half of a raw data analysis is kept (its outputs are published with the run only).
      await deps.storage.deletePrefix(rawDataPrefix(caseId)).catch(() => undefined);
      await deps.store.setStatus(deps.db, caseId, {
        status: 'Error',
        reason: describeFailure(error),
      });
    },
  });
}
