import { Messages } from '@rarelens/contract';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../components/card.tsx';
import { toast } from '../../components/toaster.tsx';
import { useBilling } from './orders.api.ts';

/**
 * On the upload page with billing on: without a plan (or with its cases used up) the spec's
 * "Add a product to continue" is toasted and shown with a link to Orders; without the raw data
 * analysis add-on, FASTQ uploads are said to need it. Billing off: nothing.
 */
export function PlanRequiredNotice() {
  const billing = useBilling();
  const isBlocked = billing.data !== undefined && billing.data.billing && !billing.data.canUpload;
  useEffect(() => {
    if (isBlocked) toast.warning(Messages.addProductToContinue, { id: 'add-product-to-continue' });
  }, [isBlocked]);
  if (billing.data === undefined || !billing.data.billing) return null;
  if (isBlocked) {
    return (
      <Alert tone="error" className="mb-5">
        <span data-testid="add-product-notice">
          {Messages.addProductToContinue}:{' '}
          <Link to="/orders" className="font-semibold underline">
            Orders
          </Link>
        </span>
      </Alert>
    );
  }
  if (!billing.data.canUploadFastq) {
    return (
      <Alert className="mb-5">
        {billing.data.casesRemaining} cases remaining this month. {Messages.rawDataAddOnRequired}{' '}
        <Link to="/orders" className="font-semibold underline">
          Orders
        </Link>
      </Alert>
    );
  }
  return null;
}
