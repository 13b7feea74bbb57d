/**
 * The two routes of a ranked result list of a case (genes, phenotypes, variants): `GET
 * /:id/<list>` answers a page of it and `GET /:id/<list>/:<itemParam>` one item with its
 * details. Both require a session; the service checks the caller's access to the case.
 */
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UserRow } from '../db/schema/index.ts';
import { currentUser } from '../plugins/auth.ts';

export interface CaseResultRoutes<Query extends z.ZodType, Page extends z.ZodType, Item extends z.ZodType, Details extends z.ZodType> {
  /** Path segment of the list, e.g. 'genes'. */
  list: string;
  /** Name of the item's path parameter (it names the parameter in the OpenAPI document), e.g. 'geneId'. */
  itemParam: string;
  item: Item;
  query: Query;
  page: Page;
  details: Details;
  service: {
    list(user: UserRow, caseId: string, query: z.infer<Query>): Promise<z.input<Page>>;
    get(user: UserRow, caseId: string, itemId: z.infer<Item>): Promise<z.input<Details>>;
  };
}

export function caseResultRoutes<Query extends z.ZodType, Page extends z.ZodType, Item extends z.ZodType, Details extends z.ZodType>(
  r: CaseResultRoutes<Query, Page, Item, Details>,
): FastifyPluginCallbackZod {
  const IdParams = z.object({ id: z.string() });
  const ItemParams = IdParams.extend({ [r.itemParam]: r.item });
  // The service's signature ties its answers to the schemas (checked where the routes are made);
  // fastify cannot resolve a reply type from a generic schema, so here they are plain schemas.
  const page: z.ZodType = r.page;
  const details: z.ZodType = r.details;
  return (app, _opts, done) => {
    app.addHook('onRequest', app.authenticate);
    app.get(`/:id/${r.list}`, { schema: { params: IdParams, querystring: r.query, response: { 200: page } } }, (request) =>
      r.service.list(currentUser(request), request.params.id, request.query as z.infer<Query>),
    );
    app.get(`/:id/${r.list}/:${r.itemParam}`, { schema: { params: ItemParams, response: { 200: details } } }, (request) => {
      const params = request.params as { id: string } & Record<string, z.infer<Item>>;
      return r.service.get(currentUser(request), params.id, params[r.itemParam] as z.infer<Item>);
    });
    done();
  };
}
