import { describe, expect, it } from 'vitest';
import { formatFrequency } from './evidence.ts';

// GenomeTalks on the Pfeiffer exome said "Broad hallux (LR 160, 57 % of patients (2/2))".
describe('formatFrequency', () => {
  it('says a shrunk percentage is estimated from the reported counts', () => {
    expect(formatFrequency(4 / 7, '2/2')).toBe('57 % of patients (estimated from 2/2 reported: small counts are drawn toward a typical frequency)');
  });
  it('keeps counts that give the same percentage, and a class without counts', () => {
    expect(formatFrequency(1, '36/36')).toBe('100 % of patients (36/36)');
    expect(formatFrequency(0.55, 'HP:0040282')).toBe('55 % of patients');
    expect(formatFrequency(null, null)).toBe('frequency not stated');
  });
});
