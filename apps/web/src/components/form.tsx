import * as CheckboxPrimitive from '@radix-ui/react-checkbox';
import * as LabelPrimitive from '@radix-ui/react-label';
import {
  cloneElement,
  forwardRef,
  isValidElement,
  useId,
  useState,
  type ComponentPropsWithoutRef,
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { cn } from '../lib/cn.ts';
import { AlertIcon, CheckIcon, EyeIcon, EyeOffIcon } from './icons.tsx';
import { Tooltip } from './tooltip.tsx';

const controlBase =
  'w-full rounded-lg border bg-white px-3 text-sm text-ink-900 placeholder:text-ink-400 transition-colors ' +
  'focus:outline-none focus:ring-3 focus:ring-accent-100 focus:border-accent-500 ' +
  'disabled:bg-ink-50 disabled:text-ink-500 read-only:bg-ink-50';

function controlClasses(invalid: boolean | undefined, className?: string) {
  return cn(
    controlBase,
    invalid ? 'border-danger-600 focus:border-danger-600 focus:ring-danger-50' : 'border-ink-200 hover:border-ink-300',
    className,
  );
}

type InvalidProp = { invalid?: boolean };

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & InvalidProp>(
  function Input({ className, invalid, ...props }, ref) {
    return (
      <input ref={ref} aria-invalid={invalid || undefined} className={controlClasses(invalid, cn('h-10', className))} {...props} />
    );
  },
);

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement> & InvalidProp>(
  function Textarea({ className, invalid, ...props }, ref) {
    return (
      <textarea
        ref={ref}
        aria-invalid={invalid || undefined}
        className={controlClasses(invalid, cn('min-h-28 py-2.5', className))}
        {...props}
      />
    );
  },
);

export const NativeSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & InvalidProp>(
  function NativeSelect({ className, invalid, children, ...props }, ref) {
    return (
      <select
        ref={ref}
        aria-invalid={invalid || undefined}
        className={controlClasses(invalid, cn('h-10 appearance-none bg-[length:1rem] bg-[right_0.75rem_center] bg-no-repeat pr-9', className))}
        style={{
          backgroundImage:
            "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%234d6888' stroke-width='2'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E\")",
        }}
        {...props}
      >
        {children}
      </select>
    );
  },
);

/** A password input with a show/hide toggle. */
export const PasswordInput = forwardRef<HTMLInputElement, Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & InvalidProp>(
  function PasswordInput({ className, ...props }, ref) {
    const [isVisible, setIsVisible] = useState(false);
    return (
      <div className="relative">
        <Input ref={ref} type={isVisible ? 'text' : 'password'} className={cn('pr-10', className)} {...props} />
        <Tooltip content={isVisible ? 'Hide password' : 'Show password'}>
          <button
            type="button"
            onClick={() => setIsVisible((v) => !v)}
            className="absolute inset-y-0 right-0 flex w-10 items-center justify-center text-ink-400 hover:text-ink-700"
            aria-label={isVisible ? 'Hide password' : 'Show password'}
            aria-pressed={isVisible}
          >
            {isVisible ? <EyeOffIcon className="size-4" /> : <EyeIcon className="size-4" />}
          </button>
        </Tooltip>
      </div>
    );
  },
);

export const Label = forwardRef<HTMLLabelElement, ComponentPropsWithoutRef<typeof LabelPrimitive.Root>>(function Label(
  { className, ...props },
  ref,
) {
  return <LabelPrimitive.Root ref={ref} className={cn('text-sm font-medium text-ink-800', className)} {...props} />;
});

/** The validation message under a field. */
export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className="mt-1.5 flex items-start gap-1.5 text-[13px] leading-5 text-danger-600">
      <AlertIcon className="mt-0.5 size-3.5 shrink-0" />
      <span>{children}</span>
    </p>
  );
}

type FormFieldProps = {
  label: ReactNode;
  /** The control; it receives id, aria-describedby and invalid. */
  children: ReactElement<{ id?: string; 'aria-describedby'?: string; invalid?: boolean }>;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
  optional?: boolean;
};

/** Label + control + hint + validation message, wired for assistive technology. */
export function FormField({ label, children, error, hint, className, optional }: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, { id, 'aria-describedby': describedBy, invalid: Boolean(error) })
    : children;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id}>
        {label}
        {optional ? <span className="ml-1 font-normal text-ink-400">(optional)</span> : null}
      </Label>
      {control}
      {hint && !error ? (
        <p id={hintId} className="text-xs text-ink-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

type CheckboxProps = Omit<ComponentPropsWithoutRef<typeof CheckboxPrimitive.Root>, 'onCheckedChange' | 'checked'> & {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  invalid?: boolean;
};

export const Checkbox = forwardRef<HTMLButtonElement, CheckboxProps>(function Checkbox(
  { className, checked, onCheckedChange, invalid, ...props },
  ref,
) {
  return (
    <CheckboxPrimitive.Root
      ref={ref}
      checked={checked}
      onCheckedChange={(value) => onCheckedChange(value === true)}
      aria-invalid={invalid || undefined}
      className={cn(
        'flex size-5 shrink-0 items-center justify-center rounded-md border bg-white transition-colors',
        'data-[state=checked]:border-accent-600 data-[state=checked]:bg-accent-600 data-[state=checked]:text-white',
        invalid ? 'border-danger-600' : 'border-ink-300',
        className,
      )}
      {...props}
    >
      <CheckboxPrimitive.Indicator>
        <CheckIcon className="size-3.5" strokeWidth={3} />
      </CheckboxPrimitive.Indicator>
    </CheckboxPrimitive.Root>
  );
});

/** A person's Name and Surname fields (sign-up, account information, demo request, contact). */
export function NameFields({
  name,
  surname,
  errors,
}: {
  name: UseFormRegisterReturn;
  surname: UseFormRegisterReturn;
  errors: { name?: { message?: string }; surname?: { message?: string } };
}) {
  return (
    <>
      <FormField label="Name" error={errors.name?.message}>
        <Input autoComplete="given-name" {...name} />
      </FormField>
      <FormField label="Surname" error={errors.surname?.message}>
        <Input autoComplete="family-name" {...surname} />
      </FormField>
    </>
  );
}

/** A person's e-mail field (sign-in, sign-up, password reset, contact). */
export function EmailField({ registration, error, className }: { registration: UseFormRegisterReturn; error?: string; className?: string }) {
  return (
    <FormField label="Email" error={error} className={className}>
      <Input type="email" autoComplete="email" placeholder="you@hospital.org" {...registration} />
    </FormField>
  );
}
