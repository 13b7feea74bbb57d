import { zodResolver } from '@hookform/resolvers/zod';
import { ChangePasswordForm, ErrorCode, Messages } from '@rarelens/contract';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../components/button.tsx';
import { Card, PageHeader } from '../../components/card.tsx';
import { FormField, PasswordInput } from '../../components/form.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { NewPasswordFields } from '../auth/index.ts';
import { accountApi } from './account.api.ts';
import { AccountData } from './account-data.tsx';
import { ActivityLog } from './activity-log.tsx';

type Input = z.input<typeof ChangePasswordForm>;
type Output = z.output<typeof ChangePasswordForm>;

/** /my-account/passwords: change the password with the current one. */
export function PasswordsPage() {
  useDocumentTitle('Passwords');
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(ChangePasswordForm),
    defaultValues: { currentPassword: '', password: '', passwordConfirmation: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });

  const handleSubmit = form.handleSubmit(async ({ currentPassword, password: newPassword }) => {
    try {
      await accountApi.changePassword({ currentPassword, password: newPassword });
      form.reset();
      toast.success(Messages.updated);
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.wrongPassword) {
        form.setError('currentPassword', { type: 'server', message: error.message });
        return;
      }
      toastError(error);
    }
  });

  return (
    <div className="max-w-3xl">
      <PageHeader title="Passwords" description="Change the password you sign in with." />
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <Card className="p-6 sm:p-8">
          <div className="grid max-w-md gap-5">
            <FormField label="Current password" error={errors.currentPassword?.message}>
              <PasswordInput autoComplete="current-password" {...form.register('currentPassword')} />
            </FormField>
            <NewPasswordFields password={form.register('password')} confirmation={form.register('passwordConfirmation')} value={password} errors={errors} />
          </div>
          <div className="mt-8 flex justify-end border-t border-ink-100 pt-6">
            <Button type="submit" isLoading={isSubmitting}>
              Change password
            </Button>
          </div>
        </Card>
      </form>
      <ActivityLog />
      <AccountData />
    </div>
  );
}
