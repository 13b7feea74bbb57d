/**
 * Codon-level annotation against real sequence: the hg19 chr20 excerpt in ../shared/data/reads
 * ("demo20", 5 kb). A synthetic multi-exon model is laid on it and every SNV outcome is checked
 * against a plain string translation of the spliced CDS.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testTranscript } from '../testing.ts';
import { reverseComplement, TranscriptModel } from '../transcripts/model.ts';
import { frameshiftHgvsP, threeLetter, transcriptEffect, translateCodon, trimAllele } from './consequence.ts';
import { SyncFasta } from './reference.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const SOURCES = resolve(process.env.RARELENS_SOURCES ?? join(repoRoot, '../shared/data'));
const FASTA = join(SOURCES, 'reads/demo20.hg19_chr20_excerpt.fa');

function rawSequence(): string {
  return readFileSync(FASTA, 'utf8').split('\n').slice(1).join('').toUpperCase();
}

/** Exons [300,420) [900,1011) [1500,1700) with the CDS chosen so its length is a multiple of 3. */
function model(strand: 1 | -1): TranscriptModel {
  const exons = [
    [300, 420],
    [900, 1011],
    [1500, 1700],
  ] as const;
  return new TranscriptModel(testTranscript(exons, [330, 1650], { id: strand === 1 ? 'NM_PLUS' : 'NM_MINUS', gene: 'DEMO', chrom: 'demo20', strand }));
}

/** Independent reference: spliced CDS string on the transcript strand. */
function splicedCds(seq: string, m: TranscriptModel): string {
  let cds = '';
  for (let i = 0; i < m.tx.exonStarts.length; i++) {
    const s = Math.max(m.tx.exonStarts[i]!, m.tx.cdsStart);
    const e = Math.min(m.tx.exonEnds[i]!, m.tx.cdsEnd);
    if (e > s) cds += seq.slice(s, e);
  }
  return m.tx.strand === 1 ? cds : reverseComplement(cds);
}

describe.skipIf(!existsSync(FASTA))('codon consequences on real hg19 sequence (demo20 excerpt)', () => {
  it('reads the same bases through the .fai index as the FASTA text holds', () => {
    const fa = new SyncFasta(FASTA);
    const seq = rawSequence();
    expect(seq).toHaveLength(5000);
    for (const p of [0, 1, 59, 60, 61, 2500, 4999]) expect(fa.base('demo20', p)).toBe(seq[p]);
    expect(fa.base('demo20', 5000)).toBeNull();
    fa.close();
  });

  for (const strand of [1, -1] as const) {
    it(`matches a string translation for every SNV in the CDS (${strand === 1 ? '+' : '−'} strand)`, () => {
      const fa = new SyncFasta(FASTA);
      const seq = rawSequence();
      const m = model(strand);
      expect(m.cdsLength % 3).toBe(0);
      const cds = splicedCds(seq, m);
      let checked = 0;
      for (let g = m.tx.cdsStart; g < m.tx.cdsEnd; g += 2) {
        const c = m.cdsPosOf(g);
        if (c == null) continue; // intronic
        const codon = Math.floor((c - 1) / 3);
        // Skip the first codon and the last one: they are not ATG / a stop in this synthetic model.
        if (codon === 0 || codon === m.cdsLength / 3 - 1) continue;
        const refCodon = cds.slice(codon * 3, codon * 3 + 3);
        if (translateCodon(refCodon) === '*') continue; // an internal stop: the model is synthetic
        for (const alt of ['A', 'C', 'G', 'T']) {
          const ref = seq[g]!;
          if (alt === ref) continue;
          const txAlt = strand === 1 ? alt : reverseComplement(alt);
          const k = (c - 1) % 3;
          const altCodon = refCodon.slice(0, k) + txAlt + refCodon.slice(k + 1);
          const r = translateCodon(refCodon);
          const x = translateCodon(altCodon);
          const want = x === '*' ? 'stop_gained' : x === r ? 'synonymous_variant' : 'missense_variant';
          const e = transcriptEffect(m, trimAllele('demo20', g + 1, ref, alt), (chrom, p) => fa.base(chrom, p))!;
          expect(e.consequences).toContain(want);
          expect(e.refAa).toBe(r);
          expect(e.altAa).toBe(x);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(300);
      fa.close();
    });
  }

  it('names frameshifts at protein level (p.(Xaa{n}Yaa fsTer{k})) like a string translation of the mutated cDNA', () => {
    const fa = new SyncFasta(FASTA);
    const seq = rawSequence();
    const m = model(1);
    // Whole transcript cDNA (+ strand) and where the CDS starts in it.
    let cdna = '';
    for (let i = 0; i < m.tx.exonStarts.length; i++) cdna += seq.slice(m.tx.exonStarts[i], m.tx.exonEnds[i]);
    const cdsOff = m.cdnaCdsStart - 1;
    const protein = (x: string): string => {
      let p = '';
      for (let i = cdsOff; i + 3 <= x.length; i += 3) p += translateCodon(x.slice(i, i + 3));
      return p;
    };
    const refProt = protein(cdna);
    let checked = 0;
    for (let g = m.tx.cdsStart + 3; g < m.tx.cdsEnd - 3; g += 5) {
      const c = m.cdnaOf(g);
      if (c == null || c - 1 - cdsOff >= (refProt.indexOf('*') + 1) * 3 - 3 || refProt.indexOf('*') < 0) continue;
      // 1-nt deletion of base g (VCF: anchor at g-1).
      if (m.cdnaOf(g - 1) == null) continue;
      const altCdna = cdna.slice(0, c - 1) + cdna.slice(c);
      const altProt = protein(altCdna);
      let i = 0;
      while (i < refProt.length && refProt[i] === altProt[i]) i++;
      const stop = altProt.indexOf('*', i);
      const want = altProt[i] === '*' ? `p.(${threeLetter(refProt[i]!)}${i + 1}Ter)` : `p.(${threeLetter(refProt[i]!)}${i + 1}${threeLetter(altProt[i]!)}fsTer${stop < 0 ? '?' : stop - i + 1})`;
      const span = trimAllele('demo20', g, seq.slice(g - 1, g + 1), seq[g - 1]!);
      expect(frameshiftHgvsP(m, span, (chrom, p) => fa.base(chrom, p))).toBe(want);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    fa.close();
  });
});
