/**
 * ACMG/AMP 2015 criteria (Richards et al., Genet Med 2015), summarised for tooltips, and the
 * point scale of the Bayesian adaptation (Tavtigian et al. 2018/2020) the engine scores with.
 */
export const AcmgCriteriaText: Record<string, string> = {
  PVS1: 'Null variant (nonsense, frameshift, canonical ±1/2 splice, initiation codon, exon deletion) in a gene where loss of function causes disease.',
  PS1: 'Same amino-acid change as an established pathogenic variant, through a different nucleotide change.',
  PS2: 'De novo in a patient with the disease, with maternity and paternity confirmed.',
  PS3: 'Well-established functional studies show a damaging effect.',
  PS4: 'Prevalence in affected individuals is significantly higher than in controls.',
  PM1: 'Located in a mutational hot spot or a critical, well-established functional domain without benign variation.',
  PM2: 'Absent from (or extremely rare in) population databases.',
  PM3: 'For recessive disorders, detected in trans with a pathogenic variant.',
  PM4: 'Protein length change from an in-frame indel in a non-repeat region, or stop-loss.',
  PM5: 'Novel missense change at a residue where a different pathogenic missense change is known.',
  PM6: 'Assumed de novo, without confirmation of maternity and paternity.',
  PP1: 'Co-segregation with disease in multiple affected family members.',
  PP2: 'Missense variant in a gene with a low rate of benign missense variation where missense is a common disease mechanism.',
  PP3: 'Multiple lines of computational evidence support a deleterious effect.',
  PP4: 'Patient’s phenotype or family history is highly specific for a disease with a single genetic cause.',
  PP5: 'A reputable source reports the variant as pathogenic (retired by ClinGen; used with care).',
  BA1: 'Allele frequency above 5% in a large population database: stand-alone benign.',
  BS1: 'Allele frequency greater than expected for the disorder.',
  BS2: 'Observed in a healthy adult with full penetrance expected at an early age.',
  BS3: 'Well-established functional studies show no damaging effect.',
  BS4: 'Lack of segregation in affected members of a family.',
  BP1: 'Missense variant in a gene where primarily truncating variants cause disease.',
  BP2: 'Observed in trans with a pathogenic variant for a fully penetrant dominant disorder, or in cis with a pathogenic variant.',
  BP3: 'In-frame indel in a repetitive region without known function.',
  BP4: 'Multiple lines of computational evidence suggest no impact.',
  BP5: 'Variant found in a case with an alternate molecular basis for disease.',
  BP6: 'A reputable source reports the variant as benign (retired by ClinGen; used with care).',
  BP7: 'Synonymous variant with no predicted splice impact and a non-conserved nucleotide.',
};

/** The criterion code without its strength modifier: "PM2_Supporting" -> "PM2". */
export function baseCriterion(code: string): string {
  return code.split(/[_\s(]/)[0] ?? code;
}

export function describeCriterion(code: string): string {
  return AcmgCriteriaText[baseCriterion(code)] ?? 'ACMG/AMP criterion.';
}

/** Point thresholds of the classes (Tavtigian et al. 2020). */
export const AcmgPointScale =
  'Points: Pathogenic ≥ 10, Likely pathogenic 6–9, Uncertain significance 0–5, Likely benign −1 to −6, Benign ≤ −7. ' +
  'Very strong = 8, strong = 4, moderate = 2, supporting = 1 (negative for benign evidence).';
