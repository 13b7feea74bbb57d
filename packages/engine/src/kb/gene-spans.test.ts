import { describe, expect, it } from 'vitest';
import { GeneSpanIndex } from './genome-kb.ts';
import { packTable } from './io.ts';

function indexOf(spans: { symbol: string; chrom: string; start: number; end: number }[]): GeneSpanIndex {
  return new GeneSpanIndex({
    table: packTable(spans.length, {
      str: { symbol: spans.map((s) => s.symbol), chrom: spans.map((s) => s.chrom) },
      i32: { start: spans.map((s) => s.start), end: spans.map((s) => s.end) },
    }),
  });
}

describe('GeneSpanIndex', () => {
  it('finds covering spans (1-based inclusive) in file order, nested and unsorted spans included', () => {
    const idx = indexOf([
      { symbol: 'LATE', chrom: 'chr1', start: 500, end: 600 },
      { symbol: 'LONG', chrom: 'chr1', start: 100, end: 1000 },
      { symbol: 'SHORT', chrom: 'chr1', start: 150, end: 160 },
      { symbol: 'OTHER', chrom: 'chr2', start: 150, end: 160 },
    ]);
    expect(idx.covering('chr1', 155)).toEqual(['LONG', 'SHORT']);
    expect(idx.first('chr1', 155)).toBe('LONG');
    expect(idx.covering('chr1', 550)).toEqual(['LATE', 'LONG']);
    expect(idx.first('chr1', 550)).toBe('LATE');
    expect(idx.covering('chr1', 1000)).toEqual(['LONG']);
    expect(idx.first('chr1', 1001)).toBeNull();
    expect(idx.first('chr1', 99)).toBeNull();
    expect(idx.covering('chr2', 160)).toEqual(['OTHER']);
    expect(idx.first('chr3', 160)).toBeNull();
    expect(indexOf([]).first('chr1', 1)).toBeNull();
  });

  it('agrees with a scan of every span on random spans', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const spans = Array.from({ length: 300 }, (_, i) => {
      const start = 1 + rnd(100_000);
      return { symbol: `G${i}`, chrom: rnd(3) === 0 ? 'chr2' : 'chr1', start, end: start + rnd(rnd(4) === 0 ? 20_000 : 500) };
    });
    const idx = indexOf(spans);
    for (let q = 0; q < 3000; q++) {
      const chrom = rnd(2) === 0 ? 'chr1' : 'chr2';
      const pos = 1 + rnd(110_000);
      const want = spans.filter((s) => s.chrom === chrom && s.start <= pos && pos <= s.end).map((s) => s.symbol);
      expect(idx.covering(chrom, pos)).toEqual(want);
      expect(idx.first(chrom, pos)).toBe(want[0] ?? null);
    }
  });
});
