/**
 * Variant pathogenicity for ranking and inheritance compatibility of a gene's variants given
 * zygosity and sex. Scores are probabilities in [0, 1] that the gene's genotype explains a
 * disease with that mode of inheritance.
 */
import type { AcmgClass, AnnotatedVariant, Sex } from '../types.ts';
import { reportedZygosity } from '../vcf/genotype.ts';

export type InheritanceMode = 'AD' | 'AR' | 'XLD' | 'XLR' | 'XL' | 'MT' | 'UNKNOWN';

/** HPO mode-of-inheritance terms -> mode. Terms not listed (multifactorial, somatic ...) map to UNKNOWN. */
export const INHERITANCE_TERMS: Readonly<Record<string, InheritanceMode>> = {
  'HP:0000006': 'AD',
  'HP:0012275': 'AD', // autosomal dominant inheritance with maternal imprinting
  'HP:0012274': 'AD', // ... with paternal imprinting
  'HP:0003743': 'AD', // genetic anticipation
  'HP:0032113': 'AD', // semidominant (one hit gives a phenotype)
  'HP:0001470': 'AD', // sex-limited autosomal dominant
  'HP:0003745': 'AD', // sporadic: de novo or dominant-like
  'HP:0000007': 'AR',
  'HP:0001417': 'XL',
  'HP:0001419': 'XLR',
  'HP:0001423': 'XLD',
  'HP:0001427': 'MT',
  'HP:0001450': 'UNKNOWN', // Y-linked
  'HP:0001426': 'UNKNOWN', // multifactorial
  'HP:0001442': 'AD', // somatic mosaicism: one hit
  'HP:0001466': 'UNKNOWN', // contiguous gene syndrome
  'HP:0010982': 'UNKNOWN', // polygenic
  'HP:0001475': 'AD', // male-limited autosomal dominant
  'HP:0010984': 'UNKNOWN', // digenic
  'HP:0025352': 'AR', // autosomal recessive with uniparental disomy
};

export const MODE_LABELS: Readonly<Record<InheritanceMode, string>> = {
  AD: 'autosomal dominant',
  AR: 'autosomal recessive',
  XLD: 'X-linked dominant',
  XLR: 'X-linked recessive',
  XL: 'X-linked',
  MT: 'mitochondrial',
  UNKNOWN: 'unknown inheritance',
};

/**
 * Does ClinVar call this very allele (exact match) pathogenic or likely pathogenic without a
 * conflicting assertion? ClinVar 2016 writes every submitted assertion ('Benign/Pathogenic/not
 * provided'): a benign and a pathogenic assertion on one allele is a conflict, whatever the aggregate says.
 */
export function clinvarPathogenic(v: AnnotatedVariant): boolean {
  const sig = v.clinvar?.significance.toLowerCase() ?? '';
  const conflicting = sig.includes('conflicting') || (/(^|[^a-z])pathogenic/.test(sig) && /benign/.test(sig));
  return v.clinvar?.match === 'exact' && !conflicting && /(^|[^a-z])pathogenic/.test(sig);
}

/**
 * [floor, ceiling] the ACMG class puts on a variant's pathogenicity: a (likely) pathogenic class
 * raises it to at least 0.95 (0.85), a (likely) benign class caps it at 0.03 (0.1).
 */
const ACMG_PATHOGENICITY_BOUNDS: Readonly<Record<AcmgClass, readonly [floor: number, ceiling: number]>> = {
  Pathogenic: [0.95, 1],
  'Likely pathogenic': [0.85, 1],
  'Uncertain significance': [0, 1],
  'Likely benign': [0, 0.1],
  Benign: [0, 0.03],
};

