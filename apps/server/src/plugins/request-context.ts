/**
 * Request ids: a well-formed incoming `x-request-id` is kept (so a proxy's id follows the
 * request through our logs), otherwise a UUID is generated; the id is echoed on every response.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify';
import fp from 'fastify-plugin';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify `genReqId`: reuse a safe incoming x-request-id, else a fresh UUID. */
export function generateRequestId(req: RawRequestDefaultExpression): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export const requestContextPlugin = fp(
  (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      void reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'request-context' },
);
