/**
 * The API and query hooks of a ranked result list of a case (genes, phenotypes): a page of rows
 * and one entry's details. `rankedAt` in the query keys refreshes them after a re-ranking.
 */
import { Constants, pageOf, type ProductDetails } from '@rarelens/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../lib/api-client.ts';
import { usePageParam } from '../../lib/use-search-params-update.ts';
import { casesApi, productKeys } from './cases.api.ts';

export function rankedResults<Row, Details>(resource: { path: string; one: string; row: z.ZodType<Row>; details: z.ZodType<Details> }) {
  const Page = pageOf(resource.row);
  const resultsApi = {
    list: (productId: string, page: number, signal?: AbortSignal) =>
      api.get(`${casesApi.path(productId)}/${resource.path}`, { schema: Page, query: { page, pageSize: Constants.pageSize }, signal }),
    get: (productId: string, entryId: string, signal?: AbortSignal) =>
      api.get(`${casesApi.path(productId)}/${resource.path}/${encodeURIComponent(entryId)}`, { schema: resource.details, signal }),
  };
  /** A page of the ranked list. */
  const useList = (productId: string, rankedAt: string | null, page: number) =>
    useQuery({
      queryKey: [...productKeys.results(productId), rankedAt, resource.path, page],
      queryFn: ({ signal }) => resultsApi.list(productId, page, signal),
      placeholderData: keepPreviousData,
    });
  return {
    api: resultsApi,
    useList,
    /** The page of the URL's ?page= of the case's last ranking, and its setter: a RankedPanel's list, page and onPageChange. */
    usePage: (product: Pick<ProductDetails, 'id' | 'run'>) => {
      const [page, onPageChange] = usePageParam();
      return { list: useList(product.id, product.run?.rankedAt ?? null, page), page, onPageChange };
    },
    /** One entry's details. */
    useOne: (productId: string, rankedAt: string | null, entryId: string) =>
      useQuery({
        queryKey: [...productKeys.results(productId), rankedAt, resource.one, entryId],
        queryFn: ({ signal }) => resultsApi.get(productId, entryId, signal),
      }),
  };
}