/**
 * Lowest pathogenicity of a variant at a codon where ClinVar records another pathogenic missense
 * (the annotator's `same_amino_acid` / `same_codon` match from the InterVar PS1/PM5 table: the same
 * amino-acid change by another nucleotide change, or another amino acid at that codon). In the
 * development split such a match marks 8 of 200 causal genes and 2 of ~5,300 background genes
 * (LR ~100); chosen by cohort-grouped 5-fold CV (grid 0 (off), 0.5, 0.7, 0.8, 0.9 re-scored offline,
 * off vs 0.8 through rank(): every fold chose 0.8; causal gene top-1 64.5 -> 66.0 % held out;
 * bench/results/rank-analysis.md, session 10). Below an exact ClinVar call (0.9 / 0.97).
 */
export const CLINVAR_SAME_CODON_PATHOGENICITY = 0.8;

/** Pathogenicity used for ranking: the annotator's score, raised by ClinVar (exact allele, or a pathogenic missense at the same codon) and bounded by the ACMG class. */
export function variantPathogenicity(v: AnnotatedVariant): number {
  let p = Number.isFinite(v.score) ? Math.min(1, Math.max(0, v.score)) : 0;
  const sig = v.clinvar?.significance.toLowerCase() ?? '';
  const exactClinvar = v.clinvar?.match === 'exact';
  const conflicting = sig.includes('conflicting') || (/(^|[^a-z])pathogenic/.test(sig) && /benign/.test(sig));
  if (clinvarPathogenic(v)) p = Math.max(p, sig.includes('likely') ? 0.9 : 0.97);
  if (v.clinvar && !exactClinvar && !conflicting && /(^|[^a-z])pathogenic/.test(sig)) p = Math.max(p, CLINVAR_SAME_CODON_PATHOGENICITY);
  if (exactClinvar && !conflicting && /benign/.test(sig) && !/pathogenic/.test(sig)) p = Math.min(p, sig.includes('likely') ? 0.1 : 0.03);
  const bounds = ACMG_PATHOGENICITY_BOUNDS[v.acmg.classification] as (typeof ACMG_PATHOGENICITY_BOUNDS)[AcmgClass] | undefined;
  if (bounds === undefined) throw new Error(`unknown ACMG class ${String(v.acmg.classification)}`);
  const [floor, ceiling] = bounds;
  return Math.min(Math.max(p, floor), ceiling);
}

/** Does the genotype carry at least one copy of the alt allele? */
export function carriesAlt(v: AnnotatedVariant): boolean {
  const z = v.genotype.zygosity;
  return z === 'heterozygous' || z === 'homozygous' || z === 'hemizygous' || (z === 'unknown' && /[1-9]/.test(v.genotype.gt));
}

/** Number of alt copies implied by the genotype (hemizygous counts as 2: no wild-type copy). */
export function altDose(v: AnnotatedVariant): 1 | 2 {
  return v.genotype.zygosity === 'homozygous' || v.genotype.zygosity === 'hemizygous' ? 2 : 1;
}

export interface QualifyingVariant {
  variant: AnnotatedVariant;
  p: number;
}

export interface GenotypeFit {
  mode: InheritanceMode;
  /** Probability-like score in [0, 1]. */
  score: number;
  /** Indices (into the gene's sorted variant list) of the variants that make up the fit. */
  used: number[];
  reason: string;
  /** With a family: how the genotypes fit the mode (e.g. 'de novo', 'compound heterozygous'). */
  pattern?: string;
}

/**
 * Penalty for a single heterozygous hit in a recessive gene: the second hit may be missed
 * (structural variant, deep intronic, low coverage), so it is unlikely but not impossible.
 */
export const SINGLE_HIT_RECESSIVE = 0.1;
/** Penalty for a heterozygous X-linked recessive variant in a female (usually a carrier). */
export const FEMALE_XLR_CARRIER = 0.2;

const isX = (v: AnnotatedVariant): boolean => v.chrom === 'X';

function describe(q: QualifyingVariant): string {
  const v = q.variant;
  return `${v.hgvsC ?? `${v.chrom}:${v.pos} ${v.ref}>${v.alt}`}${v.hgvsP ? ` ${v.hgvsP}` : ''} (${reportedZygosity(v.chrom, v.genotype)})`;
}

