/** POST /api/contact: public, rate limited. */
import { ContactBody, Messages } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { publicFormRoute } from '../../http/public-form.ts';
import type { ContactService } from './contact.service.ts';

export const contactRoutes: FastifyPluginCallbackZod<{
  contactService: ContactService;
  rateLimitPerMinute: number;
}> = (app, { contactService, rateLimitPerMinute }, done) => {
  publicFormRoute(app, { body: ContactBody, rateLimitPerMinute, message: Messages.messageSent, submit: (body) => contactService.submit(body) });
  done();
};
