/**
 * The prioritisers of the gene ranking, as values (Exomiser style): each looks at one gene under one
 * disease hypothesis — one of the gene's annotated diseases, a possibly allelic disease (an
 * annotated disease's phenotype, inheritance unknown), a disease known only by name, or a new
 * disease of the gene — and gives its part of the gene's score (`GeneScoreParts`) and, for the
 * hypothesis the gene is ranked on, the lines that say why.
 *  - inheritance: the best genotype fit over the hypothesis's modes of inheritance (inheritance.ts,
 *    or the family's genotypes through family/segregation.ts);
 *  - phenotype: the patient's terms against the disease's annotations, or against the features its
 *    name states (phenotype/name-evidence.ts), or nothing (a new disease of the gene);
 *  - gene constraint: a LoF variant in a LoF-intolerant gene with a dominant-like fit, a missense in
 *    a missense-constrained gene (gnomAD);
 *  - ClinVar: the fit uses an allele ClinVar calls pathogenic.
 * `rank` (rank-case.ts) runs them over every hypothesis and combines the parts with `geneScoreLn`
 * (gene-score.ts), the one combining step.
 */
import type { HpoKb, NamedDisease } from '../kb/hpo-kb.ts';
import type { PhenotypeModel } from '../phenotype/model.ts';
import { scoreNamedDisease, type NameEvidence } from '../phenotype/name-evidence.ts';
import { describeBorrowed, explainBorrowed, getBorrowedProfiles, type BorrowedProfile } from '../phenotype/series.ts';
import { describeOnset, getDiseaseGroups } from '../phenotype/rank-phenotype.ts';
import { explainDisease, type PhenotypeScoringOptions, type ResolvedQuery, type TermMatch } from '../phenotype/score.ts';
import type { Sex } from '../types.ts';
import { familyGenotypeFit, type FamilyContext } from '../family/segregation.ts';
import { DEFAULT_GENE_SCORE_CONSTANTS, type GeneScoreConstants, type GeneScoreParts } from './gene-score.ts';
import { clinvarPathogenic, genotypeFit, MODE_LABELS, modesOf, type GenotypeFit, type InheritanceMode, type QualifyingVariant } from './inheritance.ts';
import type { GeneVariants } from './prepare.ts';

/** Which disease a gene is scored for. */
export type DiseaseHypothesis =
  /** An annotated disease (index into the phenotype model). */
  | { source: 'annotations'; disease: number }
  /**
   * A possibly allelic disease: the phenotype of the annotated disease `disease` with the genotype
   * fit of unknown inheritance (the gene's genotype does not fit that disease's stated mode).
   */
  | { source: 'allelic'; disease: number }
  /** A disease known only by name (no phenotype annotations yet), on the features its title names. */
  | { source: 'disease-name'; disease: NamedDisease }
  /** A disease known only by name, on its borrowed profile: its series' or its similar titles' phenotype (index into getBorrowedProfiles). */
  | { source: 'series'; profile: number }
  /** A new disease of the gene, inheritance unknown: the floor, so no candidate is ever lost. */
  | { source: 'none' };

/** A gene under one disease hypothesis, with the inheritance prioritiser's genotype fit. */
export interface Hypothesis {
  gv: GeneVariants;
  disease: DiseaseHypothesis;
  fit: GenotypeFit;
}

/** What the prioritisers read of the case; built once per ranking (`prioritiserContext`). */
export interface PrioritiserContext {
  kb: HpoKb;
  model: PhenotypeModel;
  query: ResolvedQuery;
  scoring: PhenotypeScoringOptions;
  /** Natural-log phenotype LR of every annotated disease (phenotype/score.ts scoreDiseases). */
  pheno: Float64Array;
  /** Natural-log LR of every borrowed profile, without prior (phenotype/series.ts scoreBorrowed). */
  borrowed: Float64Array;
  sex: Sex;
  /** The case's family: genotype fits use the relatives' genotypes. */
  family: FamilyContext | null;
  /** Lowest genotype fit (keeps the log finite). */
  fitFloor: number;
  /** The gene-score constants (explanations quote the priors). */
  constants: GeneScoreConstants;
  /** Per-ranking caches (pure functions of their keys). */
  cache: { fits: Map<string, GenotypeFit>; names: Map<string, NameEvidence>; matched: Map<number, TermMatch[]> };
}

