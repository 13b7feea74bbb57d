import { zodResolver } from '@hookform/resolvers/zod';
import { ErrorCode, Messages, PasswordResetRequestBody } from '@rarelens/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../components/button.tsx';
import { Alert } from '../../components/card.tsx';
import { EmailField, Input } from '../../components/form.tsx';
import { ChevronLeftIcon, MailIcon } from '../../components/icons.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { authApi } from './auth.api.ts';
import { AuthHeading } from './auth-card.tsx';

type Input = z.input<typeof PasswordResetRequestBody>;
type Output = z.output<typeof PasswordResetRequestBody>;

/** /reset-password: e-mails a reset link (valid 20 minutes, once). */
export function ResetPasswordRequestPage() {
  useDocumentTitle('Reset your password');
  const location = useLocation();
  const initialEmail = (location.state as { email?: string } | null)?.email ?? '';
  const [sentTo, setSentTo] = useState<string | undefined>();
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(PasswordResetRequestBody),
    defaultValues: { email: initialEmail },
  });
  const { errors, isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await authApi.requestPasswordReset({ email });
      toast.success(Messages.newResetLinkSent);
      setSentTo(email);
    } catch (error) {
      if (error instanceof ApiError && (error.code === ErrorCode.unknownEmail || error.status === 404)) {
        form.setError('email', { type: 'server', message: Messages.unknownResetEmail });
        return;
      }
      toastError(error);
    }
  });

  return (
    <>
      <Link to="/login" className="mb-8 inline-flex items-center gap-1 text-sm font-medium text-ink-500 hover:text-ink-900">
        <ChevronLeftIcon className="size-4" /> Back to login
      </Link>
      <AuthHeading title="Reset your password">Enter the email of your account and we will send you a link to choose a new password.</AuthHeading>
      {sentTo ? (
        <Alert tone="success" className="mb-6">
          <span className="flex items-start gap-2">
            <MailIcon className="mt-0.5 size-4 shrink-0" />
            <span>
              {Messages.newResetLinkSent} The link sent to <strong>{sentTo}</strong> works once, for 20 minutes.
            </span>
          </span>
        </Alert>
      ) : null}
      <form onSubmit={(e) => void handleSubmit(e)} noValidate className="flex flex-col gap-5">
        <EmailField registration={form.register('email')} error={errors.email?.message} />
        <Button type="submit" size="lg" isLoading={isSubmitting}>
          {sentTo ? 'Send me a new link' : 'Send reset link'}
        </Button>
      </form>
    </>
  );
}
