import { Constants } from '@rarelens/contract';
import { useEffect, useSyncExternalStore, type CSSProperties } from 'react';
import { Toaster as SonnerToaster, toast, type ToasterProps } from 'sonner';
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

/** Large screens: the signed-in side navigation and the auth brand panel are shown (Tailwind `lg`). */
export const sideColumnQuery = '(min-width: 1024px)';
/** Toast width over a side column: the navigation is 256 px wide (w-64), less 16 px each side. */
export const sideColumnToastWidthPx = 224;
/** Top toasts start below the 64 px header (h-16) and a gap of 8 px: the menu button stays reachable. */
export const belowHeaderToastOffsetPx = 72;

// How many mounted layouts have a side column (a count, so the order in which one layout
// unmounts and the next mounts does not matter).
let sideColumnLayouts = 0;
const zoneListeners = new Set<() => void>();
function subscribeZone(listener: () => void): () => void {
  zoneListeners.add(listener);
  return () => zoneListeners.delete(listener);
}
function subscribeMedia(listener: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(sideColumnQuery);
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}
function isLargeScreenNow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(sideColumnQuery).matches;
}

/**
 * Declares that the calling layout keeps its primary actions out of a side column (the signed-in
 * navigation, the auth brand panel): while it is mounted, toasts sit over that column on large
 * screens and at the top below the header on smaller ones, never over the actions (a bottom-right toast
 * covered the right-hand column of tables — the Orders table's Invoice button — and sticky
 * bottom bars such as "Upload and analyse" on phones).
 */
export function useSideColumnToasts(): void {
  useEffect(() => {
    sideColumnLayouts += 1;
    zoneListeners.forEach((l) => l());
    return () => {
      sideColumnLayouts -= 1;
      zoneListeners.forEach((l) => l());
    };
  }, []);
}

type Placement = Pick<ToasterProps, 'position' | 'swipeDirections' | 'style' | 'offset' | 'mobileOffset'>;

/** Where the toasts go: bottom-right by default; with a side-column layout, see useSideColumnToasts. */
export function toastPlacement(hasSideColumn: boolean, isLargeScreen: boolean): Placement {
  if (!hasSideColumn) return { position: 'bottom-right', swipeDirections: ['right', 'top'] };
  if (isLargeScreen) {
    return {
      position: 'bottom-left',
      swipeDirections: ['left', 'bottom'],
      style: { '--width': `${sideColumnToastWidthPx}px` } as CSSProperties,
    };
  }
  return {
    position: 'top-center',
    swipeDirections: ['top'],
    offset: { top: belowHeaderToastOffsetPx },
    mobileOffset: { top: belowHeaderToastOffsetPx },
  };
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
  const hasSideColumn = useSyncExternalStore(subscribeZone, () => sideColumnLayouts > 0);
  const isLargeScreen = useSyncExternalStore(subscribeMedia, isLargeScreenNow);
  return (
    <SonnerToaster
      {...toastPlacement(hasSideColumn, isLargeScreen)}
      duration={Constants.toastDurationMs}
      hotkey={[Constants.toastHotkey]}
      closeButton
      richColors
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
