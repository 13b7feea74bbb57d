import { Messages, type ShareSettingsItem, type ShareStatus } from '@rarelens/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/button.tsx';
import { Alert, EmptyState, PageHeader } from '../../components/card.tsx';
import { TableCard } from '../../components/table-card.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ShareIcon } from '../../components/icons.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useShareMutations, useShareSettings } from './sharing.api.ts';

const statusLabel: Record<ShareStatus, string> = { active: 'Active', expired: 'Link expired', revoked: 'Unshared' };
const statusTone: Record<ShareStatus, string> = {
  active: 'bg-accent-50 text-accent-800 ring-accent-200',
  expired: 'bg-amber-50 text-amber-800 ring-amber-200',
  revoked: 'bg-ink-50 text-ink-600 ring-ink-200',
};

function StatusPill({ status }: { status: ShareStatus }) {
  return (
    <span className={cn('inline-flex rounded-md px-1.5 py-0.5 text-xs font-medium ring-1', statusTone[status])}>
      {statusLabel[status]}
    </span>
  );
}

/** Unshare after the spec's confirmation (§4), then the "Successfully unshared" toast. */
function UnshareButton({ share }: { share: ShareSettingsItem }) {
  const [isOpen, setIsOpen] = useState(false);
  const { unshare } = useShareMutations();
  function handleUnshare() {
    unshare.mutate(
      { productId: share.productId, email: share.email },
      {
        onSuccess: () => {
          toast.success(Messages.unshared);
          setIsOpen(false);
        },
        onError: toastError,
      },
    );
  }
  return (
    <ConfirmDialog
      open={isOpen}
      onOpenChange={setIsOpen}
      trigger={
        <Button variant="ghost" size="sm" data-testid="unshare">
          Unshare
        </Button>
      }
      title={Messages.unshareConfirm}
      description={`${share.email} will no longer see case ${share.caseId}, and the link sent by e-mail stops working at once.`}
      confirmLabel="Unshare"
      onConfirm={handleUnshare}
      isPending={unshare.isPending}
      confirmTestId="confirm-unshare"
    />
  );
}

function lastOpened(share: ShareSettingsItem): string {
  if (share.lastOpenedAt === null) return 'Never';
  return `${formatDateTime(share.lastOpenedAt)} (${share.openCount} time${share.openCount === 1 ? '' : 's'})`;
}

/** /my-product/share-settings: every share of the user's cases, with opens and status. */
export function ShareSettingsPage() {
  useDocumentTitle('Share settings');
  const shares = useShareSettings();
  return (
    <>
      <PageHeader title="Share settings" description="People you have shared phenotypes with, and when they opened the link." />
      {shares.isPending ? (
        <PageSpinner label="Loading shares" />
      ) : shares.isError ? (
        <Alert tone="error">{errorMessage(shares.error)}</Alert>
      ) : shares.data.length === 0 ? (
        <EmptyState icon={<ShareIcon />} title="Nothing shared yet">
          Phenotypes you share with other users by email will be listed here. Use Share on a case’s phenotypes.
        </EmptyState>
      ) : (
        <TableCard
          testId="share-table"
          headers={['Recipient', 'Case', 'Shared on', 'Last opened', 'Status', { label: <span className="sr-only">Actions</span> }]}
        >
          {shares.data.map((share) => (
            <tr key={`${share.productId}:${share.email}`} data-testid="share-row" data-email={share.email} className="border-t border-ink-100 align-top">
              <td className="px-4 py-3 font-medium text-ink-900">{share.email}</td>
              <td className="px-4 py-3">
                <Link to={`/my-product/${encodeURIComponent(share.productId)}/phenotypes`} className="text-ink-900 hover:underline">
                  {share.caseId}
                </Link>
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-ink-700">
                {formatDate(share.sharedAt)}
                {share.status === 'active' ? <p className="text-xs text-ink-500">Link until {formatDate(share.expiresAt)}</p> : null}
              </td>
              <td className="px-4 py-3 text-ink-700" data-testid="share-last-opened">{lastOpened(share)}</td>
              <td className="px-4 py-3"><StatusPill status={share.status} /></td>
              <td className="px-4 py-3 text-right">{share.status === 'revoked' ? null : <UnshareButton share={share} />}</td>
            </tr>
          ))}
        </TableCard>
      )}
    </>
  );
}
