import '@testing-library/jest-dom/vitest';
import type { GeneRow } from '@rarelens/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetchByUrl } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { buildProductDetails } from '../cases/testing/product.builders.ts';
import { buildVariantRow } from './testing/variant-row.ts';
import { RankOrderNote } from './variants-panel.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
});

const gene = (symbol: string, rank: number, variantCount: number): GeneRow => ({
  symbol,
  rank,
  geneId: null,
  name: null,
  score: 3 - rank,
  phenotypeScore: 2,
  variantScore: 0.9,
  probability: 0.5 / rank,
  inheritance: ['AD'],
  significance: null,
  variantCount,
  topDisease: null,
});

// The trio fixture's case: the gene ranking puts MACF1 first (several variants, one is enough),
// the variant list puts the PDPN variant (its gene's only one) first.
const product = buildProductDetails();
const genesUrl = `/api/products/${product.id}/genes?page=1&pageSize=10`;
const genes = { items: [gene('MACF1', 1, 3), gene('PDPN', 2, 1)], page: 1, pageSize: 10, total: 2, totalIsCapped: false };

describe('RankOrderNote', () => {
  it('says on screen why the first variant is not in the first gene, and offers the gene-ordered view', async () => {
    stubFetchByUrl({ [genesUrl]: genes });
    const onClustered = vi.fn();
    renderApp(<RankOrderNote product={product} first={buildVariantRow({ rank: 1, gene: 'PDPN' })} onClustered={onClustered} />);
    const note = await screen.findByTestId('rank-order-note');
    expect(note).toHaveTextContent('Why is the first variant in PDPN (gene #2) when MACF1 is the first gene?');
    expect(note).toHaveTextContent('MACF1 has 3 variants in this case');
    expect(note).toHaveTextContent('the gene’s evidence is shared among its variants');
    fireEvent.click(screen.getByRole('button', { name: 'Show the variants gene by gene (Clustered)' }));
    expect(onClustered).toHaveBeenCalledOnce();
  });

  it('says nothing when the first variant is in the first gene, or the first row is not the first-ranked variant', async () => {
    stubFetchByUrl({ [genesUrl]: genes });
    renderApp(
      <>
        <div data-testid="same-gene">
          <RankOrderNote product={product} first={buildVariantRow({ rank: 1, gene: 'MACF1' })} onClustered={() => {}} />
        </div>
        <div data-testid="not-first">
          <RankOrderNote product={product} first={buildVariantRow({ rank: 4, gene: 'PDPN' })} onClustered={() => {}} />
        </div>
        <div data-testid="differs">
          <RankOrderNote product={product} first={buildVariantRow({ rank: 1, gene: 'PDPN' })} onClustered={() => {}} />
        </div>
      </>,
    );
    // Once the gene ranking is read (the third note shows), the other two still say nothing.
    expect(await screen.findAllByTestId('rank-order-note')).toHaveLength(1);
    expect(screen.getByTestId('differs')).toContainElement(screen.getByTestId('rank-order-note'));
    expect(screen.getByTestId('same-gene')).toBeEmptyDOMElement();
    expect(screen.getByTestId('not-first')).toBeEmptyDOMElement();
  });
});
