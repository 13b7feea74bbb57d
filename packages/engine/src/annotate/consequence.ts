/**
 * Consequence of one allele on one transcript model: SO terms, HGVS c./n. and, when the codon is
 * known, HGVS p. Coordinates are 0-based half-open on the forward strand.
 *
 * Codon-level effects need the reference codon. Bases come from (1) the VCF REF itself, (2) an
 * optional sequence lookup (reference FASTA, or reference alleles recorded in the KB). When some
 * codon bases stay unknown we enumerate every codon consistent with the known bases and with what
 * a CDS guarantees (codon 1 is ATG, the last codon is a stop, no internal stop codon); if every
 * candidate gives the same outcome it is reported, otherwise the honest `coding_sequence_variant`,
 * with the probability of each outcome over the candidate codons weighted by human codon usage
 * (`TranscriptEffect.codingOutcome`), which the pathogenicity score uses as an expectation.
 */
import { reverseComplement, type TranscriptModel } from '../transcripts/model.ts';
import { SO_BIT, termsOfMask, type SoTerm } from './so.ts';

interface TermMask {
  mask: number;
}

function addTerm(t: TermMask, term: string): void {
  const bit = SO_BIT[term as SoTerm];
  // Bits are distinct powers of two below 2^26: OR them arithmetically (no 32-bit overflow issue).
  if (Math.floor(t.mask / bit) % 2 === 0) t.mask += bit;
}

/** A trimmed allele: ref bases [start, end) replaced by alt; an insertion has start === end (before base `start`). */
export interface AlleleSpan {
  chrom: string;
  start: number;
  end: number;
  ref: string;
  alt: string;
}

/** Forward-strand upper-case base at a 0-based position, or null when unknown. */
export type BaseLookup = (chrom: string, pos0: number) => string | null;

/**
 * Reference amino acid known for a codon from other data (e.g. a ClinVar missense recorded at one
 * of its 0-based positions), or null. Narrows the candidate codons when bases are unknown.
 */
export type AminoAcidHint = (chrom: string, codonPositions0: readonly number[]) => string | null;

/**
 * Consequence of a structural variant (symbolic ALT) spanning 0-based [start, end) on a transcript:
 * DEL -> transcript_ablation (whole transcript) / feature_truncation (exons hit) / intron_variant;
 * DUP -> transcript_amplification / feature_elongation; other types -> structural_variant.
 */
export function structuralEffect(m: TranscriptModel, svType: string, start: number, end: number): string[] {
  const tx = m.tx;
  if (end <= tx.start || start >= tx.end) return [];
  let exonHit = false;
  for (let i = 0; i < tx.exonStarts.length && !exonHit; i++) exonHit = start < tx.exonEnds[i]! && end > tx.exonStarts[i]!;
  const whole = start <= tx.start && end >= tx.end;
  const type = svType.toUpperCase();
  if (type.startsWith('DEL')) return [whole ? 'transcript_ablation' : exonHit ? 'feature_truncation' : 'intron_variant'];
  if (type.startsWith('DUP')) return [whole ? 'transcript_amplification' : exonHit ? 'feature_elongation' : 'intron_variant'];
  return ['structural_variant'];
}

/** Trims the shared suffix, then the shared prefix, of a VCF allele (no left-alignment). */
export function trimAllele(chrom: string, pos: number, ref: string, alt: string): AlleleSpan {
  let r = ref;
  let a = alt;
  while (r.length > 0 && a.length > 0 && r[r.length - 1] === a[a.length - 1]) {
    r = r.slice(0, -1);
    a = a.slice(0, -1);
  }
  let p = 0;
  while (p < r.length && p < a.length && r[p] === a[p]) p++;
  const start = pos - 1 + p;
  return { chrom, start, end: start + r.length - p, ref: r.slice(p), alt: a.slice(p) };
}

export const UPSTREAM_DISTANCE = 5000;
const UPSTREAM_TERMS = termsOfMask(SO_BIT.upstream_gene_variant);
const DOWNSTREAM_TERMS = termsOfMask(SO_BIT.downstream_gene_variant);

