import { describe, expect, it } from 'vitest';
import { reportedZygosity } from './genotype.ts';

describe('reportedZygosity', () => {
  it('reads a mitochondrial call by its heteroplasmy, never as hemizygous', () => {
    expect(reportedZygosity('MT', { zygosity: 'hemizygous', heteroplasmy: 0.99 })).toBe('homoplasmic');
    expect(reportedZygosity('MT', { zygosity: 'hemizygous', heteroplasmy: 0.95 })).toBe('homoplasmic');
    expect(reportedZygosity('MT', { zygosity: 'heterozygous', heteroplasmy: 0.94 })).toBe('heteroplasmic');
    expect(reportedZygosity('MT', { zygosity: 'homozygous', heteroplasmy: 0.2 })).toBe('heteroplasmic');
    expect(reportedZygosity('MT', { zygosity: 'hemizygous' })).toBe('mitochondrial');
    expect(reportedZygosity('MT', { zygosity: 'no_call' })).toBe('no_call');
  });

  it('keeps nuclear zygosity', () => {
    expect(reportedZygosity('X', { zygosity: 'hemizygous' })).toBe('hemizygous');
    expect(reportedZygosity('1', { zygosity: 'heterozygous', heteroplasmy: 0.5 })).toBe('heterozygous');
  });
});
