/**
 * Security headers and cross-site request refusal.
 *
 * CSRF: the session cookies are SameSite=Lax, and on top of that a state-changing request (POST,
 * PUT, PATCH, DELETE) that a browser authenticates with those cookies (no Authorization header)
 * must come from the app's own origin: its Origin header (or, without one, its Referer) must be
 * the origin the request was sent to or PUBLIC_URL's. Browsers send Origin on every such fetch, so
 * the app itself is never refused; a page on another site, or a cookie-carrying client that names
 * no origin, is (403). Bearer-token clients are not affected: a token is never sent ambiently.
 *
 * Headers: The CSP allows only the app's own origin for scripts; styles may be inline
 * (React/Radix/igv set style attributes); images, media and workers may come from blob: URLs
 * (igv renders and downloads through them). Genome data is self-hosted: no third-party origins.
 * The helmet middleware is built once, when the plugin registers (@fastify/helmet rebuilt it, CSP
 * parsing included, on every request: ~3 % of the API's CPU on the variant list).
 */
import { cookieNames, ErrorCode } from '@rarelens/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { AppError } from '../errors.ts';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** True when `request` rides on the browser's session cookies rather than a bearer token. */
function isCookieAuthenticated(request: FastifyRequest, names: string[]): boolean {
  if (request.headers.authorization !== undefined) return false;
  const cookie = request.headers.cookie;
  return cookie !== undefined && names.some((n) => cookie.includes(`${n}=`));
}

export const securityPlugin = fp(
  (
    app: FastifyInstance,
    options: { isProduction: boolean; nodeEnv: string; publicUrl: string },
  ) => {
    const { access, refresh } = cookieNames(options.nodeEnv);
    const names = [access, refresh];
    const publicOrigin = originOf(options.publicUrl);
    app.addHook('onRequest', (request, _reply, done) => {
      if (!UNSAFE_METHODS.has(request.method) || !isCookieAuthenticated(request, names))
        return done();
      const origin = request.headers.origin ?? originOf(request.headers.referer);
      if (
        origin !== undefined &&
        (origin === publicOrigin || origin === `${request.protocol}://${request.host}`)
      )
        return done();
      done(
        new AppError(
          403,
          ErrorCode.forbidden,
          origin === undefined
            ? 'Cross-site request refused: a request signed in with the session cookie must say which page sent it (Origin header).'
            : `Cross-site request refused: ${origin} is not this application.`,
        ),
      );
    });

    const setSecurityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", 'blob:', 'data:'],
          workerSrc: ["'self'", 'blob:'],
          mediaSrc: ["'self'", 'blob:'],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(options.isProduction ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // igv loads track data through fetch/XHR from our origin; COEP would block blob workers.
      crossOriginEmbedderPolicy: false,
      hsts: options.isProduction,
    });
    app.addHook('onRequest', (request, reply, done) => {
      // Helmet >= 8.1 throws rather than passing an error on; the callback only ever says "done".
      setSecurityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
    });
  },
  { name: 'security' },
);
