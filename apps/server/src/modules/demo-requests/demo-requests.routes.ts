/** POST /api/demo-requests: public, rate limited. */
import { DemoRequestBody, MessageResponse, Messages } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { DemoRequestsService } from './demo-requests.service.ts';

export const demoRequestsRoutes: FastifyPluginCallbackZod<{
  demoRequestsService: DemoRequestsService;
  rateLimitPerMinute: number;
}> = (app, { demoRequestsService, rateLimitPerMinute }, done) => {
  app.post(
    '/',
    {
      config: { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { body: DemoRequestBody, response: { 201: MessageResponse } },
    },
    async (request, reply) => {
      await demoRequestsService.submit(request.body);
      return reply.status(201).send({ message: Messages.demoRequestSent });
    },
  );
  done();
};
