import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { belowHeaderToastOffsetPx, sideColumnQuery, sideColumnToastWidthPx, toast } from '../../components/toaster.tsx';
import { renderApp } from '../../testing/render.tsx';
import { myAccountNavigation } from '../navigation.ts';
import { SignedInShell } from './signed-in-shell.tsx';

// jsdom has no Element.scrollTo (the shell scrolls its content to the top on navigation).
if (typeof Element.prototype.scrollTo !== 'function') Element.prototype.scrollTo = () => undefined;

afterEach(() => {
  act(() => void toast.dismiss());
  cleanup();
  vi.unstubAllGlobals();
});

/** The shell on a large screen (side navigation shown) or a phone, with a toast shown; returns the toaster. */
async function shellWithToast(isLargeScreen: boolean): Promise<HTMLElement> {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === sideColumnQuery ? isLargeScreen : false,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  renderApp(
    <SignedInShell layout="my-account" navigation={myAccountNavigation}>
      <p>Orders</p>
    </SignedInShell>,
    { toaster: true, session: true },
  );
  act(() => void toast('Order placed'));
  await screen.findByText('Order placed');
  const toaster = document.querySelector('[data-sonner-toaster]');
  if (!(toaster instanceof HTMLElement)) throw new Error('no toaster shown');
  return toaster;
}

describe('toasts in the signed-in shell never cover the page content', () => {
  it('sit over the side navigation on a large screen, as wide as that column (not over the Orders table)', async () => {
    const toaster = await shellWithToast(true);
    expect(toaster.dataset.xPosition).toBe('left');
    expect(toaster.dataset.yPosition).toBe('bottom');
    expect(toaster.style.getPropertyValue('--width')).toBe(`${sideColumnToastWidthPx}px`);
  });

  it('sit at the top below the header on a phone (not over a sticky bottom action such as "Upload and analyse", nor over the menu button)', async () => {
    const toaster = await shellWithToast(false);
    expect(toaster.dataset.yPosition).toBe('top');
    expect(toaster.dataset.xPosition).toBe('center');
    // The header is 64 px high (h-16): toasts start 8 px below it, phone or tablet.
    expect(toaster.style.getPropertyValue('--mobile-offset-top')).toBe(`${belowHeaderToastOffsetPx}px`);
    expect(toaster.style.getPropertyValue('--offset-top')).toBe(`${belowHeaderToastOffsetPx}px`);
    expect(belowHeaderToastOffsetPx).toBe(72);
  });
});
