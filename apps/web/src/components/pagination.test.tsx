import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getPageCount, getPageItems, Pagination, type PageItem } from './pagination.tsx';

afterEach(cleanup);

const show = (items: PageItem[]) => items.map((i) => (i.type === 'page' ? String(i.page) : '…')).join(' ');

describe('getPageItems (sibling count 2)', () => {
  it('lists every page when they all fit', () => {
    expect(show(getPageItems(1, 9))).toBe('1 2 3 4 5 6 7 8 9');
  });
  it('collapses the far end near the start', () => {
    expect(show(getPageItems(2, 20))).toBe('1 2 3 4 5 6 7 … 20');
  });
  it('keeps two siblings on each side in the middle', () => {
    expect(show(getPageItems(10, 20))).toBe('1 … 8 9 10 11 12 … 20');
  });
  it('collapses the start near the end', () => {
    expect(show(getPageItems(19, 20))).toBe('1 … 14 15 16 17 18 19 20');
  });
  it('clamps an out-of-range page', () => {
    expect(show(getPageItems(99, 3))).toBe('1 2 3');
    expect(getPageItems(1, 0)).toEqual([]);
  });
  it('counts pages of 10 items by default', () => {
    expect(getPageCount(0)).toBe(1);
    expect(getPageCount(10)).toBe(1);
    expect(getPageCount(11)).toBe(2);
  });
});

describe('Pagination', () => {
  it('marks the current page and reports the chosen one', async () => {
    const onPageChange = vi.fn();
    render(<Pagination page={3} pageCount={12} onPageChange={onPageChange} />);
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(4);
    await userEvent.click(screen.getByRole('button', { name: 'Page 12' }));
    expect(onPageChange).toHaveBeenLastCalledWith(12);
  });
  it('disables Previous on the first page and renders nothing for a single page', () => {
    const { rerender } = render(<Pagination page={1} pageCount={5} onPageChange={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    rerender(<Pagination page={1} pageCount={1} onPageChange={() => undefined} />);
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
