/**
 * Security headers. The CSP allows only the app's own origin for scripts; styles may be inline
 * (React/Radix/igv set style attributes); images, media and workers may come from blob: URLs
 * (igv renders and downloads through them). Genome data is self-hosted: no third-party origins.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const securityPlugin = fp(
  async (app: FastifyInstance, options: { isProduction: boolean }) => {
    await app.register(helmet, {
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
  },
  { name: 'security' },
);
