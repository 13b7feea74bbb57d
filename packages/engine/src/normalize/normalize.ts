/**
 * Variant normalisation (Tan, Abecasis & Kang 2015): a variant is normalised when it is
 * parsimonious (no base shared by REF and ALT can be dropped while both keep >= 1 base, VCF
 * anchor kept) and left-aligned (an indel in a repeat is placed at its leftmost position).
 * Trimming needs no reference; left-alignment needs the reference sequence.
 */

import type { SequenceSource } from '../genome/fasta.ts';

export interface VcfAlleles {
  chrom: string;
  /** 1-based VCF POS. */
  pos: number;
  ref: string;
  alt: string;
}

/** True for ALT alleles that are not literal bases (symbolic, breakend, '*', '.'). */
export function isSymbolicAllele(alt: string): boolean {
  if (alt.length === 0) return true;
  const c = alt.charCodeAt(0);
  // '<' symbolic, '*' spanning deletion, '.' no ALT; breakends contain '[' or ']'.
  if (c === 60 || c === 42 || c === 46) return true;
  return alt.includes('[') || alt.includes(']');
}

/**
 * Trim bases shared by REF and ALT: first the common suffix, then the common prefix, always
 * leaving at least one base in each allele (the VCF anchor). POS moves right by the prefix
 * trimmed. Symbolic alleles are returned unchanged.
 */
export function trimAlleles<T extends VcfAlleles>(v: T): T {
  const { ref, alt } = v;
  if (ref.length === 1 && alt.length === 1) return v;
  if (isSymbolicAllele(alt)) return v;
  let rEnd = ref.length;
  let aEnd = alt.length;
  while (rEnd > 1 && aEnd > 1 && ref.charCodeAt(rEnd - 1) === alt.charCodeAt(aEnd - 1)) {
    rEnd--;
    aEnd--;
  }
  let start = 0;
  while (rEnd - start > 1 && aEnd - start > 1 && ref.charCodeAt(start) === alt.charCodeAt(start)) start++;
  if (start === 0 && rEnd === ref.length) return v;
  return { ...v, pos: v.pos + start, ref: ref.slice(start, rEnd), alt: alt.slice(start, aEnd) };
}

export interface LeftAlignResult<T extends VcfAlleles> {
  variant: T;
  /** False when REF disagrees with the reference at POS (the variant is then only trimmed). */
  refMatches: boolean;
  /** The reference bases found at the original REF span, for error messages. */
  referenceAtPos: string;
}

const WINDOW = 128;

/**
 * Left-align and trim a variant against a reference sequence. REF is checked against the
 * reference first; on a mismatch the variant is only trimmed and `refMatches` is false.
 */
export async function leftAlign<T extends VcfAlleles>(v: T, reference: SequenceSource): Promise<LeftAlignResult<T>> {
  const start0 = v.pos - 1;
  const referenceAtPos = await reference.getSequence(v.chrom, start0, start0 + v.ref.length);
  const upperRef = v.ref.toUpperCase();
  if (referenceAtPos !== upperRef) return { variant: trimAlleles(v), refMatches: false, referenceAtPos };
  if (isSymbolicAllele(v.alt)) return { variant: v, refMatches: true, referenceAtPos };
  let ref = upperRef;
  let alt = v.alt.toUpperCase();
  let pos = v.pos;
  // Bases left of `pos`, fetched in windows: window holds reference[winStart0, pos-1).
  let window = '';
  let winStart0 = start0;
  const baseBefore = async (p: number): Promise<string | null> => {
    // The base at 1-based p-1, i.e. 0-based p-2.
    const want0 = p - 2;
    if (want0 < 0) return null;
    if (want0 < winStart0) {
      const newStart = Math.max(0, want0 - WINDOW + 1);
      window = (await reference.getSequence(v.chrom, newStart, winStart0)) + window;
      winStart0 = newStart;
    }
    return window.charAt(want0 - winStart0);
  };
  for (;;) {
    let changed = false;
    if (ref.length > 0 && alt.length > 0 && ref.charCodeAt(ref.length - 1) === alt.charCodeAt(alt.length - 1)) {
      ref = ref.slice(0, -1);
      alt = alt.slice(0, -1);
      changed = true;
    }
    if (ref.length === 0 || alt.length === 0) {
      const b = await baseBefore(pos);
      if (b === null || b === '') break;
      ref = b + ref;
      alt = b + alt;
      pos--;
      changed = true;
    }
    if (!changed) break;
  }
  // At the start of a contig an indel cannot take a left anchor: keep it trimmed only.
  if (ref.length === 0 || alt.length === 0) return { variant: trimAlleles(v), refMatches: true, referenceAtPos };
  const trimmed = trimAlleles({ ...v, pos, ref, alt });
  return { variant: trimmed, refMatches: true, referenceAtPos };
}
