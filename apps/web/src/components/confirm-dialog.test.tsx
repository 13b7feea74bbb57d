import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from './button.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

afterEach(cleanup);

function Harness({ onConfirm, isPending = false, children }: { onConfirm: () => void; isPending?: boolean; children?: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<Button onClick={() => setOpen(true)}>Unshare</Button>}
      title="Are you sure you want to unshare this phenotype?"
      description="The link stops working at once."
      confirmLabel="Unshare now"
      onConfirm={onConfirm}
      isPending={isPending}
      confirmTestId="confirm"
    >
      {children}
    </ConfirmDialog>
  );
}

/** A confirmation opened by a button of the page, not by a Dialog.Trigger (the case lists' Delete). */
function WithoutTrigger() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Delete case X</Button>
      <ConfirmDialog open={open} onOpenChange={setOpen} title="Delete case X?" confirmLabel="Delete case" onConfirm={() => setOpen(false)} />
    </>
  );
}

describe('ConfirmDialog', () => {
  it('returns the focus on Escape to the button that opened it, without a Dialog.Trigger', async () => {
    const user = userEvent.setup();
    render(<WithoutTrigger />);
    await user.keyboard('{Tab}');
    expect(screen.getByRole('button', { name: 'Delete case X' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alertdialog', { name: 'Delete case X?' })).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete case X' })).toHaveFocus();
  });

  it('asks the question and confirms with the action button', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(<Harness onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Unshare' }));
    // A confirmation interrupts with a question that needs an answer: an alert dialog (WAI-ARIA).
    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure you want to unshare this phenotype?' });
    expect(dialog).toHaveTextContent('The link stops working at once.');
    await user.click(screen.getByTestId('confirm'));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('Cancel closes without confirming, and focus returns to the trigger', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    render(<Harness onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Unshare' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Unshare' })).toHaveFocus();
  });

  it('confirms on Enter in a field of the confirmation, and not twice while pending', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(
      <Harness onConfirm={onConfirm}>
        <input aria-label="Password" />
      </Harness>,
    );
    await user.click(screen.getByRole('button', { name: 'Unshare' }));
    await user.type(screen.getByLabelText('Password'), 'secret{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    rerender(
      <Harness onConfirm={onConfirm} isPending>
        <input aria-label="Password" />
      </Harness>,
    );
    await user.type(screen.getByLabelText('Password'), '{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
