import { Constants } from '@rarelens/contract';
import { useEffect, useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { cn } from '../lib/cn.ts';

type OtpInputProps = {
  /** The digits entered so far (never anything but digits). */
  value: string;
  onChange: (value: string) => void;
  /** Called once all boxes are filled. */
  onComplete?: (value: string) => void;
  length?: number;
  invalid?: boolean;
  disabled?: boolean;
  label?: string;
  /** Focus the first box on mount (a page whose main task is the code). */
  autoFocus?: boolean;
  id?: string;
  'aria-describedby'?: string;
};

/** Keeps digits only (§5: the code input in number mode accepts digits only). */
export function keepDigits(text: string): string {
  return text.replace(/\D+/g, '');
}

/**
 * A one-time-code entry of `length` boxes. The value is a contiguous string of digits: a box
 * past the current end cannot be filled out of order, which keeps paste, autofill and
 * backspace predictable.
 */
export function OtpInput({
  value,
  onChange,
  onComplete,
  length = Constants.verificationCodeLength,
  invalid,
  disabled,
  label = 'Verification code',
  autoFocus = false,
  id,
  'aria-describedby': describedBy,
}: OtpInputProps) {
  const inputs = useRef<Array<HTMLInputElement | null>>([]);

  const focusBox = (index: number) => {
    const box = inputs.current[Math.max(0, Math.min(length - 1, index))];
    box?.focus();
    box?.select();
  };

  // Focus moves after the new value has rendered, so the box's focus guard sees it.
  const pendingFocus = useRef<number | null>(null);
  useEffect(() => {
    if (pendingFocus.current === null) return;
    const index = pendingFocus.current;
    pendingFocus.current = null;
    focusBox(index);
  });

  const commit = (next: string, focusIndex: number) => {
    const digits = keepDigits(next).slice(0, length);
    pendingFocus.current = Math.min(focusIndex, length - 1, digits.length);
    onChange(digits);
    if (digits.length === length && digits !== value) onComplete?.(digits);
    return digits;
  };

  const insertAt = (index: number, text: string) => {
    const digits = keepDigits(text);
    if (!digits) return;
    const start = Math.min(index, value.length);
    commit(value.slice(0, start) + digits + value.slice(start + digits.length), start + digits.length);
  };

  const handleKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'Backspace': {
        event.preventDefault();
        if (index < value.length) commit(value.slice(0, index) + value.slice(index + 1), index);
        else if (index > 0) commit(value.slice(0, index - 1), index - 1);
        return;
      }
      case 'Delete': {
        event.preventDefault();
        commit(value.slice(0, index) + value.slice(index + 1), index);
        return;
      }
      case 'ArrowLeft':
        event.preventDefault();
        focusBox(index - 1);
        return;
      case 'ArrowRight':
        event.preventDefault();
        focusBox(Math.min(index + 1, value.length));
        return;
      default:
        // Single printable characters other than digits never reach the value.
        if (event.key.length === 1 && !/\d/.test(event.key) && !event.ctrlKey && !event.metaKey) {
          event.preventDefault();
        }
    }
  };

  const handlePaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    insertAt(index, event.clipboardData.getData('text'));
  };

  return (
    <div role="group" aria-label={label} id={id} aria-describedby={describedBy} className="flex gap-2 sm:gap-3">
      {Array.from({ length }, (_, index) => (
        <input
          key={index}
          ref={(el) => {
            inputs.current[index] = el;
          }}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          autoFocus={autoFocus && index === 0}
          aria-label={`Digit ${index + 1} of ${length}`}
          aria-invalid={invalid || undefined}
          disabled={disabled}
          maxLength={length}
          value={value[index] ?? ''}
          onFocus={(event) => {
            if (index > value.length) focusBox(value.length);
            else event.currentTarget.select();
          }}
          onChange={(event) => {
            const typed = keepDigits(event.currentTarget.value);
            if (!typed) return;
            const current = value[index];
            // Typing into a box that still holds a digit (caret after it): the new digits
            // belong to the following boxes. Caret before it: they replace it.
            if (current && typed.length > 1 && typed.startsWith(current)) insertAt(index + 1, typed.slice(1));
            else if (current && typed.length > 1 && typed.endsWith(current)) insertAt(index, typed.slice(0, -1));
            else insertAt(index, typed);
          }}
          onKeyDown={(event) => handleKeyDown(index, event)}
          onPaste={(event) => handlePaste(index, event)}
          className={cn(
            'h-12 w-10 rounded-lg border bg-white text-center text-lg font-semibold tabular-nums text-ink-900 sm:h-14 sm:w-12',
            'focus:border-accent-500 focus:ring-3 focus:ring-accent-100 focus:outline-none',
            invalid ? 'border-danger-600' : 'border-ink-200',
          )}
        />
      ))}
    </div>
  );
}
