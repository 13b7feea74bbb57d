/**
 * A public, rate-limited form endpoint (contact, demo requests): POST / with the form's body,
 * handed to `submit`; 201 with a message for the page to show.
 */
import { MessageResponse } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';

export function publicFormRoutes<B extends z.ZodType>(body: B, message: string): FastifyPluginCallbackZod<{ submit: (body: z.output<B>) => Promise<void>; rateLimitPerMinute: number }> {
  return (app, { submit, rateLimitPerMinute }, done) => {
    app.post(
      '/',
      {
        config: { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } },
        schema: { body, response: { 201: MessageResponse } },
      },
      async (request, reply) => {
        // Validated against `body` above; the type provider cannot narrow a generic schema.
        await submit(request.body as z.output<B>);
        return reply.status(201).send({ message });
      },
    );
    done();
  };
}
