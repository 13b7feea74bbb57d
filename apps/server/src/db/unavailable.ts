/**
 * Whether an error means the database could not be reached (restarting, shut down, connection
 * lost) rather than a fault of the request: such errors are answered 503 with Retry-After, so
 * clients retry instead of reporting a server bug. Drizzle wraps the driver's error in `cause`.
 */

/** SQLSTATE classes/codes of a lost or refused connection (PostgreSQL appendix A). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const UNAVAILABLE_MESSAGES = [/^Connection terminated/, /^Client has encountered a connection error/, /timeout exceeded when trying to connect/];

export function isDatabaseUnavailable(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e !== null && typeof e === 'object'; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((r) => r.test(message))) return true;
    e = cause;
  }
  return false;
}
