import '@testing-library/jest-dom/vitest';
import { GENE_SCORE_HELP, type GeneDetails } from '@rarelens/contract';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetchByUrl } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { buildProductDetails } from '../cases/testing/product.builders.ts';
import { GeneDetailsPage } from './gene-details-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
});

function gene(over: Partial<GeneDetails> = {}): GeneDetails {
  return {
    symbol: 'FGFR2',
    rank: 1,
    geneId: 'HGNC:3689',
    name: 'fibroblast growth factor receptor 2',
    score: 5.1,
    phenotypeScore: 5.13,
    variantScore: -0.04,
    probability: 0.89,
    inheritance: ['AD'],
    significance: 'Pathogenic',
    variantCount: 3,
    topDisease: { id: 'OMIM:101200', label: 'Apert syndrome' },
    phenotypeSource: { source: 'annotations', disease: { id: 'OMIM:101200', label: 'Apert syndrome' } },
    chromosome: '10',
    type: 'gene with protein product',
    description: null,
    synonyms: [],
    ageOfOnset: [],
    explanation: [],
    diseases: [],
    variants: [],
    ...over,
  };
}

const show = (g: GeneDetails) => {
  stubFetchByUrl({ '/api/products/p1': buildProductDetails(), '/api/products/p1/genes/FGFR2': g });
  renderApp(<GeneDetailsPage />, { url: '/my-product/p1/genes/FGFR2', routes: [{ path: '/my-product/:productId/genes/:geneId' }] });
};

describe('the gene details', () => {
  it('show the gene’s post-test probability, as the genes list does', async () => {
    show(gene());
    expect(await screen.findByTestId('gene-probability')).toHaveTextContent('Probability89%');
  });

  it('label the score with its name and unit, and say how to read it on focus (it was a bare number)', async () => {
    // jsdom has no layout engine; Radix places the open tooltip with a ResizeObserver.
    vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
    show(gene({ score: 5.1234 }));
    const label = await screen.findByTestId('gene-score-label');
    expect(label).toHaveTextContent('Score (log10)');
    expect(screen.getByTestId('gene-score')).toHaveTextContent('5.12');
    act(() => label.focus());
    expect((await screen.findByRole('tooltip')).textContent).toContain(GENE_SCORE_HELP);
    expect(GENE_SCORE_HELP).toContain('not a probability');
  });

  it('show a dash for an analysis ranked before the probability existed', async () => {
    show(gene({ probability: null }));
    expect(await screen.findByTestId('gene-probability')).toHaveTextContent('Probability—');
  });
});
