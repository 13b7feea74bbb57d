import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
import { PhenotypeSourceBadge, PhenotypeSourceNote } from './phenotype-source-note.tsx';

afterEach(cleanup);

describe('PhenotypeSourceNote', () => {
  it('says a disease without HPO annotations borrowed its phenotype from its series', () => {
    render(<PhenotypeSourceNote source="series" />);
    expect(screen.getByTestId('phenotype-source-note')).toHaveTextContent(
      'No HPO annotations yet — phenotype borrowed from its series',
    );
  });

  it('says a disease known only by its name is ranked on what its name states', () => {
    render(<PhenotypeSourceNote source="disease-name" />);
    const note = screen.getByTestId('phenotype-source-note');
    expect(note).toHaveTextContent('No HPO annotations yet — known only by its name');
    expect(note).not.toHaveTextContent('series');
  });

  it('shows nothing for an annotated disease or a run ranked before the source was stored', () => {
    for (const source of ['annotations', null] as const) {
      const { container } = render(<PhenotypeSourceNote source={source} />);
      expect(container).toBeEmptyDOMElement();
      cleanup();
    }
  });
});

describe('PhenotypeSourceBadge', () => {
  it('marks a row of the ranked list whose disease has no HPO annotations, naming where its phenotype comes from', () => {
    renderApp(<PhenotypeSourceBadge source="series" />);
    expect(screen.getByTestId('phenotype-source-badge')).toHaveTextContent('No HPO annotations · series phenotype');
    cleanup();
    renderApp(<PhenotypeSourceBadge source="disease-name" />);
    expect(screen.getByTestId('phenotype-source-badge')).toHaveTextContent('No HPO annotations · ranked on its name');
  });

  it('shows nothing for an annotated disease or a run ranked before the source was stored', () => {
    for (const source of ['annotations', null] as const) {
      const { container } = renderApp(<PhenotypeSourceBadge source={source} />);
      expect(container).toBeEmptyDOMElement();
      cleanup();
    }
  });
});
