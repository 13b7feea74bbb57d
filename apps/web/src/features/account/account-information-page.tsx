import { zodResolver } from '@hookform/resolvers/zod';
import { Messages, UpdateAccountBody, type PublicUser } from '@rarelens/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../components/button.tsx';
import { Card, PageHeader } from '../../components/card.tsx';
import { FormField, Input, NativeSelect, NameFields } from '../../components/form.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { sessionQueryKey } from '../../lib/session.tsx';
import { applyServerIssues } from '../../lib/form-errors.ts';
import { accountApi } from './account.api.ts';

type AccountInput = z.input<typeof UpdateAccountBody>;
type AccountOutput = z.output<typeof UpdateAccountBody>;

const fields = ['name', 'surname', 'birthDate', 'address', 'country', 'state', 'phoneNumber', 'language'] as const;
const today = new Date().toISOString().slice(0, 10);

function toFormValues(user: PublicUser): AccountInput {
  return {
    name: user.name,
    surname: user.surname,
    birthDate: user.birthDate.slice(0, 10),
    address: user.address ?? '',
    country: user.country ?? '',
    state: user.state ?? '',
    phoneNumber: user.phoneNumber ?? '',
    language: user.language,
  };
}

function AccountForm({ user }: { user: PublicUser }) {
  const queryClient = useQueryClient();
  const form = useForm<AccountInput, unknown, AccountOutput>({
    resolver: zodResolver(UpdateAccountBody),
    defaultValues: toFormValues(user),
  });
  const { errors, isSubmitting, isDirty } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      const { user: updated, message } = await accountApi.update(values);
      queryClient.setQueryData(['account'], updated);
      queryClient.setQueryData(sessionQueryKey, updated);
      form.reset(toFormValues(updated));
      toast.success(message || Messages.updated);
    } catch (error) {
      if (!applyServerIssues(error, form.setError, fields)) toastError(error);
    }
  });

  return (
    <form onSubmit={(e) => void handleSubmit(e)} noValidate>
      <Card className="p-6 sm:p-8">
        <h2 className="text-base font-semibold text-ink-900">Personal information</h2>
        <p className="mt-1 text-sm text-ink-500">Used on your reports and when others share cases with you.</p>
        <div className="mt-6 grid gap-5 sm:grid-cols-2">
          <NameFields name={form.register('name')} surname={form.register('surname')} errors={errors} />
          <FormField label="Email" hint="Your sign-in address cannot be changed here.">
            <Input type="email" value={user.email} readOnly />
          </FormField>
          <FormField label="Date of birth" error={errors.birthDate?.message}>
            <Input type="date" max={today} {...form.register('birthDate')} />
          </FormField>
          <FormField label="Phone number" optional error={errors.phoneNumber?.message}>
            <Input type="tel" autoComplete="tel" {...form.register('phoneNumber')} />
          </FormField>
          <FormField label="Language" error={errors.language?.message}>
            <NativeSelect {...form.register('language')}>
              <option value="en">English</option>
              <option value="tr">Türkçe</option>
            </NativeSelect>
          </FormField>
          <FormField label="Address" optional error={errors.address?.message} className="sm:col-span-2">
            <Input autoComplete="street-address" {...form.register('address')} />
          </FormField>
          <FormField label="Country" optional error={errors.country?.message}>
            <Input autoComplete="country-name" {...form.register('country')} />
          </FormField>
          <FormField label="State / Region" optional error={errors.state?.message}>
            <Input autoComplete="address-level1" {...form.register('state')} />
          </FormField>
        </div>
        <div className="mt-8 flex justify-end gap-2 border-t border-ink-100 pt-6">
          <Button variant="outline" disabled={!isDirty || isSubmitting} onClick={() => form.reset(toFormValues(user))}>
            Discard changes
          </Button>
          <Button type="submit" isLoading={isSubmitting}>
            Save changes
          </Button>
        </div>
      </Card>
    </form>
  );
}

/** /my-account/account-information: personal information, saved with the toast "Updated". */
export function AccountInformationPage() {
  useDocumentTitle('Account information');
  const account = useQuery({ queryKey: ['account'], queryFn: accountApi.get });
  return (
    <div className="max-w-3xl">
      <PageHeader title="Account information" description="Manage your personal details." />
      {account.isPending ? (
        <PageSpinner />
      ) : account.isError ? (
        <p role="alert" className="text-sm text-danger-600">
          {errorMessage(account.error)}
        </p>
      ) : (
        <AccountForm user={account.data} />
      )}
    </div>
  );
}
