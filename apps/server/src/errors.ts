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
};
