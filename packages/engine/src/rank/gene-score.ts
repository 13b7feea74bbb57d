/**
 * The one combining step of the gene ranking: each prioritiser (prioritisers.ts) gives a part of a
 * gene's score under one disease hypothesis (`GeneScoreParts`, natural log, before any weight);
 * `geneScoreLn` weighs and adds them with the gene-score constants:
 *   phenotype part (tempered, scaled log-LR of an annotated disease | the same plus a prior for a
 *   possibly allelic disease | prior + named-feature log-LR of a disease known by name | prior of a
 *   new disease gene)
 *   + genotypeWeight * ln(max(fit, floor)) + constraint bonus + ClinVar bonus (unannotated genes only).
 * The same function scores genes in `rank` and re-weighs the stored parts in bench:rank's
 * cross-validation, so the benchmark can never drift from the product.
 */

export const DEFAULT_GENOTYPE_WEIGHT = 3;
export const DEFAULT_FIT_FLOOR = 0.001;
/** Weight of the (tempered) phenotype log-LR in a gene's score. */
export const PHENOTYPE_SCALE = 0.5;
/** Above this natural-log LR (10^10) the phenotype evidence counts half. */
export const PHENOTYPE_LN_KNEE = 10 * Math.LN10;
/** A gene with variants but no annotated disease: log prior in place of the phenotype term (new disease gene). */
export const UNKNOWN_GENE_LN = -2;
/** A gene whose only diseases are known by name (no phenotype annotations): log prior in place of the annotated phenotype. */
export const NAMED_DISEASE_LN = -1;
/** Weight of the log-LR of the features named in the disease title. */
export const NAME_PHENOTYPE_SCALE = 1;
/** Log bonus for a loss-of-function variant in a LoF-intolerant gene (pLI >= 0.9 or LOEUF < 0.35) with a dominant-like fit. */
export const CONSTRAINED_LOF_LN = 0;
/** Log bonus for a missense/in-frame variant in a missense-constrained gene (gnomAD missense Z >= 3). */
export const CONSTRAINED_MISSENSE_LN = 0;
/**
 * Log bonus for a gene ranked without an annotated disease (known by name or not at all) whose
 * genotype includes an allele ClinVar calls pathogenic/likely pathogenic (exact match, no conflict):
 * the allele is known to cause disease, so a disease of this gene exists even if it is not annotated.
 */
export const UNANNOTATED_CLINVAR_LN = 0;
/**
 * A possibly allelic disease: the phenotype of one of the gene's annotated diseases, with the
 * genotype fit of unknown inheritance (one variant suffices) in place of that disease's mode, plus
 * this log prior. A gene often causes several diseases with overlapping features and different
 * modes (a recessive and a dominant one), and the disease of the case may be the one not yet annotated.
 */
export const ALLELIC_DISEASE_LN = -2;
/**
 * A disease known only by name that belongs to a phenotypic series of annotated diseases: log
 * prior added to the (scaled, tempered) log-LR of the profile borrowed from the series
 * (phenotype/series.ts). Competes with the title-feature candidate of the same disease. Chosen by
 * the cohort-grouped CV (bench/rank-dev.ts --sample 200 --hidden named, grid -1000 (off), -4, -2, 0):
 * in-sample best 0, four of five folds chose 0, one -2.
 */
export const SERIES_DISEASE_LN = 0;

/**
 * A disease known only by name in no series: log prior added to the (scaled, tempered) log-LR of the
 * profile inferred from the annotated diseases with the most similar titles (phenotype/series.ts,
 * kind 'similar-titles'). Competes with the title-feature candidate of the same disease. Chosen by
 * the cohort-grouped CV on the 200 spiked dev exomes (bench/rank-dev.ts --sample 200 --hidden named,
 * the other constants as shipped; grid -1000 (off), -6 … 2): four folds chose -6, one off; held out
 * the spiked exomes are unchanged (66.0 / 72.0 / 78.0 / 88.5) and the hidden-disease cases gain
 * (50.9 / 60.0 / 70.3 / 90.3 -> 50.9 / 61.2 / 71.5 / 91.5). Larger priors help the hidden-disease
 * cases more (-2: 54.5 / 64.8 / 75.8 / 92.7 in-sample) but cost genes with an annotated disease
 * top-1 (85.1 -> 84.4): rank-analysis.md, session 12.
 */
export const SIMILAR_TITLES_DISEASE_LN = -6;

/** The constants of the gene score (natural-log units). */
export interface GeneScoreConstants {
  /** Weight of the tempered phenotype log-LR of an annotated disease. */
  phenotypeScale: number;
  /** Weight of the genotype log-fit. */
  genotypeWeight: number;
  /** Log prior in place of the phenotype for a gene with no disease at all. */
  unknownGeneLn: number;
  /** Log prior in place of the annotated phenotype for a disease known only by name. */
  namedDiseaseLn: number;
  /** Weight of the log-LR of the features named in such a disease's title. */
  namePhenotypeScale: number;
  /** Log bonus: LoF variant in a LoF-intolerant gene with a dominant-like fit. */
  constrainedLofLn: number;
  /** Log bonus: missense/in-frame variant in a missense-constrained gene. */
  constrainedMissenseLn: number;
  /** Log bonus: a gene without an annotated disease fit whose genotype includes a ClinVar pathogenic allele. */
  unannotatedClinvarLn: number;
  /** Log prior of a possibly allelic disease (an annotated disease's phenotype, genotype of unknown inheritance). */
  allelicDiseaseLn: number;
  /** Log prior of a disease known by name ranked on the phenotype borrowed from its series. */
  seriesDiseaseLn: number;
  /** Log prior of a disease known by name, in no series, ranked on the phenotype of the diseases with similar titles. */
  similarTitlesDiseaseLn: number;
}

