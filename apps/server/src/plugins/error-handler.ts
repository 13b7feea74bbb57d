/**
 * The one error handler (CONVENTIONS §4): zod validation -> 400 `validation_failed` with
 * `issues`; `AppError` -> its status, code and message; other 4xx raised by Fastify keep their
 * status with a stable code; a lost database connection is 503 with Retry-After; anything else
 * is logged and answered 500 with the request id.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { ErrorCode, Messages, type ErrorBody } from '@rarelens/contract';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { AppError } from '../errors.ts';

function toPath(instancePath: string): (string | number)[] {
  return instancePath
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** The error code of a client-error status; any other 4xx is a bad request. */
const CODE_FOR_STATUS: Readonly<Record<number, ErrorCode>> = {
  401: ErrorCode.unauthorized,
  403: ErrorCode.forbidden,
  404: ErrorCode.notFound,
  413: ErrorCode.payloadTooLarge,
  415: ErrorCode.unsupportedMediaType,
  429: ErrorCode.rateLimited,
};

function codeForStatus(status: number): ErrorCode {
  return CODE_FOR_STATUS[status] ?? ErrorCode.badRequest;
}

export const errorHandlerPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler<FastifyError | AppError | Error>((error, request, reply) => {
      if (error instanceof AppError) {
        const body: ErrorBody = { code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) };
        if (error.headers) void reply.headers(error.headers);
        return reply.status(error.statusCode).send(body);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        // The provider's error type reaches fastify internals that typed lint cannot resolve.
        const validation = error.validation as unknown as {
          instancePath: string;
          message?: string;
        }[];
        const issues = validation.map((v) => ({
          path: toPath(v.instancePath),
          message: v.message ?? 'Invalid value',
        }));
        const body: ErrorBody = {
          code: ErrorCode.validationFailed,
          message: issues[0]?.message ?? Messages.validationFailed,
          issues,
        };
        return reply.status(400).send(body);
      }
      const status =
        'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (status >= 400 && status < 500 && !isResponseSerializationError(error)) {
        const body: ErrorBody = { code: codeForStatus(status), message: error.message };
        return reply.status(status).send(body);
      }
      if (isDatabaseUnavailable(error)) {
        // A restarting or unreachable database is no bug of the request: say so and ask to retry.
        request.log.warn({ err: error }, 'database unavailable');
        const body: ErrorBody = { code: ErrorCode.databaseUnavailable, message: Messages.databaseUnavailable, requestId: request.id };
        return reply.status(503).header('retry-after', '5').send(body);
      }
      request.log.error({ err: error }, 'unhandled error');
      const body: ErrorBody = {
        code: ErrorCode.internal,
        message: Messages.somethingWentWrong,
        requestId: request.id,
      };
      return reply.status(500).send(body);
    });
  },
  { name: 'error-handler' },
);
