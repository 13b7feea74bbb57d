/**
 * Worker 2 of the crash-recovery tests: the real job definitions with the fixture engine (and
 * the raw data stage when `reads` is given), in this process, until the case is Completed or
 * in Error. Its heartbeat is generous against a loaded machine: a late heartbeat of this (only
 * live) worker would make it take over its own job (a third attempt, still published once).
 */
import type { ProductSummary } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createCaseAnalysisStore } from '../../modules/analysis/analysis.service.ts';
import { createStorage } from '../../storage/storage.factory.ts';
import { waitForStatus } from '../../testing/multipart.ts';
import { JobQueue } from '../job.boss.ts';
import { buildRegistry } from '../jobs.module.ts';
import type { RawDataDeps } from '../reads/raw-data.stage.ts';
import { createFixtureEngine, type FixtureEngineOptions } from './fixture-engine.ts';

export async function finishWithSecondWorker(
  app: FastifyInstance,
  o: { dataDir: string; token: string; caseId: string; timeoutMs: number; engine: FixtureEngineOptions; reads?: RawDataDeps },
): Promise<ProductSummary> {
  const engine = createFixtureEngine(o.engine);
  const { registry } = buildRegistry({
    database: app.database,
    store: createCaseAnalysisStore(app.database),
    storage: createStorage({ dataDir: o.dataDir }),
    engine: () => Promise.resolve(engine),
    ...(o.reads ? { reads: o.reads } : {}),
  });
  const runner = new JobQueue(app.database, registry, { pollMs: 100, heartbeatMs: 500, staleAfterMs: 5000, logger: pino({ level: 'silent' }) });
  await runner.work();
  try {
    return await waitForStatus(app, { authorization: `Bearer ${o.token}` }, o.caseId, ['Completed', 'Error'], o.timeoutMs);
  } finally {
    await runner.stop();
  }
}
