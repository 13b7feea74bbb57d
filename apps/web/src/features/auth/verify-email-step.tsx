import { Constants, ErrorCode } from '@rarelens/contract';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/button.tsx';
import { Alert } from '../../components/card.tsx';
import { FieldError, Label } from '../../components/form.tsx';
import { MailIcon } from '../../components/icons.tsx';
import { OtpInput } from '../../components/otp-input.tsx';
import { toast, toastError } from '../../components/toaster.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { authApi } from './auth.api.ts';
import type { LoginLocationState } from './login-page.tsx';

const resendCooldownSeconds = 30;

type VerifyEmailStepProps = {
  email: string;
  onVerified: () => void | Promise<void>;
  /** Send a fresh code when the step opens (e.g. a login refused for an unverified address). */
  shouldSendOnOpen?: boolean;
  /** Leaves the step (e.g. to use another address); shown as a link when given. */
  onCancel?: () => void;
};

/** The 6-digit code from the verification e-mail, with resend. */
export function VerifyEmailStep({ email, onVerified, shouldSendOnOpen = false, onCancel }: VerifyEmailStepProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [cooldown, setCooldown] = useState(shouldSendOnOpen ? 0 : resendCooldownSeconds);

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = window.setTimeout(() => setCooldown((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [cooldown]);

  const verify = useMutation({
    mutationFn: (value: string) => authApi.verifyEmail({ email, code: value }),
    onSuccess: async () => {
      setError(undefined);
      await onVerified();
    },
    onError: (err) => {
      setError(err instanceof ApiError && err.code === ErrorCode.invalidCode ? err.message : errorMessage(err));
      setCode('');
    },
  });

  const resend = useMutation({
    mutationFn: () => authApi.resendCode({ email }),
    onSuccess: () => {
      toast.success('A new code has been sent to your email.');
      setCooldown(resendCooldownSeconds);
    },
    onError: (err) => toastError(err),
  });

  const { mutate: sendCode } = resend;
  useEffect(() => {
    if (shouldSendOnOpen) sendCode();
  }, [shouldSendOnOpen, sendCode]);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== Constants.verificationCodeLength) {
      setError(`Enter the ${Constants.verificationCodeLength}-digit code from the email.`);
      return;
    }
    verify.mutate(code);
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-6">
      <div className="flex size-12 items-center justify-center rounded-xl bg-accent-50 text-2xl text-accent-600">
        <MailIcon />
      </div>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-ink-900 sm:text-3xl">Verify your email</h1>
        <p className="mt-2 text-sm text-ink-500">
          We sent a {Constants.verificationCodeLength}-digit code to <strong className="font-medium text-ink-800">{email}</strong>. Enter it
          below to activate your account.
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <Label>Verification code</Label>
        <OtpInput
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(undefined);
          }}
          onComplete={(value) => {
            if (!verify.isPending) verify.mutate(value);
          }}
          invalid={Boolean(error)}
          disabled={verify.isPending}
          autoFocus
        />
        <FieldError>{error}</FieldError>
      </div>
      <Button type="submit" size="lg" isLoading={verify.isPending}>
        Verify email
      </Button>
      <Alert>
        Didn’t get the email? Check your spam folder, or{' '}
        <Button
          variant="link"
          className="font-medium"
          onClick={() => resend.mutate()}
          disabled={cooldown > 0 || resend.isPending}
        >
          {cooldown > 0 ? `resend the code in ${cooldown} s` : 'resend the code'}
        </Button>
        .
      </Alert>
      {onCancel ? (
        <Button variant="link" className="self-start font-medium" onClick={onCancel}>
          Use another email address
        </Button>
      ) : null}
    </form>
  );
}

/**
 * The code step of an address left pending by the register or login form. Leaving or verifying
 * closes the step (`onLeave`); once verified, `onVerified` runs and the login form at `loginPath`
 * opens with the address filled in and the verified notice.
 */
export function VerifyPendingEmailStep({
  email,
  loginPath,
  onLeave,
  onVerified,
}: {
  email: string;
  loginPath: string;
  onLeave: () => void;
  onVerified?: () => void;
}) {
  const navigate = useNavigate();
  return (
    <VerifyEmailStep
      email={email}
      onCancel={onLeave}
      onVerified={() => {
        onLeave();
        onVerified?.();
        return navigate(loginPath, {
          replace: true,
          state: { email, notice: 'Your email is verified. You can log in now.' } satisfies LoginLocationState,
        });
      }}
    />
  );
}
