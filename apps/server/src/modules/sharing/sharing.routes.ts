/** /api/products/:id/shares: who a case is shared with (owner only). Every route requires a session. */
import { ShareBody, ShareListResponse } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.ts';
import type { SharingService } from './sharing.service.ts';

const IdParams = z.object({ id: z.string() });
const ShareParams = IdParams.extend({ email: z.string() });

export const sharingRoutes: FastifyPluginCallbackZod<{ sharingService: SharingService }> = (app, { sharingService: service }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/:id/shares', { schema: { params: IdParams, response: { 200: ShareListResponse } } }, (request) =>
    service.list(currentUser(request), request.params.id),
  );
  app.post(
    '/:id/shares',
    { schema: { params: IdParams, body: ShareBody, response: { 200: ShareListResponse } } },
    (request) => service.share(currentUser(request), request.params.id, request.body.email),
  );
  app.delete(
    '/:id/shares/:email',
    { schema: { params: ShareParams, response: { 200: ShareListResponse } } },
    (request) => service.unshare(currentUser(request), request.params.id, request.params.email.trim().toLowerCase()),
  );
  done();
};
