import { describe, expect, it } from 'vitest';
import { testTranscript } from '../testing.ts';
import { TranscriptModel, type Transcript } from '../transcripts/model.ts';
import { perGeneEffects } from './annotator.ts';
import { describeCodingOutcome, hgvsCOf, shift3Prime, structuralEffect, transcriptEffect, trimAllele, type BaseLookup } from './consequence.ts';

/**
 * Hand-built models (0-based). '+' strand: exons [1000,1100) [1200,1300) [1400,1500), CDS [1050,1451):
 * 5'UTR 1000..1049, CDS exon1 1050..1099 (50 nt), exon2 1200..1299 (100 nt), exon3 1400..1450
 * (51 nt) -> CDS 201 nt (c.1..c.201, stop codon c.199..c.201 at 1448..1450), 3'UTR 1451..1499.
 */
function buildTx(over: Partial<Transcript> = {}): Transcript {
  return testTranscript(
    [
      [1000, 1100],
      [1200, 1300],
      [1400, 1500],
    ],
    [1050, 1451],
    { hgncId: 'HGNC:0', ...over },
  );
}

const plus = new TranscriptModel(buildTx());
const minus = new TranscriptModel(buildTx({ id: 'NM_MINUS', strand: -1 }));

/** VCF-style allele at 1-based POS on the models above. */
function effect(m: TranscriptModel, pos: number, ref: string, alt: string, base: BaseLookup | null = null) {
  const span = trimAllele('1', pos, ref, alt);
  const e = transcriptEffect(m, span, base);
  return { e, hgvs: hgvsCOf(m, span, base) };
}

