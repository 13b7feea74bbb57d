/**
 * Genotype-aware ranking of diseases, genes and variants.
 *
 * `prepareVariants` groups annotated variants by gene once (phenotype-independent work);
 * `rank` combines them with a phenotype in milliseconds, so editing the HPO terms re-ranks
 * without re-reading or re-annotating the VCF.
 *
 * Gene score (natural log): for each disease of the gene,
 *   phenotypeScale * temper(ln LR_phenotype(disease)) + genotypeWeight * ln(max(fit, floor)) + constraint
 * where fit is the inheritance-aware genotype fit (see inheritance.ts), temper() halves the part
 * of a log-LR above 10^10 (per-term LRs multiply as if independent, so very long matching term
 * lists are over-confident) and `constraint` rewards a loss-of-function variant in a
 * LoF-intolerant gene (dominant-like fit) and a missense in a missense-constrained gene (gnomAD).
 * The gene takes its best disease. A gene whose genotype does not fit the mode of its best-matching
 * annotated disease (one heterozygous variant, a recessive disease) may cause a related disease of
 * another mode that is not annotated yet: that disease's phenotype with the genotype fit of unknown
 * inheritance, plus the prior ALLELIC_DISEASE_LN, competes as a candidate too ('allelic').
 * Genes with variants but no annotated disease stay ranked:
 * a gene linked to a disease known only by name (newer than the annotations) on
 *   NAMED_DISEASE_LN + NAME_PHENOTYPE_SCALE * ln LR(features named in the title) + genotype + constraint
 * (name-evidence.ts), any other gene on the genotype and constraint with the prior
 * UNKNOWN_GENE_LN in place of the phenotype. Never lose a candidate: a disease known by name
 * competes with the annotated ones, and every gene's score is at least that of a new disease of
 * the gene (UNKNOWN_GENE_LN + genotype of unknown inheritance + constraint), so a known disease
 * gene whose annotated diseases contradict the phenotype ranks no lower than an unlinked gene.
 * The constants were chosen by 5-fold cross-validation grouped by cohort on the development split
 * (bench/results/rank-analysis.md): held-out figures equal the in-sample ones within a point.
 * Each gene keeps the parts of its score (`scoreParts`); `geneScoreLn` weighs them, here and in
 * bench:rank's cross-validation. Post-test probabilities of genes and diseases are calibrated
 * (calibration.ts; reliability tables in bench/results/rank.md).
 */
import type { HpoKb, NamedDisease } from '../kb/hpo-kb.ts';
import { getPhenotypeModel, type PhenotypeModel } from '../phenotype/model.ts';
import { scoreNamedDisease, type NameEvidence } from '../phenotype/name-evidence.ts';
import { buildPhenotypeResult, compareDiseaseIds, getDiseaseGroups, type DiseaseRanking, type PhenotypeRankingResult } from '../phenotype/rank-phenotype.ts';
import { DEFAULT_SCORING_OPTIONS, explainDisease, resolveQuery, scoreDiseases, type PhenotypeScoringOptions, type TermMatch } from '../phenotype/score.ts';
import type { AnnotatedVariant, Sex } from '../types.ts';
import { familyGenotypeFit, type FamilyContext } from '../family/segregation.ts';
import { DISEASE_CALIBRATION, GENE_CALIBRATION, postTestProbabilities, type Calibration } from './calibration.ts';
import { carriesAlt, clinvarPathogenic, genotypeFit, MODE_LABELS, modesOf, variantPathogenicity, type GenotypeFit, type InheritanceMode, type QualifyingVariant } from './inheritance.ts';

export interface GeneVariants {
  symbol: string;
  /** Variants carrying the alt allele, most pathogenic first. */
  variants: QualifyingVariant[];
}

export interface PreparedVariants {
  genes: Map<string, GeneVariants>;
  /** Variants without a gene or without an alt allele in the sample (kept for counts only). */
  unassigned: number;
  total: number;
}

