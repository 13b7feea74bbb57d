/**
 * Sharing routes:
 * - /api/products/:id/shares: who a case is shared with; share (e-mails a link) and unshare (owner only).
 * - /api/shares: every share of the caller's cases (share settings).
 * - /api/shared/:token: the case behind an e-mailed link, read-only, no login.
 */
import { ShareBody, SharedProductResponse, ShareListResponse, ShareSettingsResponse } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.ts';
import { originOf } from '../activity/index.ts';
import type { SharingService } from './sharing.service.ts';

const IdParams = z.object({ id: z.string() });
const ShareParams = IdParams.extend({ email: z.string() });
/** Tokens are 32 random bytes in base64url (43 characters); anything else cannot match. */
const TokenParams = z.object({ token: z.string().min(1).max(200) });

export const sharingRoutes: FastifyPluginCallbackZod<{ sharingService: SharingService }> = (app, { sharingService: service }, done) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/:id/shares', { schema: { params: IdParams, response: { 200: ShareListResponse } } }, (request) =>
    service.list(currentUser(request), request.params.id),
  );
  app.post(
    '/:id/shares',
    { schema: { params: IdParams, body: ShareBody, response: { 200: ShareListResponse } } },
    (request) => service.share(currentUser(request), request.params.id, request.body.email, originOf(request)),
  );
  app.delete(
    '/:id/shares/:email',
    { schema: { params: ShareParams, response: { 200: ShareListResponse } } },
    (request) =>
      service.unshare(currentUser(request), request.params.id, request.params.email.trim().toLowerCase(), originOf(request)),
  );
  done();
};

/** GET /api/shares: the share settings of the signed-in user. */
export const shareSettingsRoutes: FastifyPluginCallbackZod<{ sharingService: SharingService }> = (
  app,
  { sharingService: service },
  done,
) => {
  app.addHook('onRequest', app.authenticate);
  app.get('/', { schema: { response: { 200: ShareSettingsResponse } } }, (request) => service.settings(currentUser(request)));
  done();
};

/** GET /api/shared/:token: no session needed; rate-limited per client like the auth routes. */
export const sharedLinkRoutes: FastifyPluginCallbackZod<{ sharingService: SharingService; rateLimitPerMinute: number }> = (
  app,
  { sharingService: service, rateLimitPerMinute },
  done,
) => {
  app.get(
    '/:token',
    {
      config: { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { params: TokenParams, response: { 200: SharedProductResponse } },
    },
    (request) => service.open(request.params.token),
  );
  done();
};
