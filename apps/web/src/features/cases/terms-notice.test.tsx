import '@testing-library/jest-dom/vitest';
import { Messages, type ProductDetails } from '@rarelens/contract';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
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
