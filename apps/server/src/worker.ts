/**
 * Worker entry point: `npm run worker`. Runs analysis jobs from the PostgreSQL queue
 * (DATABASE_URL). Start as many as you like, on as many machines as share the database and
 * the upload storage: jobs live in pg-boss queues, and a job whose worker dies is retried
 * once its heartbeat is stale (JOB_STALE_AFTER_MS).
 */
import { pino } from 'pino';
import { createDatabase } from './db/database.ts';
import { loadConfigOrExit, stopOnSignals } from './boot.ts';
import { createEngineAnalysis } from './jobs/analysis-engine.ts';
import { createThreadedEngine } from './jobs/engine-thread/threaded-engine.ts';
import { buildRegistry, createQueue, loadJobsConfig } from './jobs/jobs.module.ts';
import { rawDataDepsOf } from './jobs/reads/raw-data.stage.ts';
import { createKnowledgeBase } from './kb/knowledge-base.ts';
import { createCaseAnalysisStore } from './modules/analysis/analysis.service.ts';
import { createStorage } from './storage/storage.factory.ts';

const config = loadConfigOrExit();

const log = pino({ level: config.logLevel });
if (config.databaseUrl === undefined) {
  log.error(
    'A separate worker needs PostgreSQL: set DATABASE_URL. With the embedded database (PGlite) the server runs the worker in-process.',
  );
  process.exit(1);
}

const database = await createDatabase(config, { logger: log });
const storage = createStorage({ dataDir: config.dataDir, s3Endpoint: process.env.S3_ENDPOINT });
const kb = createKnowledgeBase(config.kbDir);
const jobsConfig = loadJobsConfig(process.env, database.kind);
const acmg = { clinvarCriteria: config.acmgClinvarCriteria };
// Annotation and ranking on a thread of their own (RARELENS_ANALYSIS_THREAD, default on): the
// worker's event loop stays free for the queue's heartbeats, so a long analysis is never taken
// for a dead worker's (its job expired and run again elsewhere).
const threaded = config.analysisThread ? createThreadedEngine({ kbDir: config.kbDir, acmg, memoryMb: config.analysisMemoryMb }) : null;
const deps = { database, store: createCaseAnalysisStore(database), storage, engine: threaded?.engine ?? createEngineAnalysis(kb, acmg), reads: rawDataDepsOf(config) };
const { registry } = buildRegistry(deps);
const runner = createQueue(deps, jobsConfig, log, registry);
await runner.work();
log.info({ workerId: runner.workerId, queues: registry.names(), concurrency: jobsConfig.concurrency }, 'worker started');

stopOnSignals(log, 'releasing running jobs and stopping', () =>
  runner
    .stop()
    .then(() => threaded?.close())
    .then(() => database.close()),
);