/** Groups variants by gene and precomputes their pathogenicity (phenotype-independent). */
export function prepareVariants(variants: Iterable<AnnotatedVariant>): PreparedVariants {
  const genes = new Map<string, GeneVariants>();
  let unassigned = 0;
  let total = 0;
  for (const v of variants) {
    total++;
    if (!v.gene || !carriesAlt(v)) {
      unassigned++;
      continue;
    }
    let g = genes.get(v.gene);
    if (!g) {
      g = { symbol: v.gene, variants: [] };
      genes.set(v.gene, g);
    }
    g.variants.push({ variant: v, p: variantPathogenicity(v) });
  }
  for (const g of genes.values()) g.variants.sort((a, b) => b.p - a.p || a.variant.chrom.localeCompare(b.variant.chrom) || a.variant.pos - b.variant.pos || a.variant.alt.localeCompare(b.variant.alt));
  return { genes, unassigned, total };
}

export interface CasePhenotype {
  hpoPresent: readonly string[];
  hpoExcluded?: readonly string[];
  sex?: Sex | null;
}

export interface RankOptions {
  scoring?: PhenotypeScoringOptions;
  /** Gene-score constants (default DEFAULT_GENE_SCORE_CONSTANTS, chosen by cohort-grouped CV). */
  constants?: Partial<GeneScoreConstants>;
  /** Post-test probability calibrations (defaults GENE_CALIBRATION, DISEASE_CALIBRATION). */
  geneCalibration?: Calibration;
  diseaseCalibration?: Calibration;
  /** Lowest genotype fit (keeps the log finite). */
  fitFloor?: number;
  /** How many diseases/genes get full explanations (default 100). */
  explainTop?: number;
  /** Maximum number of entries returned per list (default 200). */
  limit?: number;
  /** The case's family: genotype fits use the relatives' genotypes (family/segregation.ts). */
  family?: FamilyContext | null;
  /**
   * Called once per gene with the parts of every candidate explanation of the gene (each annotated
   * disease, a disease known by name, a possibly allelic disease, a new disease), of which the
   * gene's score takes the best: lets the benchmarks' cross-validation re-choose per constant set.
   */
  onGeneCandidates?: (symbol: string, candidates: GeneScoreParts[]) => void;
}

export const DEFAULT_GENOTYPE_WEIGHT = 3;
export const DEFAULT_FIT_FLOOR = 0.001;
/** Weight of the (tempered) phenotype log-LR in a gene's score. */
export const PHENOTYPE_SCALE = 0.7;
/** Above this natural-log LR (10^10) the phenotype evidence counts half. */
export const PHENOTYPE_LN_KNEE = 10 * Math.LN10;
/** A gene with variants but no annotated disease: log prior in place of the phenotype term (new disease gene). */
export const UNKNOWN_GENE_LN = -4;
/** A gene whose only diseases are known by name (no phenotype annotations): log prior in place of the annotated phenotype. */
export const NAMED_DISEASE_LN = -2;
/** Weight of the log-LR of the features named in the disease title. */
export const NAME_PHENOTYPE_SCALE = 1;
/** Log bonus for a loss-of-function variant in a LoF-intolerant gene (pLI >= 0.9 or LOEUF < 0.35) with a dominant-like fit. */
export const CONSTRAINED_LOF_LN = 1;
/** Log bonus for a missense/in-frame variant in a missense-constrained gene (gnomAD missense Z >= 3). */
export const CONSTRAINED_MISSENSE_LN = 1;
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
export const ALLELIC_DISEASE_LN = -4;

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
});

/**
 * The parts a gene's score is made of, before the constants weigh them: where its phenotype
 * evidence comes from, that evidence's natural-log LR, ln(max(fit, floor)) and which constraint
 * rule applied. `geneScoreLn` turns them into the score; benchmarks re-weigh them by the same function.
 */
