/**
 * Evidence lookups shared by the answers: a gene's best disease and the per-term breakdown of
 * its likelihood ratio (the ranking's own arithmetic, engine `explainDisease`), a disease's
 * typical features the patient was not recorded with, and the case's variants of a gene.
 */
import {
  explainDisease,
  getPhenotypeModel,
  reportedCounts,
  resolveQuery,
  scoreNamedDisease,
  type ExcludedTermEffect,
  type HpoDisease,
  type PhenotypeModel,
  type ResolvedQuery,
  type TermMatch,
} from '@rarelens/engine';
import type { CaseContext, CaseDisease, CaseGene, CaseVariant } from './context.ts';
import type { ChatKnowledge } from './knowledge.ts';

export interface BestDisease {
  /** The id the case's disease list shows (its group's representative). */
  id: string;
  /** The id the gene's score was computed on (a member of the same group). */
  scoredId: string;
  name: string;
  /** log10 of the phenotype likelihood ratio the gene took from it. */
  log10Lr: number;
  /** The ranked disease of the case, when it is in the stored list. */
  ranked: CaseDisease | null;
}

const queries = new WeakMap<CaseContext, ResolvedQuery>();

/** Resolves the patient's terms against the phenotype model once per case (the first answer then skips it). */
export function prepareEvidence(ctx: CaseContext, knowledge: ChatKnowledge): void {
  if (ctx.run) modelAndQuery(ctx, knowledge);
}

function modelAndQuery(ctx: CaseContext, knowledge: ChatKnowledge): { model: PhenotypeModel; q: ResolvedQuery } {
  const model = getPhenotypeModel(knowledge.hpo);
  let q = queries.get(ctx);
  if (!q) {
    q = resolveQuery(model, { present: ctx.product.hpoTerms.map((t) => t.id), excluded: ctx.product.excludedTerms.map((t) => t.id) });
    queries.set(ctx, q);
  }
  return { model, q };
}

export function rankedDisease(ctx: CaseContext, id: string): CaseDisease | null {
  return ctx.diseases.find((d) => d.id === id || d.mergedIds.includes(id)) ?? null;
}

/**
 * The annotated disease behind a gene's phenotype score, from the engine's stored phenotype
 * source ('annotations' or 'allelic'); null for a gene ranked on a disease's name, as a possible
 * new disease, or by an analysis that predates the stored source.
 */
export function bestDiseaseOf(ctx: CaseContext, gene: CaseGene): BestDisease | null {
  const s = gene.phenotypeSource;
  if (!s?.disease || (s.source !== 'annotations' && s.source !== 'allelic')) return null;
  // The ranked list names a disease by its group's representative id (OMIM before ORPHA).
  const ranked = rankedDisease(ctx, s.disease.id);
  return { id: ranked?.id ?? s.disease.id, scoredId: s.disease.id, name: ranked?.name ?? s.disease.label, log10Lr: gene.phenotypeScore, ranked };
}

/** What a disease known only by its name states (its name's HPO features) and which of the patient's terms they explain (engine `scoreNamedDisease`); null when the KB lacks it. */
export function nameBreakdown(ctx: CaseContext, knowledge: ChatKnowledge, diseaseId: string): { named: string[]; matched: TermMatch[] } | null {
  const nd = knowledge.hpo.namedDiseases.get(diseaseId);
  if (!nd) return null;
  const { model, q } = modelAndQuery(ctx, knowledge);
  return { named: nd.nameTerms.map((t) => knowledge.hpo.ontology.label(t) ?? t), matched: scoreNamedDisease(model, q, nd).matched };
}

/** One line of a gene's stored explanation by its prefix ("Inheritance:", "Gene constraint:"), without the prefix. */
export function explanationLine(gene: CaseGene, prefix: string): string | null {
  const line = gene.explanation.find((l) => l.startsWith(prefix));
  return line ? line.slice(prefix.length).trim() : null;
}

export interface TermBreakdown {
  matched: TermMatch[];
  excluded: ExcludedTermEffect[];
}

/** How each of the patient's terms counts for or against a disease (null when the KB lacks the disease). */
export function termBreakdown(ctx: CaseContext, knowledge: ChatKnowledge, diseaseId: string): TermBreakdown | null {
  const { model, q } = modelAndQuery(ctx, knowledge);
  const d = model.diseaseIndex.get(diseaseId);
  if (d === undefined) return null;
  return explainDisease(model, q, d);
}

export function kbDisease(knowledge: ChatKnowledge, id: string, ranked?: CaseDisease | null): HpoDisease | undefined {
  const own = knowledge.hpo.diseaseById.get(id);
  if (own && own.annotations.length > 0) return own;
  for (const other of ranked?.mergedIds ?? []) {
    const d = knowledge.hpo.diseaseById.get(other);
    if (d && d.annotations.length > 0) return d;
  }
  return own;
}

export interface MissingFeature {
  id: string;
  label: string;
  /** Probability a patient with the disease shows it; null when the source states none. */
  frequency: number | null;
  frequencyText: string | null;
}

/**
 * Typical features of a disease that the patient's record neither has nor excludes (no
 * present or excluded term is the feature, a more specific form of it or a more general one),
 * most frequent first. These are what to examine next.
 */
export function missingFeatures(ctx: CaseContext, knowledge: ChatKnowledge, disease: HpoDisease, limit = 8): MissingFeature[] {
  const ontology = knowledge.hpo.ontology;
  const recorded = [...ctx.product.hpoTerms, ...ctx.product.excludedTerms].map((t) => ontology.resolve(t.id)).filter((x): x is string => !!x);
  const related = (a: string) => recorded.some((r) => ontology.isA(r, a) || ontology.isA(a, r));
  const out: MissingFeature[] = [];
  const seen = new Set<string>();
  const annotations = [...disease.annotations].sort((a, b) => (b.frequency ?? 0.4) - (a.frequency ?? 0.4) || a.term.localeCompare(b.term));
  for (const a of annotations) {
    if (seen.has(a.term) || related(a.term)) continue;
    if (a.frequency != null && a.frequency < 0.25) continue;
    // A feature implied by another listed one is the same examination.
    if (out.some((f) => ontology.isA(f.id, a.term))) continue;
    seen.add(a.term);
    out.push({ id: a.term, label: ontology.label(a.term) ?? a.term, frequency: a.frequency, frequencyText: a.frequencyText });
    if (out.length >= limit) break;
  }
  return out;
}

export function variantsOfGene(ctx: CaseContext, symbol: string): CaseVariant[] {
  return ctx.variants.filter((v) => v.gene === symbol).sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9));
}

export function formatFrequency(frequency: number | null, text: string | null): string {
  if (frequency == null) return 'frequency not stated';
  const counts = reportedCounts(frequency, text);
  return `${Math.round(frequency * 100)} % of patients${counts ? ` (${counts})` : ''}`;
}

export function formatLr(lr: number): string {
  if (lr >= 100) return lr.toFixed(0);
  if (lr >= 10) return lr.toFixed(1);
  return lr.toPrecision(2);
}
