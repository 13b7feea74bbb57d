import { describe, expect, it } from 'vitest';
import { MAX_REGION_BP, parseRegion, ucsc } from './igv.service.ts';

describe('parseRegion', () => {
  it('reads UCSC and Ensembl contig names, with thousands separators', () => {
    expect(parseRegion('chr10:121,478,000-121,598,000')).toEqual({ chrom: '10', start: 121478000, end: 121598000 });
    expect(parseRegion('X:1-10')).toEqual({ chrom: 'X', start: 1, end: 10 });
    expect(parseRegion('chrM:1-100').chrom).toBe('MT');
  });
  it('rejects reversed, zero-based and oversized regions', () => {
    expect(() => parseRegion('1:10-5')).toThrow(/start must be/);
    expect(() => parseRegion('1:0-5')).toThrow(/start must be/);
    expect(() => parseRegion(`1:1-${MAX_REGION_BP + 1}`)).toThrow(/larger than/);
    expect(() => parseRegion('1:abc')).toThrow(/must look like/);
  });
  it('writes UCSC names for igv', () => {
    expect([ucsc('1'), ucsc('MT'), ucsc('X')]).toEqual(['chr1', 'chrM', 'chrX']);
  });
});