describe('transcriptEffect on a + strand model', () => {
  it('numbers the CDS from the A of ATG and maps UTR/intron positions to HGVS c. (both numbers checked)', () => {
    expect(plus.cdsLength).toBe(201);
    // 0-based 1050 = VCF POS 1051 = c.1
    expect(plus.hgvsPos(1050)).toBe('1');
    expect(plus.hgvsPos(1049)).toBe('-1');
    expect(plus.hgvsPos(1099)).toBe('50');
    expect(plus.hgvsPos(1100)).toBe('50+1');
    expect(plus.hgvsPos(1199)).toBe('51-1');
    expect(plus.hgvsPos(1450)).toBe('201');
    expect(plus.hgvsPos(1451)).toBe('*1');
  });

  it('calls splice donor at +1/+2, splice region at +3..+8 and intron beyond', () => {
    expect(effect(plus, 1101, 'G', 'A').e!.consequences).toEqual(['splice_donor_variant']);
    expect(effect(plus, 1102, 'T', 'A').e!.consequences).toEqual(['splice_donor_variant']);
    expect(effect(plus, 1105, 'A', 'G').e!.consequences).toEqual(['splice_region_variant', 'intron_variant']);
    expect(effect(plus, 1150, 'A', 'G').e!.consequences).toEqual(['intron_variant']);
    expect(effect(plus, 1101, 'G', 'A').hgvs).toBe('NM_TEST:c.50+1G>A');
    // Donor of exon 1 (50 coding nt of 201): skipping it shifts the frame; exon 1 is far from the last exon.
    expect(effect(plus, 1101, 'G', 'A').e!.spliceSkip).toEqual({ cdsBases: 50, inFrame: false, nmdEscape: false, fraction: 50 / 201 });
    // Acceptor of exon 2 (100 coding nt).
    expect(effect(plus, 1200, 'G', 'A').e!.spliceSkip?.cdsBases).toBe(100);
  });

  it('calls splice acceptor at -1/-2 and exonic splice region within 3 nt of the exon edge', () => {
    expect(effect(plus, 1200, 'G', 'A').e!.consequences).toEqual(['splice_acceptor_variant']);
    expect(effect(plus, 1199, 'A', 'C').e!.consequences).toEqual(['splice_acceptor_variant']);
    expect(effect(plus, 1200, 'G', 'A').hgvs).toBe('NM_TEST:c.51-1G>A');
    expect(effect(plus, 1201, 'C', 'T').e!.consequences).toContain('splice_region_variant');
  });

  it('calls 5′ and 3′ UTR variants', () => {
    expect(effect(plus, 1020, 'A', 'G').e!.consequences).toEqual(['5_prime_UTR_variant']);
    expect(effect(plus, 1480, 'A', 'G').e!.consequences).toEqual(['3_prime_UTR_variant']);
    expect(effect(plus, 1480, 'A', 'G').hgvs).toBe('NM_TEST:c.*29A>G');
  });

  it('tells a frameshift from an in-frame deletion by the indel length against the CDS', () => {
    // Deletes 1 nt (c.11) -> frameshift; deletes 3 nt -> in-frame.
    expect(effect(plus, 1060, 'AC', 'A').e!.consequences).toEqual(['frameshift_variant']);
    expect(effect(plus, 1060, 'AC', 'A').hgvs).toBe('NM_TEST:c.11del');
    expect(effect(plus, 1060, 'ACGT', 'A').e!.consequences).toEqual(['inframe_deletion']);
    expect(effect(plus, 1060, 'A', 'AGG').e!.consequences).toEqual(['frameshift_variant']);
    expect(effect(plus, 1060, 'A', 'AGGC').e!.consequences).toEqual(['inframe_insertion']);
    expect(effect(plus, 1060, 'A', 'AGGC').hgvs).toBe('NM_TEST:c.10_11insGGC');
  });

  it('calls start_lost for any substitution in the ATG and reports p.(Met1?)', () => {
    const r = effect(plus, 1052, 'T', 'C').e!;
    expect(r.consequences).toEqual(['start_lost']);
    expect(r.hgvsP).toBe('p.(Met1?)');
  });

  it('calls upstream and downstream within 5 kb and nothing beyond', () => {
    expect(effect(plus, 900, 'A', 'G').e!.consequences).toEqual(['upstream_gene_variant']);
    expect(effect(plus, 1600, 'A', 'G').e!.consequences).toEqual(['downstream_gene_variant']);
    expect(effect(plus, 7000, 'A', 'G').e).toBeNull();
  });

  it('says coding_sequence_variant for a coding SNV whose codon is unknown', () => {
    // c.6 (third base of codon 2) A>G: synonymous or missense depending on the unknown bases.
    expect(effect(plus, 1056, 'A', 'G').e!.consequences).toEqual(['coding_sequence_variant']);
    // c.5 A>G is missense whatever the other bases are (xAy -> xGy never keeps the amino acid
    // and xAy cannot be TAA/TAG inside a CDS), so it is called without the sequence.
    expect(effect(plus, 1055, 'A', 'G').e!.consequences).toEqual(['missense_variant']);
  });

  it('gives each outcome of an unknown codon its codon-usage-weighted probability (hand-checked against the Kazusa table)', () => {
    // c.6 A>G: xyA -> xyG. Internal codons exclude TAA/TGA; of the 14 left only ATA (Ile) -> ATG
    // (Met) changes the amino acid: P(missense) = 7.5 / 190.1 per-thousand usage.
    const third = effect(plus, 1056, 'A', 'G').e!;
    expect(third.consequences).toEqual(['coding_sequence_variant']);
    expect(third.codingOutcome!.map((o) => o.term)).toEqual(['synonymous_variant', 'missense_variant']);
    expect(third.codingOutcome![1]!.p).toBeCloseTo(7.5 / 190.1, 6);
    expect(describeCodingOutcome(third.codingOutcome!)).toBe('probably synonymous (P = 0.96; missense P = 0.04; codon not known without the reference sequence)');
    // c.4 C>T: Cyz -> Tyz. Synonymous for CTA/CTG (Leu), stop for CAA/CAG/CGA, missense otherwise;
    // the C row sums to 245.7 per thousand.
    const first = effect(plus, 1054, 'C', 'T').e!;
    expect(first.consequences).toEqual(['coding_sequence_variant']);
    const p = Object.fromEntries(first.codingOutcome!.map((o) => [o.term, o.p]));
    expect(p.synonymous_variant).toBeCloseTo((7.2 + 39.6) / 245.7, 6);
    expect(p.stop_gained).toBeCloseTo((12.3 + 34.2 + 6.2) / 245.7, 6);
    expect(p.missense_variant).toBeCloseTo(1 - (7.2 + 39.6 + 12.3 + 34.2 + 6.2) / 245.7, 6);
    expect(describeCodingOutcome(first.codingOutcome!)).toMatch(/^probably missense \(P = 0\.60; stop gained P = 0\.21; synonymous P = 0\.19;/);
    // Minus strand: forward T>C at c.6 (0-based 1445) is A>G on the transcript, same probabilities.
    const m3 = effect(minus, 1446, 'T', 'C').e!;
    expect(m3.consequences).toEqual(['coding_sequence_variant']);
    expect(m3.codingOutcome!.find((o) => o.term === 'missense_variant')!.p).toBeCloseTo(7.5 / 190.1, 6);
    // Stop codon, second base A>G: TAA -> TGA keeps the stop (usage 1.0), TAG -> TGG loses it (0.8).
    const stop = effect(plus, 1450, 'A', 'G').e!;
    expect(stop.codingOutcome!.map((o) => [o.term, Number(o.p.toFixed(4))])).toEqual([['stop_retained_variant', 0.5556], ['stop_lost', 0.4444]]);
    // Certain outcomes carry no probabilities: c.5 A>G is always missense, c.6 C>T always synonymous.
    expect(effect(plus, 1055, 'A', 'G').e!.codingOutcome).toBeNull();
    expect(effect(plus, 1056, 'C', 'T').e!.consequences).toEqual(['synonymous_variant']);
    expect(effect(plus, 1056, 'C', 'T').e!.codingOutcome).toBeNull();
  });

  it('computes missense, synonymous and stop_gained with HGVS p. when the codon is known', () => {
    // Codon 2 = c.4..c.6 at 0-based 1053..1055: 'CGA' (Arg).
    const seq: Record<number, string> = { 1053: 'C', 1054: 'G', 1055: 'A' };
    const base: BaseLookup = (_c, p) => seq[p] ?? null;
    const mis = effect(plus, 1054, 'C', 'G', base).e!; // CGA -> GGA (Gly)
    expect(mis.consequences).toEqual(['missense_variant']);
    expect(mis.hgvsP).toBe('p.(Arg2Gly)');
    const syn = effect(plus, 1056, 'A', 'G', base).e!; // CGA -> CGG (Arg)
    expect(syn.consequences).toEqual(['synonymous_variant']);
    expect(syn.hgvsP).toBe('p.(Arg2=)');
    const stop = effect(plus, 1054, 'C', 'T', base).e!; // CGA -> TGA
    expect(stop.consequences).toEqual(['stop_gained']);
    // With the codon known (as with a FASTA) there is no outcome distribution.
    expect([mis, syn, stop].map((e) => e.codingOutcome)).toEqual([null, null, null]);
    expect(stop.hgvsP).toBe('p.(Arg2Ter)');
  });

  it('uses the stop-codon invariant: T at the first stop-codon base changed is always stop_lost', () => {
    // Stop codon c.199..c.201 at 0-based 1448..1450 (POS 1449..1451); its first base is T.
    expect(effect(plus, 1449, 'T', 'C').e!.consequences).toEqual(['stop_lost']);
    // Second base A>G: TAA->TGA keeps the stop, TAG->TGG loses it: undecidable without sequence.
    expect(effect(plus, 1450, 'A', 'G').e!.consequences).toEqual(['coding_sequence_variant']);
  });

  it('flags NMD escape for truncations in the last exon but not in an early exon', () => {
    const early = effect(plus, 1060, 'AC', 'A').e!;
    const last = effect(plus, 1410, 'AC', 'A').e!;
    expect(early.nmdEscape).toBe(false);
    expect(last.nmdEscape).toBe(true);
  });
});

describe('transcriptEffect on a − strand model', () => {
  it('swaps donor/acceptor and UTR ends and complements alleles in HGVS c.', () => {
    // On '-' the transcript starts at 1499: exon1 is [1400,1500) in tx order; c.1 = 0-based 1450.
    expect(minus.hgvsPos(1450)).toBe('1');
    // 0-based 1399 is the intron base next to exon [1400,1500), whose last tx base (1400) is c.51 -> donor +1.
    expect(effect(minus, 1400, 'C', 'T').e!.consequences).toEqual(['splice_donor_variant']);
    expect(effect(minus, 1400, 'C', 'T').hgvs).toBe('NM_MINUS:c.51+1G>A');
    expect(effect(minus, 1301, 'C', 'T').e!.consequences).toEqual(['splice_acceptor_variant']);
    expect(effect(minus, 1480, 'A', 'G').e!.consequences).toEqual(['5_prime_UTR_variant']);
    expect(effect(minus, 1020, 'A', 'G').e!.consequences).toEqual(['3_prime_UTR_variant']);
    expect(effect(minus, 1600, 'A', 'G').e!.consequences).toEqual(['upstream_gene_variant']);
  });

  it('reports a deletion range 5′→3′ on the transcript', () => {
    // Deletes 0-based 1440..1441 (c.11 and c.10 on '-').
    expect(effect(minus, 1440, 'AGC', 'A').hgvs).toBe('NM_MINUS:c.10_11del');
  });
});

describe('shift3Prime (HGVS 3′ rule)', () => {
  // 0-based 1059..1062 = c.10..c.13 = 'AAAA', flanked by C.
  const seq: Record<number, string> = { 1058: 'C', 1059: 'A', 1060: 'A', 1061: 'A', 1062: 'A', 1063: 'C' };
  const base: BaseLookup = (_c, p) => seq[p] ?? null;

  it('moves a homopolymer deletion to its last copy on a + strand transcript and names it there', () => {
    const span = shift3Prime(trimAllele('1', 1059, 'CA', 'C'), 1, base);
    expect(span).toMatchObject({ start: 1062, end: 1063, ref: 'A' });
    expect(hgvsCOf(plus, span, base)).toBe('NM_TEST:c.13del');
  });

  it('turns an insertion repeating the preceding base into a dup at the 3′-most position', () => {
    const span = shift3Prime(trimAllele('1', 1059, 'C', 'CA'), 1, base);
    expect(span).toMatchObject({ start: 1063, end: 1063, alt: 'A' });
    expect(hgvsCOf(plus, span, base)).toBe('NM_TEST:c.13dup');
  });

  it('shifts toward lower genomic positions on a − strand transcript', () => {
    const span = shift3Prime(trimAllele('1', 1062, 'AA', 'A'), -1, base);
    expect(span).toMatchObject({ start: 1059, end: 1060, ref: 'A' });
  });
});

describe('large deletions and structural variants', () => {
  it('calls transcript_ablation for a deletion spanning the whole transcript', () => {
    const ref = 'A'.repeat(700);
    expect(effect(plus, 950, ref, 'A').e!.consequences).toEqual(['transcript_ablation']);
  });

  it('maps symbolic DEL/DUP spans to ablation/truncation/amplification/elongation', () => {
    expect(structuralEffect(plus, 'DEL', 900, 1600)).toEqual(['transcript_ablation']);
    expect(structuralEffect(plus, 'DEL', 1150, 1250)).toEqual(['feature_truncation']);
    expect(structuralEffect(plus, 'DEL', 1120, 1180)).toEqual(['intron_variant']);
    expect(structuralEffect(plus, 'DUP:TANDEM', 900, 1600)).toEqual(['transcript_amplification']);
    expect(structuralEffect(plus, 'DUP', 1250, 1450)).toEqual(['feature_elongation']);
    expect(structuralEffect(plus, 'INV', 1250, 1450)).toEqual(['structural_variant']);
    expect(structuralEffect(plus, 'DEL', 5000, 6000)).toEqual([]);
  });
});

describe('perGeneEffects', () => {
  it('keeps one effect per gene (MANE Select first within a gene) and ranks genes by severity', () => {
    const other = new TranscriptModel(
      testTranscript(
        [
          [900, 1000],
          [1800, 2000],
        ],
        [950, 1900],
        { id: 'NM_OTHER', gene: 'OTHER', hgncId: 'HGNC:0', strand: -1 },
      ),
    );
    const alt = new TranscriptModel(buildTx({ id: 'NM_TEST_ALT', mane: null }));
    const span = trimAllele('1', 1060, 'AC', 'A');
    const effects = [other, alt, plus].map((m) => transcriptEffect(m, span, null)!);
    const ranked = perGeneEffects(effects);
    expect(ranked.map((e) => e.model.tx.id)).toEqual(['NM_TEST', 'NM_OTHER']);
    expect(ranked[1]!.consequences).toEqual(['intron_variant']);
  });
});

describe('trimAllele', () => {
  it('trims the shared suffix then prefix and converts POS to 0-based', () => {
    expect(trimAllele('1', 100, 'CAG', 'C')).toEqual({ chrom: '1', start: 100, end: 102, ref: 'AG', alt: '' });
    expect(trimAllele('1', 100, 'A', 'G')).toEqual({ chrom: '1', start: 99, end: 100, ref: 'A', alt: 'G' });
  });
});
