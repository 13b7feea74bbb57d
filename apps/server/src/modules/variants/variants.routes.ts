/** /api/products/:id/variants: the variants of a case (list and details). Every route requires a session. */
import { VariantDetails, VariantListQuery, VariantListResponse } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.ts';
import type { VariantsService } from './variants.service.ts';

const IdParams = z.object({ id: z.string() });
const VariantParams = IdParams.extend({ variantId: z.coerce.number().int().min(1) });

export const variantsRoutes: FastifyPluginCallbackZod<{ variantsService: VariantsService }> = (app, { variantsService: service }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/:id/variants',
    { schema: { params: IdParams, querystring: VariantListQuery, response: { 200: VariantListResponse } } },
    (request) => service.list(currentUser(request), request.params.id, request.query),
  );
  app.get(
    '/:id/variants/:variantId',
    { schema: { params: VariantParams, response: { 200: VariantDetails } } },
    (request) => service.get(currentUser(request), request.params.id, request.params.variantId),
  );
  done();
};
