import { describe, expect, it } from 'vitest';
import type { AnnotatedVariant } from '../types.ts';
import { buildVariant } from './test-builders.ts';
import { CLINVAR_SAME_CODON_PATHOGENICITY, genotypeFit, modesOf, SINGLE_HIT_RECESSIVE, FEMALE_XLR_CARRIER, variantPathogenicity, type QualifyingVariant } from './inheritance.ts';

const q = (v: AnnotatedVariant): QualifyingVariant => ({ variant: v, p: variantPathogenicity(v) });

describe('inheritance compatibility', () => {
  it('accepts one heterozygous variant for autosomal dominant disease (de novo compatible)', () => {
    const fit = genotypeFit([q(buildVariant({ score: 0.9 }))], 'AD', 'female');
    expect(fit.score).toBeCloseTo(0.9, 6);
    expect(fit.reason).toContain('de novo');
  });

  it('penalises a single heterozygous variant in a recessive gene', () => {
    const fit = genotypeFit([q(buildVariant({ score: 0.9 }))], 'AR', 'female');
    expect(fit.score).toBeCloseTo(0.9 * SINGLE_HIT_RECESSIVE, 6);
  });

  it('accepts two heterozygous variants in a recessive gene as compound-heterozygous candidates', () => {
    const vs = [q(buildVariant({ pos: 100, score: 0.9 })), q(buildVariant({ pos: 200, score: 0.8 }))];
    const fit = genotypeFit(vs, 'AR', 'male');
    expect(fit.score).toBeCloseTo(0.72, 6);
    expect(fit.used).toEqual([0, 1]);
    expect(fit.reason).toContain('compound-heterozygous');
  });

  it('accepts a homozygous variant for autosomal recessive disease', () => {
    const fit = genotypeFit([q(buildVariant({ zygosity: 'homozygous', score: 0.8 }))], 'AR', 'unknown');
    expect(fit.score).toBeCloseTo(0.8, 6);
    expect(fit.reason).toContain('homozygous');
  });

  it('accepts a hemizygous X variant in a male for X-linked recessive disease', () => {
    const fit = genotypeFit([q(buildVariant({ chrom: 'X', zygosity: 'hemizygous', score: 0.9 }))], 'XLR', 'male');
    expect(fit.score).toBeCloseTo(0.9, 6);
    expect(fit.reason).toContain('hemizygous in a male');
  });

  it('names a mitochondrial call by its heteroplasmy in the fit explanation, never as hemizygous', () => {
    const v = buildVariant({ chrom: 'MT', zygosity: 'hemizygous', score: 0.9 });
    const het = { ...v, genotype: { ...v.genotype, heteroplasmy: 0.3 } };
    expect(genotypeFit([q(het)], 'MT', 'female').reason).toContain('(heteroplasmic): one variant is enough for mitochondrial disease');
    expect(genotypeFit([q(v)], 'MT', 'female').reason).toContain('(mitochondrial): one variant');
    expect(genotypeFit([q(v)], 'MT', 'female').reason).not.toContain('hemizygous');
  });

  it('treats a heterozygous female as a carrier of X-linked recessive disease but affected by X-linked dominant', () => {
    const v = [q(buildVariant({ chrom: 'X', score: 0.9 }))];
    expect(genotypeFit(v, 'XLR', 'female').score).toBeCloseTo(0.9 * FEMALE_XLR_CARRIER, 6);
    expect(genotypeFit(v, 'XLD', 'female').score).toBeCloseTo(0.9, 6);
  });

  it('raises the pathogenicity of an exact ClinVar pathogenic match and caps benign', () => {
    expect(variantPathogenicity(buildVariant({ score: 0.3, clinvar: { significance: 'Pathogenic', stars: 2, match: 'exact' } }))).toBeGreaterThanOrEqual(0.97);
    expect(variantPathogenicity(buildVariant({ score: 0.9, acmg: { classification: 'Benign', points: -8, criteria: [] } }))).toBeLessThanOrEqual(0.03);
  });

  it('raises a variant at a codon where ClinVar records another pathogenic missense (PS1/PM5) to the same-codon floor, not to an exact match', () => {
    expect(CLINVAR_SAME_CODON_PATHOGENICITY).toBeGreaterThan(0.5);
    expect(CLINVAR_SAME_CODON_PATHOGENICITY).toBeLessThan(0.97);
    for (const match of ['same_codon', 'same_amino_acid'] as const) {
      expect(variantPathogenicity(buildVariant({ score: 0.3, clinvar: { significance: 'Pathogenic', stars: 0, match } }))).toBeCloseTo(CLINVAR_SAME_CODON_PATHOGENICITY, 6);
      // A higher score of its own stays; a benign or conflicting assertion at the codon raises nothing.
      expect(variantPathogenicity(buildVariant({ score: 0.99, clinvar: { significance: 'Pathogenic', stars: 0, match } }))).toBeCloseTo(0.99, 6);
      expect(variantPathogenicity(buildVariant({ score: 0.3, clinvar: { significance: 'Benign/Pathogenic', stars: 0, match } }))).toBeCloseTo(0.3, 6);
      expect(variantPathogenicity(buildVariant({ score: 0.3, clinvar: { significance: 'Conflicting interpretations of pathogenicity', stars: 1, match } }))).toBeCloseTo(0.3, 6);
    }
    // The ACMG class still bounds it: a benign class caps the floor.
    expect(variantPathogenicity(buildVariant({ score: 0.3, clinvar: { significance: 'Pathogenic', stars: 0, match: 'same_codon' }, acmg: { classification: 'Likely benign', points: -2, criteria: [] } }))).toBeLessThanOrEqual(0.1);
  });

  it('maps HPO inheritance terms to modes', () => {
    expect(modesOf(['HP:0000006'])).toEqual(['AD']);
    expect(modesOf(['HP:0000007', 'HP:0000006']).sort()).toEqual(['AD', 'AR']);
    expect(modesOf([])).toEqual(['UNKNOWN']);
    expect(modesOf(['HP:0001419'])).toEqual(['XLR']);
  });
});