export function prioritiserContext(c: Omit<PrioritiserContext, 'cache'>): PrioritiserContext {
  return { ...c, cache: { fits: new Map(), names: new Map(), matched: new Map() } };
}

/** A prioritiser: one step of the gene ranking, its part of the score and its explanation. */
export interface GenePrioritiser<K extends keyof GeneScoreParts> {
  readonly id: string;
  /** This step's part of the gene's score under the hypothesis. */
  evaluate(ctx: PrioritiserContext, h: Hypothesis): Pick<GeneScoreParts, K>;
  /** Why: the lines this step adds to the explanation of the hypothesis a gene is ranked on (`withTerms`: name the matching phenotype terms). */
  explain(ctx: PrioritiserContext, h: Hypothesis, withTerms: boolean): string[];
}

// ---------------------------------------------------------------------------------------------
// Inheritance

/**
 * Inheritance terms of a disease; when it has none (common for Orphanet entries), those of the
 * equivalent entries of the same Mondo disease.
 */
export function inheritanceOf(model: PhenotypeModel, d: number): string[] {
  const own = model.diseases[d]?.inheritance ?? [];
  if (own.length) return own;
  const groups = getDiseaseGroups(model);
  const out = new Set<string>();
  for (const m of groups.members[groups.groupOf[d] ?? 0] ?? []) for (const t of model.diseases[m]?.inheritance ?? []) out.add(t);
  return [...out];
}

function modesOfHypothesis(ctx: PrioritiserContext, d: DiseaseHypothesis): InheritanceMode[] {
  switch (d.source) {
    case 'annotations':
      return modesOf(inheritanceOf(ctx.model, d.disease));
    case 'disease-name':
      return modesOf(d.disease.inheritance);
    case 'series':
      return modesOf(profileOf(ctx, d.profile).disease.inheritance);
    case 'allelic':
    case 'none':
      return ['UNKNOWN'];
    default: {
      const never: never = d;
      throw new Error(`unknown disease hypothesis ${JSON.stringify(never)}`);
    }
  }
}

/** The genotype fit of variants (sorted by pathogenicity) under one mode: the family's genotypes when there is a family. */
export function variantsFit(ctx: Pick<PrioritiserContext, 'family' | 'sex'>, vs: readonly QualifyingVariant[], mode: InheritanceMode): GenotypeFit {
  return ctx.family ? familyGenotypeFit(vs, mode, ctx.sex, ctx.family) : genotypeFit(vs, mode, ctx.sex);
}

/** The genotype fit of the gene's variants under one mode (cached per gene and mode). */
function fitOf(ctx: PrioritiserContext, gv: GeneVariants, mode: InheritanceMode): GenotypeFit {
  const key = `${gv.symbol}|${mode}`;
  let f = ctx.cache.fits.get(key);
  if (!f) {
    f = variantsFit(ctx, gv.variants, mode);
    ctx.cache.fits.set(key, f);
  }
  return f;
}

/** ln(max(fit, floor)): the genotype part of a score, before its weight. */
export function fitLn(ctx: Pick<PrioritiserContext, 'fitFloor'>, fit: number): number {
  return Math.log(Math.max(fit, ctx.fitFloor));
}

export const inheritancePrioritiser: GenePrioritiser<'fitLn'> & {
  /** The best genotype fit over the hypothesis's modes (the first mode wins a tie); null when it has none. */
  bestFit(ctx: PrioritiserContext, gv: GeneVariants, d: DiseaseHypothesis): GenotypeFit | null;
} = {
  id: 'inheritance',
  bestFit(ctx, gv, d) {
    let fit: GenotypeFit | null = null;
    for (const mode of modesOfHypothesis(ctx, d)) {
      const f = fitOf(ctx, gv, mode);
      if (!fit || f.score > fit.score) fit = f;
    }
    return fit;
  },
  evaluate: (ctx, h) => ({ fitLn: fitLn(ctx, h.fit.score) }),
  explain: (_ctx, h) => [`Inheritance: ${MODE_LABELS[h.fit.mode]} — ${h.fit.reason} (genotype fit ${h.fit.score.toFixed(2)})`],
};