export interface TranscriptEffect {
  model: TranscriptModel;
  consequences: string[];
  /** Filled by the annotator for the reported transcript only (see hgvsCOf). */
  hgvsC: string | null;
  hgvsP: string | null;
  /** 1-based codon number of the first affected codon, when the allele touches the CDS. */
  codon: number | null;
  /** 1-based CDS position of the first affected coding base. */
  cdsPos: number | null;
  refAa: string | null;
  altAa: string | null;
  /** For null variants: the truncation escapes nonsense-mediated decay (last exon, last 50 nt of the penultimate exon, or single-exon transcript). */
  nmdEscape: boolean | null;
  /** Fraction of the CDS downstream of the variant (how much protein a truncation removes). */
  cdsFractionAfter: number | null;
  /** Distance to the transcript for upstream/downstream variants. */
  distance: number | null;
  /** For canonical splice-site variants: the exon predicted to be skipped (ClinGen SVI PVS1 splice branch). */
  spliceSkip: SpliceSkip | null;
  /**
   * A single-codon substitution whose codon is not fully known (reported as `coding_sequence_variant`):
   * the probability of each possible outcome over the codons consistent with what is known, weighted
   * by human codon usage; most probable first. Null when the outcome is certain or not a codon change.
   */
  codingOutcome: CodingOutcomeProbability[] | null;
}

export interface CodingOutcomeProbability {
  term: 'missense_variant' | 'synonymous_variant' | 'stop_gained' | 'stop_lost' | 'stop_retained_variant';
  p: number;
}

export interface SpliceSkip {
  /** Coding bases in the exon; 0 for a non-coding (UTR) exon. */
  cdsBases: number;
  inFrame: boolean;
  /** A frameshift from skipping this exon would escape NMD. */
  nmdEscape: boolean;
  /** Fraction of the CDS the exon holds. */
  fraction: number;
}

// Standard genetic code indexed by (b0 * 16 + b1 * 4 + b2) with T=0, C=1, A=2, G=3.
const AA_BY_INDEX = 'FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG';
/** Base code in AA_BY_INDEX order, -1 for anything else. */
function baseCode(b: string | undefined): number {
  if (b === 'T') return 0;
  if (b === 'C') return 1;
  if (b === 'A') return 2;
  if (b === 'G') return 3;
  return -1;
}
const COMPLEMENT_CODE = [2, 3, 0, 1];

const THREE: Record<string, string> = {
  A: 'Ala', R: 'Arg', N: 'Asn', D: 'Asp', C: 'Cys', Q: 'Gln', E: 'Glu', G: 'Gly', H: 'His', I: 'Ile',
  L: 'Leu', K: 'Lys', M: 'Met', F: 'Phe', P: 'Pro', S: 'Ser', T: 'Thr', W: 'Trp', Y: 'Tyr', V: 'Val', '*': 'Ter', X: 'Xaa',
};

export function translateCodon(codon: string): string {
  const a = baseCode(codon[0]);
  const b = baseCode(codon[1]);
  const c = baseCode(codon[2]);
  return codon.length !== 3 || a < 0 || b < 0 || c < 0 ? 'X' : AA_BY_INDEX[a * 16 + b * 4 + c]!;
}

export function threeLetter(aa: string): string {
  return THREE[aa] ?? 'Xaa';
}

/** Does the allele overlap [x, y)? An insertion (qs === qe, between qs-1 and qs) overlaps when both flanks are inside. */
function overlaps(ins: boolean, qs: number, qe: number, x: number, y: number): boolean {
  return ins ? x < qs && qs < y : qs < y && qe > x;
}

/** Region test for splice zones: an insertion touching the zone edge counts. */
function overlapsRegion(ins: boolean, qs: number, qe: number, x: number, y: number): boolean {
  return ins ? x <= qs && qs <= y : qs < y && qe > x;
}

