import { zodResolver } from '@hookform/resolvers/zod';
import { ErrorCode, RegisterForm } from '@rarelens/contract';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../components/button.tsx';
import { Alert } from '../../components/card.tsx';
import { Checkbox, EmailField, FieldError, FormField, Input, NameFields, PasswordInput } from '../../components/form.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { authApi } from './auth.api.ts';
import { AuthHeading } from './auth-card.tsx';
import { applyServerIssues } from '../../lib/form-errors.ts';
import { PasswordRules } from './password-rules.tsx';
import { usePendingVerification } from './pending-verification.ts';
import { VerifyPendingEmailStep } from './verify-email-step.tsx';

type RegisterInput = z.input<typeof RegisterForm>;
type RegisterOutput = z.output<typeof RegisterForm>;

const fields = ['name', 'surname', 'birthDate', 'email', 'password', 'termsAccepted'] as const;
const today = new Date().toISOString().slice(0, 10);

/** /register: the sign-up form, then the e-mailed 6-digit code. */
export function RegisterPage() {
  useDocumentTitle('Create your account');
  const pending = usePendingVerification('register');
  const pendingEmail = pending.email;
  const [formError, setFormError] = useState<string | undefined>();

  const form = useForm<RegisterInput, unknown, RegisterOutput>({
    resolver: zodResolver(RegisterForm),
    defaultValues: {
      name: '',
      surname: '',
      birthDate: '',
      email: '',
      password: '',
      passwordConfirmation: '',
      termsAccepted: false,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });

  const handleSubmit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    try {
      const { passwordConfirmation: _confirmation, ...body } = values;
      await authApi.register({ ...body, termsAccepted: true });
      pending.start(values.email);
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.emailTaken) {
        form.setError('email', { type: 'server', message: error.message });
        return;
      }
      if (!applyServerIssues(error, form.setError, fields)) setFormError(errorMessage(error));
    }
  });

  if (pendingEmail) {
    return (
      <VerifyPendingEmailStep email={pendingEmail} loginPath="/login" onLeave={pending.finish} />
    );
  }

  return (
    <>
      <AuthHeading title="Create your account">
        Already have an account?{' '}
        <Link to="/login" className="font-medium text-accent-600 hover:underline">
          Log in
        </Link>
      </AuthHeading>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate className="flex flex-col gap-5">
        {formError ? <Alert tone="error">{formError}</Alert> : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <NameFields name={form.register('name')} surname={form.register('surname')} errors={errors} />
        </div>
        <FormField label="Date of birth" error={errors.birthDate?.message}>
          <Input type="date" autoComplete="bday" max={today} {...form.register('birthDate')} />
        </FormField>
        <EmailField registration={form.register('email')} error={errors.email?.message} />
        <div className="flex flex-col gap-2.5">
          <FormField label="Password" error={errors.password?.message}>
            <PasswordInput autoComplete="new-password" {...form.register('password')} />
          </FormField>
          <PasswordRules value={password} />
        </div>
        <FormField label="Confirm password" error={errors.passwordConfirmation?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('passwordConfirmation')} />
        </FormField>
        <div>
          <Controller
            control={form.control}
            name="termsAccepted"
            render={({ field }) => (
              <label className="flex items-start gap-3 text-sm text-ink-600">
                <Checkbox
                  ref={field.ref}
                  checked={field.value}
                  onCheckedChange={field.onChange}
                  onBlur={field.onBlur}
                  invalid={Boolean(errors.termsAccepted)}
                  aria-label="I accept the Terms and the Privacy policy"
                  className="mt-0.5"
                />
                <span>
                  I have read and accept the{' '}
                  <Link to="/terms" target="_blank" className="font-medium text-accent-600 hover:underline">
                    Terms
                  </Link>{' '}
                  and the{' '}
                  <Link to="/privacy" target="_blank" className="font-medium text-accent-600 hover:underline">
                    Privacy policy
                  </Link>
                  .
                </span>
              </label>
            )}
          />
          <FieldError>{errors.termsAccepted?.message}</FieldError>
        </div>
        <Button type="submit" size="lg" isLoading={isSubmitting}>
          Create account
        </Button>
      </form>
    </>
  );
}
