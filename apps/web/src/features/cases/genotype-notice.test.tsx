import '@testing-library/jest-dom/vitest';
import type { ProductDetails } from '@rarelens/contract';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetchByUrl } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { PhenotypeDetailsPage } from '../phenotypes/phenotype-details-page.tsx';
import { CaseSummary } from './results-gate.tsx';
import { buildProductDetails } from './testing/product.builders.ts';

afterEach(cleanup);

function withCounts(counts: Record<string, number>, lifted = true): ProductDetails {
  return buildProductDetails({
    rawDataAnalysis: true,
    genomeFormat: 'fastq',
    assembly: 'GRCh37',
    run: {
      id: 'r1',
      softwareVersion: '@rarelens/server@0.1.0',
      assembly: 'GRCh38',
      inputAssembly: lifted ? 'GRCh37' : 'GRCh38',
      kbVersions: {},
      counts,
      startedAt: '2026-11-27T15:35:44.794Z',
      completedAt: '2026-11-27T15:35:45.374Z',
      rankedAt: '2026-11-27T15:35:45.374Z',
    },
  });
}

// The FASTQ case of 3 calls on the demo reference: 2 are GRCh38's reference (hg19 chrM is not
// the rCRS) and fail the lift, the third is not in a gene. Its diseases are ranked on the
// phenotype alone, and each one says "No reportable variant": the screen says why.
describe('CaseSummary: the genotype is never silently empty', () => {
  it('says that no variant drives the ranking and that calls were not lifted', () => {
    renderApp(<CaseSummary product={withCounts({ records: 3, alleles: 1, liftFailed: 2, variantsStored: 1, rankCandidates: 0 })} />);
    const notice = screen.getByTestId('no-candidates-notice');
    expect(notice).toHaveTextContent(
      'No variant of this case is a ranking candidate (in a gene, carried, passing the caller’s filter, rare, not benign, protein-altering or pathogenic in ClinVar): the diseases are ranked on the phenotype alone, so none has a reportable variant.',
    );
    expect(notice).toHaveTextContent('1 variant annotated and listed under Variants.');
    expect(screen.getByTestId('lift-failed-notice')).toHaveTextContent(
      '2 of 3 called records could not be lifted from GRCh37 to GRCh38 and were not analysed (their contig or position has no counterpart in the UCSC liftOver chain).',
    );
  });

  it('gives each reason a record failed the lift with its count (hg19 chrM bases in 1-base chain gaps)', () => {
    renderApp(<CaseSummary product={withCounts({ records: 5, alleles: 2, liftFailed: 3, 'liftFailed.unmapped': 2, 'liftFailed.unknown_contig': 1, variantsStored: 2, rankCandidates: 0 })} />);
    expect(screen.getByTestId('lift-failed-notice')).toHaveTextContent(
      '3 of 5 called records could not be lifted from GRCh37 to GRCh38 and were not analysed: 2 at a position the chain leaves unaligned (deleted in the target assembly, or a base where the two sequences differ, as at the hg19 chrM bases that differ from the rCRS); 1 on a contig the chain does not have.',
    );
  });

  it('says when no variant was stored at all', () => {
    renderApp(<CaseSummary product={withCounts({ records: 18, alleles: 0, liftFailed: 18, variantsStored: 0, rankCandidates: 0 })} />);
    expect(screen.getByTestId('no-candidates-notice')).toHaveTextContent('No variant was annotated.');
    expect(screen.getByTestId('lift-failed-notice')).toHaveTextContent('18 of 18 called records could not be lifted');
  });

  it('adds nothing when variants drive the ranking and every record was lifted', () => {
    renderApp(<CaseSummary product={withCounts({ records: 300, liftFailed: 0, variantsStored: 300, rankCandidates: 12 })} />);
    expect(screen.queryByTestId('no-candidates-notice')).not.toBeInTheDocument();
    expect(screen.queryByTestId('lift-failed-notice')).not.toBeInTheDocument();
  });

  it('adds nothing for a run without counts (an older run)', () => {
    renderApp(<CaseSummary product={withCounts({}, false)} />);
    expect(screen.queryByTestId('no-candidates-notice')).not.toBeInTheDocument();
    expect(screen.queryByTestId('lift-failed-notice')).not.toBeInTheDocument();
  });
});

// A disease's own page (no CaseSummary) shows "No reportable variant" too: it says why.
describe('the disease details of a case without ranking candidates', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('say that the diseases are ranked on the phenotype alone', async () => {
    stubFetchByUrl({ '/api/products/p1': withCounts({ records: 3, liftFailed: 2, variantsStored: 1, rankCandidates: 0 }) });
    renderApp(<PhenotypeDetailsPage />, { url: '/my-product/p1/phenotypes/OMIM:256810', routes: [{ path: '/my-product/:productId/phenotypes/:phenotypeId' }] });
    expect(await screen.findByTestId('no-candidates-notice')).toHaveTextContent('the diseases are ranked on the phenotype alone');
  });
});