/**
 * Genotype fit of a gene's variants (sorted by pathogenicity, highest first) for one mode.
 * AD: one heterozygous (or homozygous) variant suffices, de novo or inherited alike.
 * AR: a homozygous variant, or two different variants (compound-heterozygous candidates; phase
 * unknown). XL: hemizygous/homozygous in males; in females heterozygous is enough for XLD and
 * usually only a carrier state for XLR.
 */
export function genotypeFit(vs: readonly QualifyingVariant[], mode: InheritanceMode, sex: Sex): GenotypeFit {
  const first = vs[0];
  if (!first) return { mode, score: 0, used: [], reason: 'no variant' };
  switch (mode) {
    case 'AD':
    case 'MT':
    case 'UNKNOWN':
      return { mode, score: first.p, used: [0], reason: `${describe(first)}: one variant is enough for ${MODE_LABELS[mode]} disease (de novo or inherited)` };
    case 'AR': {
      let best: GenotypeFit = { mode, score: first.p * SINGLE_HIT_RECESSIVE, used: [0], reason: `${describe(first)}: only one heterozygous variant in a recessive gene` };
      const homIdx = vs.findIndex((q) => altDose(q.variant) === 2);
      const hom = vs[homIdx];
      if (hom && hom.p > best.score) best = { mode, score: hom.p, used: [homIdx], reason: `${describe(hom)}: homozygous, fits autosomal recessive disease` };
      const second = vs[1];
      if (second && first.p * second.p > best.score)
        best = { mode, score: first.p * second.p, used: [0, 1], reason: `${describe(first)} and ${describe(second)}: two variants, compound-heterozygous candidate (phase unknown)` };
      return best;
    }
    case 'XLR':
    case 'XLD':
    case 'XL': {
      const onX = vs.map((q, i) => ({ q, i })).filter((x) => isX(x.q.variant));
      const top = onX[0];
      if (!top) return genotypeFit(vs, 'AD', sex);
      const dose2 = onX.find((x) => altDose(x.q.variant) === 2);
      if (sex === 'male') {
        return { mode, score: top.q.p, used: [top.i], reason: `${describe(top.q)}: hemizygous in a male, fits ${MODE_LABELS[mode]} disease` };
      }
      if (dose2 && dose2.q.p >= top.q.p * (mode === 'XLD' ? 1 : FEMALE_XLR_CARRIER))
        return { mode, score: dose2.q.p, used: [dose2.i], reason: `${describe(dose2.q)}: homozygous on X, fits ${MODE_LABELS[mode]} disease` };
      if (mode === 'XLR') {
        const second = onX[1];
        const carrier = top.q.p * FEMALE_XLR_CARRIER;
        if (second && top.q.p * second.q.p > carrier)
          return { mode, score: top.q.p * second.q.p, used: [top.i, second.i], reason: `${describe(top.q)} and ${describe(second.q)}: two X-linked variants in a ${sex === 'female' ? 'female' : 'patient of unknown sex'}` };
        return { mode, score: carrier, used: [top.i], reason: `${describe(top.q)}: heterozygous in a ${sex === 'female' ? 'female' : 'patient of unknown sex'}, usually a carrier of X-linked recessive disease` };
      }
      // XLD, or X-linked without further detail: heterozygous females can be affected.
      return { mode, score: top.q.p, used: [top.i], reason: `${describe(top.q)}: heterozygous, fits ${MODE_LABELS[mode]} disease` };
    }
    default: {
      const never: never = mode;
      throw new Error(`unknown inheritance mode ${String(never)}`);
    }
  }
}

/** Modes of a disease from its HPO inheritance terms (UNKNOWN when none is recognised). */
export function modesOf(inheritanceTerms: readonly string[]): InheritanceMode[] {
  const modes = new Set<InheritanceMode>();
  for (const t of inheritanceTerms) {
    const m = INHERITANCE_TERMS[t];
    if (m) modes.add(m);
  }
  if (modes.size > 1) modes.delete('UNKNOWN');
  return modes.size ? [...modes] : ['UNKNOWN'];
}
