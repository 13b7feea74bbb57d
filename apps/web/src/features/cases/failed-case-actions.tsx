import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { cn } from '../../lib/cn.ts';
import { useCaseActions } from './cases.api.ts';

/**
 * Deleting a finished case (Completed or Error) after a confirmation: the owner only (the server
 * refuses a case in queue or being analysed, so it is not offered then).
 */
export function DeleteCaseAction({
  product,
  afterDelete,
}: {
  product: { id: string; caseId: string; isOwner: boolean };
  /** Where to go once deleted (a results page goes home; the home list just refreshes). */
  afterDelete?: string;
}) {
  const { remove } = useCaseActions();
  const [isConfirmOpen, setIsConfirmOpen] = useState(false);
  const navigate = useNavigate();
  if (!product.isOwner) return null;

  function handleDelete() {
    remove.mutate(product.id, {
      onSuccess: () => {
        setIsConfirmOpen(false);
        toast.success(`Case ${product.caseId} deleted`);
        if (afterDelete) void navigate(afterDelete, { replace: true });
      },
      onError: toastError,
    });
  }

  return (
    <ConfirmDialog
      open={isConfirmOpen}
      onOpenChange={setIsConfirmOpen}
      trigger={
        <Button size="sm" variant="ghost" aria-label={`Delete case ${product.caseId}`}>
          Delete
        </Button>
      }
      title={`Delete case ${product.caseId}?`}
      description="The case, its uploaded files and everything analysed from them are deleted for good; users it is shared with lose it too."
      confirmLabel="Delete case"
      onConfirm={handleDelete}
      isPending={remove.isPending}
      confirmTestId="confirm-delete-case"
    />
  );
}

/**
 * What the owner can do with a failed case: analyse it again with the stored files ("Retry"),
 * or delete it after a confirmation. Nothing for a user the case is shared with.
 */
export function FailedCaseActions({
  product,
  className,
  afterDelete,
}: {
  product: { id: string; caseId: string; isOwner: boolean };
  className?: string;
  /** Where to go once deleted (a results page goes home; the home list just refreshes). */
  afterDelete?: string;
}) {
  const { retry } = useCaseActions();
  if (!product.isOwner) return null;

  function handleRetry() {
    retry.mutate(product.id, {
      onSuccess: () => toast.success(`Case ${product.caseId} is queued again`),
      onError: toastError,
    });
  }

  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)} data-testid="failed-case-actions">
      <Button size="sm" variant="secondary" isLoading={retry.isPending} onClick={handleRetry} aria-label={`Retry the analysis of ${product.caseId}`}>
        Retry
      </Button>
      <DeleteCaseAction product={product} afterDelete={afterDelete} />
    </div>
  );
}
