import {
  ClearVariantClassificationResponse,
  Constants,
  ReviewerClassification,
  VariantDetails,
  type SetVariantClassificationBody,
  VariantListResponse,
  type InheritanceFilter,
  type VariantListQuery,
  type VariantMode,
} from '@rarelens/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { casesApi, productKeys } from '../cases/index.ts';

/** The variant-list filters as the screen holds them (all optional). */
export type VariantFilters = {
  consequence: string[];
  maxAf: number | undefined;
  clinvar: string[];
  acmg: Array<NonNullable<VariantListQuery['acmg']>[number]>;
  zygosity: Array<NonNullable<VariantListQuery['zygosity']>[number]>;
  gene: string[];
  /** Family case: inheritance patterns in the family. */
  inheritance: InheritanceFilter[];
};

export const emptyVariantFilters: VariantFilters = {
  consequence: [],
  maxAf: undefined,
  clinvar: [],
  acmg: [],
  zygosity: [],
  gene: [],
  inheritance: [],
};

export type VariantListParams = { mode: VariantMode; page: number; filters: VariantFilters };

/** The query string of GET /api/products/:id/variants (lists as comma-separated values). */
export function toVariantQuery({
  mode,
  page,
  filters,
}: VariantListParams): Record<string, string | number | undefined> {
  const list = (values: string[]) => (values.length > 0 ? values.join(',') : undefined);
  return {
    mode,
    page,
    pageSize: Constants.pageSize,
    consequence: list(filters.consequence),
    maxAf: filters.maxAf,
    clinvar: list(filters.clinvar),
    acmg: list(filters.acmg),
    zygosity: list(filters.zygosity),
    gene: list(filters.gene),
    inheritance: list(filters.inheritance),
  };
}

/** True when any filter is set. */
export function hasFilters(filters: VariantFilters): boolean {
  return (
    filters.consequence.length > 0 ||
    filters.maxAf !== undefined ||
    filters.clinvar.length > 0 ||
    filters.acmg.length > 0 ||
    filters.zygosity.length > 0 ||
    filters.gene.length > 0 ||
    filters.inheritance.length > 0
  );
}

export const variantsApi = {
  /** `after`: the nextCursor of the page before (keyset paging); without it the server reads at the page's offset. */
  list: (productId: string, params: VariantListParams, signal?: AbortSignal, after?: string) =>
    api.get(`${casesApi.path(productId)}/variants`, {
      schema: VariantListResponse,
      query: after === undefined ? toVariantQuery(params) : { ...toVariantQuery(params), after },
      signal,
    }),
  get: (productId: string, variantId: number, signal?: AbortSignal) =>
    api.get(`${casesApi.path(productId)}/variants/${variantId}`, {
      schema: VariantDetails,
      signal,
    }),
  setClassification: (productId: string, variantId: number, body: SetVariantClassificationBody) =>
    api.put(`${casesApi.path(productId)}/variants/${variantId}/classification`, body, { schema: ReviewerClassification }),
  clearClassification: (productId: string, variantId: number) =>
    api.delete(`${casesApi.path(productId)}/variants/${variantId}/classification`, { schema: ClearVariantClassificationResponse }),
};

/** Sets or clears the reviewer's class of a variant; every variant screen of the case is refreshed. */
export function useReviewerClassification(productId: string, variantId: number) {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: productKeys.results(productId) });
  return {
    set: useMutation({ mutationFn: (body: SetVariantClassificationBody) => variantsApi.setClassification(productId, variantId, body), onSettled }),
    clear: useMutation({ mutationFn: () => variantsApi.clearClassification(productId, variantId), onSettled }),
  };
}

/**
 * The nextCursor of each list page seen (per case, ranking, mode and filters): moving to the
 * next page asks for it by keyset (`after`), which the server reads without skipping the rows
 * of all pages before; any other page (a jump, a page not seen yet) is asked by offset.
 */
const pageCursors = new Map<string, string>();
const MAX_PAGE_CURSORS = 500;

function cursorKey(productId: string, rankedAt: string | null, params: VariantListParams, page: number): string {
  return JSON.stringify([productId, rankedAt, params.mode, params.filters, page]);
}

/** The keyset cursor to ask `params.page` with, when the page before it was read. */
export function cursorBefore(productId: string, rankedAt: string | null, params: VariantListParams): string | undefined {
  return params.mode === 'clustered' || params.page <= 1 ? undefined : pageCursors.get(cursorKey(productId, rankedAt, params, params.page - 1));
}

function rememberCursor(productId: string, rankedAt: string | null, params: VariantListParams, res: VariantListResponse): void {
  if (res.mode === 'clustered' || !res.nextCursor) return;
  if (pageCursors.size >= MAX_PAGE_CURSORS) pageCursors.clear();
  pageCursors.set(cursorKey(productId, rankedAt, params, params.page), res.nextCursor);
}

/**
 * A page of variants. `rankedAt` is part of the key so a re-ranking (edited HPO terms) shows
 * fresh results instead of cached ones.
 */
export function useVariants(productId: string, rankedAt: string | null, params: VariantListParams) {
  return useQuery({
    queryKey: [...productKeys.results(productId), rankedAt, 'variants', toVariantQuery(params)],
    queryFn: async ({ signal }) => {
      const res = await variantsApi.list(productId, params, signal, cursorBefore(productId, rankedAt, params));
      rememberCursor(productId, rankedAt, params, res);
      return res;
    },
    placeholderData: keepPreviousData,
  });
}

/** One variant with its evidence. */
export function useVariant(productId: string, variantId: number | null) {
  return useQuery({
    queryKey: [...productKeys.results(productId), 'variant', variantId],
    queryFn: ({ signal }) => variantsApi.get(productId, variantId ?? 0, signal),
    enabled: variantId !== null,
  });
}
