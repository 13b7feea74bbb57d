import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog, DialogContent } from './dialog.tsx';
import { sideColumnQuery, toast, Toaster, useSideColumnToasts } from './toaster.tsx';

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

describe('toast placement', () => {
  afterEach(() => vi.unstubAllGlobals());

  function SideColumnPage() {
    useSideColumnToasts();
    return <p>A page with a side column</p>;
  }

  it('goes back to bottom-right once the layout with a side column is gone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === sideColumnQuery, addEventListener: () => undefined, removeEventListener: () => undefined }));
    const page = render(<SideColumnPage />);
    render(<Toaster />);
    act(() => void toast('With the column'));
    await screen.findByText('With the column');
    expect(document.querySelector('[data-sonner-toaster]')?.getAttribute('data-x-position')).toBe('left');
    page.unmount();
    act(() => void toast('Without it'));
    await screen.findByText('Without it');
    await waitFor(() => expect(document.querySelector('[data-sonner-toaster]')?.getAttribute('data-x-position')).toBe('right'));
  });
});
