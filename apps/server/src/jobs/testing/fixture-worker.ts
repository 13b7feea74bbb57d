/**
 * A worker process for the crash-recovery test: the real JobQueue and job definitions with
 * the fixture engine (slowed down), against DATABASE_URL. The test kills it with SIGKILL
 * mid-job. Env: DATABASE_URL, RARELENS_DATA_DIR, FIXTURE_DELAY_MS, FIXTURE_GENES (JSON); with
 * RARELENS_SOURCES also the raw data analysis stage on the demo reference (WORKER_THREADS, default 1).
 */
import { pino } from 'pino';
import { createDatabase } from '../../db/database.ts';
import { createStorage } from '../../storage/storage.factory.ts';
import { JobQueue } from '../job.boss.ts';
import { createCaseAnalysisStore } from '../../modules/analysis/analysis.service.ts';
import { buildRegistry } from '../jobs.module.ts';
import { rawDataDepsOf } from '../reads/raw-data.stage.ts';
import { createFixtureEngine } from './fixture-engine.ts';

const databaseUrl = process.env.DATABASE_URL;
const dataDir = process.env.RARELENS_DATA_DIR;
if (!databaseUrl || !dataDir) throw new Error('DATABASE_URL and RARELENS_DATA_DIR are required');
const database = await createDatabase({ databaseUrl, pgliteDir: '' });
const engine = createFixtureEngine({
  genePhenotypes: JSON.parse(process.env.FIXTURE_GENES ?? '{}') as Record<string, string[]>,
  delayMs: Number(process.env.FIXTURE_DELAY_MS ?? '0'),
});
const sourcesDir = process.env.RARELENS_SOURCES;
const reads = sourcesDir
  ? rawDataDepsOf({ dataDir, sourcesDir, reference: undefined, referenceAssembly: undefined, workerThreads: Number(process.env.WORKER_THREADS ?? '1') })
  : undefined;
const { registry } = buildRegistry({
  database,
  store: createCaseAnalysisStore(database),
  storage: createStorage({ dataDir }),
  engine: () => Promise.resolve(engine),
  ...(reads ? { reads } : {}),
});
const runner = new JobQueue(database, registry, {
  pollMs: 100,
  heartbeatMs: 200,
  staleAfterMs: 1000,
  logger: pino({ level: 'warn' }),
});
await runner.work();
process.stdout.write(`worker ${runner.workerId} ready\n`);
