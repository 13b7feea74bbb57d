import '@testing-library/jest-dom/vitest';
import type { PhenotypeRow, SharedProductResponse } from '@rarelens/contract';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetchByUrl } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { SharedProductPage } from './shared-product-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const genes = Array.from({ length: 51 }, (_, i) => `GENE${i + 1}`);
const row: PhenotypeRow = {
  id: 'ORPHA:442835',
  rank: 7,
  name: 'Non-specific early-onset epileptic encephalopathy',
  score: 1,
  probability: 0.012,
  significance: 'Uncertain significance',
  inheritance: [],
  onset: [],
  genes,
  matchedTerms: [{ id: 'HP:0001250', label: 'Seizure', match: 'exact', diseaseTermId: 'HP:0001250', diseaseTermLabel: 'Seizure' }],
  phenotypeSource: 'annotations',
};
const shared = {
  product: { id: 'p1', caseId: 'LAB-TRIO-1', name: 'LAB-TRIO-1', status: 'Completed', createdAt: '2026-11-27T07:00:00.000Z', sharedBy: 'a@example.org', sharedByName: 'Ada Lovelace', sharedWith: 'b@example.org', expiresAt: '2026-12-27T07:00:00.000Z', hpoTerms: [{ id: 'HP:0001250', label: 'Seizure' }] },
  phenotypes: [row],
} as SharedProductResponse;

// QA walk at 390 px: the colleague's table showed only rank, disease and inheritance; probability,
// significance, symptoms and genes sat off screen, and the 51 gene names made a row a screen tall.
describe('the shared phenotypes at phone width', () => {
  it('puts every column under the disease name for a phone (the columns are for wider screens) and shortens long gene lists', async () => {
    stubFetchByUrl({ '/api/shared/tok': shared });
    renderApp(<SharedProductPage />, { url: '/shared/tok', routes: [{ path: '/shared/:token' }], session: true });
    const summary = await screen.findByTestId('shared-phenotype-summary');
    expect(summary).toHaveClass('sm:hidden');
    const parts = ['Probability', '1.2%', 'Uncertain significance', 'Symptoms1 / 1', 'GENE1, GENE2, GENE3, GENE4, GENE5, GENE6, GENE7, GENE8 and 43 more'];
    for (const part of parts) expect(summary, part).toHaveTextContent(part);
    expect(summary).not.toHaveTextContent('GENE9,');
    const table = screen.getByTestId('shared-phenotype-table');
    for (const h of ['Probability', 'Significance', 'Genes']) expect(within(table).getByRole('columnheader', { name: h })).toHaveClass('hidden', 'sm:table-cell');
  });
});

describe('the shared case header', () => {
  it('names who shared it by their account name, with their address (it gave the address alone)', async () => {
    stubFetchByUrl({ '/api/shared/tok': shared });
    renderApp(<SharedProductPage />, { url: '/shared/tok', routes: [{ path: '/shared/:token' }], session: true });
    expect(await screen.findByText(/^Phenotypes shared by/)).toHaveTextContent(
      'Phenotypes shared by Ada Lovelace (a@example.org) with b@example.org. Read only; the link works until',
    );
  });

  it('names the address alone when the account has no name', async () => {
    stubFetchByUrl({ '/api/shared/tok': { ...shared, product: { ...shared.product, sharedByName: null } } });
    renderApp(<SharedProductPage />, { url: '/shared/tok', routes: [{ path: '/shared/:token' }], session: true });
    expect(await screen.findByText(/^Phenotypes shared by/)).toHaveTextContent('Phenotypes shared by a@example.org with b@example.org.');
  });
});
