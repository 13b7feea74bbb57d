import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Dialog, DialogContent } from './dialog.tsx';
import { toast, Toaster } from './toaster.tsx';

afterEach(() => {
  act(() => void toast.dismiss());
  cleanup();
});

describe('toasts and Escape (§4)', () => {
  it('Escape closes the newest toast, then the next', async () => {
    const user = userEvent.setup();
    render(<Toaster />);
    act(() => void toast('First'));
    act(() => void toast('Second'));
    await screen.findByText('Second');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('Second')).not.toBeInTheDocument());
    expect(screen.getByText('First')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('First')).not.toBeInTheDocument());
  });

  it('leaves Escape to an open dialog', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Toaster />
        <Dialog open>
          <DialogContent title="A question" />
        </Dialog>
      </>,
    );
    act(() => void toast('Kept'));
    await screen.findByText('Kept');
    await user.keyboard('{Escape}');
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getByText('Kept')).toBeInTheDocument();
  });
});
