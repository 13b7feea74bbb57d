/** GET /api/health: liveness plus which database is underneath. */
import { HealthResponse } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { pingDatabase, type Database } from '../../db/database.ts';

export const healthRoutes: FastifyPluginCallbackZod<{ database: Database; version: string }> = (
  app,
  { database, version },
  done,
) => {
  app.get('/', { schema: { response: { 200: HealthResponse } } }, async () => {
    await pingDatabase(database.db);
    return { status: 'ok' as const, database: database.kind, version };
  });
  done();
};
