import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import { CloseIcon } from './icons.tsx';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

/**
 * Focus handlers for a dialog's Content: on close, the focus goes back to the element that had
 * it when the dialog opened (WCAG 2.4.3). Radix returns it only to a Dialog.Trigger, and most
 * dialogs here open from a state change or from the URL (the variant drawer).
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const element = opener.current;
      opener.current = null;
      if (element?.isConnected) {
        event.preventDefault();
        element.focus();
      }
    },
  };
}

type DialogContentProps = {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Hide the corner close button (for dialogs that demand a decision). */
  isDismissible?: boolean;
  /** 'alertdialog' for a question that interrupts and needs an answer (a confirmation). */
  role?: 'dialog' | 'alertdialog';
};

/** A centred modal with a title, optional description and body. */
export function DialogContent({ title, description, children, className, isDismissible = true, role = 'dialog' }: DialogContentProps) {
  const returnFocus = useReturnFocus();
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink-950/50 backdrop-blur-[2px] animate-fade-in" />
      <DialogPrimitive.Content
        {...returnFocus}
        role={role}
        onEscapeKeyDown={isDismissible ? undefined : (e) => e.preventDefault()}
        onPointerDownOutside={isDismissible ? undefined : (e) => e.preventDefault()}
        className={cn(
          'fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2',
          'rounded-2xl border border-ink-100 bg-white p-6 shadow-2xl animate-fade-in',
          className,
        )}
      >
        <DialogPrimitive.Title className="text-lg font-semibold text-ink-900">{title}</DialogPrimitive.Title>
        {description ? (
          <DialogPrimitive.Description className="mt-2 text-sm text-ink-600">{description}</DialogPrimitive.Description>
        ) : (
          <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
        )}
        {children}
        {isDismissible ? (
          <DialogPrimitive.Close
            className="absolute top-4 right-4 rounded-md p-1 text-ink-400 hover:bg-ink-50 hover:text-ink-700"
            aria-label="Close"
          >
            <CloseIcon className="size-5" />
          </DialogPrimitive.Close>
        ) : null}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

type SheetProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
};

/** A panel sliding in from the right, 360 px wide (§9), for navigation on small screens. */
export function Sheet({ open, onOpenChange, title, children }: SheetProps) {
  const returnFocus = useReturnFocus();
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink-950/40 animate-fade-in" />
        <DialogPrimitive.Content
          {...returnFocus}
          className="fixed inset-y-0 right-0 z-50 flex w-[360px] max-w-full flex-col bg-white shadow-2xl animate-sheet-in"
          aria-describedby={undefined}
        >
          <DialogPrimitive.Title className="sr-only">{title}</DialogPrimitive.Title>
          <DialogPrimitive.Close
            className="absolute top-4 right-4 rounded-md p-1.5 text-ink-500 hover:bg-ink-50 hover:text-ink-900"
            aria-label="Close menu"
          >
            <CloseIcon className="size-5" />
          </DialogPrimitive.Close>
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
