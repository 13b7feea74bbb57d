/** POST /api/contact: public, rate limited. */
import { ContactBody, MessageResponse, Messages } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { ContactService } from './contact.service.ts';

export const contactRoutes: FastifyPluginCallbackZod<{
  contactService: ContactService;
  rateLimitPerMinute: number;
}> = (app, { contactService, rateLimitPerMinute }, done) => {
  app.post(
    '/',
    {
      config: { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { body: ContactBody, response: { 201: MessageResponse } },
    },
    async (request, reply) => {
      await contactService.submit(request.body);
      return reply.status(201).send({ message: Messages.messageSent });
    },
  );
  done();
};