/** Effect of `a` on transcript `m`, or null when the allele is more than 5 kb away. */
export function transcriptEffect(m: TranscriptModel, a: AlleleSpan, base: BaseLookup | null, aaHint: AminoAcidHint | null = null): TranscriptEffect | null {
  const tx = m.tx;
  const ins = a.start === a.end;
  const qs = a.start;
  const qe = a.end;
  const eff: TranscriptEffect = { model: m, consequences: [], hgvsC: null, hgvsP: null, codon: null, cdsPos: null, refAa: null, altAa: null, nmdEscape: null, cdsFractionAfter: null, distance: null, spliceSkip: null, codingOutcome: null };

  // Outside the transcript: upstream/downstream within 5 kb.
  const leftOf = ins ? qs <= tx.start : qe <= tx.start;
  const rightOf = qs >= tx.end;
  if (leftOf || rightOf) {
    const dist = leftOf ? tx.start - (ins ? qs : qe) + 1 : qs - tx.end + 1;
    if (dist > UPSTREAM_DISTANCE) return null;
    const upstream = (leftOf && tx.strand === 1) || (rightOf && tx.strand === -1);
    // Shared frozen term lists (as for every other effect): no array per nearby transcript.
    eff.consequences = upstream ? UPSTREAM_TERMS : DOWNSTREAM_TERMS;
    eff.distance = dist;
    return eff;
  }

  const terms: TermMask = { mask: 0 };
  // A deletion spanning the whole transcript removes it.
  if (!ins && qs <= tx.start && qe >= tx.end) {
    eff.consequences = termsOfMask(SO_BIT.transcript_ablation);
    return eff;
  }
  const n = tx.exonStarts.length;
  let exonic = false;
  let intronic = false;
  let canonicalOnly = true;
  for (let i = 0; i < n - 1; i++) {
    const is = tx.exonEnds[i]!;
    const ie = tx.exonStarts[i + 1]!;
    if (!overlapsRegion(ins, qs, qe, is - 3, ie + 3)) continue;
    const left2 = overlaps(ins, qs, qe, is, is + 2);
    const right2 = overlaps(ins, qs, qe, ie - 2, ie);
    if (left2) addTerm(terms, tx.strand === 1 ? 'splice_donor_variant' : 'splice_acceptor_variant');
    if (right2) addTerm(terms, tx.strand === 1 ? 'splice_acceptor_variant' : 'splice_donor_variant');
    // The exon whose splice site is hit (left site -> exon i, right site -> exon i+1, on either strand).
    if ((left2 || right2) && !eff.spliceSkip && m.isCoding) eff.spliceSkip = spliceSkipOf(m, left2 ? i : i + 1);
    if (overlapsRegion(ins, qs, qe, is + 2, is + 8) || overlapsRegion(ins, qs, qe, ie - 8, ie - 2) || overlapsRegion(ins, qs, qe, is - 3, is) || overlapsRegion(ins, qs, qe, ie, ie + 3)) {
      // An insertion right at the exon/intron junction is splice-region, not exonic/intronic.
      if (!(left2 || right2) || !ins) addTerm(terms, 'splice_region_variant');
    }
    if (overlaps(ins, qs, qe, is, ie)) {
      intronic = true;
      const inCanonical = ins ? left2 || right2 : (qs >= is && qe <= is + 2) || (qs >= ie - 2 && qe <= ie);
      if (!inCanonical) canonicalOnly = false;
    }
  }
  if (intronic && !canonicalOnly) addTerm(terms, 'intron_variant');

  // Exonic parts.
  let utr5 = false;
  let utr3 = false;
  let cds = false;
  let crossesBoundary = false;
  for (let i = 0; i < n; i++) {
    const es = tx.exonStarts[i]!;
    const ee = tx.exonEnds[i]!;
    if (!overlaps(ins, qs, qe, es, ee)) continue;
    exonic = true;
    if (!ins && (qs < es || qe > ee)) crossesBoundary = true;
    if (!m.isCoding) continue;
    const s = ins ? qs : Math.max(qs, es);
    const e = ins ? qs : Math.min(qe, ee);
    const before = ins ? s <= tx.cdsStart : s < tx.cdsStart;
    const after = ins ? s >= tx.cdsEnd : e > tx.cdsEnd;
    const inCds = ins ? s > tx.cdsStart && s < tx.cdsEnd : s < tx.cdsEnd && e > tx.cdsStart;
    if (before) {
      if (tx.strand === 1) utr5 = true;
      else utr3 = true;
    }
    if (after) {
      if (tx.strand === 1) utr3 = true;
      else utr5 = true;
    }
    if (inCds) cds = true;
  }
  if (exonic && !m.isCoding) addTerm(terms, 'non_coding_transcript_exon_variant');
  if (utr5) addTerm(terms, '5_prime_UTR_variant');
  if (utr3) addTerm(terms, '3_prime_UTR_variant');

  if (cds) codingEffect(m, a, base, aaHint, terms, eff, crossesBoundary);
  if (terms.mask === 0) addTerm(terms, m.isCoding ? 'coding_sequence_variant' : 'non_coding_transcript_variant');
  eff.consequences = termsOfMask(terms.mask);
  return eff;
}

