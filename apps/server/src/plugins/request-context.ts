/**
 * Request ids: a well-formed incoming `x-request-id` is kept (so a proxy's id follows the
 * request through our logs), otherwise a UUID is generated; the id is echoed on every response.
 *
 * Request log: ONE line per request at info, written when the answer is sent: method, url (its
 * secrets redacted), status and response time in ms; the request id is the line's `reqId`. It
 * replaces Fastify's two lines per request ("incoming request" and "request completed", which
 * serialize the whole request and reply); Fastify's other lines (stream errors, serializer errors)
 * are kept, and errors are logged with their stack by the error handler.
 */
import { randomUUID } from 'node:crypto';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type RawRequestDefaultExpression } from 'fastify';
import fp from 'fastify-plugin';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Query parameters whose value is a credential, whatever route they are sent to. */
const SECRET_PARAM = /([?&](?:[^=&#]*(?:token|secret|password|signature)|code|key|sig|api[_-]?key)=)[^&#]*/gi;

/** Tokens in URLs must not reach the logs: reset and share links carry theirs in the path, and a query parameter named like a credential is blanked. */
export function redactUrl(url: string): string {
  const redacted = url.replace(/(\/password-reset\/)[^/?#]+/, '$1[redacted]').replace(/(\/shared\/)[^/?#]+/, '$1[redacted]');
  return redacted.includes('?') ? redacted.replace(SECRET_PARAM, '$1[redacted]') : redacted;
}

/** Fastify `genReqId`: reuse a safe incoming x-request-id, else a fresh UUID. */
export function generateRequestId(req: RawRequestDefaultExpression): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Fastify's `logController` (app.ts): the request log described above. */
export class RequestLog extends LogController {
  private static line(request: FastifyRequest, reply: FastifyReply) {
    return { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
  }

  /** Nothing when a request arrives: its one line is written when it is answered. */
  override incomingRequest(): void {}

  /** A request that found no route is answered 404, and that one line says so. */
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) request.log.error({ ...RequestLog.line(request, reply), err: error }, 'request errored');
    else request.log.info(RequestLog.line(request, reply), 'request completed');
  }
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
