/**
 * Serves the built web app (apps/web/dist) on the API's port. Unknown /api paths answer
 * 404 JSON `not_found`; any other GET without a file extension gets index.html (SPA fallback:
 * the client router renders the page), with status 404 when no page of the app has that path
 * (§8: the client shows its "Page not found" error page).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode, isWebPagePath, type ErrorBody } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const NO_CACHE = new Set(['index.html', 'version.json']);

export const webAppPlugin = fp(
  async (app: FastifyInstance, options: { distDir: string }) => {
    const hasDist = existsSync(path.join(options.distDir, 'index.html'));
    if (hasDist) {
      await app.register(fastifyStatic, {
        root: options.distDir,
        wildcard: true,
        index: ['index.html'],
        // Cache headers are set per file below.
        cacheControl: false,
        setHeaders(res, filePath) {
          const name = path.basename(filePath);
          if (NO_CACHE.has(name)) res.setHeader('cache-control', 'no-cache');
          else if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            // Vite names assets by content hash.
            res.setHeader('cache-control', 'public, max-age=31536000, immutable');
          } else res.setHeader('cache-control', 'public, max-age=3600');
        },
      });
    } else {
      app.log.warn(
        `web app not built (${options.distDir}/index.html missing): serving the API only; run \`npm run build -w @rarelens/web\``,
      );
    }

    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isApi = pathname === '/api' || pathname.startsWith('/api/');
      const isPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !path.posix.basename(pathname).includes('.');
      if (!isApi && isPage && hasDist) {
        return reply
          .status(isWebPagePath(pathname) ? 200 : 404)
          .header('cache-control', 'no-cache')
          .sendFile('index.html');
      }
      const body: ErrorBody = {
        code: ErrorCode.notFound,
        message:
          isApi || hasDist
            ? `Not found: ${request.method} ${pathname}`
            : 'The web app is not built',
      };
      return reply.status(404).send(body);
    });
  },
  { name: 'web-app' },
);
