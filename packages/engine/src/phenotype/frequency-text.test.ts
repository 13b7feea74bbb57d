import { describe, expect, it } from 'vitest';
import { describeDiseaseMatch } from './rank-phenotype.ts';
import { reportedCounts } from './model.ts';
import type { TermMatch } from './score.ts';

// The model shrinks a frequency seen in few patients toward the default 40 % (2 of 2 reported
// -> (2 + 5 x 0.4) / (2 + 5) = 57 %). "57 % of patients (2/2)" read as a contradiction.
describe('a term frequency beside the counts it was estimated from', () => {
  it('says the percentage is estimated from the reported counts when the two differ', () => {
    expect(reportedCounts(4 / 7, '2/2')).toBe('estimated from 2/2 reported: small counts are drawn toward a typical frequency');
    expect(reportedCounts(3 / 7, '1/2')).toBe('estimated from 1/2 reported: small counts are drawn toward a typical frequency');
  });

  it('gives the counts alone when they round to the same percentage', () => {
    expect(reportedCounts(36 / 36, '36/36')).toBe('36/36');
    expect(reportedCounts(0.5, '7/14')).toBe('7/14');
  });

  it('gives nothing for a frequency class or a missing text', () => {
    expect(reportedCounts(0.55, 'HP:0040282')).toBeNull();
    expect(reportedCounts(0.4, null)).toBeNull();
  });

  it('is what the disease explanation prints', () => {
    const m: TermMatch = { term: 'HP:0010055', label: 'Broad hallux', kind: 'exact', diseaseTerm: 'HP:0010055', diseaseTermLabel: 'Broad hallux', frequency: 4 / 7, frequencyText: '2/2', lr: 160 };
    expect(describeDiseaseMatch([m], [])).toEqual(['Broad hallux (HP:0010055) is a feature of the disease (seen in 57% of patients, estimated from 2/2 reported: small counts are drawn toward a typical frequency): LR 160']);
  });
});
