/**
 * Genotype-aware ranking of diseases, genes and variants.
 *
 * `prepareVariants` (prepare.ts) groups annotated variants by gene once (phenotype-independent
 * work); `rank` combines them with a phenotype in milliseconds, so editing the HPO terms re-ranks
 * without re-reading or re-annotating the VCF.
 *
 * Each gene is scored under every disease hypothesis — each of its annotated diseases, each of its
 * diseases known only by name (newer than the annotations), a possibly allelic disease and a new
 * disease of the gene (inheritance unknown) — by the prioritisers (prioritisers.ts, Exomiser style: phenotype,
 * inheritance, gene constraint, ClinVar), each giving its part of the score; `geneScoreLn`
 * (gene-score.ts) is the one combining step:
 *   phenotypeScale * temper(ln LR_phenotype(disease)) + genotypeWeight * ln(max(fit, floor)) + constraint
 * for an annotated disease, where fit is the inheritance-aware genotype fit (inheritance.ts),
 * temper() halves the part of a log-LR above 10^10 (per-term LRs multiply as if independent, so
 * very long matching term lists are over-confident) and `constraint` rewards a loss-of-function
 * variant in a LoF-intolerant gene (dominant-like fit) and a missense in a missense-constrained
 * gene (gnomAD); for a disease known by name
 *   NAMED_DISEASE_LN + NAME_PHENOTYPE_SCALE * ln LR(features named in the title) + genotype + constraint
 * (name-evidence.ts); for a new disease the prior UNKNOWN_GENE_LN in place of the phenotype. A gene
 * whose genotype does not fit the mode of its best-matching annotated disease (one heterozygous
 * variant, a recessive disease) may cause a related disease of another mode that is not annotated
 * yet: that disease's phenotype with the genotype fit of unknown inheritance, plus the prior
 * ALLELIC_DISEASE_LN, competes as a hypothesis too ('allelic').
 * The gene takes its best hypothesis. Never lose a candidate: a disease known by name competes
 * with the annotated ones, and every gene's score is at least that of a new disease of the gene,
 * so a known disease gene whose annotated diseases contradict the phenotype ranks no lower than
 * an unlinked gene. The constants were chosen by 5-fold cross-validation grouped by cohort on the
 * development split (bench/results/rank-analysis.md): held-out figures equal the in-sample ones
 * within a point. Each gene keeps the parts of its score (`scoreParts`); `geneScoreLn` weighs
 * them, here and in bench:rank's cross-validation. Post-test probabilities of genes and diseases
 * are calibrated (calibration.ts; reliability tables in bench/results/rank.md).
 */
import type { HpoKb } from '../kb/hpo-kb.ts';
import { getPhenotypeModel } from '../phenotype/model.ts';
import { buildPhenotypeResult, compareDiseaseIds, type DiseaseRanking, type PhenotypeRankingResult } from '../phenotype/rank-phenotype.ts';
import { DEFAULT_SCORING_OPTIONS, resolveQuery, scoreDiseases, type PhenotypeScoringOptions } from '../phenotype/score.ts';
import { getBorrowedProfiles, scoreBorrowed } from '../phenotype/series.ts';
import { describeCodingOutcome } from '../annotate/consequence.ts';
import type { AnnotatedVariant, Sex } from '../types.ts';
import { reportedZygosity } from '../vcf/genotype.ts';
import type { FamilyContext } from '../family/segregation.ts';
import { DISEASE_CALIBRATION, GENE_CALIBRATION, postTestProbabilities, type Calibration } from './calibration.ts';
import { DEFAULT_FIT_FLOOR, DEFAULT_GENE_SCORE_CONSTANTS, geneClinvarLn, geneConstraintLn, genePhenotypeLn, genePriorLn, geneScoreLn, phenotypeTerm, temperLn, type GeneScoreConstants, type GeneScoreParts } from './gene-score.ts';
import { MODE_LABELS, type InheritanceMode, type QualifyingVariant } from './inheritance.ts';
import { prepareVariants, type GeneVariants, type PreparedVariants } from './prepare.ts';
import { fitLn, variantsFit, GENE_PRIORITISERS, inheritancePrioritiser, phenotypePrioritiser, prioritiserContext, hypothesisParts, type DiseaseHypothesis, type Hypothesis, type PhenotypeEvidence, type PrioritiserContext } from './prioritisers.ts';

