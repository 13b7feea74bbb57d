/** /api/products/:id/genes: the ranked genes of a case (list and details). Every route requires a session. */
import { GeneDetails, GeneRow, PageQuery, pageOf } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.ts';
import type { GenesService } from './genes.service.ts';

const IdParams = z.object({ id: z.string() });
const GeneParams = IdParams.extend({ geneId: z.string().min(1).max(50) });

export const genesRoutes: FastifyPluginCallbackZod<{ genesService: GenesService }> = (app, { genesService: service }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/:id/genes',
    { schema: { params: IdParams, querystring: PageQuery, response: { 200: pageOf(GeneRow) } } },
    (request) => service.list(currentUser(request), request.params.id, request.query),
  );
  app.get('/:id/genes/:geneId', { schema: { params: GeneParams, response: { 200: GeneDetails } } }, (request) =>
    service.get(currentUser(request), request.params.id, request.params.geneId),
  );
  done();
};
