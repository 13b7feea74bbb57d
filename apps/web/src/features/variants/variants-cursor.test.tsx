import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testAppWrapper } from '../../testing/render.tsx';
import { emptyVariantFilters, useVariants, type VariantListParams } from './variants.api.ts';

const productId = '5a0c7f3e-0d0e-4c8e-9b7a-2f4f1d1e9a01';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useVariants paging', () => {
  it('asks for the next page with the nextCursor of the page before, and for a jump by offset', async () => {
    const urls: URL[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      const u = new URL(url, 'http://x');
      urls.push(u);
      const page = Number(u.searchParams.get('page'));
      const body = { mode: 'filtered', items: [], page, pageSize: 10, total: 1000, totalIsCapped: false, nextCursor: `cursor-of-${page}` };
      return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
    });
    const wrapper = testAppWrapper();
    const filters = { ...emptyVariantFilters, gene: ['FGFR2'] };
    const { result, rerender } = renderHook((p: VariantListParams) => useVariants(productId, 'r1', p), {
      wrapper,
      initialProps: { mode: 'filtered', page: 1, filters },
    });
    await waitFor(() => expect(result.current.data?.page).toBe(1));
    rerender({ mode: 'filtered', page: 2, filters });
    await waitFor(() => expect(result.current.data?.page).toBe(2));
    rerender({ mode: 'filtered', page: 7, filters });
    await waitFor(() => expect(result.current.data?.page).toBe(7));
    // Other filters: the cursor of page 2 above is not theirs.
    rerender({ mode: 'filtered', page: 3, filters: { ...filters, gene: ['TTN'] } });
    await waitFor(() => expect(result.current.data?.page).toBe(3));
    expect(urls.map((u) => [u.searchParams.get('page'), u.searchParams.get('after')])).toEqual([
      ['1', null],
      ['2', 'cursor-of-1'],
      ['7', null],
      ['3', null],
    ]);
  });
});
