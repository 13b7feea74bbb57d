import { useProduct } from './cases.api.ts';

/** What the product layouts need to know about the open product (case). */
export type CurrentProduct = { name: string | undefined; isShared: boolean; isLoading: boolean };

/** The open case's name and sharing state, read from GET /api/products/:id. */
export function useCurrentProduct(productId: string): CurrentProduct {
  const product = useProduct(productId);
  return {
    name: product.data?.name,
    isShared: product.data?.isShared ?? false,
    isLoading: product.isPending,
  };
}