/**
 * Prior (natural log) of a disease known only by name in the genotype-aware disease list: 0, the
 * value bench:rank part (b) measured (session 8). The phenotype-only SERIES_PRIOR_LN was refitted
 * together with a cap below the best series member (rank-phenotype.ts capBorrowed) that does not
 * apply here, where the genotype can tell the members of a series apart.
 */
const GENOTYPE_SERIES_PRIOR_LN = 0;

/**
 * Weight of a variant's share of its gene's pathogenicity, ln(p / Σ p over the gene's variants), in the
 * variant list when the gene's best genotype needs one hit (dominant, unknown, mitochondrial): the
 * gene's score says the gene is the cause, the share which of its variants. Chosen by cohort-grouped
 * 5-fold CV over 0, 0.25, 0.5, 1, 2 on the 200-case spiked-exome sample (four folds 0.5, one 1):
 * causal variant 66.0 / 69.5 / 77.0 → 66.5 / 71.0 / 77.0 held out (rank-analysis.md, session 13).
 * Gene and disease ranks do not depend on it.
 */
export const VARIANT_SHARE_WEIGHT = 0.5;
const ONE_HIT_MODES: ReadonlySet<InheritanceMode> = new Set<InheritanceMode>(['AD', 'UNKNOWN', 'MT']);

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
  /**
   * Maximum number of diseases returned (default `limit`): a caller that keeps fewer diseases than
   * genes and variants (the server keeps 200 diseases of a genome's 13,000 ranked candidates) is
   * not handed the rest. The diseases returned are the same as the first of a longer list.
   */
  diseaseLimit?: number;
  /**
   * Explain each ranked variant (default true). Without, `explanation` is empty: a caller that
   * keeps only the variants' ranks (the server's re-ranking of 50,000 candidates) skips building
   * a description of every one.
   */
  explainVariants?: boolean;
  /** The case's family: genotype fits use the relatives' genotypes (family/segregation.ts). */
  family?: FamilyContext | null;
  /**
   * Called once per gene with the parts of every candidate explanation of the gene (each annotated
   * disease, a disease known by name, a possibly allelic disease, a new disease), of which the
   * gene's score takes the best: lets the benchmarks' cross-validation re-choose per constant set.
   */
  onGeneCandidates?: (symbol: string, candidates: GeneScoreParts[]) => void;
}

