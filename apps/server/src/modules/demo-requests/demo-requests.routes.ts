/** POST /api/demo-requests: public, rate limited. */
import { DemoRequestBody, Messages } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { publicFormRoute } from '../../http/public-form.ts';
import type { DemoRequestsService } from './demo-requests.service.ts';

export const demoRequestsRoutes: FastifyPluginCallbackZod<{
  demoRequestsService: DemoRequestsService;
  rateLimitPerMinute: number;
}> = (app, { demoRequestsService, rateLimitPerMinute }, done) => {
  publicFormRoute(app, { body: DemoRequestBody, rateLimitPerMinute, message: Messages.demoRequestSent, submit: (body) => demoRequestsService.submit(body) });
  done();
};