function codingEffect(m: TranscriptModel, a: AlleleSpan, base: BaseLookup | null, aaHint: AminoAcidHint | null, terms: TermMask, eff: TranscriptEffect, crossesBoundary: boolean): void {
  const tx = m.tx;
  const ins = a.start === a.end;
  // CDS positions of the affected coding bases (tx orientation).
  let firstCds: number | null = null;
  let lastCds: number | null = null;
  if (ins) {
    const l = m.cdsPosOf(a.start - 1);
    const r = m.cdsPosOf(a.start);
    if (l != null && r != null) {
      firstCds = Math.min(l, r);
      lastCds = Math.max(l, r);
    }
  } else {
    for (let g = Math.max(a.start, tx.cdsStart); g < Math.min(a.end, tx.cdsEnd); g++) {
      const c = m.cdsPosOf(g);
      if (c == null) continue;
      if (firstCds == null || c < firstCds) firstCds = c;
      if (lastCds == null || c > lastCds) lastCds = c;
    }
  }
  if (firstCds == null || lastCds == null) {
    addTerm(terms, 'coding_sequence_variant');
    return;
  }
  const cdsLen = m.cdsLength;
  eff.cdsPos = firstCds;
  eff.codon = Math.floor((firstCds - 1) / 3) + 1;
  eff.cdsFractionAfter = cdsLen > 0 ? Math.max(0, (cdsLen - lastCds) / cdsLen) : null;
  const lastCodon = Math.floor(cdsLen / 3);
  const touchesStart = firstCds <= 3;
  const touchesStop = lastCds > cdsLen - 3;
  const sub = a.ref.length === a.alt.length;
  // Whether a truncation at this position would escape NMD (used by PVS1 for null variants).
  eff.nmdEscape = escapesNmd(m, firstCds);

  if (!sub) {
    if (crossesBoundary) {
      addTerm(terms, 'coding_sequence_variant');
    } else {
      const diff = a.alt.length - a.ref.length;
      if (diff % 3 !== 0) {
        addTerm(terms, 'frameshift_variant');
      } else addTerm(terms, diff > 0 ? 'inframe_insertion' : 'inframe_deletion');
      if (touchesStart && !ins) addTerm(terms, 'start_lost');
      if (touchesStop && !ins) addTerm(terms, 'stop_lost');
    }
    return;
  }
  if (touchesStart) {
    addTerm(terms, 'start_lost');
    eff.refAa = 'M';
    eff.hgvsP = 'p.(Met1?)';
    return;
  }
  // Substitution: codon-level effect when it stays within one codon.
  const firstCodon = eff.codon;
  const lastCodonHit = Math.floor((lastCds - 1) / 3) + 1;
  if (firstCodon !== lastCodonHit || crossesBoundary) {
    if (base) {
      const multi = multiCodon(m, a, base, firstCodon, lastCodonHit);
      if (multi) {
        addTerm(terms, multi);
        return;
      }
    }
    addTerm(terms, 'coding_sequence_variant');
    return;
  }
  const outcome = codonOutcome(m, a, base, firstCodon, firstCodon === lastCodon, aaHint);
  if (!outcome || !outcome.term) {
    addTerm(terms, 'coding_sequence_variant');
    eff.codingOutcome = outcome?.probabilities ?? null;
    return;
  }
  addTerm(terms, outcome.term);
  eff.refAa = outcome.refAa;
  eff.altAa = outcome.altAa;
  if (outcome.refAa && outcome.altAa) {
    const r3 = threeLetter(outcome.refAa);
    if (outcome.term === 'synonymous_variant' || outcome.term === 'stop_retained_variant') eff.hgvsP = `p.(${r3}${firstCodon}=)`;
    else if (outcome.term === 'stop_lost') eff.hgvsP = `p.(Ter${firstCodon}${threeLetter(outcome.altAa)}ext*?)`;
    else eff.hgvsP = `p.(${r3}${firstCodon}${threeLetter(outcome.altAa)})`;
  }
}

