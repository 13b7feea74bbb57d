import { Constants, Messages } from '@rarelens/contract';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField, PasswordInput } from '../../components/form.tsx';
import { CheckIcon } from '../../components/icons.tsx';
import { cn } from '../../lib/cn.ts';

const rules = [
  { message: Messages.passwordMin, test: (v: string) => v.length >= Constants.minPasswordLength },
  { message: Messages.passwordLower, test: (v: string) => /[a-z]/.test(v) },
  { message: Messages.passwordUpper, test: (v: string) => /[A-Z]/.test(v) },
  { message: Messages.passwordNumber, test: (v: string) => /[0-9]/.test(v) },
];

/** The §5 password rules as a live checklist under a new-password field. */
export function PasswordRules({ value }: { value: string }) {
  return (
    <ul aria-label="Password requirements" className="grid grid-cols-1 gap-x-4 gap-y-1 text-xs sm:grid-cols-2">
      {rules.map((rule) => {
        const isMet = rule.test(value);
        return (
          <li key={rule.message} className={cn('flex items-center gap-1.5', isMet ? 'text-accent-600' : 'text-ink-400')}>
            <span
              className={cn(
                'flex size-3.5 items-center justify-center rounded-full border',
                isMet ? 'border-accent-500 bg-accent-500 text-white' : 'border-ink-300',
              )}
            >
              {isMet ? <CheckIcon className="size-2.5" strokeWidth={3.5} /> : null}
            </span>
            {rule.message}
            <span className="sr-only">{isMet ? '(met)' : '(not met)'}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** A new password with its live rules, and its confirmation (password change and reset). */
export function NewPasswordFields({
  password,
  confirmation,
  value,
  errors,
}: {
  password: UseFormRegisterReturn;
  confirmation: UseFormRegisterReturn;
  /** The password typed so far (for the rules). */
  value: string;
  errors: { password?: { message?: string }; passwordConfirmation?: { message?: string } };
}) {
  return (
    <>
      <div className="flex flex-col gap-2.5">
        <FormField label="New password" error={errors.password?.message}>
          <PasswordInput autoComplete="new-password" {...password} />
        </FormField>
        <PasswordRules value={value} />
      </div>
      <FormField label="Confirm new password" error={errors.passwordConfirmation?.message}>
        <PasswordInput autoComplete="new-password" {...confirmation} />
      </FormField>
    </>
  );
}
