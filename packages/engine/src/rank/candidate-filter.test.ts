import { describe, expect, it } from 'vitest';
import { VARIANT_FILTERS, failedFilter, filterCandidates, filterOutcomes, isCandidate } from './candidate-filter.ts';
import { variantPathogenicity } from './inheritance.ts';
import { buildVariant } from './test-builders.ts';

describe('candidate filter', () => {
  it('keeps a rare missense and names the step that drops each other kind', () => {
    expect(isCandidate(buildVariant())).toBe(true);
    expect(failedFilter({ ...buildVariant(), gene: null })?.id).toBe('gene');
    expect(failedFilter({ ...buildVariant(), af: 0.2 })?.id).toBe('frequency');
    expect(failedFilter({ ...buildVariant(), filter: ['LowQual'] })?.id).toBe('quality');
    expect(failedFilter(buildVariant({ acmg: { classification: 'Likely benign', points: -2, criteria: [] } }))?.id).toBe('benign');
    expect(failedFilter({ ...buildVariant({ consequences: ['intron_variant'] }), impact: 'MODIFIER' })?.id).toBe('consequence');
  });

  it('keeps a non-coding variant that ClinVar calls pathogenic, but not a contested one', () => {
    const intronic = { ...buildVariant({ consequences: ['intron_variant'] }), impact: 'MODIFIER' as const };
    expect(isCandidate({ ...intronic, clinvar: { significance: 'Pathogenic', stars: 2, match: 'exact' } })).toBe(true);
    expect(isCandidate({ ...intronic, clinvar: { significance: 'Benign/Pathogenic/not provided', stars: 1, match: 'exact' } })).toBe(false);
  });

  it('splits a list into candidates and filtered variants with their reasons', () => {
    const { candidates, filtered } = filterCandidates([buildVariant({ pos: 1 }), { ...buildVariant({ pos: 2 }), af: 0.5 }]);
    expect(candidates.map((v) => v.pos)).toEqual([1]);
    expect(filtered.map((f) => [f.variant.pos, f.filter.id])).toEqual([[2, 'frequency']]);
    expect(filtered[0]?.filter.reason).toMatch(/frequency above 2 %/);
  });
});

describe('filter outcomes', () => {
  it('records every step for a variant, passed or not, with the reason of each', () => {
    const common = { ...buildVariant({ consequences: ['intron_variant'] }), impact: 'MODIFIER' as const, af: 0.3 };
    const outcomes = filterOutcomes(common);
    expect(outcomes.map((o) => o.id)).toEqual(VARIANT_FILTERS.map((f) => f.id));
    expect(outcomes.filter((o) => !o.passed).map((o) => o.id)).toEqual(['frequency', 'consequence']);
    expect(outcomes.find((o) => o.id === 'frequency')?.reason).toBe('population allele frequency above 2 %');
    expect(filterOutcomes(buildVariant()).every((o) => o.passed)).toBe(true);
  });
});

describe('ClinVar assertions in the ranking pathogenicity', () => {
  it('treats a benign and a pathogenic assertion on one allele as a conflict (no boost)', () => {
    expect(variantPathogenicity(buildVariant({ score: 0.3, clinvar: { significance: 'Benign/Pathogenic/not provided', stars: 1, match: 'exact' } }))).toBeCloseTo(0.3, 6);
    expect(variantPathogenicity(buildVariant({ score: 0.3, clinvar: { significance: 'Pathogenic/Uncertain significance', stars: 1, match: 'exact' } }))).toBeGreaterThanOrEqual(0.97);
  });
});
