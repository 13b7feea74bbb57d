import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../testing/render.tsx';
import { usePageParam } from './use-search-params-update.ts';

afterEach(cleanup);

function Pager({ name }: { name?: string }) {
  const [page, setPage] = usePageParam(name);
  const { search } = useLocation();
  return (
    <>
      <p data-testid="page">{page}</p>
      <p data-testid="search">{search}</p>
      <button onClick={() => setPage(page + 1)}>next</button>
    </>
  );
}

describe('usePageParam', () => {
  it('reads the page from the URL, at least 1, and keeps the other parameters when it changes', async () => {
    renderApp(<Pager />, { url: '/x?view=variants&page=3' });
    expect(screen.getByTestId('page')).toHaveTextContent('3');
    await userEvent.click(screen.getByRole('button', { name: 'next' }));
    expect(screen.getByTestId('page')).toHaveTextContent('4');
    expect(screen.getByTestId('search')).toHaveTextContent('?view=variants&page=4');
  });

  it('answers 1 for a missing, zero or non-numeric page, under its own parameter name', () => {
    renderApp(<Pager name="vpage" />, { url: '/x?page=7&vpage=abc' });
    expect(screen.getByTestId('page')).toHaveTextContent('1');
  });
});
