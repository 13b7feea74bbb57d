/**
 * Session cookies (spec §3): `<prefix>.access-token` on path / and `<prefix>.refresh-token` on
 * path /api/auth (sent only to the routes that need it). httpOnly, SameSite=Lax, Secure in
 * production; beside them `<prefix>.refreshed-at`, readable, with the last-refreshed time. The Authorization header wins over the cookie when both are present.
 */
import { cookieNames } from '@rarelens/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../env.ts';

export const REFRESH_COOKIE_PATH = '/api/auth';

export interface SessionCookies {
  readonly names: { access: string; refresh: string; refreshedAt: string };
  set(
    reply: FastifyReply,
    tokens: { token: string; refreshToken: string; refreshExpiresAt: Date },
  ): void;
  clear(reply: FastifyReply): void;
  /** Bearer token from the Authorization header, else the access cookie. */
  readAccessToken(request: FastifyRequest): string | undefined;
  /** Refresh token from the body when given, else the refresh cookie. */
  readRefreshToken(request: FastifyRequest, fromBody: string | undefined): string | undefined;
}

export function createSessionCookies(
  config: Pick<Config, 'nodeEnv' | 'accessTokenTtlSeconds'>,
): SessionCookies {
  const names = cookieNames(config.nodeEnv);
  const base = {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.nodeEnv === 'production',
  } as const;
  return {
    names,
    set(reply, tokens) {
      void reply.setCookie(names.access, tokens.token, {
        ...base,
        path: '/',
        maxAge: config.accessTokenTtlSeconds,
      });
      void reply.setCookie(names.refresh, tokens.refreshToken, {
        ...base,
        path: REFRESH_COOKIE_PATH,
        expires: tokens.refreshExpiresAt,
      });
      // Readable by the page (no secret): tells it a session may exist, so a visitor's page
      // does not ask for one (and log two 401s).
      void reply.setCookie(names.refreshedAt, String(Date.now()), {
        ...base,
        httpOnly: false,
        path: '/',
        expires: tokens.refreshExpiresAt,
      });
    },
    clear(reply) {
      void reply.clearCookie(names.access, { ...base, path: '/' });
      void reply.clearCookie(names.refresh, { ...base, path: REFRESH_COOKIE_PATH });
      void reply.clearCookie(names.refreshedAt, { ...base, httpOnly: false, path: '/' });
    },
    readAccessToken(request) {
      const header = request.headers.authorization;
      if (header !== undefined) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
        return match?.[1];
      }
      const cookie = request.cookies[names.access];
      return cookie === undefined || cookie === '' ? undefined : cookie;
    },
    readRefreshToken(request, fromBody) {
      if (fromBody !== undefined && fromBody !== '') return fromBody;
      const cookie = request.cookies[names.refresh];
      return cookie === undefined || cookie === '' ? undefined : cookie;
    },
  };
}
