import { ErrorBody, ErrorCode, Messages, TokenPair } from '@rarelens/contract';
import type { z } from 'zod';
import { notifySessionExpired } from './auth-events.ts';
import { getLocale } from './locale.ts';
import { logger } from './logger.ts';

/** A failed API call: HTTP status, the server's stable code and its user-facing message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: ErrorBody['issues'];
  readonly requestId: string | undefined;
  /** Set when the Session Expired dialog already tells the user; callers need not toast it. */
  isSessionExpiryShown = false;

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.issues = body.issues;
    this.requestId = body.requestId;
  }

  /** True when the access token has expired (§8: wording "jwt expired"). */
  get isTokenExpired(): boolean {
    return this.code === ErrorCode.tokenExpired || /jwt expired/i.test(this.message);
  }
}

/**
 * How a call treats 401/403:
 * - `product` (default): one refresh then one repeat; an expired token opens the Session Expired dialog.
 * - `session`: one refresh then one repeat, silently (used to learn the session on load).
 * - `none`: no refresh (login, register, password reset… where 401 is an answer, not a state).
 */
export type AuthMode = 'product' | 'session' | 'none';

export type RequestOptions<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-serialised unless it is FormData. */
  body?: unknown;
  /** Validates the response body; without it the body is returned as the caller's type. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  auth?: AuthMode;
  query?: Record<string, string | number | boolean | undefined>;
};

export const LocaleHeader = 'X-Locale';

let baseUrl = '';
/** Prefix for every call (empty: same origin, as served by the server or the Vite proxy). */
export function setApiBaseUrl(url: string): void {
  baseUrl = url.replace(/\/$/, '');
}

let lastRefreshedAt: number | undefined;
/** When the tokens were last rotated by this tab (ms since epoch). */
export function getLastRefreshedAt(): number | undefined {
  return lastRefreshedAt;
}

function buildUrl(path: string, query: RequestOptions<unknown>['query']): string {
  const url = `${baseUrl}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function send(path: string, options: RequestOptions<unknown>): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json', [LocaleHeader]: getLocale() });
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, { code: 'network_error', message: Messages.somethingWentWrong });
  }
}

/**
 * The ApiError of a failed answer: the server's error body, else `fallback` (by default the
 * generic message, with 'internal' for a 5xx status and 'http_error' otherwise).
 */
export async function toApiError(response: Response, fallback: { code?: string; message?: string } = {}): Promise<ApiError> {
  const text = await response.text();
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    if (parsed.success) return new ApiError(response.status, parsed.data);
  } catch {
    // Not JSON (a proxy error page, an empty body): fall through to the generic message.
  }
  return new ApiError(response.status, {
    code: fallback.code ?? (response.status >= 500 ? ErrorCode.internal : 'http_error'),
    message: fallback.message ?? Messages.somethingWentWrong,
  });
}

/** Sends a request the JSON client does not make (files, streams, text), again once after a refresh on 401. */
export async function sendRefreshing(send: () => Promise<Response>): Promise<Response> {
  const response = await send();
  return response.status === 401 && (await refreshTokens()) ? send() : response;
}

async function readBody<T>(response: Response, schema: z.ZodType<T> | undefined): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (!schema) return data as T;
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    logger.error(`Unexpected response shape from ${response.url}`, parsed.error.issues);
    throw new ApiError(response.status, { code: 'invalid_response', message: Messages.somethingWentWrong });
  }
  return parsed.data;
}

let refreshInFlight: Promise<boolean> | undefined;

/**
 * Rotates the tokens with the refresh cookie. Concurrent callers share one request, because a
 * refresh token works once: two parallel refreshes would look like token reuse to the server.
 */
export function refreshTokens(): Promise<boolean> {
  refreshInFlight ??= (async () => {
    try {
      const response = await send('/api/auth/refresh', { method: 'POST', body: {} });
      if (!response.ok) return false;
      const parsed = TokenPair.safeParse(await response.json());
      if (!parsed.success) {
        // §5: a token read from a refresh response must be a string; otherwise log and stop.
        logger.error('The refresh response holds no string token; the session cannot be renewed.');
        return false;
      }
      lastRefreshedAt = Date.now();
      return true;
    } catch {
      return false;
    } finally {
      refreshInFlight = undefined;
    }
  })();
  return refreshInFlight;
}

/** Calls the API; see {@link AuthMode} for the 401/403 policy. Throws {@link ApiError}. */
export async function apiRequest<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const mode = options.auth ?? 'product';
  const first = await send(path, options);
  if (first.ok) return readBody(first, options.schema);
  const error = await toApiError(first);
  if (mode === 'none' || (error.status !== 401 && error.status !== 403)) throw error;

  const refreshed = await refreshTokens();
  if (!refreshed) {
    // The access cookie expires together with its token, so an expired session usually
    // arrives as a plain 401 without the "jwt expired" wording: both mean the session ended.
    if (mode === 'product' && (error.isTokenExpired || error.status === 401)) {
      notifySessionExpired();
      error.isSessionExpiryShown = true;
    }
    throw error;
  }
  const second = await send(path, options);
  if (second.ok) return readBody(second, options.schema);
  const secondError = await toApiError(second);
  if (mode === 'product' && secondError.isTokenExpired) {
    notifySessionExpired();
    secondError.isSessionExpiryShown = true;
  }
  throw secondError;
}

/** Short-hands over {@link apiRequest}. */
export const api = {
  get: <T>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** The message to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return Messages.somethingWentWrong;
}
