/**
 * Wires the job registry for the server and the worker: the same definitions, the same
 * pg-boss queues. `createJobsModule` gives the enqueue port the cases service uses and the
 * queue; in embedded mode (PGlite is single-process) the server also works the queue. The
 * jobs reach the cases through the CaseAnalysisStore port (ports.ts), never a module.
 */
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { createAnalyseCaseJob, type AnalyseCasePayload } from './analyse-case.job.ts';
import type { AnalysisEngine } from './analysis-engine.ts';
import { JobQueue, type RunnerLogger } from './job.boss.ts';
import { JobRegistry } from './job.registry.ts';
import type { CaseAnalysisStore } from './ports.ts';
import type { RawDataDeps } from './reads/raw-data.stage.ts';
import { createRerankCaseJob, type RerankCasePayload } from './rerank-case.job.ts';

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? fallback : Number(v)))
    .pipe(z.number().int().positive());

const JobsEnv = z.object({
  WORKER_CONCURRENCY: positiveInt(1),
  WORKER_POLL_MS: positiveInt(1000),
  JOB_HEARTBEAT_MS: positiveInt(5000),
  JOB_STALE_AFTER_MS: positiveInt(30_000),
  /** 'true'/'false'; default: in-process worker on PGlite only. */
  RARELENS_INPROCESS_WORKER: z.enum(['true', 'false', '']).optional(),
});

export interface JobsConfig {
  concurrency: number;
  pollMs: number;
  heartbeatMs: number;
  staleAfterMs: number;
  inProcessWorker: boolean;
}

/** Job settings from the environment (with a readable error on bad values). */
export function loadJobsConfig(env: NodeJS.ProcessEnv, databaseKind: Database['kind']): JobsConfig {
  const parsed = JobsEnv.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `Invalid job configuration:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  const e = parsed.data;
  const flag = e.RARELENS_INPROCESS_WORKER;
  return {
    concurrency: e.WORKER_CONCURRENCY,
    pollMs: e.WORKER_POLL_MS,
    heartbeatMs: e.JOB_HEARTBEAT_MS,
    staleAfterMs: e.JOB_STALE_AFTER_MS,
    inProcessWorker: flag === 'true' || ((flag === undefined || flag === '') && databaseKind === 'pglite'),
  };
}

export interface JobsModuleDeps {
  database: Database;
  store: CaseAnalysisStore;
  storage: ObjectStorage;
  engine: () => Promise<AnalysisEngine>;
  /** Data records a genome may hold (RARELENS_MAX_RECORDS); absent = no limit. */
  maxRecords?: number;
  /** Raw data analysis settings (FASTQ cases). */
  reads?: RawDataDeps;
}

export function buildRegistry(deps: JobsModuleDeps) {
  const db = deps.database.db;
  const analyse = createAnalyseCaseJob({
    db,
    store: deps.store,
    storage: deps.storage,
    engine: deps.engine,
    ...(deps.maxRecords === undefined ? {} : { maxRecords: deps.maxRecords }),
    ...(deps.reads ? { reads: deps.reads } : {}),
  });
  const rerank = createRerankCaseJob({ db, store: deps.store, engine: deps.engine });
  const registry = new JobRegistry().register(analyse).register(rerank);
  return { registry, analyse, rerank };
}

export function createQueue(deps: JobsModuleDeps, config: Omit<JobsConfig, 'inProcessWorker'>, logger: RunnerLogger, registry: JobRegistry): JobQueue {
  return new JobQueue(deps.database, registry, {
    concurrency: config.concurrency,
    pollMs: config.pollMs,
    heartbeatMs: config.heartbeatMs,
    staleAfterMs: config.staleAfterMs,
    logger,
  });
}

export function createJobsModule(deps: JobsModuleDeps, config: JobsConfig, logger: RunnerLogger) {
  const { registry, analyse, rerank } = buildRegistry(deps);
  const queue = createQueue(deps, config, logger, registry);
  /** What the cases service queues (its CaseJobsPort). */
  const port = {
    async enqueueAnalysis(tx: Database['db'], payload: AnalyseCasePayload) {
      await queue.enqueue(tx, analyse, payload, `analyse:${payload.productId}`);
    },
    async enqueueRerank(tx: Database['db'], payload: RerankCasePayload) {
      // A rerank already queued will read the newest terms when it runs.
      await queue.enqueue(tx, rerank, payload, `rerank:${payload.productId}`);
    },
    notify() {
      queue.wake();
    },
  };
  return { registry, queue, inProcessWorker: config.inProcessWorker, port };
}