export interface GeneEvidence {
  /**
   * The phenotype fit of the gene's best disease: from its HPO annotations, or — for a disease
   * without annotations — from the features named in its title. Null when the gene has no disease.
   */
  phenotype: PhenotypeEvidence | null;
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

/** A gene under the hypothesis it is ranked on, with its score parts and combined score. */
interface GeneScore extends Hypothesis {
  symbol: string;
  ln: number;
  parts: GeneScoreParts;
}

function varRef(q: QualifyingVariant): VariantRef {
  const v = q.variant;
  return { chrom: v.chrom, pos: v.pos, ref: v.ref, alt: v.alt, hgvsC: v.hgvsC, hgvsP: v.hgvsP, zygosity: reportedZygosity(v.chrom, v.genotype), pathogenicity: q.p };
}

function describeVariant(q: QualifyingVariant): string {
  const v = q.variant;
  const parts = [`${v.gene ?? '?'} ${v.hgvsC ?? `${v.chrom}:${v.pos} ${v.ref}>${v.alt}`}${v.hgvsP ? ` (${v.hgvsP})` : ''}`, reportedZygosity(v.chrom, v.genotype), `${v.consequences[0] ?? 'unknown consequence'}${v.codingOutcome?.length ? `, ${describeCodingOutcome(v.codingOutcome)}` : ''}`, `pathogenicity ${q.p.toFixed(2)}`];
  if (v.clinvar) parts.push(`ClinVar ${v.clinvar.significance}${v.clinvar.stars ? ` (${v.clinvar.stars}★)` : ''}${v.clinvar.match === 'exact' ? '' : ` at the ${v.clinvar.match.replace(/_/g, ' ')}`}`);
  parts.push(`ACMG ${v.acmg.classification}${v.acmg.criteria.length ? ` [${v.acmg.criteria.map((c) => c.code).join(', ')}]` : ''}`);
  parts.push(v.af == null ? 'no population frequency known' : `AF ${v.af.toPrecision(2)}`);
  return parts.join('; ');
}

/** The id of a hypothesis's disease (null for a new disease of the gene). */
function diseaseIdOf(ctx: PrioritiserContext, d: DiseaseHypothesis): string | null {
  if (d.source === 'annotations' || d.source === 'allelic') return ctx.model.diseases[d.disease]?.id ?? null;
  if (d.source === 'series') return getBorrowedProfiles(ctx.model).profiles[d.profile]?.disease.id ?? null;
  return d.source === 'disease-name' ? d.disease.id : null;
}

/** One gene under one disease hypothesis, scored by the prioritisers and combined by geneScoreLn; null when the hypothesis has no mode of inheritance. */
function scoreHypothesis(ctx: PrioritiserContext, gv: GeneVariants, disease: DiseaseHypothesis, k: GeneScoreConstants): GeneScore | null {
  const fit = inheritancePrioritiser.bestFit(ctx, gv, disease);
  if (!fit) return null;
  const parts = hypothesisParts(ctx, { gv, disease, fit });
  return { gv, disease, fit, symbol: gv.symbol, parts, ln: geneScoreLn(parts, k) };
}

/**
 * Does `cand` replace `best` as the hypothesis a gene is ranked on? A higher score wins; a tie
 * between two diseases of the same kind goes to the first disease id (compareDiseaseIds); else
 * the earlier hypothesis stays (an annotated disease, one known by name, a possibly allelic one,
 * a new one).
 */
function better(ctx: PrioritiserContext, cand: GeneScore, best: GeneScore | null): boolean {
  if (!best || cand.ln > best.ln) return true;
  if (cand.ln !== best.ln || cand.disease.source !== best.disease.source || cand.disease.source === 'none') return false;
  return compareDiseaseIds(diseaseIdOf(ctx, cand.disease) ?? '', diseaseIdOf(ctx, best.disease) ?? '') < 0;
}

/** Ranks diseases, genes and variants for prepared variants and a phenotype. */
export function rank(prepared: PreparedVariants, kb: HpoKb, phenotype: CasePhenotype, options: RankOptions = {}): CaseRankingResult {
  const model = getPhenotypeModel(kb);
  const scoring = options.scoring ?? DEFAULT_SCORING_OPTIONS;
  const k: GeneScoreConstants = { ...DEFAULT_GENE_SCORE_CONSTANTS, ...options.constants };
  const w = k.genotypeWeight;
  const explainTop = options.explainTop ?? 100;
  const limit = options.limit ?? 200;
  const explainVariants = options.explainVariants ?? true;
  const query = resolveQuery(model, { present: phenotype.hpoPresent, excluded: phenotype.hpoExcluded ?? [] }, scoring);
  const pheno = scoreDiseases(model, query, scoring);
  const borrowed = scoreBorrowed(model, query, scoring);
  const profiles = getBorrowedProfiles(model);
  const ctx = prioritiserContext({ kb, model, query, scoring, pheno, borrowed, sex: phenotype.sex ?? 'unknown', family: options.family ?? null, fitFloor: options.fitFloor ?? DEFAULT_FIT_FLOOR, constants: k });
  const floorLn = w * fitLn(ctx, 0);

  // Genes with variants: every hypothesis scored by the prioritisers, combined by geneScoreLn; the
  // gene takes its best. Each annotated disease keeps the best genotype term among its genes.
  const geneScores: GeneScore[] = [];
  const bestFitOfDisease = new Float64Array(model.diseases.length).fill(floorLn);
  const bestFitOfProfile = new Float64Array(borrowed.length).fill(floorLn);
  const onCandidates = options.onGeneCandidates;
  // The hypotheses of a gene compete in this order: its annotated diseases, its diseases known only
  // by name (gene–disease link order), a possibly allelic disease, a new disease of the gene.
  for (const gv of prepared.genes.values()) {
    let best: GeneScore | null = null;
    const candidates: GeneScoreParts[] | null = onCandidates ? [] : null;
    const links = kb.genes.get(gv.symbol)?.diseases ?? [];
    // The annotated disease with the strongest phenotype evidence (for a possibly allelic disease).
    let bestPhenotype = -1;
    for (const link of links) {
      if (link.association === 'POLYGENIC') continue;
      const d = model.diseaseIndex.get(link.id);
      if (d === undefined) continue;
      const cand = scoreHypothesis(ctx, gv, { source: 'annotations', disease: d }, k);
      if (!cand) continue;
      candidates?.push(cand.parts);
      const g = w * cand.parts.fitLn;
      if (g > (bestFitOfDisease[d] ?? -Infinity)) bestFitOfDisease[d] = g;
      if (bestPhenotype < 0 || (pheno[d] ?? 0) > (pheno[bestPhenotype] ?? 0) || ((pheno[d] ?? 0) === (pheno[bestPhenotype] ?? 0) && compareDiseaseIds(model.diseases[d]?.id ?? '', model.diseases[bestPhenotype]?.id ?? '') < 0)) bestPhenotype = d;
      if (better(ctx, cand, best)) best = cand;
    }
    const rest: DiseaseHypothesis[] = [];
    for (const link of links) {
      if (link.association === 'POLYGENIC') continue;
      const nd = kb.namedDiseases.get(link.id);
      if (!nd) continue;
      const b = profiles.byId.get(link.id);
      if (b !== undefined) rest.push({ source: 'series', profile: b });
      rest.push({ source: 'disease-name', disease: nd });
    }
    if (bestPhenotype >= 0) rest.push({ source: 'allelic', disease: bestPhenotype });
    // A new disease of this gene (inheritance unknown) is the floor: never lose a candidate.
    rest.push({ source: 'none' });
    for (const disease of rest) {
      const cand = scoreHypothesis(ctx, gv, disease, k);
      if (!cand) continue;
      candidates?.push(cand.parts);
      if (disease.source === 'series') bestFitOfProfile[disease.profile] = Math.max(bestFitOfProfile[disease.profile] ?? floorLn, w * cand.parts.fitLn);
      if (better(ctx, cand, best)) best = cand;
    }
    if (candidates) onCandidates?.(gv.symbol, candidates);
    if (best) geneScores.push(best);
  }
  geneScores.sort((a, b) => b.ln - a.ln || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));