export interface GeneScoreParts {
  /** 'allelic': an annotated disease's phenotype with the genotype fit of unknown inheritance. */
  source: 'annotations' | 'allelic' | 'disease-name' | 'none';
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

/** The phenotype/prior part of a gene score (natural log). */
export function genePhenotypeLn(p: GeneScoreParts, k: GeneScoreConstants): number {
  switch (p.source) {
    case 'annotations':
      return phenotypeTerm(p.phenotypeLn, k.phenotypeScale);
    case 'allelic':
      return k.allelicDiseaseLn + phenotypeTerm(p.phenotypeLn, k.phenotypeScale);
    case 'disease-name':
      return k.namedDiseaseLn + k.namePhenotypeScale * p.phenotypeLn;
    case 'none':
      return k.unknownGeneLn;
    default: {
      const never: never = p.source;
      throw new Error(`unknown phenotype source ${String(never)}`);
    }
  }
}

/** The constraint part of a gene score (natural log). */
export function geneConstraintLn(p: GeneScoreParts, k: GeneScoreConstants): number {
  return p.constraint === 'lof' ? k.constrainedLofLn : p.constraint === 'missense' ? k.constrainedMissenseLn : 0;
}

/** The ClinVar part of a gene score (natural log): only for a gene ranked without an annotated disease. */
export function geneClinvarLn(p: GeneScoreParts, k: GeneScoreConstants): number {
  return p.clinvar && (p.source === 'disease-name' || p.source === 'none') ? k.unannotatedClinvarLn : 0;
}

/** A gene's score (natural log) from its parts. */
export function geneScoreLn(p: GeneScoreParts, k: GeneScoreConstants): number {
  return genePhenotypeLn(p, k) + k.genotypeWeight * p.fitLn + geneConstraintLn(p, k) + geneClinvarLn(p, k);
}

const LOF_CONSEQUENCE = /frameshift|stop_gained|splice_donor_variant|splice_acceptor_variant|start_lost/;

/** Which constraint rule applies to the gene's most pathogenic variant under the chosen fit, and why. */
export function constraintEvidence(gv: GeneVariants, mode: InheritanceMode): { kind: GeneScoreParts['constraint']; reason: string | null } {
  const v = gv.variants[0]?.variant;
  const c = v?.geneConstraint;
  if (!v || !c) return { kind: null, reason: null };
  const dominantLike = mode === 'AD' || mode === 'UNKNOWN' || mode === 'XLD' || mode === 'MT';
  if (dominantLike && LOF_CONSEQUENCE.test(v.consequences.join(',')) && ((c.pLI ?? 0) >= 0.9 || (c.loeuf != null && c.loeuf < 0.35)))
    return { kind: 'lof', reason: `loss-of-function variant in a LoF-intolerant gene (${c.source} pLI ${c.pLI?.toFixed(2) ?? '?'}, LOEUF ${c.loeuf?.toFixed(2) ?? '?'})` };
  if (/missense|inframe/.test(v.consequences[0] ?? '') && (c.misZ ?? 0) >= 3)
    return { kind: 'missense', reason: `missense variant in a missense-constrained gene (${c.source} missense Z ${c.misZ?.toFixed(2)})` };
  return { kind: null, reason: null };
}

/** Constraint evidence for the gene's most pathogenic variant under the chosen fit (log bonus with the default constants, and why). */
export function constraintBonus(gv: GeneVariants, mode: InheritanceMode, k: GeneScoreConstants = DEFAULT_GENE_SCORE_CONSTANTS): { ln: number; reason: string | null } {
  const e = constraintEvidence(gv, mode);
  return { ln: e.kind === 'lof' ? k.constrainedLofLn : e.kind === 'missense' ? k.constrainedMissenseLn : 0, reason: e.reason };
}

export interface GeneEvidence {
  /**
   * The phenotype fit of the gene's best disease: from its HPO annotations, or — for a disease
   * without annotations — from the features named in its title. Null when the gene has no disease.
   */
  phenotype: { diseaseId: string; diseaseName: string; source: 'annotations' | 'disease-name'; log10Lr: number; matched: TermMatch[] } | null;
  genotype: { mode: InheritanceMode; modeLabel: string; fit: number; reason: string; variants: VariantRef[]; pattern?: string };
}

export interface VariantRef {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  hgvsC: string | null;
  hgvsP: string | null;
  zygosity: string;
  pathogenicity: number;
}

export interface RankedGene {
  symbol: string;
  rank: number;
  /** log10 of phenotype LR x genotype fit^weight of the best disease (x constraint bonus). */
  score: number;
  /** The parts of the score (natural log, before the constants), for exact explanations and re-weighing. */
  scoreParts: GeneScoreParts;
  /** Calibrated probability that this gene is the cause (rank/calibration.ts, GENE_CALIBRATION). */
  postTestProbability: number;
  bestDisease: string | null;
  explanation: string[];
  evidence: GeneEvidence;
}

export interface RankedVariant {
  /** The record as written in the input VCF. */
  input: { chrom: string; pos: number; ref: string; alt: string; line: number };
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  gene: string;
  rank: number;
  score: number;
  pathogenicity: number;
  /** Does the variant take part in its gene's best genotype fit? */
  contributes: boolean;
  explanation: string[];
  variant: AnnotatedVariant;
}

export interface CaseRankingResult {
  hpoVersion: string;
  annotationsVersion: string;
  used: PhenotypeRankingResult['used'];
  ignored: PhenotypeRankingResult['ignored'];
  diseases: DiseaseRanking[];
  genes: RankedGene[];
  variants: RankedVariant[];
  counts: { variants: number; genesWithVariants: number; unassigned: number };
}

const LN10 = Math.log(10);

interface GeneScore {
  symbol: string;
  ln: number;
  parts: GeneScoreParts;
  disease: number; // disease index, -1 when none
  /** A disease known only by name, and the patient's terms it names (when disease is -1). */
  named?: { disease: NamedDisease; evidence: NameEvidence };
  fit: GenotypeFit;
  gv: GeneVariants;
}

function varRef(q: QualifyingVariant): VariantRef {
  const v = q.variant;
  return { chrom: v.chrom, pos: v.pos, ref: v.ref, alt: v.alt, hgvsC: v.hgvsC, hgvsP: v.hgvsP, zygosity: v.genotype.zygosity, pathogenicity: q.p };
}

function describeVariant(q: QualifyingVariant): string {
  const v = q.variant;
  const parts = [`${v.gene ?? '?'} ${v.hgvsC ?? `${v.chrom}:${v.pos} ${v.ref}>${v.alt}`}${v.hgvsP ? ` (${v.hgvsP})` : ''}`, v.genotype.zygosity, v.consequences[0] ?? 'unknown consequence', `pathogenicity ${q.p.toFixed(2)}`];
  if (v.clinvar) parts.push(`ClinVar ${v.clinvar.significance}${v.clinvar.stars ? ` (${v.clinvar.stars}★)` : ''}${v.clinvar.match === 'exact' ? '' : ` at the ${v.clinvar.match.replace(/_/g, ' ')}`}`);
  parts.push(`ACMG ${v.acmg.classification}${v.acmg.criteria.length ? ` [${v.acmg.criteria.map((c) => c.code).join(', ')}]` : ''}`);
  parts.push(v.af == null ? 'no population frequency known' : `AF ${v.af.toPrecision(2)}`);
  return parts.join('; ');
}

/** Ranks diseases, genes and variants for prepared variants and a phenotype. */
export function rank(prepared: PreparedVariants, kb: HpoKb, phenotype: CasePhenotype, options: RankOptions = {}): CaseRankingResult {
  const model = getPhenotypeModel(kb);
  const scoring = options.scoring ?? DEFAULT_SCORING_OPTIONS;
  const k: GeneScoreConstants = { ...DEFAULT_GENE_SCORE_CONSTANTS, ...options.constants };
  const w = k.genotypeWeight;
  const floor = options.fitFloor ?? DEFAULT_FIT_FLOOR;
  const explainTop = options.explainTop ?? 100;
  const limit = options.limit ?? 200;
  const sex: Sex = phenotype.sex ?? 'unknown';
  const q = resolveQuery(model, { present: phenotype.hpoPresent, excluded: phenotype.hpoExcluded ?? [] }, scoring);
  const pheno = scoreDiseases(model, q, scoring);
  const fitLn = (fit: number): number => Math.log(Math.max(fit, floor));
  const scored = (symbol: string, gv: GeneVariants, disease: number, fit: GenotypeFit, source: GeneScoreParts['source'], phenotypeLn: number, named?: GeneScore['named']): GeneScore => {
    const parts: GeneScoreParts = { source, phenotypeLn, fitLn: fitLn(fit.score), constraint: constraintEvidence(gv, fit.mode).kind, clinvar: fit.used.some((i) => { const v = gv.variants[i]?.variant; return v ? clinvarPathogenic(v) : false; }) };
    return { symbol, ln: geneScoreLn(parts, k), parts, disease, fit, gv, ...(named ? { named } : {}) };
  };
  const family = options.family ?? null;
  const fitOf = (vs: readonly QualifyingVariant[], mode: InheritanceMode): GenotypeFit => (family ? familyGenotypeFit(vs, mode, sex, family) : genotypeFit(vs, mode, sex));

  // Genes whose diseases are known only by name.
  const nameCache = new Map<string, NameEvidence>();
  const bestNamedDisease = (gv: GeneVariants, links: readonly { id: string; association: string }[], candidates: GeneScoreParts[] | null): GeneScore | null => {
    let best: GeneScore | null = null;
    for (const link of links) {
      if (link.association === 'POLYGENIC') continue;
      const nd = kb.namedDiseases.get(link.id);
      if (!nd) continue;
      let evidence = nameCache.get(nd.id);
      if (!evidence) {
        evidence = scoreNamedDisease(model, q, nd, scoring);
        nameCache.set(nd.id, evidence);
      }
      let fit: GenotypeFit | null = null;
      for (const mode of modesOf(nd.inheritance)) {
        const f = fitOf(gv.variants, mode);
        if (!fit || f.score > fit.score) fit = f;
      }
      if (!fit) continue;
      const cand = scored(gv.symbol, gv, -1, fit, 'disease-name', evidence.ln, { disease: nd, evidence });
      candidates?.push(cand.parts);
      if (!best || cand.ln > best.ln || (cand.ln === best.ln && compareDiseaseIds(nd.id, best.named?.disease.id ?? '') < 0)) best = cand;
    }
    return best;
  };

  // Genes with variants
  const geneScores: GeneScore[] = [];
  const bestFitOfDisease = new Float64Array(model.diseases.length).fill(w * fitLn(0));
  const fitCache = new Map<string, GenotypeFit>();
  const onCandidates = options.onGeneCandidates;
  for (const gv of prepared.genes.values()) {
    const hg = kb.genes.get(gv.symbol);
    let best: GeneScore | null = null;
    const candidates: GeneScoreParts[] | null = onCandidates ? [] : null;
    // The annotated disease with the strongest phenotype evidence (for a possibly allelic disease).
    let bestPhenotype = -1;
    for (const link of hg?.diseases ?? []) {
      if (link.association === 'POLYGENIC') continue;
      const d = model.diseaseIndex.get(link.id);
      if (d === undefined) continue;
      let fit: GenotypeFit | null = null;
      for (const mode of modesOf(inheritanceOf(model, d))) {
        const key = `${gv.symbol}|${mode}`;
        let f = fitCache.get(key);
        if (!f) {
          f = fitOf(gv.variants, mode);
          fitCache.set(key, f);
        }
        if (!fit || f.score > fit.score) fit = f;
      }
      if (!fit) continue;
      const g = w * fitLn(fit.score);
      if (g > (bestFitOfDisease[d] ?? -Infinity)) bestFitOfDisease[d] = g;
      const cand = scored(gv.symbol, gv, d, fit, 'annotations', pheno[d] ?? 0);
      candidates?.push(cand.parts);
      if (bestPhenotype < 0 || (pheno[d] ?? 0) > (pheno[bestPhenotype] ?? 0) || ((pheno[d] ?? 0) === (pheno[bestPhenotype] ?? 0) && compareDiseaseIds(model.diseases[d]?.id ?? '', model.diseases[bestPhenotype]?.id ?? '') < 0)) bestPhenotype = d;
      if (!best || cand.ln > best.ln || (cand.ln === best.ln && compareDiseaseIds(model.diseases[d]?.id ?? '', model.diseases[best.disease]?.id ?? '') < 0)) best = cand;
    }
    // A disease known only by name competes with the annotated ones, and a disease not known at all
    // (a new disease of this gene, inheritance unknown) is the floor: never lose a candidate.
    const named = bestNamedDisease(gv, hg?.diseases ?? [], candidates);
    if (named && (!best || named.ln > best.ln)) best = named;
    const unknownFit = fitOf(gv.variants, 'UNKNOWN');
    if (bestPhenotype >= 0) {
      const allelic = scored(gv.symbol, gv, bestPhenotype, unknownFit, 'allelic', pheno[bestPhenotype] ?? 0);
      candidates?.push(allelic.parts);
      if (!best || allelic.ln > best.ln) best = allelic;
    }
    const novel = scored(gv.symbol, gv, -1, unknownFit, 'none', 0);
    candidates?.push(novel.parts);
    if (!best || novel.ln > best.ln) best = novel;
    if (candidates) onCandidates?.(gv.symbol, candidates);
    geneScores.push(best);
  }
  geneScores.sort((a, b) => b.ln - a.ln || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));

