import {
  MessageResponse,
  ProductDetails,
  ProductListResponse,
  RetryProductResponse,
  type ProductStatus,
  type ProductSummary,
} from '@rarelens/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

/** Query keys of the cases feature; results of one case live under `productKeys.detail(id)`. */
export const productKeys = {
  all: ['products'] as const,
  list: () => [...productKeys.all, 'list'] as const,
  detail: (id: string) => [...productKeys.all, 'detail', id] as const,
  results: (id: string) => [...productKeys.all, 'results', id] as const,
};

/** How often a list or case still being analysed is re-read. */
export const StatusPollMs = 3000;

const productPath = (id: string) => `/api/products/${encodeURIComponent(id)}`;

export const casesApi = {
  list: (signal?: AbortSignal) =>
    api.get('/api/products', { schema: ProductListResponse, signal }).then((r) => r.items),
  get: (id: string, signal?: AbortSignal) =>
    api.get(productPath(id), { schema: ProductDetails, signal }),
  path: productPath,
};

/** True while the analysis has not reached a final state. */
export function isInProgress(status: ProductStatus): boolean {
  return status === 'In queue' || status === 'Processing';
}

/** The user's cases and the cases shared with them; polls while any is queued or processing. */
export function useProducts() {
  return useQuery({
    queryKey: productKeys.list(),
    queryFn: ({ signal }) => casesApi.list(signal),
    refetchInterval: (query) =>
      query.state.data?.some((p: ProductSummary) => isInProgress(p.status)) ? StatusPollMs : false,
    staleTime: 5_000,
  });
}

/** One case with its run information; polls while it is queued or processing. */
export function useProduct(id: string) {
  return useQuery({
    queryKey: productKeys.detail(id),
    queryFn: ({ signal }) => casesApi.get(id, signal),
    refetchInterval: (query) =>
      query.state.data && isInProgress(query.state.data.status) ? StatusPollMs : false,
    staleTime: 5_000,
  });
}

/** Retry of a failed analysis and deletion of a case (the owner only). */
export function useCaseActions() {
  const queryClient = useQueryClient();
  const refresh = (id: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: productKeys.list() }),
      queryClient.invalidateQueries({ queryKey: productKeys.detail(id) }),
    ]);
  const retry = useMutation({
    mutationFn: (id: string) => api.post(`${productPath(id)}/retry`, {}, { schema: RetryProductResponse }),
    onSuccess: (_data, id) => refresh(id),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.delete(productPath(id), { schema: MessageResponse }),
    onSuccess: async (_data, id) => {
      queryClient.removeQueries({ queryKey: productKeys.detail(id) });
      queryClient.removeQueries({ queryKey: productKeys.results(id) });
      await queryClient.invalidateQueries({ queryKey: productKeys.list() });
    },
  });
  return { retry, remove };
}