/** NMD escape of a truncation at CDS position `cdsPos`: last exon, last 50 nt of the penultimate exon, or single exon. */
function escapesNmd(m: TranscriptModel, cdsPos: number): boolean {
  const tx = m.tx;
  const nEx = tx.exonStarts.length;
  if (nEx === 1) return true;
  const lastExonFirstCdna = m.cdnaOf(tx.strand === 1 ? tx.exonStarts[nEx - 1]! : tx.exonEnds[0]! - 1);
  const cdna = cdsPos + m.cdnaCdsStart - 1;
  return lastExonFirstCdna != null && cdna > lastExonFirstCdna - 1 - 50;
}

/** What skipping exon `i` would do to the coding sequence. */
function spliceSkipOf(m: TranscriptModel, i: number): SpliceSkip {
  const tx = m.tx;
  const s = Math.max(tx.exonStarts[i]!, tx.cdsStart);
  const e = Math.min(tx.exonEnds[i]!, tx.cdsEnd);
  const cdsBases = Math.max(0, e - s);
  let nmdEscape = true;
  if (cdsBases > 0) {
    const first = m.cdsPosOf(tx.strand === 1 ? s : e - 1);
    nmdEscape = first == null ? true : escapesNmd(m, first);
  }
  return { cdsBases, inFrame: cdsBases % 3 === 0, nmdEscape, fraction: m.cdsLength > 0 ? cdsBases / m.cdsLength : 0 };
}

/** Forward-strand genomic positions of a codon's three bases, in tx order. */
function codonPositions(m: TranscriptModel, codon: number): [number, number, number] | null {
  const g1 = m.genomicOfCds(codon * 3 - 2);
  const g2 = m.genomicOfCds(codon * 3 - 1);
  const g3 = m.genomicOfCds(codon * 3);
  return g1 == null || g2 == null || g3 == null ? null : [g1, g2, g3];
}

interface CodonOutcome {
  /** The outcome when every candidate codon gives the same one, else null (then see `probabilities`). */
  term: string | null;
  refAa: string | null;
  altAa: string | null;
  /** Set when the candidates disagree: each outcome's codon-usage-weighted probability, most probable first. */
  probabilities?: CodingOutcomeProbability[];
}

/**
 * Human codon usage, per thousand codons, indexed like AA_BY_INDEX (T, C, A, G; first base
 * slowest). Source: Codon Usage Database (Kazusa), Homo sapiens [gbpri], 93,487 CDSs / 40,662,582
 * codons, from GenBank release 160 (Nakamura, Gojobori & Ikemura, Nucleic Acids Res. 2000;28:292).
 * Used only as the prior over the codons consistent with the known bases when the reference
 * codon is not known (no FASTA).
 */
const CODON_USAGE_PER_THOUSAND = Float64Array.from([
  17.6, 20.3, 7.7, 12.9, 15.2, 17.7, 12.2, 4.4, 12.2, 15.3, 1.0, 0.8, 10.6, 12.6, 1.6, 13.2, // TTT..TGG
  13.2, 19.6, 7.2, 39.6, 17.5, 19.8, 16.9, 6.9, 10.9, 15.1, 12.3, 34.2, 4.5, 10.4, 6.2, 11.4, // CTT..CGG
  16.0, 20.8, 7.5, 22.0, 13.1, 18.9, 15.1, 6.1, 17.0, 19.1, 24.4, 31.9, 12.1, 19.5, 12.2, 12.0, // ATT..AGG
  11.0, 14.5, 7.1, 28.1, 18.4, 27.7, 15.8, 7.4, 21.8, 25.1, 29.0, 39.6, 10.8, 22.2, 16.5, 16.5, // GTT..GGG
]);

const TERM_STOP_RETAINED = 0;
const TERM_STOP_LOST = 1;
const TERM_STOP_GAINED = 2;
const TERM_SYNONYMOUS = 3;
const TERM_MISSENSE = 4;
const TERM_NAMES: readonly CodingOutcomeProbability['term'][] = ['stop_retained_variant', 'stop_lost', 'stop_gained', 'synonymous_variant', 'missense_variant'];
const refCodes = new Int8Array(3);
const altCodes = new Int8Array(3);