  // Diseases: phenotype LR x best genotype fit among the disease's genes (floor when none).
  const combined = new Float64Array(model.diseases.length);
  for (let d = 0; d < combined.length; d++) combined[d] = phenotypeTerm(pheno[d] ?? 0, k.phenotypeScale) + (bestFitOfDisease[d] ?? w * fitLn(0));
  const diseaseResult = buildPhenotypeResult(model, q, combined, Math.min(explainTop, 20), scoring, limit, options.diseaseCalibration ?? DISEASE_CALIBRATION);

  const probability = postTestProbabilities(
    geneScores.map((g) => g.ln),
    options.geneCalibration ?? GENE_CALIBRATION,
  );
  const genes: RankedGene[] = [];
  const geneRank = new Map<string, number>();
  geneScores.forEach((g, i) => geneRank.set(g.symbol, i + 1));
  for (let i = 0; i < Math.min(limit, geneScores.length); i++) {
    const g = geneScores[i];
    if (!g) continue;
    genes.push(explainGene(model, q, g, i + 1, probability[i] ?? 0, pheno, i < explainTop, scoring, k));
  }

  // Variants: in gene order; within a gene, contributing variants first, then by pathogenicity.
  const variants: RankedVariant[] = [];
  for (const g of geneScores) {
    if (variants.length >= limit) break;
    const used = new Set(g.fit.used);
    const order = g.gv.variants.map((qv, i) => ({ qv, i })).sort((a, b) => Number(used.has(b.i)) - Number(used.has(a.i)) || b.qv.p - a.qv.p || a.i - b.i);
    for (const { qv, i } of order) {
      if (variants.length >= limit) break;
      const contributes = used.has(i);
      const score = (g.ln + (contributes ? 0 : w * (Math.log(Math.max(qv.p, floor)) - Math.log(Math.max(g.fit.score, floor))))) / LN10;
      const v = qv.variant;
      variants.push({
        input: { chrom: v.input.chrom, pos: v.input.pos, ref: v.input.ref, alt: v.input.alt, line: v.input.line },
        chrom: v.chrom,
        pos: v.pos,
        ref: v.ref,
        alt: v.alt,
        gene: g.symbol,
        rank: 0,
        score,
        pathogenicity: qv.p,
        contributes,
        explanation: [describeVariant(qv), contributes ? `Part of the best genotype for ${g.symbol} (gene rank ${geneRank.get(g.symbol) ?? '?'}): ${g.fit.reason}` : `Not needed for ${g.symbol}'s best genotype fit`],
        variant: v,
      });
    }
  }
  // A variant's rank follows its score; ties keep gene order (deterministic).
  variants.sort((a, b) => b.score - a.score || (geneRank.get(a.gene) ?? 0) - (geneRank.get(b.gene) ?? 0) || a.chrom.localeCompare(b.chrom) || a.pos - b.pos || a.alt.localeCompare(b.alt));
  variants.forEach((v, i) => (v.rank = i + 1));