// ---------------------------------------------------------------------------------------------
// Phenotype

const LN10 = Math.log(10);

function profileOf(ctx: PrioritiserContext, i: number): BorrowedProfile {
  const p = getBorrowedProfiles(ctx.model).profiles[i];
  if (!p) throw new Error(`internal: borrowed profile ${i} missing`);
  return p;
}

/** The phenotype evidence a gene is ranked on (null for a new disease of the gene). */
export interface PhenotypeEvidence {
  diseaseId: string;
  diseaseName: string;
  source: 'annotations' | 'series' | 'similar-titles' | 'disease-name';
  log10Lr: number;
  matched: TermMatch[];
}

function nameEvidence(ctx: PrioritiserContext, nd: NamedDisease): NameEvidence {
  let e = ctx.cache.names.get(nd.id);
  if (!e) {
    e = scoreNamedDisease(ctx.model, ctx.query, nd, ctx.scoring);
    ctx.cache.names.set(nd.id, e);
  }
  return e;
}

function matchedTerms(ctx: PrioritiserContext, d: number): TermMatch[] {
  let m = ctx.cache.matched.get(d);
  if (!m) {
    m = explainDisease(ctx.model, ctx.query, d, ctx.scoring).matched;
    ctx.cache.matched.set(d, m);
  }
  return m;
}

/** Is the gene linked to a disease with phenotype annotations? */
function hasAnnotatedDisease(model: PhenotypeModel, symbol: string): boolean {
  return (model.kb.genes.get(symbol)?.diseases ?? []).some((l) => l.association !== 'POLYGENIC' && model.diseaseIndex.has(l.id));
}

/** Is the gene linked to any (annotated or named) disease? */
function kbHasDisease(model: PhenotypeModel, symbol: string): boolean {
  return (model.kb.genes.get(symbol)?.diseases ?? []).some((l) => l.association !== 'POLYGENIC' && (model.diseaseIndex.has(l.id) || model.kb.namedDiseases.has(l.id)));
}

/** The phenotype evidence of a hypothesis (null for a new disease of the gene); the matched terms of an annotated disease only when `withTerms`. */
function phenotypeEvidence(ctx: PrioritiserContext, h: Hypothesis, withTerms: boolean): PhenotypeEvidence | null {
  const d = h.disease;
  if (d.source === 'annotations' || d.source === 'allelic') {
    const dis = ctx.model.diseases[d.disease];
    if (!dis) return null;
    return { diseaseId: dis.id, diseaseName: dis.name, source: 'annotations', log10Lr: (ctx.pheno[d.disease] ?? 0) / LN10, matched: withTerms ? matchedTerms(ctx, d.disease) : [] };
  }
  if (d.source === 'series') {
    const p = profileOf(ctx, d.profile);
    return { diseaseId: p.disease.id, diseaseName: p.disease.name, source: p.kind, log10Lr: (ctx.borrowed[d.profile] ?? 0) / LN10, matched: withTerms ? explainBorrowed(ctx.model, ctx.query, p, ctx.scoring).matched : [] };
  }
  if (d.source === 'disease-name') {
    const e = nameEvidence(ctx, d.disease);
    return { diseaseId: d.disease.id, diseaseName: d.disease.name, source: 'disease-name', log10Lr: e.ln / LN10, matched: e.matched };
  }
  return null;
}

