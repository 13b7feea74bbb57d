import '@testing-library/jest-dom/vitest';
import { Messages, type ProductSummary } from '@rarelens/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
import { HomePage } from './home-page.tsx';
import { buildProductSummary } from './testing/product.builders.ts';

const base: ProductSummary = buildProductSummary();

let products: ProductSummary[] = [];

beforeEach(() => {
  vi.stubGlobal('fetch', (url: string) => {
    if (url === '/api/products')
      return Promise.resolve(new Response(JSON.stringify({ items: products }), { status: 200 }));
    return Promise.resolve(
      new Response(JSON.stringify({ code: 'unauthorized', message: 'Authentication required' }), {
        status: 401,
      }),
    );
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  renderApp(<HomePage />, { url: '/home', session: true });
}

describe('HomePage', () => {
  it('shows each case with its status, the error reason, and results only for completed cases', async () => {
    products = [
      { ...base },
      { ...base, id: 'p2', caseId: 'CASE-2', name: 'CASE-2', status: 'Processing', progress: 42 },
      { ...base, id: 'p3', caseId: 'CASE-3', name: 'CASE-3', status: 'In queue', progress: 0 },
      {
        ...base,
        id: 'p4',
        caseId: 'CASE-4',
        name: 'CASE-4',
        status: 'Error',
        progress: 0,
        error: { message: 'An error occurred', reason: 'bad.vcf line 12: POS is not a number' },
      },
      {
        ...base,
        id: 'p5',
        caseId: 'SHARED-1',
        name: 'SHARED-1',
        isOwner: false,
        isShared: true,
        sharedBy: 'colleague@example.org',
      },
    ];
    renderPage();
    const rows = await screen.findAllByTestId('case-row');
    expect(rows).toHaveLength(5);
    const row = (caseId: string) => rows.find((r) => r.dataset.caseId === caseId)!;

    expect(within(row('CASE-1')).getByTestId('case-status')).toHaveTextContent('Completed');
    expect(
      within(row('CASE-1')).getByRole('link', { name: 'Open results of CASE-1' }),
    ).toHaveAttribute('href', '/my-product/p1/phenotypes');
    expect(within(row('CASE-2')).getByTestId('case-status')).toHaveTextContent('Processing...42%');
    expect(within(row('CASE-2')).getByRole('progressbar', { name: 'Analysis progress' })).toHaveAttribute('aria-valuenow', '42');
    expect(
      within(row('CASE-2')).queryByRole('link', { name: /Open results/ }),
    ).not.toBeInTheDocument();
    expect(within(row('CASE-3')).getByTestId('case-status')).toHaveTextContent('In queue');
    expect(within(row('CASE-4')).getByTestId('case-status')).toHaveTextContent('An error occurred');
    expect(within(row('CASE-4')).getByTestId('case-error-reason')).toHaveTextContent(
      'bad.vcf line 12: POS is not a number',
    );

    const shared = screen.getByRole('region', { name: 'Shared with me' });
    expect(shared).toContainElement(row('SHARED-1'));
    expect(
      within(row('SHARED-1')).getByText('Shared by colleague@example.org'),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'My cases' })).not.toContainElement(row('SHARED-1'));
    expect(screen.getByText(/2 cases are being analysed/)).toBeInTheDocument();
  });

  it('marks a case without HPO terms in the list, and only that one', async () => {
    products = [
      { ...base },
      { ...base, id: 'p9', caseId: 'BARE-1', name: 'BARE-1', hpoTermCount: 0 },
    ];
    renderPage();
    const rows = await screen.findAllByTestId('case-row');
    const row = (caseId: string) => rows.find((r) => r.dataset.caseId === caseId)!;
    expect(within(row('BARE-1')).getByTestId('no-terms-label')).toHaveTextContent(
      Messages.noHpoTermsShort,
    );
    expect(within(row('CASE-1')).queryByTestId('no-terms-label')).not.toBeInTheDocument();
  });

  it('names who shared a case by account name and address, the address alone without a name', async () => {
    products = [
      { ...base, id: 'p5', caseId: 'SHARED-1', name: 'SHARED-1', isOwner: false, isShared: true, sharedBy: 'ada@lab.example.org', sharedByName: 'Ada Lovelace' },
      { ...base, id: 'p6', caseId: 'SHARED-2', name: 'SHARED-2', isOwner: false, isShared: true, sharedBy: 'colleague@example.org', sharedByName: null },
    ];
    renderPage();
    const rows = await screen.findAllByTestId('case-row');
    const row = (caseId: string) => rows.find((r) => r.dataset.caseId === caseId)!;
    expect(within(row('SHARED-1')).getByText('Shared by Ada Lovelace (ada@lab.example.org)')).toBeInTheDocument();
    expect(within(row('SHARED-2')).getByText('Shared by colleague@example.org')).toBeInTheDocument();
  });

  it('lets the owner delete a completed case after a confirmation (not one in queue, nor a shared one)', async () => {
    products = [
      { ...base },
      { ...base, id: 'p3', caseId: 'CASE-3', name: 'CASE-3', status: 'In queue', progress: 0 },
      { ...base, id: 'p5', caseId: 'SHARED-1', name: 'SHARED-1', isOwner: false, isShared: true, sharedBy: 'colleague@example.org' },
    ];
    const calls: string[] = [];
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      if (url === '/api/products/p1' && init?.method === 'DELETE')
        return Promise.resolve(new Response(JSON.stringify({ message: 'Case CASE-1 deleted' }), { status: 200 }));
      return Promise.resolve(new Response(JSON.stringify({ items: products }), { status: 200 }));
    });
    renderPage();
    const rows = await screen.findAllByTestId('case-row');
    const row = (caseId: string) => rows.find((r) => r.dataset.caseId === caseId)!;
    expect(within(row('CASE-3')).queryByRole('button', { name: /Delete case/ })).not.toBeInTheDocument();
    expect(within(row('SHARED-1')).queryByRole('button', { name: /Delete case/ })).not.toBeInTheDocument();
    fireEvent.click(within(row('CASE-1')).getByRole('button', { name: 'Delete case CASE-1' }));
    expect(await screen.findByText('Delete case CASE-1?')).toBeInTheDocument();
    expect(calls).not.toContain('DELETE /api/products/p1');
    fireEvent.click(screen.getByTestId('confirm-delete-case'));
    await waitFor(() => expect(calls).toContain('DELETE /api/products/p1'));
  });

  it('offers the upload when there is no case', async () => {
    products = [];
    renderPage();
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Upload patient data/ })[0]).toHaveAttribute(
      'href',
      '/upload',
    );
  });
});