  return {
    hpoVersion: diseaseResult.hpoVersion,
    annotationsVersion: diseaseResult.annotationsVersion,
    used: diseaseResult.used,
    ignored: diseaseResult.ignored,
    diseases: diseaseResult.diseases,
    genes,
    variants,
    counts: { variants: prepared.total, genesWithVariants: prepared.genes.size, unassigned: prepared.unassigned },
  };
}

/**
 * Inheritance terms of a disease; when it has none (common for Orphanet entries), those of the
 * equivalent entries of the same Mondo disease.
 */
function inheritanceOf(model: PhenotypeModel, d: number): string[] {
  const own = model.diseases[d]?.inheritance ?? [];
  if (own.length) return own;
  const groups = getDiseaseGroups(model);
  const out = new Set<string>();
  for (const m of groups.members[groups.groupOf[d] ?? 0] ?? []) for (const t of model.diseases[m]?.inheritance ?? []) out.add(t);
  return [...out];
}

function explainGene(
  model: PhenotypeModel,
  q: ReturnType<typeof resolveQuery>,
  g: GeneScore,
  rankNo: number,
  post: number,
  pheno: Float64Array,
  withTerms: boolean,
  scoring: PhenotypeScoringOptions,
  k: GeneScoreConstants,
): RankedGene {
  const used = g.fit.used.map((i) => g.gv.variants[i]).filter((x): x is QualifyingVariant => x != null);
  const dis = g.disease >= 0 ? model.diseases[g.disease] : undefined;
  const lines: string[] = [];
  let phenotype: GeneEvidence['phenotype'] = null;
  if (dis) {
    const log10 = (pheno[g.disease] ?? 0) / LN10;
    const matched = withTerms ? explainDisease(model, q, g.disease, scoring).matched : [];
    phenotype = { diseaseId: dis.id, diseaseName: dis.name, source: 'annotations', log10Lr: log10, matched };
    const hits = matched.filter((m) => m.kind === 'exact' || m.kind === 'implied').map((m) => m.label);
    lines.push(`Phenotype: ${dis.name} (${dis.id}), likelihood ratio 10^${log10.toFixed(1)}${hits.length ? `; matching features: ${hits.join(', ')}` : ''}`);
    const groupMembers = getDiseaseGroups(model).members[getDiseaseGroups(model).groupOf[g.disease] ?? 0] ?? [];
    if (groupMembers.length > 1) lines.push(`Same disease as ${groupMembers.filter((d) => d !== g.disease).map((d) => model.diseases[d]?.id).join(', ')} (Mondo ${dis.mondo ?? ''})`);
    if (g.parts.source === 'allelic')
      lines.push(
        `Possibly allelic disease (${g.symbol}): the genotype does not fit the stated inheritance of ${dis.id} (${inheritanceOf(model, g.disease).map((t) => model.kb.ontology.label(t) ?? t).join(', ') || 'none stated'}); ranked on its phenotype as a related disease of the same gene with unknown inheritance (prior 10^${(k.allelicDiseaseLn / LN10).toFixed(2)})`,
      );
  } else if (g.named) {
    const { disease: nd, evidence } = g.named;
    const log10 = evidence.ln / LN10;
    phenotype = { diseaseId: nd.id, diseaseName: nd.name, source: 'disease-name', log10Lr: log10, matched: evidence.matched };
    const named = nd.nameTerms.map((t) => model.kb.ontology.label(t) ?? t);
    lines.push(
      `${hasAnnotatedDisease(model, g.symbol) ? 'No annotated disease of this gene fits better' : 'No annotated disease for this gene'} (${g.symbol}): its disease ${nd.name} (${nd.id}) has no HPO phenotype annotations yet; ranked on ${
        named.length ? `the features its name states (${named.join(', ')}; likelihood ratio 10^${log10.toFixed(1)}${evidence.matched.length ? `, matching ${evidence.matched.map((m) => m.label).join(', ')}` : ', none matching the patient'}), ` : ''
      }its variants and gene constraint`,
    );
  } else if (kbHasDisease(model, g.symbol)) {
    lines.push(`No annotated disease of this gene fits better (${g.symbol}): ranked as a possible new disease of the gene (inheritance unknown) on its variants and gene constraint; its known diseases fit the phenotype or genotype less well`);
  } else {
    lines.push(`No annotated disease for this gene (${g.symbol}): ranked on its variants and gene constraint alone`);
  }
  const bonus = constraintEvidence(g.gv, g.fit.mode);
  if (bonus.reason) lines.push(`Gene constraint: ${bonus.reason}`);
  lines.push(`Inheritance: ${MODE_LABELS[g.fit.mode]} — ${g.fit.reason} (genotype fit ${g.fit.score.toFixed(2)})`);
  for (const qv of used) lines.push(`Variant: ${describeVariant(qv)}`);
  const l10 = (x: number): string => (x / LN10).toFixed(2);
  const phenoPart = g.parts.source === 'none' ? `prior for a gene with no disease ${l10(k.unknownGeneLn)}` : `${g.parts.source === 'annotations' ? 'phenotype' : g.parts.source === 'allelic' ? 'phenotype and allelic-disease prior' : 'disease-name phenotype and prior'} ${l10(genePhenotypeLn(g.parts, k))}`;
  lines.push(
    `Score (log10): ${phenoPart} + genotype ${l10(k.genotypeWeight * g.parts.fitLn)}${g.parts.constraint ? ` + constraint ${l10(geneConstraintLn(g.parts, k))}` : ''}${geneClinvarLn(g.parts, k) ? ` + ClinVar pathogenic allele in a gene without an annotated disease fit ${l10(geneClinvarLn(g.parts, k))}` : ''} = ${l10(g.ln)}; post-test probability ${formatProbability(post)}`,
  );
  return {
    symbol: g.symbol,
    rank: rankNo,
    score: g.ln / LN10,
    scoreParts: g.parts,
    postTestProbability: post,
    bestDisease: dis?.id ?? g.named?.disease.id ?? null,
    explanation: lines,
    evidence: { phenotype, genotype: { mode: g.fit.mode, modeLabel: MODE_LABELS[g.fit.mode], fit: g.fit.score, reason: g.fit.reason, variants: used.map(varRef), ...(g.fit.pattern ? { pattern: g.fit.pattern } : {}) } },
  };
}

