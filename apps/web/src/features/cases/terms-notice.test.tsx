import '@testing-library/jest-dom/vitest';
import { Messages, type ProductDetails } from '@rarelens/contract';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetchByUrl } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { ChatPage } from '../chat/chat-page.tsx';
import { GeneDetailsPage } from '../genes/gene-details-page.tsx';
import { PhenotypeDetailsPage } from '../phenotypes/phenotype-details-page.tsx';
import { SharedProductPage } from '../sharing/shared-product-page.tsx';
import { CaseSummary } from './results-gate.tsx';
import { buildProductDetails } from './testing/product.builders.ts';

const product = buildProductDetails;

const renderSummary = (p: ProductDetails) => renderApp(<CaseSummary product={p} />);

afterEach(cleanup);

// CaseSummary heads the phenotypes (with the variants), genes, Diagnose and report screens.
describe('CaseSummary: the phenotype is never silently empty', () => {
  it('says that a case without terms is ranked on its variants alone, with a way to add terms', () => {
    renderSummary(product({ hpoTerms: [], hpoTermCount: 0 }));
    expect(screen.getByTestId('no-terms-notice')).toHaveTextContent(Messages.noHpoTerms);
    expect(screen.getByRole('link', { name: 'Add terms in Diagnose' })).toHaveAttribute(
      'href',
      '/my-product/p1/diagnose',
    );
  });

  it('says when the terms were read from the symptoms by PhenomeAI', () => {
    renderSummary(product({ hpoTermsSource: 'phenome' }));
    expect(screen.getByTestId('phenome-terms-notice')).toHaveTextContent(
      Messages.hpoTermsFromPhenome,
    );
    expect(screen.queryByTestId('no-terms-notice')).not.toBeInTheDocument();
  });

  it('adds nothing when the user gave the terms', () => {
    renderSummary(product());
    expect(screen.queryByTestId('no-terms-notice')).not.toBeInTheDocument();
    expect(screen.queryByTestId('phenome-terms-notice')).not.toBeInTheDocument();
  });
});

// The screens without CaseSummary (a gene, a disease, GenomeTalks, the shared link) say it too.
describe('every screen of a case without terms says so', () => {
  afterEach(() => vi.unstubAllGlobals());
  const bare = product({ hpoTerms: [], hpoTermCount: 0 });
  const detailPages = [
    { name: 'a gene', url: '/my-product/p1/genes/FGFR2', path: '/my-product/:productId/genes/:geneId', element: <GeneDetailsPage /> },
    { name: 'a disease', url: '/my-product/p1/phenotypes/OMIM:101600', path: '/my-product/:productId/phenotypes/:phenotypeId', element: <PhenotypeDetailsPage /> },
    { name: 'GenomeTalks', url: '/my-product/p1/chat', path: '/my-product/:productId/chat', element: <ChatPage /> },
  ];
  for (const page of detailPages) {
    it(`on ${page.name}`, async () => {
      stubFetchByUrl({ '/api/products/p1': bare });
      renderApp(page.element, { url: page.url, routes: [{ path: page.path }] });
      expect(await screen.findByTestId('no-terms-notice')).toHaveTextContent(Messages.noHpoTerms);
      expect(screen.getByRole('link', { name: 'Add terms in Diagnose' })).toHaveAttribute('href', '/my-product/p1/diagnose');
      cleanup();
      // With terms (read by PhenomeAI), that is what the screen says instead.
      stubFetchByUrl({ '/api/products/p1': product({ hpoTermsSource: 'phenome' }) });
      renderApp(page.element, { url: page.url, routes: [{ path: page.path }] });
      expect(await screen.findByTestId('phenome-terms-notice')).toHaveTextContent(Messages.hpoTermsFromPhenome);
      expect(screen.queryByTestId('no-terms-notice')).not.toBeInTheDocument();
    });
  }

  it('on the Diagnose page, without a link to itself', () => {
    renderApp(<CaseSummary product={bare} linkToDiagnose={false} />);
    expect(screen.getByTestId('no-terms-notice')).toHaveTextContent(Messages.noHpoTerms);
    expect(screen.queryByRole('link', { name: 'Add terms in Diagnose' })).not.toBeInTheDocument();
  });

  it('on the shared link', async () => {
    const shared = {
      product: { id: 'p1', caseId: 'CASE-7', name: 'CASE-7', status: 'Completed', createdAt: '2026-11-21T07:00:00.000Z', sharedBy: 'a@example.org', sharedByName: null, sharedWith: 'b@example.org', expiresAt: '2026-12-21T07:00:00.000Z', hpoTerms: [] },
      phenotypes: [],
    };
    stubFetchByUrl({ '/api/shared/tok': shared });
    renderApp(<SharedProductPage />, { url: '/shared/tok', routes: [{ path: '/shared/:token' }], session: true });
    expect(await screen.findByTestId('no-terms-notice')).toHaveTextContent(Messages.noHpoTerms);
  });
});
