import { zodResolver } from '@hookform/resolvers/zod';
import { ErrorCode, Messages, PasswordResetForm } from '@rarelens/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../components/button.tsx';
import { Alert } from '../../components/card.tsx';
import { CheckIcon, ClockIcon } from '../../components/icons.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { authApi } from './auth.api.ts';
import { AuthHeading } from './auth-card.tsx';
import { NewPasswordFields } from './password-rules.tsx';

type Input = z.input<typeof PasswordResetForm>;
type Output = z.output<typeof PasswordResetForm>;

function ExpiredLink({ message }: { message: string }) {
  return (
    <div className="flex flex-col items-start gap-5">
      <div className="flex size-12 items-center justify-center rounded-xl bg-danger-50 text-2xl text-danger-600">
        <ClockIcon />
      </div>
      <AuthHeading title={message}>Reset links work once and for 20 minutes. Ask for a new one and use it right away.</AuthHeading>
      <Button asChild size="lg" className="w-full">
        <Link to="/reset-password">{Messages.sendNewLink}</Link>
      </Button>
    </div>
  );
}

function ResetDone() {
  return (
    <div className="flex flex-col items-start gap-5">
      <div className="flex size-12 items-center justify-center rounded-xl bg-accent-50 text-2xl text-accent-600">
        <CheckIcon />
      </div>
      <AuthHeading title="Your password has been reset">You can now log in with your new password.</AuthHeading>
      <Button asChild size="lg" className="w-full">
        <Link to="/login">Go to Login</Link>
      </Button>
    </div>
  );
}

/** /reset-password/:token: checks the link first, then sets the new password. */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const { token = '' } = useParams();
  const [isDone, setIsDone] = useState(false);
  const [submitError, setSubmitError] = useState<ApiError | Error | undefined>();

  const check = useQuery({
    queryKey: ['password-reset', token],
    queryFn: () => authApi.checkResetToken(token),
    retry: false,
    staleTime: Infinity,
  });

  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(PasswordResetForm),
    defaultValues: { password: '', passwordConfirmation: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });

  const handleSubmit = form.handleSubmit(async ({ password: newPassword }) => {
    setSubmitError(undefined);
    try {
      await authApi.resetPassword(token, { password: newPassword });
      setIsDone(true);
    } catch (error) {
      setSubmitError(error instanceof Error ? error : new Error(errorMessage(error)));
    }
  });

  if (isDone) return <ResetDone />;
  if (check.isPending) return <PageSpinner label="Checking your link" />;
  const linkError = check.error ?? (submitError instanceof ApiError && submitError.status === 410 ? submitError : undefined);
  if (linkError) {
    // A link that is not live — expired, used, unknown, or cut short by a mail client (400) — gets the spec's answer.
    const isExpired =
      linkError instanceof ApiError && (linkError.code === ErrorCode.resetLinkExpired || linkError.status === 410 || linkError.status === 404 || linkError.status === 400);
    return <ExpiredLink message={isExpired ? Messages.resetLinkExpired : errorMessage(linkError)} />;
  }

  return (
    <>
      <AuthHeading title="Choose a new password">Pick a password you have not used here before.</AuthHeading>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate className="flex flex-col gap-5">
        {submitError ? <Alert tone="error">{errorMessage(submitError)}</Alert> : null}
        <NewPasswordFields password={form.register('password')} confirmation={form.register('passwordConfirmation')} value={password} errors={errors} />
        <Button type="submit" size="lg" isLoading={isSubmitting}>
          Reset password
        </Button>
      </form>
    </>
  );
}
