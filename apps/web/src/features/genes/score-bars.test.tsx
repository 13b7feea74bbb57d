import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
import { ScoreBars } from './genes-page.tsx';

afterEach(cleanup);

const widthOf = (testId: string) => Number.parseFloat(screen.getByTestId(testId).style.width);

// phenotypeScore is the log10 likelihood ratio of the gene's best disease (10^11.5 for FGFR2 in
// the Pfeiffer exome, 10^2.0 for MSX2), variantScore the genotype fit (0 to 1). Read as a 0-1
// fraction, every gene with a likelihood ratio of 10 or more drew the same full phenotype bar,
// and the hint read "Phenotype 11.510 ... Combined score 5.338" beside "phenotype 5.38" in Why this rank.
describe('ScoreBars', () => {
  it('draws the phenotype bar on the likelihood-ratio scale, so a stronger fit draws a longer bar', () => {
    renderApp(<ScoreBars gene={{ score: 5.3377, phenotypeScore: 11.51, variantScore: 0.97 }} />);
    const strong = widthOf('phenotype-bar');
    cleanup();
    renderApp(<ScoreBars gene={{ score: 0.166, phenotypeScore: 1.97, variantScore: 0.35 }} />);
    const weak = widthOf('phenotype-bar');
    expect(strong).toBe(100);
    expect(weak).toBeCloseTo(19.7, 1);
    expect(widthOf('variant-bar')).toBe(35);
  });

  it('names what each number is, for the hint and for a screen reader', () => {
    renderApp(<ScoreBars gene={{ score: 5.3377, phenotypeScore: 11.51, variantScore: 0.97 }} />);
    expect(screen.getByRole('group')).toHaveAccessibleName(
      'Score 5.34 (log10, the sum under Why this rank). Phenotype: likelihood ratio 10^11.5 for the best-fitting disease (blue bar, full at 10^10). Variant: genotype fit 0.97 of 1 (orange bar).',
    );
  });

  it('draws no phenotype bar for a gene whose disease fits worse than chance', () => {
    renderApp(<ScoreBars gene={{ score: -1.2, phenotypeScore: -0.8, variantScore: 0.5 }} />);
    expect(widthOf('phenotype-bar')).toBe(0);
  });
});
