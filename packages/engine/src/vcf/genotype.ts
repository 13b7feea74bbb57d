/** Genotype (GT) interpretation for one ALT allele of a possibly multi-allelic record. */

import type { Zygosity } from '../types.ts';

/**
 * Zygosity of allele `altIndex` (1-based) in a GT string such as '0/1', '1|2', '1', './.'.
 * - every allele missing -> 'no_call'
 * - haploid call of this allele -> 'hemizygous'
 * - every called allele is this one (no missing) -> 'homozygous'
 * - this allele among others (including a partial no-call '1/.') -> 'heterozygous'
 * - this allele absent -> 'reference' (the sample does not carry it, even if it carries another ALT)
 * - unparsable GT -> 'unknown'
 */
export function zygosityOf(gt: string, altIndex: number): Zygosity {
  if (gt.length === 0) return 'unknown';
  // Fast paths for the common diploid forms.
  if (gt.length === 3 && (gt.charCodeAt(1) === 47 || gt.charCodeAt(1) === 124)) {
    const a = gt.charCodeAt(0) - 48;
    const b = gt.charCodeAt(2) - 48;
    const aOk = a >= 0 && a <= 9;
    const bOk = b >= 0 && b <= 9;
    const aMiss = gt.charCodeAt(0) === 46;
    const bMiss = gt.charCodeAt(2) === 46;
    if ((aOk || aMiss) && (bOk || bMiss)) {
      if (aMiss && bMiss) return 'no_call';
      const n = (aOk && a === altIndex ? 1 : 0) + (bOk && b === altIndex ? 1 : 0);
      if (n === 2) return 'homozygous';
      return n === 1 ? 'heterozygous' : 'reference';
    }
  }
  let count = 0;
  let called = 0;
  let missing = 0;
  let ploidy = 0;
  let i = 0;
  while (i < gt.length) {
    let j = i;
    while (j < gt.length && gt.charCodeAt(j) !== 47 && gt.charCodeAt(j) !== 124) j++;
    const tok = gt.slice(i, j);
    ploidy++;
    if (tok === '.') missing++;
    else {
      const n = Number(tok);
      if (!Number.isInteger(n) || n < 0 || tok === '') return 'unknown';
      called++;
      if (n === altIndex) count++;
    }
    i = j + 1;
  }
  if (called === 0) return missing > 0 ? 'no_call' : 'unknown';
  if (count === 0) return 'reference';
  if (ploidy === 1) return 'hemizygous';
  if (count === ploidy) return 'homozygous';
  return 'heterozygous';
}

/**
 * A mitochondrial variant whose reads carry it at this fraction or more is homoplasmic, under it
 * heteroplasmic (gnomAD's mtDNA release uses the same 0.95 line).
 */
export const HOMOPLASMY_MIN_FRACTION = 0.95;

/** How a call reads to a clinician: a nuclear zygosity, or the mitochondrial level. */
export type ReportedZygosity = Zygosity | 'homoplasmic' | 'heteroplasmic' | 'mitochondrial';

/**
 * The zygosity shown for a call. A mitochondrion has hundreds of copies, not one or two, so a
 * carried mitochondrial allele is 'homoplasmic' or 'heteroplasmic' by its read fraction
 * (genotype.heteroplasmy, from FORMAT AF or AD), or 'mitochondrial' (level unknown) when the
 * file gives neither; "hemizygous" (a haploid GT) would be wrong there. Nuclear calls, and
 * mitochondrial reference or no-calls, keep their zygosity.
 */
export function reportedZygosity(chrom: string, g: { zygosity: Zygosity; heteroplasmy?: number }): ReportedZygosity {
  if (chrom !== 'MT' || g.zygosity === 'reference' || g.zygosity === 'no_call') return g.zygosity;
  if (g.heteroplasmy === undefined) return 'mitochondrial';
  return g.heteroplasmy >= HOMOPLASMY_MIN_FRACTION ? 'homoplasmic' : 'heteroplasmic';
}
