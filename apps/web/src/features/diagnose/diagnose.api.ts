import {
  UpdatePhenotypeTermsResponse,
  type ProductDetails,
  type TermRef,
} from '@rarelens/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { casesApi, productKeys } from '../cases/index.ts';

/** How often the case is re-read while a re-ranking runs (ms). */
export const RerankPollMs = 1500;
/** When to stop waiting for a re-ranking and say so (ms). */
export const RerankTimeoutMs = 180_000;

export type PatientTerms = { hpoTerms: TermRef[]; excludedTerms: TermRef[] };

export const diagnoseApi = {
  /** PUT /api/products/:id/phenotype-terms: saves the terms; a Completed case is re-ranked (queued). */
  updateTerms: (productId: string, terms: PatientTerms) =>
    api.put(
      `${casesApi.path(productId)}/phenotype-terms`,
      {
        hpoTerms: terms.hpoTerms.map((t) => t.id),
        excludedTerms: terms.excludedTerms.map((t) => t.id),
      },
      { schema: UpdatePhenotypeTermsResponse },
    ),
};

/** Saves the patient's terms and writes them into the cached case at once. */
export function useSaveTerms(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (terms: PatientTerms) => diagnoseApi.updateTerms(productId, terms),
    onSuccess: (_result, terms) => {
      queryClient.setQueryData<ProductDetails>(productKeys.detail(productId), (old) =>
        old ? { ...old, ...terms } : old,
      );
      void queryClient.invalidateQueries({ queryKey: productKeys.detail(productId) });
      void queryClient.invalidateQueries({ queryKey: productKeys.list() });
    },
  });
}

/** The case, re-read every {@link RerankPollMs} while `isWaiting(case)` (a re-ranking is under way). */
export function useProductWhileRanking(
  productId: string,
  isWaiting: (product: ProductDetails | undefined) => boolean,
) {
  return useQuery({
    queryKey: productKeys.detail(productId),
    queryFn: ({ signal }) => casesApi.get(productId, signal),
    refetchInterval: (query) => (isWaiting(query.state.data) ? RerankPollMs : false),
    staleTime: 5_000,
  });
}

/** Same set of term ids, in any order. */
export function sameTerms(a: readonly TermRef[], b: readonly TermRef[]): boolean {
  if (a.length !== b.length) return false;
  const ids = new Set(a.map((t) => t.id));
  return b.every((t) => ids.has(t.id));
}
