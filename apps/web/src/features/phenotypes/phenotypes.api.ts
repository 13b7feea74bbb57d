import { Constants, PhenotypeDetails, PhenotypeRow, pageOf } from '@rarelens/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { casesApi, productKeys } from '../cases/index.ts';

const PhenotypePage = pageOf(PhenotypeRow);

export const phenotypesApi = {
  list: (productId: string, page: number, signal?: AbortSignal) =>
    api.get(`${casesApi.path(productId)}/phenotypes`, {
      schema: PhenotypePage,
      query: { page, pageSize: Constants.pageSize },
      signal,
    }),
  get: (productId: string, phenotypeId: string, signal?: AbortSignal) =>
    api.get(`${casesApi.path(productId)}/phenotypes/${encodeURIComponent(phenotypeId)}`, {
      schema: PhenotypeDetails,
      signal,
    }),
};

/** A page of ranked diseases; `rankedAt` in the key refreshes it after a re-ranking. */
export function usePhenotypes(productId: string, rankedAt: string | null, page: number) {
  return useQuery({
    queryKey: [...productKeys.results(productId), rankedAt, 'phenotypes', page],
    queryFn: ({ signal }) => phenotypesApi.list(productId, page, signal),
    placeholderData: keepPreviousData,
  });
}

export function usePhenotype(productId: string, rankedAt: string | null, phenotypeId: string) {
  return useQuery({
    queryKey: [...productKeys.results(productId), rankedAt, 'phenotype', phenotypeId],
    queryFn: ({ signal }) => phenotypesApi.get(productId, phenotypeId, signal),
  });
}
