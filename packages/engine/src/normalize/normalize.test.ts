import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InMemorySequence, openFasta } from '../genome/fasta.ts';
import { leftAlign, trimAlleles } from './normalize.ts';

const SOURCES = process.env.RARELENS_SOURCES ?? resolve(import.meta.dirname, '../../../../../shared/data');
const v = (pos: number, ref: string, alt: string): { chrom: string; pos: number; ref: string; alt: string } => ({ chrom: '1', pos, ref, alt });

describe('trimAlleles', () => {
  it('trims a common suffix left by multi-allelic splitting, keeping the anchor base', () => {
    expect(trimAlleles(v(100, 'ATT', 'AT'))).toEqual(v(100, 'AT', 'A'));
  });
  it('trims a common prefix of an MNV-style record and moves POS right', () => {
    expect(trimAlleles(v(100, 'ACG', 'ATG'))).toEqual(v(101, 'C', 'T'));
    expect(trimAlleles(v(100, 'CAGT', 'CAT'))).toEqual(v(101, 'AG', 'A'));
  });
  it('leaves SNVs, parsimonious indels and symbolic alleles unchanged', () => {
    expect(trimAlleles(v(5, 'A', 'G'))).toEqual(v(5, 'A', 'G'));
    expect(trimAlleles(v(5, 'A', 'AT'))).toEqual(v(5, 'A', 'AT'));
    expect(trimAlleles(v(5, 'A', '<DEL>'))).toEqual(v(5, 'A', '<DEL>'));
  });
});

describe('leftAlign', () => {
  //            pos: 1234567890123
  const seq = 'GACACACATTTTG';
  const ref = new InMemorySequence({ '1': seq });

  it('moves a deletion in a dinucleotide repeat to its leftmost position', async () => {
    // Deleting one 'AC' unit written at the right end of the repeat (pos 6: C ACA -> C... ) .
    const r = await leftAlign(v(6, 'ACA', 'A'), ref);
    expect(r.refMatches).toBe(true);
    expect(r.variant).toEqual(v(1, 'GAC', 'G'));
  });

  it('moves an insertion in a homopolymer to the base before the run', async () => {
    const r = await leftAlign(v(12, 'T', 'TT'), ref);
    expect(r.variant).toEqual(v(8, 'A', 'AT'));
  });

  it('normalises a right-anchored record (as produced by minus-strand liftover)', async () => {
    // Deleting the T run's last T written as "TG -> G" anchored on the right.
    const r = await leftAlign(v(12, 'TG', 'G'), ref);
    expect(r.variant).toEqual(v(8, 'AT', 'A'));
  });

  it('keeps SNVs and reports a REF that disagrees with the reference', async () => {
    expect((await leftAlign(v(2, 'A', 'T'), ref)).variant).toEqual(v(2, 'A', 'T'));
    const bad = await leftAlign(v(2, 'C', 'T'), ref);
    expect(bad.refMatches).toBe(false);
    expect(bad.referenceAtPos).toBe('A');
  });
});

describe.runIf(existsSync(resolve(SOURCES, 'reads/demo20.hg19_chr20_excerpt.fa')))('leftAlign on real hg19 sequence', () => {
  it('left-aligns every single-base deletion in a demo20 homopolymer to the same record', async () => {
    const fa = await openFasta(resolve(SOURCES, 'reads/demo20.hg19_chr20_excerpt.fa'));
    const all = await fa.getSequence('demo20', 0, 5000);
    // Find the first homopolymer run of length >= 5 (after position 1).
    const m = /([ACGT])\1{4,}/.exec(all.slice(1))!;
    const runStart1 = m.index + 2; // 1-based position of the run's first base
    const base = m[1]!;
    const anchor1 = runStart1 - 1;
    const anchorBase = all[anchor1 - 1]!;
    const results = new Set<string>();
    for (let p = runStart1; p < runStart1 + m[0].length; p++) {
      // Delete the base at p+1..: written as REF = base at p + next base, ALT = base at p.
      const r = await leftAlign({ chrom: 'demo20', pos: p, ref: base + base, alt: base }, fa);
      if (p + 1 >= runStart1 + m[0].length) break;
      expect(r.refMatches).toBe(true);
      results.add(`${r.variant.pos}:${r.variant.ref}>${r.variant.alt}`);
    }
    expect([...results]).toEqual([`${anchor1}:${anchorBase}${base}>${anchorBase}`]);
    await fa.close();
  });

  it('checks REF against hg19 chrM (16,571 bp) at the end of the contig', async () => {
    const fa = await openFasta(resolve(SOURCES, 'reads/chrM_hg19.fa'));
    const last = await fa.getSequence('chrM', 16570, 16571);
    expect((await leftAlign({ chrom: 'chrM', pos: 16571, ref: last, alt: last === 'A' ? 'G' : 'A' }, fa)).refMatches).toBe(true);
    await fa.close();
  });
});
