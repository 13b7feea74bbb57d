/**
 * /api/products/:id/igv/*: igv.js tracks of a case, all served from the case and the local
 * knowledge base (nothing external). Every route requires a session and read access.
 */
import { IgvRegionQuery } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.ts';
import type { IgvService } from './igv.service.ts';

const IdParams = z.object({ id: z.string() });
const schema = { params: IdParams, querystring: IgvRegionQuery };

export const igvRoutes: FastifyPluginCallbackZod<{ igvService: IgvService }> = (app, { igvService: igv }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/:id/igv/variants.vcf', { schema }, async (request, reply) => {
    const text = await igv.caseVariantsVcf(currentUser(request), request.params.id, request.query.region);
    return reply.header('content-type', 'text/plain; charset=utf-8').send(text);
  });
  app.get('/:id/igv/genes.bed', { schema }, async (request, reply) => {
    const text = await igv.genesBed(currentUser(request), request.params.id, request.query.region);
    return reply.header('content-type', 'text/plain; charset=utf-8').send(text);
  });
  app.get('/:id/igv/clinvar.bed', { schema }, async (request, reply) => {
    const text = await igv.clinvarBed(currentUser(request), request.params.id, request.query.region);
    return reply.header('content-type', 'text/plain; charset=utf-8').send(text);
  });
  done();
};
