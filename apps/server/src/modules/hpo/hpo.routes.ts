/** GET /api/hpo/terms?q=: HPO autocomplete for the upload form (labels and synonyms, current ids only). */
import { ErrorCode, HpoSearchQuery, HpoSearchResponse } from '@rarelens/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import type { Ontology } from '@rarelens/engine';
import { LAY_LEXICON } from '@rarelens/phenome';
import { createHpoSearch, type HpoSearch } from './hpo.service.ts';

/** `ontology`: the HPO with its synonyms (app.ts textOntologyLoader); lay wording is added. */
export const hpoRoutes: FastifyPluginCallbackZod<{ ontology: () => Promise<Ontology | null> }> = (
  app,
  { ontology },
  done,
) => {
  app.addHook('onRequest', app.authenticate);
  let search: Promise<HpoSearch | null> | null = null;
  const getSearch = () => {
    search ??= ontology().then((o) => (o ? createHpoSearch(o, LAY_LEXICON) : null));
    search.catch(() => {
      search = null;
    });
    return search;
  };
  app.get('/terms', { schema: { querystring: HpoSearchQuery, response: { 200: HpoSearchResponse } } }, async (request) => {
    const s = await getSearch();
    if (!s) throw new AppError(503, ErrorCode.internal, 'The HPO knowledge base is not built; run `npx rarelens kb build`');
    return { version: s.version, items: s.search(request.query.q, request.query.limit) };
  });
  done();
};
