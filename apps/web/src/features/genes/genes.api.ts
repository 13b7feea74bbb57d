import { Constants, GeneDetails, GeneRow, pageOf } from '@rarelens/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { casesApi, productKeys } from '../cases/index.ts';

const GenePage = pageOf(GeneRow);

export const genesApi = {
  list: (productId: string, page: number, signal?: AbortSignal) =>
    api.get(`${casesApi.path(productId)}/genes`, {
      schema: GenePage,
      query: { page, pageSize: Constants.pageSize },
      signal,
    }),
  get: (productId: string, geneId: string, signal?: AbortSignal) =>
    api.get(`${casesApi.path(productId)}/genes/${encodeURIComponent(geneId)}`, {
      schema: GeneDetails,
      signal,
    }),
};

/** A page of ranked genes; `rankedAt` in the key refreshes it after a re-ranking. */
export function useGenes(productId: string, rankedAt: string | null, page: number) {
  return useQuery({
    queryKey: [...productKeys.results(productId), rankedAt, 'genes', page],
    queryFn: ({ signal }) => genesApi.list(productId, page, signal),
    placeholderData: keepPreviousData,
  });
}

export function useGene(productId: string, rankedAt: string | null, geneId: string) {
  return useQuery({
    queryKey: [...productKeys.results(productId), rankedAt, 'gene', geneId],
    queryFn: ({ signal }) => genesApi.get(productId, geneId, signal),
  });
}
