/** /api/products/:id/family: the family of a case (members, relations, affected status, trio QC). Requires a session. */
import { FamilyResponse } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.ts';
import type { FamilyService } from './family.service.ts';

const IdParams = z.object({ id: z.string() });

export const familyRoutes: FastifyPluginCallbackZod<{ familyService: FamilyService }> = (app, { familyService: service }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/:id/family', { schema: { params: IdParams, response: { 200: FamilyResponse } } }, (request) => service.get(currentUser(request), request.params.id));
  done();
};