function explainPhenotype(ctx: PrioritiserContext, h: Hypothesis, withTerms: boolean): string[] {
  const d = h.disease;
  const symbol = h.gv.symbol;
  const model = ctx.model;
  const ev = phenotypeEvidence(ctx, h, withTerms);
  if ((d.source === 'annotations' || d.source === 'allelic') && ev) {
    const lines: string[] = [];
    const hits = ev.matched.filter((m) => m.kind === 'exact' || m.kind === 'implied').map((m) => m.label);
    lines.push(`Phenotype: ${ev.diseaseName} (${ev.diseaseId}), likelihood ratio 10^${ev.log10Lr.toFixed(1)}${hits.length ? `; matching features: ${hits.join(', ')}` : ''}`);
    // The patient's onset is part of that likelihood ratio: its own line.
    const onset = ev.matched.find((m) => m.kind === 'onset');
    if (onset) lines.push(describeOnset(onset));
    const groups = getDiseaseGroups(model);
    const groupMembers = groups.members[groups.groupOf[d.disease] ?? 0] ?? [];
    if (groupMembers.length > 1) lines.push(`Same disease as ${groupMembers.filter((x) => x !== d.disease).map((x) => model.diseases[x]?.id).join(', ')} (Mondo ${model.diseases[d.disease]?.mondo ?? ''})`);
    if (d.source === 'allelic')
      lines.push(
        `Possibly allelic disease (${symbol}): the genotype does not fit the stated inheritance of ${ev.diseaseId} (${inheritanceOf(model, d.disease).map((t) => model.kb.ontology.label(t) ?? t).join(', ') || 'none stated'}); ranked on its phenotype as a related disease of the same gene with unknown inheritance (prior 10^${(ctx.constants.allelicDiseaseLn / LN10).toFixed(2)})`,
      );
    return lines;
  }
  if (d.source === 'series' && ev) {
    const p = profileOf(ctx, d.profile);
    const hits = ev.matched.filter((m) => m.kind === 'exact' || m.kind === 'implied').map((m) => m.label);
    return [
      `${hasAnnotatedDisease(model, symbol) ? 'No annotated disease of this gene fits better' : 'No annotated disease for this gene'} (${symbol}): its disease ${p.disease.name} (${p.disease.id}) has ${describeBorrowed(p)}; likelihood ratio 10^${ev.log10Lr.toFixed(1)}${hits.length ? `; matching features: ${hits.join(', ')}` : ''} (prior 10^${((p.kind === 'series' ? ctx.constants.seriesDiseaseLn : ctx.constants.similarTitlesDiseaseLn) / LN10).toFixed(2)})`,
    ];
  }
  if (d.source === 'disease-name' && ev) {
    const nd = d.disease;
    const named = nd.nameTerms.map((t) => model.kb.ontology.label(t) ?? t);
    return [
      `${hasAnnotatedDisease(model, symbol) ? 'No annotated disease of this gene fits better' : 'No annotated disease for this gene'} (${symbol}): its disease ${nd.name} (${nd.id}) has no HPO phenotype annotations yet; ranked on ${
        named.length ? `the features its name states (${named.join(', ')}; likelihood ratio 10^${ev.log10Lr.toFixed(1)}${ev.matched.length ? `, matching ${ev.matched.map((m) => m.label).join(', ')}` : ', none matching the patient'}), ` : ''
      }its variants and gene constraint`,
    ];
  }
  if (kbHasDisease(model, symbol))
    return [`No annotated disease of this gene fits better (${symbol}): ranked as a possible new disease of the gene (inheritance unknown) on its variants and gene constraint; its known diseases fit the phenotype or genotype less well`];
  return [`No annotated disease for this gene (${symbol}): ranked on its variants and gene constraint alone`];
}

export const phenotypePrioritiser: GenePrioritiser<'source' | 'phenotypeLn'> & {
  /** The phenotype evidence of the hypothesis; the matched terms of an annotated disease only when `withTerms`. */
  evidence(ctx: PrioritiserContext, h: Hypothesis, withTerms: boolean): PhenotypeEvidence | null;
} = {
  id: 'phenotype',
  evaluate(ctx, h) {
    const d = h.disease;
    switch (d.source) {
      case 'annotations':
      case 'allelic':
        return { source: d.source, phenotypeLn: ctx.pheno[d.disease] ?? 0 };
      case 'disease-name':
        return { source: 'disease-name', phenotypeLn: nameEvidence(ctx, d.disease).ln };
      case 'series':
        return { source: profileOf(ctx, d.profile).kind, phenotypeLn: ctx.borrowed[d.profile] ?? 0 };
      case 'none':
        return { source: 'none', phenotypeLn: 0 };
      default: {
        const never: never = d;
        throw new Error(`unknown disease hypothesis ${JSON.stringify(never)}`);
      }
    }
  },
  evidence: phenotypeEvidence,
  explain: explainPhenotype,
};