  // Diseases: phenotype LR x best genotype fit among the disease's genes (floor when none).
  const combined = new Float64Array(model.diseases.length);
  for (let d = 0; d < combined.length; d++) combined[d] = phenotypeTerm(pheno[d] ?? 0, k.phenotypeScale) + (bestFitOfDisease[d] ?? floorLn);
  // Diseases known only by name, on their borrowed profiles: the same, with their prior.
  const combinedBorrowed = new Float64Array(borrowed.length);
  for (let i = 0; i < borrowed.length; i++) {
    // A 'similar-titles' profile ranks genes only (not listed among the diseases; rank-phenotype.ts borrowedScores).
    combinedBorrowed[i] = profiles.profiles[i]?.kind === 'series' ? phenotypeTerm((borrowed[i] ?? 0) + GENOTYPE_SERIES_PRIOR_LN, k.phenotypeScale) + (bestFitOfProfile[i] ?? floorLn) : -Infinity;
  }
  const diseaseResult = buildPhenotypeResult(model, query, combined, Math.min(explainTop, 20), scoring, options.diseaseLimit ?? limit, options.diseaseCalibration ?? DISEASE_CALIBRATION, combinedBorrowed);

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
    genes.push(explainGene(ctx, g, i + 1, probability[i] ?? 0, i < explainTop, k));
  }

  // Variants: in gene order; within a gene, contributing variants first, then by pathogenicity.
  // A variant of the gene's best genotype scores the gene's score; any other variant scores what
  // the gene would with that variant alone under the same mode (an AR gene's heterozygous variant
  // alone: a single hit), never more than the gene: a variant outside the best genotype does not
  // outrank one inside it (rank-analysis.md, session 13).
  // Under a one-hit mode (dominant, unknown, mitochondrial) one of the gene's variants is the cause:
  // each variant also carries its share of the gene's pathogenicity, VARIANT_SHARE_WEIGHT · ln(p / Σ p).
  const variants: RankedVariant[] = [];
  for (const g of geneScores) {
    if (variants.length >= limit) break;
    const used = new Set(g.fit.used);
    const order = g.gv.variants.map((qv, i) => ({ qv, i })).sort((a, b) => Number(used.has(b.i)) - Number(used.has(a.i)) || b.qv.p - a.qv.p || a.i - b.i);
    const oneHit = ONE_HIT_MODES.has(g.fit.mode);
    const totalP = oneHit ? g.gv.variants.reduce((t, q) => t + Math.max(q.p, ctx.fitFloor), 0) : 0;
    for (const { qv, i } of order) {
      if (variants.length >= limit) break;
      const contributes = used.has(i);
      const alone = contributes ? null : variantsFit(ctx, [qv], g.fit.mode);
      const shareLn = oneHit ? Math.log(Math.max(qv.p, ctx.fitFloor) / totalP) : 0;
      const score = (g.ln + (alone ? Math.min(0, w * (fitLn(ctx, alone.score) - fitLn(ctx, g.fit.score))) : 0) + VARIANT_SHARE_WEIGHT * shareLn) / LN10;
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
        explanation: explainVariants
          ? [describeVariant(qv), (contributes || !alone ? `Part of the best genotype for ${g.symbol} (gene rank ${geneRank.get(g.symbol) ?? '?'}): ${g.fit.reason}` : `Not needed for ${g.symbol}'s best genotype fit (${g.fit.score.toFixed(2)}); alone: ${alone.reason} (genotype fit ${alone.score.toFixed(2)})`) + shareText(g, shareLn)]
          : [],
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

/** The variant's share of its gene's pathogenicity in the variant's score, when the gene has several variants under a one-hit mode. */
function shareText(g: GeneScore, shareLn: number): string {
  if (!ONE_HIT_MODES.has(g.fit.mode) || g.gv.variants.length < 2) return '';
  return `; one of ${g.gv.variants.length} variants of ${g.symbol}, where one is enough (${MODE_LABELS[g.fit.mode]}): ${(100 * Math.exp(shareLn)).toFixed(0)} % of their pathogenicity (${((VARIANT_SHARE_WEIGHT * shareLn) / LN10).toFixed(2)} on the score)`;
}

/** What the prior of a gene's phenotype part is for (phenotypePartText). */
const PRIOR_FOR: Record<GeneScoreParts['source'], string> = {
  annotations: '',
  allelic: 'a possibly allelic disease',
  series: 'a disease profiled from its series',
  'similar-titles': 'a disease profiled from similar titles',
  'disease-name': 'a disease known only by name',
  none: 'a gene with no disease',
};

/**
 * How the phenotype part of a gene's score comes from the best disease's likelihood ratio (the
 * LR line above it gives the full LR; the score counts a share of it, tempered above 10^10, plus
 * the prior of a disease the gene is ranked on by another route), so the two figures do not seem to disagree.
 */
export function phenotypePartText(p: GeneScoreParts, k: GeneScoreConstants): string | null {
  const l10 = (x: number): string => (x / LN10).toFixed(2);
  if (p.source === 'none') return null;
  const prior = genePriorLn(p.source, k);
  const priorFor = PRIOR_FOR[p.source];
  const tempered = p.source === 'disease-name' ? p.phenotypeLn : temperLn(p.phenotypeLn);
  const scale = p.source === 'disease-name' ? k.namePhenotypeScale : k.phenotypeScale;
  const lr = `log10 LR ${l10(p.phenotypeLn)}${tempered !== p.phenotypeLn ? ` tempered to ${l10(tempered)} (the part above 10 counts half)` : ''}`;
  return `Phenotype part of the score: ${scale} × ${lr}${prior ? ` + prior ${l10(prior)} for ${priorFor}` : ''} = ${l10(genePhenotypeLn(p, k))}`;
}

/** A gene's explanation: each prioritiser's lines for the hypothesis it is ranked on, its variants, then the score's parts. */
function explainGene(ctx: PrioritiserContext, g: GeneScore, rankNo: number, post: number, withTerms: boolean, k: GeneScoreConstants): RankedGene {
  const used = g.fit.used.map((i) => g.gv.variants[i]).filter((x): x is QualifyingVariant => x != null);
  const lines: string[] = [];
  for (const p of GENE_PRIORITISERS) lines.push(...p.explain(ctx, g, withTerms));
  for (const qv of used) lines.push(`Variant: ${describeVariant(qv)}`);
  const l10 = (x: number): string => (x / LN10).toFixed(2);
  const phenoPart = g.parts.source === 'none' ? `prior for a gene with no disease ${l10(k.unknownGeneLn)}` : `${g.parts.source === 'annotations' ? 'phenotype' : g.parts.source === 'allelic' ? 'phenotype and allelic-disease prior' : g.parts.source === 'series' ? 'phenotype borrowed from the series and prior' : g.parts.source === 'similar-titles' ? 'phenotype inferred from similar disease titles and prior' : 'disease-name phenotype and prior'} ${l10(genePhenotypeLn(g.parts, k))}`;
  const phenoDetail = phenotypePartText(g.parts, k);
  if (phenoDetail) lines.push(phenoDetail);
  lines.push(
    `Score (log10): ${phenoPart} + genotype ${l10(k.genotypeWeight * g.parts.fitLn)}${g.parts.constraint ? ` + constraint ${l10(geneConstraintLn(g.parts, k))}` : ''}${geneClinvarLn(g.parts, k) ? ` + ClinVar pathogenic allele in a gene without an annotated disease fit ${l10(geneClinvarLn(g.parts, k))}` : ''} = ${l10(g.ln)}; post-test probability ${formatProbability(post)}`,
  );
  return {
    symbol: g.symbol,
    rank: rankNo,
    score: g.ln / LN10,
    scoreParts: g.parts,
    postTestProbability: post,
    bestDisease: diseaseIdOf(ctx, g.disease),
    explanation: lines,
    evidence: {
      phenotype: phenotypePrioritiser.evidence(ctx, g, withTerms),
      genotype: { mode: g.fit.mode, modeLabel: MODE_LABELS[g.fit.mode], fit: g.fit.score, reason: g.fit.reason, variants: used.map(varRef), ...(g.fit.pattern ? { pattern: g.fit.pattern } : {}) },
    },
  };
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
