import type { VariantRow } from '@rarelens/contract';
import { AddToReportButton } from '../reporting/add-to-report-button.tsx';

/**
 * SLOT — reporting: the "Add to reporting list" control of a variant row and of the evidence
 * view, rendered by features/reporting.
 */
export function VariantActions(props: {
  productId: string;
  variant: VariantRow;
  placement: 'row' | 'evidence';
}) {
  return (
    <AddToReportButton
      productId={props.productId}
      variant={props.variant}
      placement={props.placement}
    />
  );
}
