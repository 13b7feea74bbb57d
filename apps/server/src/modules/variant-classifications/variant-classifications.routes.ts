/**
 * /api/products/:id/variants/:variantId/classification: the reviewer's class of a variant.
 * PUT sets it (owner only; 403 for users the case is shared with, 404 for anyone else), DELETE
 * removes it ({ removed: false } when there was none). Reading is through the variant screens (every variant row carries it).
 */
import { ClearVariantClassificationResponse, ReviewerClassification, SetVariantClassificationBody } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.ts';
import type { VariantClassificationsService } from './variant-classifications.service.ts';

const Params = z.object({ id: z.string(), variantId: z.coerce.number().int().min(1) });

export const variantClassificationsRoutes: FastifyPluginCallbackZod<{ classificationsService: VariantClassificationsService }> = (
  app,
  { classificationsService: service },
  done,
) => {
  app.addHook('onRequest', app.authenticate);
  app.put(
    '/:id/variants/:variantId/classification',
    { schema: { params: Params, body: SetVariantClassificationBody, response: { 200: ReviewerClassification } } },
    (request) => service.set(currentUser(request), request.params.id, request.params.variantId, request.body),
  );
  app.delete(
    '/:id/variants/:variantId/classification',
    { schema: { params: Params, response: { 200: ClearVariantClassificationResponse } } },
    (request) => service.clear(currentUser(request), request.params.id, request.params.variantId),
  );
  done();
};
