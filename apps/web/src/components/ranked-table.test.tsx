import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../testing/render.tsx';
import { RankedRowLink, RankedTable } from './ranked-table.tsx';

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
