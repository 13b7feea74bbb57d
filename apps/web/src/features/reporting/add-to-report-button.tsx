import { Messages, type VariantRow } from '@rarelens/contract';
import { Button } from '../../components/button.tsx';
import { CheckIcon, ReportIcon } from '../../components/icons.tsx';
import { toast } from '../../components/toaster.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { isAlreadyInReport, useReportItemMutations, useReportItems } from './reporting.api.ts';

/**
 * "Add to reporting list" for a variant row or the evidence view. A variant already listed
 * shows as such, disabled (no request that the server would refuse with 409); should the list
 * be stale, the server's refusal is explained in a toast.
 */
export function AddToReportButton({
  productId,
  variant,
  placement,
}: {
  productId: string;
  variant: Pick<VariantRow, 'id' | 'gene' | 'hgvsC' | 'chrom' | 'pos' | 'ref' | 'alt'>;
  placement: 'row' | 'evidence';
}) {
  const items = useReportItems(productId);
  const { add } = useReportItemMutations(productId);
  const isListed =
    items.data?.items.some(
      (i) => i.variant?.id === variant.id || (i.locus.chrom === variant.chrom && i.locus.pos === variant.pos && i.locus.ref === variant.ref && i.locus.alt === variant.alt),
    ) ?? false;
  const name = [variant.gene, variant.hgvsC].filter(Boolean).join(' ') || `${variant.chrom}:${variant.pos}`;

  function handleClick() {
    if (isListed) return;
    add.mutate(variant.id, {
      onSuccess: () => toast.success(Messages.itemAdded),
      onError: (error) => {
        if (isAlreadyInReport(error)) toast.error(Messages.variantAlreadyInList);
        else toast.error(errorMessage(error));
      },
    });
  }

  const label = isListed ? 'In reporting list' : 'Add to report';
  return (
    <Button
      variant={isListed ? 'ghost' : placement === 'evidence' ? 'secondary' : 'outline'}
      size={placement === 'row' ? 'icon' : 'sm'}
      isLoading={add.isPending}
      disabled={isListed || items.isPending}
      onClick={handleClick}
      aria-label={`${isListed ? 'In reporting list' : 'Add to reporting list'}: ${name}`}
      data-testid="add-to-report"
      data-listed={isListed || undefined}
      className={cn(placement === 'row' && 'size-8!', isListed && 'text-accent-700')}
      title={isListed ? Messages.variantAlreadyInList : 'Add this variant to the reporting list'}
    >
      {isListed ? <CheckIcon className="size-4 shrink-0" aria-hidden="true" /> : <ReportIcon className="size-4 shrink-0" aria-hidden="true" />}
      {placement === 'evidence' ? <span>{label}</span> : null}
    </Button>
  );
}
