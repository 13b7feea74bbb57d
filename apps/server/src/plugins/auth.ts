/**
 * Authentication for every module: add `onRequest: app.authenticate` to a route (or
 * `app.addHook('onRequest', app.authenticate)` in a module's plugin; onRequest answers 401 before
 * body validation), then read
 * the caller with `currentUser(request)` (and `currentSession(request)` for the session id).
 * The access token comes from `Authorization: Bearer <jwt>` or the access cookie; an expired
 * token answers 401 `token_expired` ("jwt expired"), anything else missing/invalid 401
 * `unauthorized`. A token whose session was ended (logout, reset, reuse) is refused as well.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { UserRow } from '../db/schema/index.ts';
import { Errors } from '../errors.ts';
import type { SessionCookies } from '../modules/auth/auth.cookies.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';
import type { AccessClaims } from '../modules/auth/token.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest/preHandler hook that requires a signed-in user. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    user: UserRow | null;
    auth: AccessClaims | null;
  }
}

/** The signed-in user of a route guarded by `app.authenticate`. */
export function currentUser(request: FastifyRequest): UserRow {
  if (request.user === null) throw Errors.unauthorized();
  return request.user;
}

/** Claims (user id, session id) of a route guarded by `app.authenticate`. */
export function currentSession(request: FastifyRequest): AccessClaims {
  if (request.auth === null) throw Errors.unauthorized();
  return request.auth;
}

export const authPlugin = fp(
  (app: FastifyInstance, options: { authService: AuthService; cookies: SessionCookies }) => {
    app.decorateRequest('user', null);
    app.decorateRequest('auth', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = options.cookies.readAccessToken(request);
      if (token === undefined) throw Errors.unauthorized();
      const { user, claims } = await options.authService.authenticate(token);
      request.user = user;
      request.auth = claims;
    });
  },
  { name: 'auth', dependencies: ['@fastify/cookie'] },
);
