import { Constants } from '@rarelens/contract';
import { useEffect } from 'react';
import { Toaster as SonnerToaster, toast } from 'sonner';
import { ApiError, errorMessage } from '../lib/api-client.ts';

/**
 * Escape closes a toast (§4), the newest first; Sonner itself only collapses the stack on
 * Escape. While a modal dialog is open, Escape belongs to the dialog unless focus is among the
 * toasts (F8 takes it there).
 */
export function dismissNewestToastOnEscape(event: Pick<KeyboardEvent, 'key'>, doc: Document = document): boolean {
  if (event.key !== 'Escape') return false;
  const active = doc.activeElement;
  const isInToasts = active instanceof Element && active.closest('[data-sonner-toaster]') !== null;
  if (!isInToasts && doc.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')) return false;
  // Sonner keeps its active toasts oldest first.
  const newest = toast.getToasts().at(-1);
  if (newest === undefined) return false;
  toast.dismiss(newest.id);
  return true;
}

/**
 * The toast viewport: toasts close after 5000 ms, pause while hovered or focused, close on a
 * swipe or Escape, and F8 moves focus to them (§4, §9). Sonner's swipe distance is fixed
 * internally (45 px) — the closest the library allows to the spec's 50.
 */
export function Toaster() {
  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => void dismissNewestToastOnEscape(event);
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
  }, []);
  return (
    <SonnerToaster
      position="bottom-right"
      duration={Constants.toastDurationMs}
      hotkey={[Constants.toastHotkey]}
      closeButton
      richColors
      swipeDirections={['right', 'top']}
      toastOptions={{ className: 'font-sans' }}
    />
  );
}

export { toast };

/** Toasts a failure ("Something went wrong" unless the server said more), except one the Session Expired dialog already shows. */
export function toastError(error: unknown): void {
  if (error instanceof ApiError && error.isSessionExpiryShown) return;
  toast.error(errorMessage(error));
}