function codonOutcome(m: TranscriptModel, a: AlleleSpan, base: BaseLookup | null, codon: number, isLastCodon: boolean, aaHint: AminoAcidHint | null = null): CodonOutcome | null {
  const gpos = codonPositions(m, codon);
  if (!gpos) return null;
  const hintAa = aaHint ? aaHint(a.chrom, gpos) : null;
  const minus = m.tx.strand === -1;
  // Codes in tx orientation: reference base (-1 unknown) and alternative base (-1 = unchanged).
  for (let k = 0; k < 3; k++) {
    const g = gpos[k]!;
    const inAllele = g >= a.start && g < a.end;
    let r = baseCode(inAllele ? a.ref[g - a.start] : base ? (base(a.chrom, g) ?? undefined) : undefined);
    let x = inAllele ? baseCode(a.alt[g - a.start]) : -1;
    if (minus) {
      if (r >= 0) r = COMPLEMENT_CODE[r]!;
      if (x >= 0) x = COMPLEMENT_CODE[x]!;
    }
    if (inAllele && x < 0) return null;
    refCodes[k] = r;
    altCodes[k] = x;
  }
  let term = -1;
  let refAa = '';
  let altAa = '';
  let aaUnique = true;
  let termUnique = true;
  // Codon-usage weight of the candidates per outcome (TERM_* index).
  const weights = [0, 0, 0, 0, 0];
  const lo0 = refCodes[0]! >= 0 ? refCodes[0]! : 0;
  const hi0 = refCodes[0]! >= 0 ? refCodes[0]! : 3;
  const lo1 = refCodes[1]! >= 0 ? refCodes[1]! : 0;
  const hi1 = refCodes[1]! >= 0 ? refCodes[1]! : 3;
  const lo2 = refCodes[2]! >= 0 ? refCodes[2]! : 0;
  const hi2 = refCodes[2]! >= 0 ? refCodes[2]! : 3;
  for (let b0 = lo0; b0 <= hi0; b0++)
    for (let b1 = lo1; b1 <= hi1; b1++)
      for (let b2 = lo2; b2 <= hi2; b2++) {
        const r = AA_BY_INDEX[b0 * 16 + b1 * 4 + b2]!;
        // CDS invariants: an internal codon is never a stop; the last codon is one.
        if (isLastCodon ? r !== '*' : r === '*') continue;
        if (hintAa && r !== hintAa) continue;
        const x0 = altCodes[0]! >= 0 ? altCodes[0]! : b0;
        const x1 = altCodes[1]! >= 0 ? altCodes[1]! : b1;
        const x2 = altCodes[2]! >= 0 ? altCodes[2]! : b2;
        const x = AA_BY_INDEX[x0 * 16 + x1 * 4 + x2]!;
        const t = isLastCodon ? (x === '*' ? TERM_STOP_RETAINED : TERM_STOP_LOST) : x === '*' ? TERM_STOP_GAINED : x === r ? TERM_SYNONYMOUS : TERM_MISSENSE;
        weights[t] = weights[t]! + CODON_USAGE_PER_THOUSAND[b0 * 16 + b1 * 4 + b2]!;
        if (term < 0) {
          term = t;
          refAa = r;
          altAa = x;
        } else {
          if (t !== term) termUnique = false;
          if (r !== refAa || x !== altAa) aaUnique = false;
        }
      }
  if (term < 0) return null;
  if (!termUnique) return { term: null, refAa: null, altAa: null, probabilities: outcomeProbabilities(weights) };
  // The term is certain; the amino acids only when every candidate agrees.
  return aaUnique ? { term: TERM_NAMES[term]!, refAa, altAa } : { term: TERM_NAMES[term]!, refAa: null, altAa: null };
}

const OUTCOME_WORDS: Record<string, string> = {
  missense_variant: 'missense',
  synonymous_variant: 'synonymous',
  stop_gained: 'stop gained',
  stop_lost: 'stop lost',
  stop_retained_variant: 'stop retained',
};

/**
 * Words for an unresolved codon change, e.g. 'probably synonymous (P = 0.96; missense P = 0.04;
 * codon not known without the reference sequence)'; 'probably' only when one outcome has P >= 0.5.
 */
