import { Constants } from '@rarelens/contract';
import { Toaster as SonnerToaster, toast } from 'sonner';
import { ApiError, errorMessage } from '../lib/api-client.ts';

/**
 * The toast viewport: toasts close after 5000 ms, pause while hovered or focused, close on a
 * swipe or Escape, and F8 moves focus to them (§4, §9). Sonner's swipe distance is fixed
 * internally (45 px) — the closest the library allows to the spec's 50.
 */
export function Toaster() {
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
