/** POST /api/phenome/extract {text} -> {hpoVersion, terms, llmUsed}; signed-in users only. */
import { PhenomeExtractBody, PhenomeExtractResponse } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { presentPhenomeResult } from './phenome.presenter.ts';
import type { PhenomeService } from './phenome.service.ts';

export const phenomeRoutes: FastifyPluginCallbackZod<{ phenomeService: PhenomeService }> = (
  app,
  { phenomeService },
  done,
) => {
  app.addHook('onRequest', app.authenticate);
  app.post(
    '/extract',
    { schema: { body: PhenomeExtractBody, response: { 200: PhenomeExtractResponse } } },
    async (request) => presentPhenomeResult(await phenomeService.extract(request.body.text)),
  );
  done();
};
