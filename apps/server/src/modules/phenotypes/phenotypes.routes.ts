/** /api/products/:id/phenotypes: the ranked phenotypes (diseases) of a case (list and details). Every route requires a session. */
import { PageQuery, PhenotypeDetails, PhenotypeRow, pageOf } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.ts';
import type { PhenotypesService } from './phenotypes.service.ts';

const IdParams = z.object({ id: z.string() });
const PhenotypeParams = IdParams.extend({ phenotypeId: z.string().min(1).max(100) });

export const phenotypesRoutes: FastifyPluginCallbackZod<{ phenotypesService: PhenotypesService }> = (
  app,
  { phenotypesService: service },
  done,
) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/:id/phenotypes',
    { schema: { params: IdParams, querystring: PageQuery, response: { 200: pageOf(PhenotypeRow) } } },
    (request) => service.list(currentUser(request), request.params.id, request.query),
  );
  app.get(
    '/:id/phenotypes/:phenotypeId',
    { schema: { params: PhenotypeParams, response: { 200: PhenotypeDetails } } },
    (request) => service.get(currentUser(request), request.params.id, request.params.phenotypeId),
  );
  done();
};
