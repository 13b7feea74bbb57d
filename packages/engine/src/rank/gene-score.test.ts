import { describe, expect, it } from 'vitest';
import { DEFAULT_GENE_SCORE_CONSTANTS, PHENOTYPE_LN_KNEE, PHENOTYPE_SCALE, phenotypeTerm } from './gene-score.ts';
import { constraintBonus } from './prioritisers.ts';
import { buildVariant } from './test-builders.ts';

const constraint = (pLI: number, loeuf: number, misZ: number) => ({ pLI, loeuf, misZ, source: 'gnomAD v4.1' });
const gene = (v: ReturnType<typeof buildVariant>) => ({ symbol: 'G', variants: [{ variant: v, p: 0.9 }] });
// Non-zero bonuses (the shipped ones are whatever the cross-validation chose, 0 included).
const k = { ...DEFAULT_GENE_SCORE_CONSTANTS, constrainedLofLn: 1, constrainedMissenseLn: 1.5 };

describe('gene score terms', () => {
  it('scales the phenotype log-LR and halves what lies above the knee', () => {
    expect(phenotypeTerm(2)).toBeCloseTo(PHENOTYPE_SCALE * 2, 9);
    expect(phenotypeTerm(-3)).toBeCloseTo(PHENOTYPE_SCALE * -3, 9);
    expect(phenotypeTerm(PHENOTYPE_LN_KNEE + 10)).toBeCloseTo(PHENOTYPE_SCALE * (PHENOTYPE_LN_KNEE + 5), 9);
  });

  it('rewards LoF only in a LoF-intolerant gene with a dominant-like fit', () => {
    const lof = { ...buildVariant({ consequences: ['stop_gained'] }), geneConstraint: constraint(1, 0.1, 0) };
    expect(constraintBonus(gene(lof), 'AD', k)).toMatchObject({ ln: 1 });
    expect(constraintBonus(gene(lof), 'AD').reason).toMatch(/LoF-intolerant/);
    expect(constraintBonus(gene(lof), 'AR', k).ln).toBe(0);
    expect(constraintBonus(gene({ ...lof, geneConstraint: constraint(0.1, 1.2, 0) }), 'AD', k).ln).toBe(0);
  });

  it('rewards a missense only in a missense-constrained gene, and nothing without constraint data', () => {
    const mis = { ...buildVariant({ consequences: ['missense_variant'] }), geneConstraint: constraint(0, 1, 3.5) };
    expect(constraintBonus(gene(mis), 'AR', k)).toMatchObject({ ln: 1.5 });
    expect(constraintBonus(gene({ ...mis, geneConstraint: constraint(0, 1, 1.2) }), 'AR', k).ln).toBe(0);
    expect(constraintBonus(gene(buildVariant()), 'AD', k)).toEqual({ ln: 0, reason: null });
  });
});
