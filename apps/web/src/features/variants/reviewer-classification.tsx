import { AcmgClassName, type VariantRow } from '@rarelens/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button.tsx';
import { Alert } from '../../components/card.tsx';
import { FormField, NativeSelect, Textarea } from '../../components/form.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { ReviewerBadge } from './badges.tsx';
import { useReviewerClassification } from './variants.api.ts';

/**
 * The reviewer's class of a variant, beside the automatic ACMG class. The owner of the case sets
 * or removes it (a reason is mandatory); users the case is shared with read it.
 */
export function ReviewerClassificationPanel({
  productId,
  variant,
  canEdit,
}: {
  productId: string;
  variant: Pick<VariantRow, 'id' | 'acmg' | 'reviewerClassification'>;
  canEdit: boolean;
}) {
  const current = variant.reviewerClassification;
  const mutations = useReviewerClassification(productId, variant.id);
  const [isEditing, setIsEditing] = useState(false);
  const [classification, setClassification] = useState<AcmgClassName>(current?.classification ?? (AcmgClassName.safeParse(variant.acmg).data ?? 'Uncertain significance'));
  const [reason, setReason] = useState(current?.reason ?? '');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const error = mutations.set.error ?? mutations.clear.error;

  function handleSubmit(e: FormEvent) {
    e.preventDefault();
    if (reason.trim() === '') {
      setReasonError('Give the reason for this classification.');
      return;
    }
    setReasonError(undefined);
    mutations.set.mutate({ classification, reason: reason.trim() }, { onSuccess: () => setIsEditing(false) });
  }

  return (
    <div data-testid="reviewer-panel" className="flex flex-col gap-3">
      <p className="text-sm text-ink-700">
        Automatic class: <strong>{variant.acmg}</strong>
      </p>
      {current ? <ReviewerBadge review={current} /> : <p className="text-sm text-ink-500">No reviewer classification.</p>}
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {canEdit && !isEditing ? (
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="secondary" size="sm" onClick={() => setIsEditing(true)}>
            {current ? 'Change reviewer class' : 'Set reviewer class'}
          </Button>
          {current ? (
            <Button type="button" variant="ghost" size="sm" isLoading={mutations.clear.isPending} onClick={() => mutations.clear.mutate()}>
              Remove reviewer class
            </Button>
          ) : null}
        </div>
      ) : null}
      {canEdit && isEditing ? (
        <form className="flex max-w-lg flex-col gap-3" onSubmit={handleSubmit} aria-label="Reviewer classification">
          <FormField label="Reviewer class">
            <NativeSelect value={classification} onChange={(e) => setClassification(AcmgClassName.parse(e.target.value))}>
              {AcmgClassName.options.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField label="Reason" error={reasonError} hint="Recorded with your name and the time, and printed in the report.">
            <Textarea rows={3} maxLength={2000} value={reason} onChange={(e) => setReason(e.target.value)} />
          </FormField>
          <div className="flex gap-2">
            <Button type="submit" size="sm" isLoading={mutations.set.isPending}>
              Save reviewer class
            </Button>
            <Button type="button" variant="ghost" size="sm" onClick={() => setIsEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