/** Is the gene linked to a disease with phenotype annotations? */
function hasAnnotatedDisease(model: PhenotypeModel, symbol: string): boolean {
  return (model.kb.genes.get(symbol)?.diseases ?? []).some((l) => l.association !== 'POLYGENIC' && model.diseaseIndex.has(l.id));
}

/** Is the gene linked to any (annotated or named) disease? */
function kbHasDisease(model: PhenotypeModel, symbol: string): boolean {
  return (model.kb.genes.get(symbol)?.diseases ?? []).some((l) => l.association !== 'POLYGENIC' && (model.diseaseIndex.has(l.id) || model.kb.namedDiseases.has(l.id)));
}

/** A probability as a percentage for explanations ('< 0.1 %' below a thousandth). */
export function formatProbability(p: number): string {
  if (p < 0.001) return '< 0.1 %';
  return `${(100 * p).toFixed(p < 0.1 ? 1 : 0)} %`;
}

export interface CaseInput extends CasePhenotype {
  variants: Iterable<AnnotatedVariant>;
}

/** One-shot genotype-aware ranking (prepareVariants + rank). */
export function rankCase(input: CaseInput, kb: HpoKb, options: RankOptions = {}): CaseRankingResult {
  return rank(prepareVariants(input.variants), kb, input, options);
}
