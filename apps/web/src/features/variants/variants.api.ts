import {
  Constants,
  VariantDetails,
  VariantListResponse,
  type VariantListQuery,
  type VariantMode,
} from '@rarelens/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { casesApi, productKeys } from '../cases/cases.api.ts';

/** The variant-list filters as the screen holds them (all optional). */
export type VariantFilters = {
  consequence: string[];
  maxAf: number | undefined;
  clinvar: string[];
  acmg: Array<NonNullable<VariantListQuery['acmg']>[number]>;
  zygosity: Array<NonNullable<VariantListQuery['zygosity']>[number]>;
  gene: string[];
};

export const emptyVariantFilters: VariantFilters = {
  consequence: [],
  maxAf: undefined,
  clinvar: [],
  acmg: [],
  zygosity: [],
  gene: [],
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
    filters.gene.length > 0
  );
}

export const variantsApi = {
  list: (productId: string, params: VariantListParams, signal?: AbortSignal) =>
    api.get(`${casesApi.path(productId)}/variants`, {
      schema: VariantListResponse,
      query: toVariantQuery(params),
      signal,
    }),
  get: (productId: string, variantId: number, signal?: AbortSignal) =>
    api.get(`${casesApi.path(productId)}/variants/${variantId}`, {
      schema: VariantDetails,
      signal,
    }),
};

/**
 * A page of variants. `rankedAt` is part of the key so a re-ranking (edited HPO terms) shows
 * fresh results instead of cached ones.
 */
export function useVariants(productId: string, rankedAt: string | null, params: VariantListParams) {
  return useQuery({
    queryKey: [...productKeys.results(productId), rankedAt, 'variants', toVariantQuery(params)],
    queryFn: ({ signal }) => variantsApi.list(productId, params, signal),
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
