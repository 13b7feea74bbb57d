import type { VariantRow } from '@rarelens/contract';

/**
 * SLOT — reporting: the "Add to reporting list" control of a variant row and of the evidence
 * view. features/reporting renders its button here (props: the case id and the variant);
 * until it exists this renders nothing.
 */
export function VariantActions(_props: { productId: string; variant: VariantRow; placement: 'row' | 'evidence' }) {
  return null;
}
