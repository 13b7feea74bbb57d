/**
 * Per-member genotypes of a multi-sample VCF allele and their interpretation for family
 * analysis: allele dose (0, 1, 2 copies; hemizygous counts 2), call quality, X/Y ploidy by sex.
 */
import type { AnnotatedVariant, Genotype, Sex } from '../types.ts';
import { zygosityOf } from '../vcf/genotype.ts';
import type { VcfVariant } from '../vcf/variant.ts';

/** Genotype QC for family inference (slivar's and GATK's usual trio defaults). */
export const MIN_DEPTH = 10;
export const MIN_GQ = 20;
/** Allele balance a heterozygous de novo call must have (alt reads / all reads). */
export const MIN_DE_NOVO_AB = 0.2;
export const MAX_DE_NOVO_AB = 0.8;

function optNumber(s: string | undefined): number | undefined {
  if (s === undefined || s === '.' || s === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Genotype of every sample column of the allele's record, in header order (zygosity relative to
 * this ALT of a multi-allelic record; DP, GQ and this allele's AD when the FORMAT has them).
 */
export function sampleGenotypesOf(v: VcfVariant): Genotype[] {
  const format = v.record.formatRaw;
  if (format === null) return [];
  const keys = format.split(':');
  const gtI = keys.indexOf('GT');
  const dpI = keys.indexOf('DP');
  const gqI = keys.indexOf('GQ');
  const adI = keys.indexOf('AD');
  const cols = v.record.lineText.split('\t').slice(9);
  return cols.map((col) => {
    const vals = col.split(':');
    const gt = gtI >= 0 ? (vals[gtI] ?? '') : '';
    const g: Genotype = { gt, zygosity: gt === '' ? 'unknown' : zygosityOf(gt, v.altIndex) };
    const dp = dpI >= 0 ? optNumber(vals[dpI]) : undefined;
    const gq = gqI >= 0 ? optNumber(vals[gqI]) : undefined;
    if (dp !== undefined) g.depth = dp;
    if (gq !== undefined) g.genotypeQuality = gq;
    const ad = adI >= 0 ? vals[adI] : undefined;
    if (ad !== undefined && ad !== '.') {
      const parts = ad.split(',');
      const r = Number(parts[0]);
      const a = Number(parts[v.altIndex]);
      if (Number.isFinite(r) && Number.isFinite(a)) g.alleleDepths = [r, a];
    }
    return g;
  });
}

/** Genotypes of the given samples (id and VCF column) at one allele. */
export function familyGenotypesOf(v: VcfVariant, samples: readonly { id: string; vcfIndex: number }[]): Record<string, Genotype> {
  const all = sampleGenotypesOf(v);
  const out: Record<string, Genotype> = {};
  for (const s of samples) {
    const g = s.vcfIndex >= 0 ? all[s.vcfIndex] : undefined;
    if (g) out[s.id] = g;
  }
  return out;
}

// GRCh38 pseudo-autosomal regions (1-based, inclusive): diploid in males.
const PAR_X: readonly [number, number][] = [
  [10_001, 2_781_479],
  [155_701_383, 156_030_895],
];

/** Is the position (GRCh38) on the haploid part of X or Y in a male? */
export function isHaploidInMale(chrom: string, pos: number): boolean {
  if (chrom === 'Y') return true;
  if (chrom !== 'X') return false;
  return !PAR_X.some(([s, e]) => pos >= s && pos <= e);
}

export interface MemberCall {
  /** Copies of the alt allele (hemizygous counts 2), null when not called. */
  dose: 0 | 1 | 2 | null;
  genotype: Genotype | null;
  /** Depth and GQ at or above MIN_DEPTH / MIN_GQ: true/false; null when the VCF gives neither. */
  adequate: boolean | null;
}

const NO_CALL: Readonly<MemberCall> = Object.freeze({ dose: null, genotype: null, adequate: null });

/** Adequate depth and genotype quality (null when the VCF has neither DP nor GQ). */
export function isAdequate(g: Genotype): boolean | null {
  if (g.depth === undefined && g.genotypeQuality === undefined) return null;
  if (g.depth !== undefined && g.depth < MIN_DEPTH) return false;
  if (g.genotypeQuality !== undefined && g.genotypeQuality < MIN_GQ) return false;
  return true;
}

/** A member's call at a variant; in males the haploid parts of X and Y give dose 2 for any alt call. */
export function memberCall(v: AnnotatedVariant, sample: string, sex: Sex): MemberCall {
  const g = v.familyGenotypes?.[sample];
  if (!g) return NO_CALL;
  let dose: MemberCall['dose'];
  switch (g.zygosity) {
    case 'reference':
      dose = 0;
      break;
    case 'heterozygous':
      dose = 1;
      break;
    case 'homozygous':
    case 'hemizygous':
      dose = 2;
      break;
    case 'no_call':
    case 'unknown':
      dose = null;
      break;
    default: {
      const never: never = g.zygosity;
      throw new Error(`unknown zygosity ${String(never)}`);
    }
  }
  if (dose === 1 && sex === 'male' && isHaploidInMale(v.chrom, v.pos)) dose = 2;
  return { dose, genotype: g, adequate: isAdequate(g) };
}

/** Short text of a member's genotype with its depth and quality, for explanations. */
export function describeCall(sample: string, c: MemberCall): string {
  if (!c.genotype || c.dose === null) return `${sample} not called`;
  const g = c.genotype;
  const q = [g.depth !== undefined ? `DP ${g.depth}` : null, g.genotypeQuality !== undefined ? `GQ ${g.genotypeQuality}` : null, g.alleleDepths ? `AD ${g.alleleDepths.join(',')}` : null].filter((x) => x !== null);
  return `${sample} ${g.gt}${q.length ? ` (${q.join(', ')})` : ''}`;
}
