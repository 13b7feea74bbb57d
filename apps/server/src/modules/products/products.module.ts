/**
 * The cases feature as one Fastify plugin: storage, knowledge base, job queue (+ in-process
 * worker in embedded mode), /api/products and /api/hpo. Registered from app.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { Config } from '../../env.ts';
import type { AnalysisEngine } from '../../jobs/analysis-engine.ts';
import { createEngineAnalysis } from '../../jobs/engine.analysis.ts';
import { createJobsModule, loadJobsConfig, type JobsConfig } from '../../jobs/jobs.module.ts';
import type { ObjectStorage } from '../../storage/object-storage.ts';
import { createStorage } from '../../storage/storage.factory.ts';
import { registerReportsModule } from '../reports/reports.module.ts';
import { hpoRoutes } from './hpo.routes.ts';
import { createIgvTracks } from './igv.tracks.ts';
import { createKnowledgeBase } from './knowledge-base.ts';
import { productsRoutes } from './products.routes.ts';
import { createProductsService } from './products.service.ts';
import { caseTermsFromText, createPhenomeService } from '../phenome/phenome.service.ts';

export interface ProductsModuleOverrides {
  /** Replaces the engine (tests of the job plumbing). */
  engine?: () => Promise<AnalysisEngine>;
  storage?: ObjectStorage;
  jobs?: Partial<JobsConfig>;
  /** Replaces where the terms of a case submitted without any come from (tests without a KB). */
  extractTerms?: (symptoms: string) => Promise<{ hpoTerms: string[]; excludedTerms: string[] }>;
}

export async function registerProductsModule(
  app: FastifyInstance,
  opts: { config: Config; database: Database; overrides?: ProductsModuleOverrides },
): Promise<void> {
  const { config, database, overrides = {} } = opts;
  const storage = overrides.storage ?? createStorage({ dataDir: config.dataDir, s3Endpoint: process.env.S3_ENDPOINT });
  const kb = createKnowledgeBase(config.kbDir);
  const engine = overrides.engine ?? createEngineAnalysis(kb);
  const jobsConfig = { ...loadJobsConfig(process.env, database.kind), ...overrides.jobs };
  const jobs = createJobsModule({ database, storage, engine }, jobsConfig, app.log);
  const phenome = createPhenomeService({ ontology: async () => (await kb.hpo())?.ontology ?? null });
  const productsService = createProductsService({
    database,
    storage,
    jobs: jobs.port,
    uploadMaxBytes: config.uploadMaxBytes,
    ontology: async () => (await kb.hpo())?.ontology ?? null,
    // Offline PhenomeAI, shipped configuration (createPhenome defaults), on the KB's HPO.
    extractTerms: overrides.extractTerms ?? ((symptoms) => caseTermsFromText(phenome, symptoms)),
  });
  const igv = createIgvTracks({ db: database.db, sources: kb.tracks });
  await app.register(productsRoutes, { prefix: '/api/products', productsService, igv, uploadMaxBytes: config.uploadMaxBytes });
  await app.register(hpoRoutes, { prefix: '/api/hpo', kb });
  await registerReportsModule(app, { database, storage, kb });
  // Every API process starts pg-boss (schema, queues) before serving, so enqueueing inside a
  // transaction never waits on it; in embedded mode it also runs the worker.
  app.addHook('onReady', async () => {
    await jobs.queue.start();
    if (jobs.inProcessWorker) {
      await jobs.queue.work();
      app.log.info({ workerId: jobs.queue.workerId }, 'in-process analysis worker started');
    }
  });
  app.addHook('onClose', async () => {
    await jobs.queue.stop();
  });
}
