import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadChain, parseChain, ChainParseError, reverseComplement, type LiftoverChain } from './chain.ts';

const SOURCES = process.env.RARELENS_SOURCES ?? resolve(import.meta.dirname, '../../../../../shared/data');
const HG19_TO_HG38 = resolve(SOURCES, 'liftover/hg19ToHg38.over.chain.gz');
const HG38_TO_HG19 = resolve(SOURCES, 'liftover/hg38ToHg19.over.chain.gz');

// A hand-written chain: source chrA 0..100 maps to chrB '+' with a gap (dt=10, dq=5), and
// source chrA 200..230 maps to chrC on the '-' strand (chrC size 1000).
const TOY = [
  'chain 1000 chrA 1000 + 0 100 chrB 500 + 50 145 1',
  '40 10 5',
  '50',
  '',
  'chain 500 chrA 1000 + 200 230 chrC 1000 - 100 130 2',
  '30',
  '',
].join('\n');

describe('parseChain on a hand-written chain', () => {
  const chain = parseChain(TOY, 'toy.chain');

  it('maps positions inside the first block with the block offset', () => {
    // source 0-based 0 -> dest 50, so 1-based 1 -> 51; 1-based 40 -> 90.
    expect(chain.liftPosition('chrA', 1)).toEqual({ chrom: 'B', pos: 51, strand: '+' });
    expect(chain.liftPosition('A', 40)).toEqual({ chrom: 'B', pos: 90, strand: '+' });
  });

  it('returns null inside a chain gap and applies the dq shift after it', () => {
    expect(chain.liftPosition('A', 45)).toBeNull(); // 0-based 44 is in the 10-bp gap 40..50
    // second block: source 50..100 -> dest 50+40+5 = 95.. ; 1-based 51 -> 96
    expect(chain.liftPosition('A', 51)).toEqual({ chrom: 'B', pos: 96, strand: '+' });
  });

  it('maps a minus-strand chain to forward coordinates (size - 1 - q)', () => {
    // source 0-based 200 -> q 100 on '-' -> forward 1000-1-100 = 899 -> 1-based 900
    expect(chain.liftPosition('A', 201)).toEqual({ chrom: 'C', pos: 900, strand: '-' });
    expect(chain.liftPosition('A', 230)).toEqual({ chrom: 'C', pos: 871, strand: '-' });
  });

  it('fails a variant whose REF span crosses a chain gap', () => {
    const r = chain.liftVariant({ chrom: 'A', pos: 39, ref: 'ACGT', alt: 'A' });
    expect(r).toMatchObject({ failed: 'crosses_chain_gap' });
  });

  it('reverse-complements alleles and moves an indel to the forward start of its span', () => {
    // Deletion REF ACG at source 1-based 201..203 -> dest forward 898..900.
    const r = chain.liftVariant({ chrom: 'A', pos: 201, ref: 'ACG', alt: 'A' });
    expect(r).toEqual({ chrom: 'C', pos: 898, ref: 'CGT', alt: 'T', strand: '-' });
    const snv = chain.liftVariant({ chrom: 'A', pos: 205, ref: 'G', alt: 'A' });
    expect(snv).toEqual({ chrom: 'C', pos: 896, ref: 'C', alt: 'T', strand: '-' });
  });

  it('reports unknown contigs and unmapped positions as failures with a reason', () => {
    expect(chain.liftVariant({ chrom: 'Z', pos: 5, ref: 'A', alt: 'G' })).toMatchObject({ failed: 'unknown_contig' });
    expect(chain.liftVariant({ chrom: 'A', pos: 150, ref: 'A', alt: 'G' })).toMatchObject({ failed: 'unmapped' });
  });

  it('rejects a truncated chain with the line number', () => {
    expect(() => parseChain('chain 1 chrA 100 + 0 50 chrB 100 + 0 50 1\n40 10 10\n', 'bad.chain')).toThrow(ChainParseError);
    expect(() => parseChain('chain 1 chrA 100 + 0 50 chrB 100 + 0 50 1\n40 10 10\n', 'bad.chain')).toThrow(/bad\.chain:2/);
  });

  it('rejects a header whose block sums disagree with its end', () => {
    expect(() => parseChain('chain 1 chrA 100 + 0 50 chrB 100 + 0 50 1\n40\n', 'bad.chain')).toThrow(/header says 50\/50/);
  });
});

