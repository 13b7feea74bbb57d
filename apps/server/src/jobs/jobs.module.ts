/**
 * Wires the job registry for the server and the worker: the same definitions, the same queue
 * table. `createJobsModule` gives the enqueue port the products service uses and, when asked,
 * an in-process runner (embedded mode: PGlite is single-process, so the worker lives inside
 * the server).
 */
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { JobQueuePort } from '../modules/products/products.service.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { createAnalyseCaseJob } from './analyse-case.job.ts';
import type { AnalysisEngine } from './analysis-engine.ts';
import { enqueueJob } from './job.queue.ts';
import { JobRegistry } from './job.registry.ts';
import { JobRunner, type RunnerLogger } from './job.runner.ts';
import { createRerankCaseJob } from './rerank-case.job.ts';

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
  storage: ObjectStorage;
  engine: () => Promise<AnalysisEngine>;
}

export function buildRegistry(deps: JobsModuleDeps) {
  const analyse = createAnalyseCaseJob({ db: deps.database.db, storage: deps.storage, engine: deps.engine });
  const rerank = createRerankCaseJob({ db: deps.database.db, engine: deps.engine });
  const registry = new JobRegistry().register(analyse).register(rerank);
  return { registry, analyse, rerank };
}

export function createJobsModule(deps: JobsModuleDeps, config: JobsConfig, logger: RunnerLogger) {
  const { registry, analyse, rerank } = buildRegistry(deps);
  const runner = config.inProcessWorker
    ? new JobRunner(deps.database.db, registry, {
        concurrency: config.concurrency,
        pollMs: config.pollMs,
        heartbeatMs: config.heartbeatMs,
        staleAfterMs: config.staleAfterMs,
        logger,
      })
    : null;
  const port: JobQueuePort = {
    async enqueueAnalysis(tx, payload) {
      await enqueueJob(tx, analyse, payload, { singletonKey: `analyse:${payload.productId}` });
    },
    async enqueueRerank(tx, payload) {
      // A rerank already queued will read the newest terms when it runs.
      await enqueueJob(tx, rerank, payload, { singletonKey: `rerank:${payload.productId}` });
    },
    notify() {
      runner?.wake();
    },
  };
  return { registry, runner, port };
}
