import { describe, expect, it } from 'vitest';
import { hasSequenceAlleles } from './inputs.ts';

describe('which phenopacket alleles the spiking benchmarks can write into a VCF', () => {
  it('takes base alleles, SNVs and indels alike', () => {
    expect(hasSequenceAlleles({ ref: 'C', alt: 'T' })).toBe(true);
    expect(hasSequenceAlleles({ ref: 'CCCTTATATCTCTACCCGTT', alt: 'C' })).toBe(true);
    expect(hasSequenceAlleles({ ref: 'a', alt: 'acgtn' })).toBe(true);
  });

  it('leaves out a structural variant given as a label (REF N, ALT DEL) or a symbolic allele', () => {
    expect(hasSequenceAlleles({ ref: 'N', alt: 'DEL' })).toBe(false);
    expect(hasSequenceAlleles({ ref: 'A', alt: '<DEL>' })).toBe(false);
    expect(hasSequenceAlleles({ ref: 'N', alt: 'A' })).toBe(false);
    expect(hasSequenceAlleles({ ref: 'A', alt: null })).toBe(false);
  });
});
