import '@testing-library/jest-dom/vitest';
import type { ReportItemListResponse } from '@rarelens/contract';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetchByUrl } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { buildProductDetails } from '../cases/testing/product.builders.ts';
import { buildReview, buildVariantRow, fgfr2ClinvarAssertion } from '../variants/testing/variant-row.ts';
import { ReportingPage } from './reporting-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
});

describe('the reporting list', () => {
  it("shows each variant's ClinVar assertion (stars, release) and the reviewer's class beside the automatic one", async () => {
    const variant = buildVariantRow({
      clinvar: 'Pathogenic',
      clinvarAssertion: fgfr2ClinvarAssertion,
      reviewerClassification: buildReview(),
    });
    const items: ReportItemListResponse = {
      items: [{ id: 'i1', addedAt: '2026-11-25T09:00:00.000Z', addedBy: 'ada@example.org', variant, locus: { chrom: '10', pos: 121496701, ref: 'T', alt: 'G', gene: 'FGFR2' } }],
      draftInterpretation: 'Draft.',
    };
    stubFetchByUrl({
      '/api/products/p1': buildProductDetails(),
      '/api/products/p1/report-items': items,
      '/api/products/p1/reports': { items: [] },
    });
    renderApp(<ReportingPage />, { url: '/my-product/p1/report', routes: [{ path: '/my-product/:productId/report' }] });
    const row = await screen.findByTestId('report-item');
    const clinvar = within(row).getByTestId('clinvar-assertion');
    expect(clinvar).toHaveTextContent('Pathogenic');
    expect(clinvar).toHaveTextContent('ClinVar 2016-09');
    expect(clinvar).toHaveAttribute('title', expect.stringContaining('2 of 4 stars'));
    expect(within(row).getByTestId('reviewer-classification')).toHaveAttribute('title', expect.stringContaining('Reviewer: Pathogenic (recurrent Pfeiffer allele'));
    expect(within(row).getByText('VUS')).toBeInTheDocument();
  });

  it('asks before clearing in plain words, for one variant as for several', async () => {
    const one = (id: string) => ({ id, addedAt: '2026-11-25T09:00:00.000Z', addedBy: 'ada@example.org', variant: buildVariantRow(), locus: { chrom: '10', pos: 121496701, ref: 'T', alt: 'G', gene: 'FGFR2' } });
    for (const [items, text] of [
      [[one('i1')], 'The selected variant will be removed from the list of this case, for everyone it is shared with.'],
      [[one('i1'), one('i2')], 'All 2 selected variants will be removed from the list of this case, for everyone it is shared with.'],
    ] as const) {
      stubFetchByUrl({
        '/api/products/p1': buildProductDetails(),
        '/api/products/p1/report-items': { items, draftInterpretation: 'Draft.' },
        '/api/products/p1/reports': { items: [] },
      });
      renderApp(<ReportingPage />, { url: '/my-product/p1/report', routes: [{ path: '/my-product/:productId/report' }] });
      await screen.findAllByTestId('report-item');
      fireEvent.click(screen.getByRole('button', { name: 'Clear list' }));
      expect(await screen.findByRole('alertdialog')).toHaveTextContent(text);
      cleanup();
    }
  });
});
