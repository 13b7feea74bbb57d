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
  it('does not fit consequence, zygosity or ACMG filters over the non-candidates', () => {
    for (const f of [{ consequence: ['stop_gained'] }, { zygosity: ['reference'] }, { acmg: ['Pathogenic'] }, { maxAf: 0.01, acmg: ['Benign'] }]) expect(planFitsAnyValues(f)).toBe(false);
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
