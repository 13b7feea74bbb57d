import type { VariantRow } from '@rarelens/contract';
import { useProduct } from '../cases/index.ts';
import { AddToReportButton } from '../reporting/index.ts';

/**
 * SLOT — reporting: the "Add to reporting list" control of a variant row and of the evidence
 * view, rendered by features/reporting. Only the case's owner changes the list: a user the case
 * is shared with sees no control (the server refuses them too).
 */
export function VariantActions(props: {
  productId: string;
  variant: VariantRow;
  placement: 'row' | 'evidence';
}) {
  const product = useProduct(props.productId);
  if (product.data?.isOwner !== true) return null;
  return (
    <AddToReportButton
      productId={props.productId}
      variant={props.variant}
      placement={props.placement}
    />
  );
}
