/**
 * The OpenAPI document of the API, generated from the zod contracts the routes validate with
 * (@fastify/swagger + fastify-type-provider-zod's transform). It is committed as
 * docs/openapi.json and checked by openapi.int.test.ts, so an API change shows in review;
 * `npm run openapi` rewrites it. Only /api routes are described (not the web app's pages).
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'RareLens API',
        version,
        description: 'Cases are served under /api/products (the public paths of the product spec); see docs/ARCHITECTURE.md.',
      },
    },
    transform: (input) => (input.url.startsWith('/api/') ? jsonSchemaTransform(input) : { schema: { hide: true }, url: input.url }),
  });
}

/** The document as committed: stable key order from the route order, two-space JSON. */
export async function openApiDocument(app: FastifyInstance): Promise<string> {
  await app.ready();
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}
