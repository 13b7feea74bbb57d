/**
 * One error vocabulary for the server (CONVENTIONS §4): an `AppError` carries the HTTP
 * status, a stable machine code from the contract and the user-facing message.
 */
import { ErrorCode, Messages } from '@rarelens/contract';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    /** The form fields the error is about (answered as `issues`, so a form can mark them). */
    readonly issues?: { path: (string | number)[]; message: string }[],
    /** Response headers the error's status calls for (e.g. content-range with 416). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Factories for the errors used across modules, so texts and codes stay consistent. */
export const Errors = {
  unauthorized: () => new AppError(401, ErrorCode.unauthorized, Messages.unauthorized),
  tokenExpired: () => new AppError(401, ErrorCode.tokenExpired, Messages.tokenExpired),
  forbidden: (message = 'Forbidden') => new AppError(403, ErrorCode.forbidden, message),
  notFound: (message = 'Not found') => new AppError(404, ErrorCode.notFound, message),
  rateLimited: () => new AppError(429, ErrorCode.rateLimited, Messages.tooManyRequests),
  /** 400 with per-field issues (the body shape of schema validation failures). */
  validation: (issues: { path: (string | number)[]; message: string }[]) =>
    new AppError(400, ErrorCode.validationFailed, issues[0]?.message ?? Messages.validationFailed, issues),
  /** 503: a knowledge-base part a request needs is not built or failed to load. */
  kbUnavailable: (message: string) => new AppError(503, ErrorCode.kbUnavailable, message),
};
