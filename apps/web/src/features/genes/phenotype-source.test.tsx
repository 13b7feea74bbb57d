import '@testing-library/jest-dom/vitest';
import type { GenePhenotypeSource } from '@rarelens/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PhenotypeSourceLabel } from './phenotype-source.tsx';

afterEach(cleanup);

const marfan = { id: 'OMIM:154700', label: 'Marfan syndrome' };

function labelOf(source: GenePhenotypeSource) {
  render(<PhenotypeSourceLabel source={source} />);
  return screen.getByTestId('gene-phenotype-source');
}

describe('PhenotypeSourceLabel', () => {
  it('names the annotated disease the gene was ranked on, with a link to it', () => {
    const label = labelOf({ source: 'annotations', disease: marfan });
    expect(label).toHaveTextContent('Ranked on: annotated disease Marfan syndrome OMIM:154700');
    expect(screen.getByRole('link', { name: 'OMIM:154700' })).toHaveAttribute(
      'href',
      expect.stringContaining('154700'),
    );
    expect(label).not.toHaveTextContent('no HPO annotations');
  });

  it('says a disease known only by its name has no HPO annotations yet', () => {
    const label = labelOf({ source: 'disease-name', disease: { id: 'OMIM:619999', label: 'Short stature syndrome' } });
    expect(label).toHaveTextContent(
      'Ranked on: disease known only by name Short stature syndrome OMIM:619999 (no HPO annotations yet)',
    );
  });

  it('says a phenotype was borrowed from the series, and an allelic disease is only possible', () => {
    labelOf({ source: 'series', disease: marfan });
    expect(screen.getByTestId('gene-phenotype-source')).toHaveTextContent(
      'Ranked on: phenotype borrowed from the series of Marfan syndrome',
    );
    cleanup();
    labelOf({ source: 'allelic', disease: marfan });
    expect(screen.getByTestId('gene-phenotype-source')).toHaveTextContent(
      'Ranked on: possibly allelic disease of Marfan syndrome',
    );
  });

  it('says a phenotype inferred from similar disease names is for a disease with no HPO annotations yet', () => {
    const label = labelOf({
      source: 'similar-titles',
      disease: { id: 'OMIM:620000', label: 'Neurodevelopmental disorder with seizures' },
    });
    expect(label).toHaveTextContent(
      'Ranked on: phenotype inferred from diseases with similar names, for Neurodevelopmental disorder with seizures OMIM:620000 (no HPO annotations yet)',
    );
  });

  it('calls a gene without an annotated disease a possible new disease gene, naming no disease', () => {
    const label = labelOf({ source: 'none', disease: null });
    expect(label).toHaveTextContent('Ranked on: possible new disease gene (no annotated disease)');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('shows nothing for runs ranked before the source was stored', () => {
    const { container } = render(<PhenotypeSourceLabel source={null} />);
    expect(container).toBeEmptyDOMElement();
    expect(screen.queryByText(/Ranked on/)).toBeNull();
  });
});
