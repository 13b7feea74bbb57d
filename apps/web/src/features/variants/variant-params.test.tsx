import { describe, expect, it } from 'vitest';
import { clinvarValues } from './variant-filters.tsx';
import { readVariantParams } from './variants-panel.tsx';
import { emptyVariantFilters, hasFilters, toVariantQuery } from './variants.api.ts';

describe('variant list parameters', () => {
  it('reads mode, page and filters from the URL and drops values the API would refuse', () => {
    const params = new URLSearchParams(
      'mode=filtered&vpage=3&consequence=missense_variant,made_up&maxAf=0.01&clinvar=pathogenic,bogus&acmg=Pathogenic,Nope&zygosity=homozygous,triploid&gene=FGFR2,FGFR1&inheritance=de_novo,dominant',
    );
    expect(readVariantParams(params)).toEqual({
      mode: 'filtered',
      page: 3,
      filters: {
        consequence: ['missense_variant'],
        maxAf: 0.01,
        clinvar: ['pathogenic'],
        acmg: ['Pathogenic'],
        zygosity: ['homozygous'],
        gene: ['FGFR2', 'FGFR1'],
        inheritance: ['de_novo'],
      },
    });
  });

  it('defaults to the clustered mode, page 1 and no filter', () => {
    const { mode, page, filters } = readVariantParams(
      new URLSearchParams('mode=sideways&vpage=-2&maxAf=7'),
    );
    expect(mode).toBe('clustered');
    expect(page).toBe(1);
    expect(filters.maxAf).toBeUndefined();
    expect(hasFilters({ ...filters, clinvar: [] })).toBe(false);
  });

  it('expands a ClinVar choice into every raw value ClinVar writes for it', () => {
    expect(clinvarValues(['pathogenic', 'likely-pathogenic'])).toEqual([
      'Pathogenic',
      'Pathogenic/Likely_pathogenic',
      'Likely_pathogenic',
    ]);
    expect(clinvarValues(['none'])).toEqual(['none']);
  });

  it('sends lists as comma-separated values, page size 10, and leaves unset filters out', () => {
    const query = toVariantQuery({
      mode: 'non-clustered',
      page: 2,
      filters: {
        ...emptyVariantFilters,
        gene: ['FGFR2'],
        acmg: ['Pathogenic', 'Likely pathogenic'],
        inheritance: ['compound_het'],
      },
    });
    expect(query).toEqual({
      mode: 'non-clustered',
      page: 2,
      pageSize: 10,
      consequence: undefined,
      maxAf: undefined,
      clinvar: undefined,
      acmg: 'Pathogenic,Likely pathogenic',
      zygosity: undefined,
      gene: 'FGFR2',
      inheritance: 'compound_het',
    });
  });
});
