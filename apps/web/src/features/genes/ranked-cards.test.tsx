import '@testing-library/jest-dom/vitest';
import type { GeneRow, PhenotypeRow } from '@rarelens/contract';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetchByUrl } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { buildProductDetails } from '../cases/testing/product.builders.ts';
import { PhenotypesPage } from '../phenotypes/phenotypes-page.tsx';
import { GenesPage } from './genes-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
});

const product = buildProductDetails();
const page = <T,>(items: T[]) => ({ items, page: 1, pageSize: 10, total: items.length, totalIsCapped: false });
const gene: GeneRow = {
  symbol: 'FGFR2',
  rank: 1,
  geneId: 'HGNC:3689',
  name: 'fibroblast growth factor receptor 2',
  score: 4.3412,
  phenotypeScore: 4.38,
  variantScore: 0.97,
  probability: 0.83,
  inheritance: ['AD'],
  significance: 'Uncertain significance',
  variantCount: 3,
  topDisease: { id: 'OMIM:101200', label: 'Apert syndrome' },
};
const disease: PhenotypeRow = {
  id: 'OMIM:101200',
  rank: 1,
  name: 'Apert syndrome',
  score: 8.8,
  probability: 0.58,
  significance: 'Uncertain significance',
  inheritance: [],
  onset: [],
  genes: ['FGFR2'],
  matchedTerms: [],
  phenotypeSource: 'annotations',
};

// At 390 px the ranked lists are cards: the percentage and the score were bare numbers there.
describe('the phone cards of the ranked lists', () => {
  it('name the gene’s probability and score', async () => {
    stubFetchByUrl({ [`/api/products/${product.id}`]: product, [`/api/products/${product.id}/genes?page=1&pageSize=10`]: page([gene]) });
    renderApp(<GenesPage />, { url: `/my-product/${product.id}/genes`, routes: [{ path: '/my-product/:productId/genes' }] });
    const card = await screen.findByTestId('gene-card');
    expect(within(card).getByTestId('card-probability')).toHaveTextContent('Probability83%');
    expect(card).toHaveTextContent('Score (log10)4.34');
  });

  it('name the disease’s probability', async () => {
    stubFetchByUrl({ [`/api/products/${product.id}`]: product, [`/api/products/${product.id}/phenotypes?page=1&pageSize=10`]: page([disease]) });
    renderApp(<PhenotypesPage />, { url: `/my-product/${product.id}/phenotypes`, routes: [{ path: '/my-product/:productId/phenotypes' }] });
    const card = await screen.findByTestId('phenotype-card');
    expect(within(card).getByTestId('card-probability')).toHaveTextContent('Probability58%');
  });
});
