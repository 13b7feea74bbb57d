/**
 * What the product layouts need to know about the open product (case).
 * TODO(issue cases): replace with the real query of the cases feature (name, isShared,
 * igvTracks…). Until then no product data exists: the name is unknown and it is not shared,
 * so the Genes entry stays hidden.
 */
export type CurrentProduct = { name: string | undefined; isShared: boolean; isLoading: boolean };

export function useCurrentProduct(_productId: string): CurrentProduct {
  return { name: undefined, isShared: false, isLoading: false };
}
