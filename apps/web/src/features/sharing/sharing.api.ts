import { SharedProductResponse, ShareListResponse, ShareSettingsResponse } from '@rarelens/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { casesApi, productKeys } from '../cases/index.ts';

export const sharingKeys = {
  settings: ['shares', 'settings'] as const,
  link: (token: string) => ['shares', 'link', token] as const,
};

export const sharingApi = {
  settings: (signal?: AbortSignal) => api.get('/api/shares', { schema: ShareSettingsResponse, signal }).then((r) => r.items),
  share: (productId: string, email: string) =>
    api.post(`${casesApi.path(productId)}/shares`, { email }, { schema: ShareListResponse }),
  unshare: (productId: string, email: string) =>
    api.delete(`${casesApi.path(productId)}/shares/${encodeURIComponent(email)}`, { schema: ShareListResponse }),
  /** The case behind a share link; no session is involved (401 is never a session state here). */
  open: (token: string, signal?: AbortSignal) =>
    api.get(`/api/shared/${encodeURIComponent(token)}`, { schema: SharedProductResponse, signal, auth: 'none' }),
};

/** Every share of the user's cases (share settings). */
export function useShareSettings() {
  return useQuery({ queryKey: sharingKeys.settings, queryFn: ({ signal }) => sharingApi.settings(signal) });
}

/** The shared case behind /shared/{token}; a dead link is an answer, not worth retrying. */
export function useSharedProduct(token: string) {
  return useQuery({
    queryKey: sharingKeys.link(token),
    queryFn: ({ signal }) => sharingApi.open(token, signal),
    retry: false,
    staleTime: Infinity,
  });
}

/** Share and unshare; both refresh the case, the case list and the share settings. */
export function useShareMutations() {
  const queryClient = useQueryClient();
  const refresh = (productId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: sharingKeys.settings }),
      queryClient.invalidateQueries({ queryKey: productKeys.detail(productId) }),
      queryClient.invalidateQueries({ queryKey: productKeys.list() }),
    ]);
  return {
    share: useMutation({
      mutationFn: (v: { productId: string; email: string }) => sharingApi.share(v.productId, v.email),
      onSuccess: (_r, v) => refresh(v.productId),
    }),
    unshare: useMutation({
      mutationFn: (v: { productId: string; email: string }) => sharingApi.unshare(v.productId, v.email),
      onSuccess: (_r, v) => refresh(v.productId),
    }),
  };
}