export const DEFAULT_GENE_SCORE_CONSTANTS: Readonly<GeneScoreConstants> = Object.freeze({
  phenotypeScale: PHENOTYPE_SCALE,
  genotypeWeight: DEFAULT_GENOTYPE_WEIGHT,
  unknownGeneLn: UNKNOWN_GENE_LN,
  namedDiseaseLn: NAMED_DISEASE_LN,
  namePhenotypeScale: NAME_PHENOTYPE_SCALE,
  constrainedLofLn: CONSTRAINED_LOF_LN,
  constrainedMissenseLn: CONSTRAINED_MISSENSE_LN,
  unannotatedClinvarLn: UNANNOTATED_CLINVAR_LN,
  allelicDiseaseLn: ALLELIC_DISEASE_LN,
  seriesDiseaseLn: SERIES_DISEASE_LN,
  similarTitlesDiseaseLn: SIMILAR_TITLES_DISEASE_LN,
});

/**
 * The parts a gene's score is made of, before the constants weigh them, one or two per
 * prioritiser: where its phenotype evidence comes from and that evidence's natural-log LR
 * (phenotype), ln(max(fit, floor)) (inheritance), which constraint rule applied (gene constraint)
 * and whether the fit uses a ClinVar pathogenic allele (ClinVar). `geneScoreLn` turns them into
 * the score; benchmarks re-weigh them by the same function.
 */
export interface GeneScoreParts {
  /**
   * 'allelic': an annotated disease's phenotype with the genotype fit of unknown inheritance;
   * 'series': a disease known by name, on the phenotype borrowed from its series (phenotype/series.ts);
   * 'similar-titles': a disease known by name in no series, on the phenotype of the annotated
   * diseases with the most similar titles (phenotype/series.ts).
   */
  source: 'annotations' | 'allelic' | 'series' | 'similar-titles' | 'disease-name' | 'none';
  phenotypeLn: number;
  fitLn: number;
  constraint: 'lof' | 'missense' | null;
  /** Does the genotype fit use an allele ClinVar calls pathogenic (exact, no conflict)? */
  clinvar: boolean;
}

/** Tempers very large phenotype log-LRs (half of what lies above PHENOTYPE_LN_KNEE counts). */
export function temperLn(lnLr: number): number {
  return lnLr > PHENOTYPE_LN_KNEE ? PHENOTYPE_LN_KNEE + 0.5 * (lnLr - PHENOTYPE_LN_KNEE) : lnLr;
}

/** The phenotype term of a gene or disease score: scaled, with very large log-LRs tempered. */
export function phenotypeTerm(lnLr: number, scale: number = PHENOTYPE_SCALE): number {
  return scale * temperLn(lnLr);
}

/**
 * The prior of the route a gene's phenotype part is taken from (natural log): none for the
 * gene's own annotated disease, else the prior of an allelic, series, similar-titles or
 * name-only disease, or of a gene with no disease at all.
 */
export function genePriorLn(source: GeneScoreParts['source'], k: GeneScoreConstants): number {
  switch (source) {
    case 'annotations':
      return 0;
    case 'allelic':
      return k.allelicDiseaseLn;
    case 'series':
      return k.seriesDiseaseLn;
    case 'similar-titles':
      return k.similarTitlesDiseaseLn;
    case 'disease-name':
      return k.namedDiseaseLn;
    case 'none':
      return k.unknownGeneLn;
    default: {
      const never: never = source;
      throw new Error(`unknown phenotype source ${String(never)}`);
    }
  }
}

/** The phenotype/prior part of a gene score (natural log). */
export function genePhenotypeLn(p: GeneScoreParts, k: GeneScoreConstants): number {
  if (p.source === 'none') return k.unknownGeneLn;
  const term = p.source === 'disease-name' ? k.namePhenotypeScale * p.phenotypeLn : phenotypeTerm(p.phenotypeLn, k.phenotypeScale);
  return p.source === 'annotations' ? term : genePriorLn(p.source, k) + term;
}

/** The constraint part of a gene score (natural log). */
export function geneConstraintLn(p: GeneScoreParts, k: GeneScoreConstants): number {
  return p.constraint === 'lof' ? k.constrainedLofLn : p.constraint === 'missense' ? k.constrainedMissenseLn : 0;
}

/** The ClinVar part of a gene score (natural log): only for a gene ranked without an annotated disease. */
export function geneClinvarLn(p: GeneScoreParts, k: GeneScoreConstants): number {
  return p.clinvar && (p.source === 'series' || p.source === 'similar-titles' || p.source === 'disease-name' || p.source === 'none') ? k.unannotatedClinvarLn : 0;
}

/** A gene's score (natural log) from its parts: the combining step. */
export function geneScoreLn(p: GeneScoreParts, k: GeneScoreConstants): number {
  return genePhenotypeLn(p, k) + k.genotypeWeight * p.fitLn + geneConstraintLn(p, k) + geneClinvarLn(p, k);
}
