/**
 * A public, rate-limited form endpoint (contact, demo requests): POST / with the form's body,
 * handed to `submit`; 201 with a message for the page to show.
 */
import { MessageResponse } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

export function publicFormRoute<B extends z.ZodType>(
  app: FastifyInstance,
  form: { body: B; rateLimitPerMinute: number; message: string; submit: (body: z.output<B>) => Promise<void> },
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/',
    {
      config: { rateLimit: { max: form.rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: { body: form.body, response: { 201: MessageResponse } },
    },
    async (request, reply) => {
      // Validated against form.body above; the type provider cannot narrow a generic schema.
      await form.submit(request.body as z.output<B>);
      return reply.status(201).send({ message: form.message });
    },
  );
}
