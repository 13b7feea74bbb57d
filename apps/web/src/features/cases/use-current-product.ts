import { ApiError } from '../../lib/api-client.ts';
import { useProduct } from './cases.api.ts';

/** What the product layouts need to know about the open product (case). */
export type CurrentProduct = {
  name: string | undefined;
  isShared: boolean;
  isLoading: boolean;
  /** No such case for this user (the API answers 404, or 400 for a malformed id). */
  isMissing: boolean;
};

/** The open case's name and sharing state, read from GET /api/products/:id. */
export function useCurrentProduct(productId: string): CurrentProduct {
  const product = useProduct(productId);
  const error = product.error;
  return {
    name: product.data?.name,
    isShared: product.data?.isShared ?? false,
    isLoading: product.isPending,
    isMissing: error instanceof ApiError && (error.status === 404 || error.status === 400),
  };
}
