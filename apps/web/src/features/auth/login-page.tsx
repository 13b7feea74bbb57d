import { zodResolver } from '@hookform/resolvers/zod';
import { ErrorCode, LoginBody, Messages } from '@rarelens/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { usePostLoginPath } from '../../app/guards.tsx';
import { Button } from '../../components/button.tsx';
import { Alert } from '../../components/card.tsx';
import { EmailField, FormField, PasswordInput } from '../../components/form.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { useSession } from '../../lib/session.tsx';
import { AuthHeading } from './auth-card.tsx';
import { usePendingVerification } from './pending-verification.ts';
import { VerifyEmailStep, VerifyPendingEmailStep } from './verify-email-step.tsx';

type LoginInput = z.input<typeof LoginBody>;
type LoginOutput = z.output<typeof LoginBody>;

/** What other pages may hand to the login page through navigation state. */
export type LoginLocationState = { email?: string; notice?: string } | null;

/** /login: signed-out only; afterwards to ?redirect=… when present, else /home. */
export function LoginPage() {
  useDocumentTitle('Login');
  const { signIn } = useSession();
  const navigate = useNavigate();
  const postLoginPath = usePostLoginPath();
  const location = useLocation();
  const state = location.state as LoginLocationState;
  const [formError, setFormError] = useState<string | undefined>();
  const [unverified, setUnverified] = useState<LoginOutput | undefined>();
  // The code step survives a reload (the password does not: after it, log in again).
  const pending = usePendingVerification('login');

  const form = useForm<LoginInput, unknown, LoginOutput>({
    resolver: zodResolver(LoginBody),
    defaultValues: { email: state?.email ?? '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const goOn = () => navigate(postLoginPath, { replace: true });

  const handleSubmit = form.handleSubmit(async (credentials) => {
    setFormError(undefined);
    try {
      await signIn(credentials);
      await goOn();
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.emailNotVerified) {
        setUnverified(credentials);
        pending.start(credentials.email);
        return;
      }
      setFormError(error instanceof ApiError && error.status === 401 ? Messages.incorrectCredentials : errorMessage(error));
    }
  });

  if (unverified) {
    return (
      <VerifyEmailStep
        email={unverified.email}
        shouldSendOnOpen
        onVerified={async () => {
          pending.finish();
          await signIn(unverified);
          await goOn();
        }}
      />
    );
  }
  if (pending.email) {
    const email = pending.email;
    return (
      <VerifyPendingEmailStep
        email={email}
        loginPath={location.pathname + location.search}
        onLeave={pending.finish}
        onVerified={() => form.reset({ email, password: '' })}
      />
    );
  }

  return (
    <>
      <AuthHeading title="Welcome back">
        New to RareLens?{' '}
        <Link to="/register" className="font-medium text-accent-600 hover:underline">
          Create an account
        </Link>
      </AuthHeading>
      {state?.notice ? (
        <Alert tone="success" className="mb-6">
          {state.notice}
        </Alert>
      ) : null}
      <form onSubmit={(e) => void handleSubmit(e)} noValidate className="flex flex-col gap-5">
        {formError ? <Alert tone="error">{formError}</Alert> : null}
        <EmailField registration={form.register('email')} error={errors.email?.message} />
        <div className="flex flex-col gap-1.5">
          <FormField label="Password" error={errors.password?.message}>
            <PasswordInput autoComplete="current-password" {...form.register('password')} />
          </FormField>
          <Link to="/reset-password" className="self-end text-sm font-medium text-accent-600 hover:underline">
            Forgot your password?
          </Link>
        </div>
        <Button type="submit" size="lg" isLoading={isSubmitting}>
          Log in
        </Button>
      </form>
    </>
  );
}
