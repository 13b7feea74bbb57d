import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../testing/render.tsx';
import { ApiError } from '../lib/api-client.ts';
import { RankedPanel, RankedRowLink, RankedTable, type RankedPage } from './ranked-table.tsx';

afterEach(cleanup);

type Row = { rank: number; id: string; name: string };
const rows: Row[] = [
  { rank: 1, id: 'A', name: 'Alpha' },
  { rank: 2, id: 'B', name: 'Beta' },
];

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderTable(cardIsLink: boolean) {
  renderApp(
    <RankedTable
      testId="thing"
      rows={rows}
      rowKey={(r) => r.id}
      href={(r) => `/things/${r.id}`}
      cardIsLink={cardIsLink}
      columns={[
        { header: 'Name', cell: (r) => <RankedRowLink to={`/things/${r.id}`}>{r.name}</RankedRowLink> },
        { header: 'Id', headerClassName: 'text-right', cell: (r) => <span data-testid="id-cell">{r.id}</span> },
      ]}
      card={(r) => <p>{r.name} card</p>}
    />,
    { url: '/list', routes: [{ path: '/list' }, { path: '/things/:id', element: <Where /> }] },
  );
}

describe('RankedTable', () => {
  it('puts the rank first, then the columns, a row per item in order', () => {
    renderTable(false);
    const table = screen.getByTestId('thing-table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Rank', 'Name', 'Id']);
    const bodyRows = screen.getAllByTestId('thing-row');
    expect(bodyRows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['1', 'Alpha', 'A'],
      ['2', 'Beta', 'B'],
    ]);
  });

  it('opens the item when its row is clicked anywhere', async () => {
    renderTable(false);
    await userEvent.click(screen.getAllByTestId('id-cell')[1]!);
    expect(screen.getByTestId('where')).toHaveTextContent('/things/B');
  });

  it('shows numbered cards; the whole card is a link only when asked', () => {
    renderTable(true);
    const cards = screen.getAllByTestId('thing-card');
    expect(cards.map((c) => c.textContent)).toEqual(['1Alpha card', '2Beta card']);
    expect(within(cards[0]!).getByRole('link')).toHaveAttribute('href', '/things/A');
    cleanup();
    renderTable(false);
    expect(within(screen.getAllByTestId('thing-card')[0]!).queryByRole('link')).toBeNull();
  });
});

/** A ranked list whose pages come from `load` (page number -> answer). */
function Panel({ load }: { load: (page: number) => Promise<RankedPage<Row>> }) {
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: ['things', page], queryFn: () => load(page), placeholderData: keepPreviousData });
  return (
    <RankedPanel list={list} loadingLabel="Loading things" page={page} onPageChange={setPage} empty={<p>Nothing ranked</p>}>
      {(data) => <p data-testid="shown">{data.items.map((r) => r.name).join(',')}</p>}
    </RankedPanel>
  );
}

describe('RankedPanel', () => {
  it('shows a spinner until the page comes, then the list and a pager over every page', async () => {
    const asked: number[] = [];
    renderApp(
      <Panel
        load={(page) => {
          asked.push(page);
          return Promise.resolve({ items: page === 1 ? rows : [{ rank: 11, id: 'K', name: 'Kappa' }], total: 25, totalIsCapped: false, pageSize: 10 });
        }}
      />,
    );
    expect(screen.getByRole('status', { name: 'Loading things' })).toBeInTheDocument();
    expect(await screen.findByTestId('shown')).toHaveTextContent('Alpha,Beta');
    expect(screen.getByRole('button', { name: 'Page 3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Page 4' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.getByTestId('shown')).toHaveTextContent('Kappa'));
    expect(asked).toEqual([1, 2]);
  });

  it('says why the page failed', async () => {
    renderApp(<Panel load={() => Promise.reject(new ApiError(500, { code: 'internal', message: 'The ranking is unavailable' }))} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The ranking is unavailable');
    expect(screen.queryByTestId('shown')).toBeNull();
  });

  it('shows the empty state instead of a list when nothing is ranked', async () => {
    renderApp(<Panel load={() => Promise.resolve({ items: [], total: 0, totalIsCapped: false, pageSize: 10 })} />);
    expect(await screen.findByText('Nothing ranked')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });
});
