import type { ReactElement, ReactNode } from 'react';
import { Button, type ButtonVariant } from './button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from './dialog.tsx';

type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The question (e.g. §4's "Are you sure you want to unshare this phenotype?"). */
  title: ReactNode;
  /** What the action does, in a sentence. */
  description?: ReactNode;
  /** The confirming button: the action itself ("Delete case"), not "OK". */
  confirmLabel: string;
  onConfirm: () => void;
  isPending?: boolean;
  /** `danger` for what cannot be undone (the default). */
  variant?: Extract<ButtonVariant, 'danger' | 'primary'>;
  /** data-testid of the confirming button. */
  confirmTestId?: string;
  cancelLabel?: string;
  /** The button that opens the dialog (one element); focus returns to it on close. */
  trigger?: ReactElement;
  /** Fields the confirmation needs (e.g. the password); Enter in them confirms. */
  children?: ReactNode;
};

/**
 * Every confirmation of the app: a question, what will happen, Cancel and the action. The
 * buttons submit a form, so a field in `children` confirms on Enter like the button does.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  isPending = false,
  variant = 'danger',
  confirmTestId,
  cancelLabel = 'Cancel',
  trigger,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent role="alertdialog" title={title} description={description}>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!isPending) onConfirm();
          }}
        >
          {children}
          <div className="mt-6 flex justify-end gap-2">
            <DialogClose asChild>
              <Button type="button" variant="outline">
                {cancelLabel}
              </Button>
            </DialogClose>
            <Button type="submit" variant={variant} isLoading={isPending} data-testid={confirmTestId}>
              {confirmLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