export function describeCodingOutcome(outcomes: readonly { term: string; p: number }[]): string {
  const [top, ...rest] = outcomes;
  if (!top) return 'coding change of unknown effect (codon not known without the reference sequence)';
  const word = (t: string): string => OUTCOME_WORDS[t] ?? t.replace(/_/g, ' ');
  const others = rest.map((o) => `${word(o.term)} P = ${o.p.toFixed(2)}; `).join('');
  return `${top.p >= 0.5 ? 'probably ' : ''}${word(top.term)} (P = ${top.p.toFixed(2)}; ${others}codon not known without the reference sequence)`;
}

/** Normalised outcome probabilities from per-outcome weights, most probable first (zero ones left out). */
function outcomeProbabilities(weights: readonly number[]): CodingOutcomeProbability[] {
  let total = 0;
  for (const w of weights) total += w;
  const out: CodingOutcomeProbability[] = [];
  weights.forEach((w, t) => {
    if (w > 0) out.push({ term: TERM_NAMES[t]!, p: w / total });
  });
  return out.sort((x, y) => y.p - x.p || x.term.localeCompare(y.term));
}

/** Multi-codon substitution with full sequence: stop_gained / missense / synonymous, or null. */
function multiCodon(m: TranscriptModel, a: AlleleSpan, base: BaseLookup, first: number, last: number): string | null {
  let anyMissense = false;
  for (let c = first; c <= last; c++) {
    const o = codonOutcome(m, a, base, c, c === Math.floor(m.cdsLength / 3));
    if (!o?.term) return null;
    if (o.term === 'stop_gained' || o.term === 'stop_lost') return o.term;
    if (o.term === 'missense_variant') anyMissense = true;
  }
  return anyMissense ? 'missense_variant' : 'synonymous_variant';
}

/**
 * Shifts an indel to its most 3' position on the transcript strand (the HGVS 3' rule), moving
 * while the sequence allows. Needs complete sequence (a reference FASTA): with gaps it stops at the
 * first unknown base, so callers only use it when a FASTA is configured.
 */
export function shift3Prime(a: AlleleSpan, strand: 1 | -1, base: BaseLookup): AlleleSpan {
  const del = a.alt.length === 0 && a.ref.length > 0;
  const ins = a.ref.length === 0 && a.alt.length > 0;
  if (!del && !ins) return a;
  let { start, end, ref, alt } = a;
  for (let guard = 0; guard < 100_000; guard++) {
    if (strand === 1) {
      const next = base(a.chrom, end);
      if (next == null) break;
      if (del && next === ref[0]) {
        ref = ref.slice(1) + next;
      } else if (ins && next === alt[0]) {
        alt = alt.slice(1) + next;
      } else break;
      start++;
      end++;
    } else {
      const prev = base(a.chrom, start - 1);
      if (prev == null) break;
      if (del && prev === ref[ref.length - 1]) {
        ref = prev + ref.slice(0, -1);
      } else if (ins && prev === alt[alt.length - 1]) {
        alt = prev + alt.slice(0, -1);
      } else break;
      start--;
      end--;
    }
  }
  return { chrom: a.chrom, start, end, ref, alt };
}

/**
 * HGVS p. of a frameshift, e.g. 'p.(Arg12GlyfsTer5)' (or 'p.(Arg12Ter)' when the first changed
 * amino acid is a stop), from complete transcript sequence. Null when a base is unknown or the
 * allele does not shift the frame inside the CDS.
 */
