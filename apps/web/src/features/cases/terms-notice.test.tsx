import '@testing-library/jest-dom/vitest';
import { Messages, type ProductDetails } from '@rarelens/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { CaseSummary } from './results-gate.tsx';

const product = (over: Partial<ProductDetails>): ProductDetails => ({
  id: 'p1',
  caseId: 'CASE-1',
  name: 'CASE-1',
  status: 'Completed',
  isShared: false,
  isOwner: true,
  sharedBy: null,
  createdAt: '2026-11-20T09:30:00.000Z',
  progress: 100,
  error: null,
  hpoTermCount: 1,
  hpoTermsSource: 'given',
  gender: 'female',
  symptoms: 'Seizures',
  hpoTerms: [{ id: 'HP:0001250', label: 'Seizure' }],
  excludedTerms: [],
  assemblyRequested: 'auto',
  assembly: 'GRCh38',
  genomeFormat: 'vcf',
  imageDescription: null,
  files: [],
  run: null,
  sharedWith: [],
  ...over,
});

const renderSummary = (p: ProductDetails) =>
  render(
    <MemoryRouter>
      <CaseSummary product={p} />
    </MemoryRouter>,
  );

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
    renderSummary(product({}));
    expect(screen.queryByTestId('no-terms-notice')).not.toBeInTheDocument();
    expect(screen.queryByTestId('phenome-terms-notice')).not.toBeInTheDocument();
  });
});
