/** The reporting feature as one Fastify plugin under /api/products (registered by the cases module, which owns storage and the KB). */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { ObjectStorage } from '../../storage/object-storage.ts';
import type { KnowledgeBase } from '../products/knowledge-base.ts';
import { reportsRoutes } from './reports.routes.ts';
import { createReportsService } from './reports.service.ts';

export async function registerReportsModule(
  app: FastifyInstance,
  opts: { database: Database; storage: ObjectStorage; kb: Pick<KnowledgeBase, 'hpo'> },
): Promise<void> {
  const reportsService = createReportsService(opts);
  await app.register(reportsRoutes, { prefix: '/api/products', reportsService });
}