export function frameshiftHgvsP(m: TranscriptModel, a: AlleleSpan, base: BaseLookup): string | null {
  if (!m.isCoding || (a.alt.length - a.ref.length) % 3 === 0) return null;
  const minus = m.tx.strand === -1;
  // cDNA interval of the change: deleted bases [c1, c2], or an insertion after cDNA c1.
  let c1: number | null;
  let c2: number | null;
  if (a.start === a.end) {
    const l = m.cdnaOf(minus ? a.start : a.start - 1);
    if (l == null) return null;
    c1 = l;
    c2 = l;
  } else {
    const x = m.cdnaOf(a.start);
    const y = m.cdnaOf(a.end - 1);
    if (x == null || y == null) return null;
    c1 = Math.min(x, y);
    c2 = Math.max(x, y);
    if (c2 - c1 + 1 !== a.end - a.start) return null; // spans an intron
  }
  const firstCds = (a.start === a.end ? c1 + 1 : c1) - m.cdnaCdsStart + 1;
  if (firstCds < 1 || firstCds > m.cdsLength) return null;
  const codonStartCdna = m.cdnaCdsStart + Math.floor((firstCds - 1) / 3) * 3;
  let refSeq = '';
  for (let c = codonStartCdna; c <= m.cdnaLength; c++) {
    const g = m.genomicOfCdna(c);
    const b = g == null ? null : base(a.chrom, g);
    if (b == null || !/^[ACGT]$/.test(b)) return null;
    refSeq += minus ? COMPLEMENT_BASE[b] : b;
  }
  const altTx = minus ? reverseComplement(a.alt) : a.alt;
  const off = c1 - codonStartCdna;
  const altSeq = a.start === a.end ? refSeq.slice(0, off + 1) + altTx + refSeq.slice(off + 1) : refSeq.slice(0, off) + altTx + refSeq.slice(off + (c2 - c1 + 1));
  const codon0 = Math.floor((firstCds - 1) / 3); // 0-based protein index of the first affected codon
  for (let i = 0; (i + 1) * 3 <= refSeq.length && (i + 1) * 3 <= altSeq.length; i++) {
    const r = translateCodon(refSeq.slice(i * 3, i * 3 + 3));
    const x = translateCodon(altSeq.slice(i * 3, i * 3 + 3));
    if (r === x) {
      if (r === '*') return null; // protein unchanged up to the stop
      continue;
    }
    const pos = codon0 + i + 1;
    if (x === '*') return `p.(${threeLetter(r)}${pos}Ter)`;
    for (let j = i + 1; (j + 1) * 3 <= altSeq.length; j++) {
      if (translateCodon(altSeq.slice(j * 3, j * 3 + 3)) === '*') return `p.(${threeLetter(r)}${pos}${threeLetter(x)}fsTer${j - i + 1})`;
    }
    return `p.(${threeLetter(r)}${pos}${threeLetter(x)}fsTer?)`;
  }
  return null;
}

const COMPLEMENT_BASE: Record<string, string> = { A: 'T', C: 'G', G: 'C', T: 'A' };

/** HGVS c./n. of the allele on the transcript (not 3'-shifted: that needs the sequence); null outside the transcript. */
export function hgvsCOf(m: TranscriptModel, a: AlleleSpan, base: BaseLookup | null): string | null {
  const minus = m.tx.strand === -1;
  const pre = `${m.tx.id}:${m.hgvsPrefix}`;
  if (a.start === a.end) {
    // Insertion between a.start-1 and a.start.
    const l = m.hgvsPos(a.start - 1);
    const r = m.hgvsPos(a.start);
    if (l == null || r == null) return null;
    const seq = (minus ? reverseComplement(a.alt) : a.alt);
    // Duplication when the inserted bases repeat the bases just 5' of the insertion (tx orientation).
    if (base) {
      const len = a.alt.length;
      const from = minus ? a.start : a.start - len;
      let prev = '';
      for (let g = from; g < from + len; g++) prev += base(a.chrom, g) ?? '?';
      if (prev === a.alt) {
        const p1 = m.hgvsPos(from);
        const p2 = m.hgvsPos(from + len - 1);
        if (p1 != null && p2 != null) {
          const [x, y] = minus ? [p2, p1] : [p1, p2];
          return `${pre}${len === 1 ? x : `${x}_${y}`}dup`;
        }
      }
    }
    return `${pre}${minus ? `${r}_${l}` : `${l}_${r}`}ins${seq}`;
  }
  const p1 = m.hgvsPos(a.start);
  const p2 = m.hgvsPos(a.end - 1);
  if (p1 == null || p2 == null) return null;
  const [x, y] = minus ? [p2, p1] : [p1, p2];
  const range = a.end - a.start === 1 ? x : `${x}_${y}`;
  if (a.alt.length === 0) return `${pre}${range}del`;
  if (a.ref.length === 1 && a.alt.length === 1) return `${pre}${x}${(minus ? reverseComplement(a.ref) : a.ref)}>${(minus ? reverseComplement(a.alt) : a.alt)}`;
  return `${pre}${range}delins${(minus ? reverseComplement(a.alt) : a.alt)}`;
}
