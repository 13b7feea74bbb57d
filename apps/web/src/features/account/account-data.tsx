import { DeleteAccountBody, Messages } from '@rarelens/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/button.tsx';
import { Card } from '../../components/card.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormField, PasswordInput } from '../../components/form.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { accountApi } from './account.api.ts';

/**
 * "Your data": download everything RareLens keeps about the user (one JSON document: account,
 * cases with their files' download addresses, shares, reporting lists, reports, conversations,
 * orders, activity), or delete the account with all of it after typing the password again.
 */
export function AccountData() {
  const navigate = useNavigate();
  const [isOpen, setIsOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [isDeleting, setIsDeleting] = useState(false);

  async function handleDelete() {
    const parsed = DeleteAccountBody.safeParse({ password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setIsDeleting(true);
    try {
      await accountApi.deleteAccount(parsed.data);
      toast.success(Messages.accountDeleted);
      setIsOpen(false);
      await navigate('/logout', { replace: true });
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) setError(e.message);
      else toastError(e);
    } finally {
      setIsDeleting(false);
    }
  }

  return (
    <Card className="mt-6 p-6 sm:p-8" data-testid="account-data">
      <h2 className="text-base font-semibold text-ink-900">Your data</h2>
      <p className="mt-1 text-sm text-ink-600">
        Download everything RareLens keeps about you as one JSON file, or delete your account. Deleting removes your cases with their genome and supporting files, results,
        reports, conversations, orders and shares, and cannot be undone.
      </p>
      <div className="mt-5 flex flex-wrap gap-3">
        <Button asChild variant="outline">
          <a href="/api/account/export" download data-testid="export-account">
            Download my data
          </a>
        </Button>
        <ConfirmDialog
          open={isOpen}
          onOpenChange={(open) => {
            setIsOpen(open);
            setPassword('');
            setError(undefined);
          }}
          trigger={
            <Button variant="danger" data-testid="delete-account">
              Delete account
            </Button>
          }
          title="Delete your account?"
          description="Your cases, their files and every result, report and conversation are deleted for good. Type your password to confirm."
          confirmLabel="Delete account"
          onConfirm={() => void handleDelete()}
          isPending={isDeleting}
          confirmTestId="confirm-delete-account"
        >
          <FormField label="Password" error={error}>
            <PasswordInput autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="delete-account-password" />
          </FormField>
        </ConfirmDialog>
      </div>
    </Card>
  );
}
