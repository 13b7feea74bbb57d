/**
 * Which list statements are planned once for every value (Database.genericPlanDb): not those
 * that read the non-candidates with a filter whose partial index holds some values only.
 */
import { describe, expect, it } from 'vitest';
import { planFitsAnyValues } from './run-variants.ts';
import { withOption } from './database.ts';

describe('planFitsAnyValues', () => {
  it('fits the unfiltered list, the candidates and the filters without a partial index of some values', () => {
    for (const f of [{}, { candidatesOnly: true }, { gene: ['FGFR2'] }, { clinvar: ['Pathogenic', 'none'] }, { maxAf: 0.01 }, { inheritance: ['de_novo'] }]) expect(planFitsAnyValues(f)).toBe(true);
  });
  it('does not fit consequence, zygosity or ACMG filters of values their partial indexes hold', () => {
    for (const f of [
      { consequence: ['stop_gained', 'missense_variant'] },
      { zygosity: ['reference'] },
      { acmg: ['Pathogenic'] },
      { maxAf: 0.01, acmg: ['Benign', 'Likely pathogenic'] },
      // The zygosity filter could use its index: a plan for the values.
      { consequence: ['intron_variant'], zygosity: ['no_call'] },
    ]) {
      expect(planFitsAnyValues(f)).toBe(false);
    }
  });
  it('fits them when a value is one the partial index leaves out (no plan can use that index)', () => {
    for (const f of [
      { consequence: ['intron_variant', 'stop_gained'] },
      { zygosity: ['homozygous'] },
      { maxAf: 0.01, acmg: ['Uncertain significance', 'Likely pathogenic', 'Pathogenic'] },
      { consequence: ['upstream_gene_variant'], zygosity: ['heterozygous', 'reference'], acmg: ['Uncertain significance'] },
    ]) {
      expect(planFitsAnyValues(f)).toBe(true);
    }
  });
  it('fits them over the candidates alone (their table has no such index)', () => {
    expect(planFitsAnyValues({ consequence: ['stop_gained'], candidatesOnly: true })).toBe(true);
    expect(planFitsAnyValues({ zygosity: ['homozygous'], inheritance: ['de_novo'] })).toBe(true);
  });
});

describe('withOption', () => {
  it("adds a server setting to the URL's own options", () => {
    expect(withOption('postgres://u@h/db', '-c a=b')).toBe('-c a=b');
    expect(withOption('postgres://u@h/db?options=-c%20x%3Dy', '-c a=b')).toBe('-c x=y -c a=b');
  });
});
