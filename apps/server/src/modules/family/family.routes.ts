/**
 * /api/products/:id/family: the family of a case (members, relations, affected status, trio QC);
 * /api/products/:id/family.ped: its pedigree as a PED file. Require a session.
 */
import { FamilyResponse } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../http/content-disposition.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { FamilyService } from './family.service.ts';

const IdParams = z.object({ id: z.string() });

export const familyRoutes: FastifyPluginCallbackZod<{ familyService: FamilyService }> = (app, { familyService: service }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/:id/family', { schema: { params: IdParams, response: { 200: FamilyResponse } } }, (request) => service.get(currentUser(request), request.params.id));
  app.get('/:id/family.ped', { schema: { params: IdParams } }, async (request, reply) => {
    const { fileName, text } = await service.ped(currentUser(request), request.params.id);
    return reply.header('content-type', 'text/plain; charset=utf-8').header('content-disposition', contentDisposition(fileName)).header('x-content-type-options', 'nosniff').send(text);
  });
  done();
};