describe('reverseComplement', () => {
  it('complements and reverses, keeping case and IUPAC codes', () => {
    expect(reverseComplement('ACGTN')).toBe('NACGT');
    expect(reverseComplement('aRg')).toBe('cYt');
  });
});

describe.runIf(existsSync(HG19_TO_HG38))('UCSC hg19ToHg38 / hg38ToHg19 chains', () => {
  let fwd: LiftoverChain;
  let back: LiftoverChain;
  beforeAll(async () => {
    fwd = await loadChain(HG19_TO_HG38);
    back = await loadChain(HG38_TO_HG19);
  });

  it('lifts the FGFR2 Pfeiffer variant 10:123256215 (GRCh37) to 10:121496701 (GRCh38)', () => {
    expect(fwd.liftPosition('10', 123256215)).toEqual({ chrom: '10', pos: 121496701, strand: '+' });
    expect(fwd.liftVariant({ chrom: 'chr10', pos: 123256215, ref: 'T', alt: 'G' })).toEqual({
      chrom: '10', pos: 121496701, ref: 'T', alt: 'G', strand: '+',
    });
  });

  it('lifts CFTR p.Phe508del and BRCA1 c.68_69del anchors to their GRCh38 positions', () => {
    // CFTR F508del (rs113993960): GRCh37 7:117199644, GRCh38 7:117559590.
    expect(fwd.liftPosition('7', 117199644)?.pos).toBe(117559590);
    // BRCA1 185delAG (rs80357914): GRCh37 17:41276044, GRCh38 17:43124027.
    expect(fwd.liftPosition('17', 41276044)?.pos).toBe(43124027);
  });

  it('keeps b37 MT (rCRS) positions unchanged and lifts hg19 chrM through the chain on request', () => {
    expect(fwd.liftPosition('MT', 3243)).toEqual({ chrom: 'MT', pos: 3243, strand: '+' });
    const hg19 = fwd.liftPosition('chrM', 3243, { mitochondrion: 'hg19' });
    // hg19 chrM carries a few extra bases before 3243 relative to the rCRS (16,571 vs 16,569 bp).
    expect(hg19?.chrom).toBe('MT');
    expect(Math.abs((hg19?.pos ?? 0) - 3243)).toBeLessThanOrEqual(3);
  });

  it('round-trips positions every 997 kb across the autosomes through hg38ToHg19', () => {
    let lifted = 0;
    let roundTripped = 0;
    let total = 0;
    for (let c = 1; c <= 22; c++) {
      const size = fwd.sourceSizes.get(String(c))!;
      for (let p = 1_000_000; p < size; p += 997_000) {
        total++;
        const a = fwd.liftPosition(String(c), p);
        if (a === null) continue;
        lifted++;
        const b = back.liftPosition(a.chrom, a.pos);
        if (b !== null && b.chrom === String(c) && b.pos === p) roundTripped++;
      }
    }
    expect(total).toBeGreaterThan(2500);
    expect(lifted / total).toBeGreaterThan(0.9);
    expect(roundTripped / lifted).toBeGreaterThan(0.98);
  });

  it('round-trips a deletion inside a minus-strand (inverted) chain to the original record', () => {
    // chr1:206,072,707-206,332,221 (hg19) aligns to hg38 chr1 on the '-' strand.
    const v = { chrom: '1', pos: 206100000, ref: 'ACG', alt: 'A' };
    const there = fwd.liftVariant(v);
    if ('failed' in there) throw new Error(there.detail);
    expect(there.strand).toBe('-');
    expect(there.ref).toBe('CGT');
    const home = back.liftVariant(there);
    expect(home).toEqual({ ...v, strand: '-' });
  });
});