// ---------------------------------------------------------------------------------------------
// Gene constraint

const LOF_CONSEQUENCE = /frameshift|stop_gained|splice_donor_variant|splice_acceptor_variant|start_lost/;

/** Which constraint rule applies to the gene's most pathogenic variant under the chosen fit, and why. */
function constraintKind(gv: GeneVariants, mode: InheritanceMode): GeneScoreParts['constraint'] {
  const v = gv.variants[0]?.variant;
  const c = v?.geneConstraint;
  if (!v || !c) return null;
  const dominantLike = mode === 'AD' || mode === 'UNKNOWN' || mode === 'XLD' || mode === 'MT';
  if (dominantLike && LOF_CONSEQUENCE.test(v.consequences.join(',')) && ((c.pLI ?? 0) >= 0.9 || (c.loeuf != null && c.loeuf < 0.35))) return 'lof';
  if (/missense|inframe/.test(v.consequences[0] ?? '') && (c.misZ ?? 0) >= 3) return 'missense';
  return null;
}

export function constraintEvidence(gv: GeneVariants, mode: InheritanceMode): { kind: GeneScoreParts['constraint']; reason: string | null } {
  const kind = constraintKind(gv, mode);
  const c = gv.variants[0]?.variant.geneConstraint;
  if (kind === 'lof' && c) return { kind, reason: `loss-of-function variant in a LoF-intolerant gene (${c.source} pLI ${c.pLI?.toFixed(2) ?? '?'}, LOEUF ${c.loeuf?.toFixed(2) ?? '?'})` };
  if (kind === 'missense' && c) return { kind, reason: `missense variant in a missense-constrained gene (${c.source} missense Z ${c.misZ?.toFixed(2)})` };
  return { kind: null, reason: null };
}

/** Constraint evidence for the gene's most pathogenic variant under the chosen fit (log bonus with the default constants, and why). */
export function constraintBonus(gv: GeneVariants, mode: InheritanceMode, k: GeneScoreConstants = DEFAULT_GENE_SCORE_CONSTANTS): { ln: number; reason: string | null } {
  const e = constraintEvidence(gv, mode);
  return { ln: e.kind === 'lof' ? k.constrainedLofLn : e.kind === 'missense' ? k.constrainedMissenseLn : 0, reason: e.reason };
}

export const geneConstraintPrioritiser: GenePrioritiser<'constraint'> = {
  id: 'gene-constraint',
  evaluate: (_ctx, h) => ({ constraint: constraintKind(h.gv, h.fit.mode) }),
  explain(_ctx, h) {
    const { reason } = constraintEvidence(h.gv, h.fit.mode);
    return reason ? [`Gene constraint: ${reason}`] : [];
  },
};

// ---------------------------------------------------------------------------------------------
// ClinVar

export const clinvarPrioritiser: GenePrioritiser<'clinvar'> = {
  id: 'clinvar',
  evaluate: (_ctx, h) => ({
    clinvar: h.fit.used.some((i) => {
      const v = h.gv.variants[i]?.variant;
      return v ? clinvarPathogenic(v) : false;
    }),
  }),
  // The score line says when the ClinVar bonus applies; the variant lines name each allele's ClinVar call.
  explain: () => [],
};

/** The gene parts of every hypothesis, prioritiser by prioritiser (`geneScoreLn` combines them). */
export function hypothesisParts(ctx: PrioritiserContext, h: Hypothesis): GeneScoreParts {
  const phenotype = phenotypePrioritiser.evaluate(ctx, h);
  return {
    source: phenotype.source,
    phenotypeLn: phenotype.phenotypeLn,
    fitLn: inheritancePrioritiser.evaluate(ctx, h).fitLn,
    constraint: geneConstraintPrioritiser.evaluate(ctx, h).constraint,
    clinvar: clinvarPrioritiser.evaluate(ctx, h).clinvar,
  };
}

/** The prioritisers in the order their lines stand in a gene's explanation. */
export const GENE_PRIORITISERS = [phenotypePrioritiser, geneConstraintPrioritiser, inheritancePrioritiser, clinvarPrioritiser] as const;
