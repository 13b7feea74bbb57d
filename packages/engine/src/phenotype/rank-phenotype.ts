/**
 * Phenotype-only ranking of every disease in the HPO annotations, and of genes through their
 * diseases. Equivalent OMIM/Orphanet/DECIPHER entries (one Mondo class) are ranked once, under
 * one representative id, with the other ids listed in `mergedIds`.
 */
import type { HpoKb } from '../kb/hpo-kb.ts';
import { PHENOTYPE_CALIBRATION, postTestProbabilities, type Calibration } from '../rank/calibration.ts';
import { getPhenotypeModel, reportedCounts, type PhenotypeModel } from './model.ts';
import { describeBorrowed, explainBorrowed, getBorrowedProfiles, scoreBorrowed, SERIES_PRIOR_LN } from './series.ts';
import {
  DEFAULT_SCORING_OPTIONS,
  explainDisease,
  resolveQuery,
  scoreDiseases,
  type ExcludedTermEffect,
  type PhenotypeQuery,
  type PhenotypeScoringOptions,
  type ResolvedQuery,
  type TermMatch,
} from './score.ts';

export interface TermRef {
  id: string;
  label: string;
}

export interface DiseaseRanking {
  /** Representative id of the group (OMIM preferred, then ORPHA, then DECIPHER). */
  id: string;
  name: string;
  /** Other ids of the same disease (same Mondo class) merged into this rank. */
  mergedIds: string[];
  mondo: string | null;
  rank: number;
  /** log10 of the composite likelihood ratio. */
  score: number;
  /**
   * Calibrated post-test probability that this is the patient's disease (tempered softmax over
   * every disease with a "not in the annotations" alternative; rank/calibration.ts).
   */
  postTestProbability: number;
  inheritance: TermRef[];
  onset: TermRef[];
  genes: string[];
  /**
   * Where the phenotype this disease is ranked on comes from: its HPO annotations, or — for a
   * disease known only by name — a profile borrowed from the annotated diseases of its series
   * ('series'; phenotype/series.ts). 'disease-name' (a profile of the features its title names) is
   * no longer produced (session 10) but stays readable in stored runs.
   */
  phenotypeSource: 'annotations' | 'series' | 'disease-name';
  /** Present for the top `explainTop` diseases. */
  matched?: TermMatch[];
  excluded?: ExcludedTermEffect[];
  explanation?: string[];
}

export interface PhenotypeGeneRanking {
  symbol: string;
  rank: number;
  /** log10 LR of the gene's best-matching disease. */
  score: number;
  /** Representative id of that disease. */
  bestDisease: string;
  diseases: string[];
}

export interface PhenotypeRankingResult {
  hpoVersion: string;
  annotationsVersion: string;
  /** The terms used; `onset`: the patient's onset term the ranking used (score.ts resolveQuery), null when none. */
  used: { present: TermRef[]; excluded: TermRef[]; onset: TermRef | null };
  ignored: { id: string; reason: string }[];
  diseases: DiseaseRanking[];
  genes: PhenotypeGeneRanking[];
}

export interface RankPhenotypeOptions {
  /** Number of top diseases that get a per-term explanation (default 20). */
  explainTop?: number;
  /** Number of diseases and genes returned (default 200; every disease is scored). */
  limit?: number;
  scoring?: PhenotypeScoringOptions;
  /** A model built with non-default options (default: the KB's cached default model). */
  model?: PhenotypeModel;
  /** Post-test probability calibration (default PHENOTYPE_CALIBRATION, fitted by bench:rank part (a)). */
  calibration?: Calibration;
}

/** Disease groups of a model: members of one Mondo class, representative first. */
export interface DiseaseGroups {
  /** group index of each disease */
  groupOf: Int32Array;
  members: number[][];
  /** Position of each group when ordered by representative id (deterministic tie-break). */
  idOrder: Int32Array;
  /**
   * Per gene (symbol, in kb.genes order): the distinct groups of its non-polygenic diseases, then
   * its diseases known only by name that have a borrowed profile, as `members.length + profile index`.
   */
  geneGroups: { symbol: string; groups: Int32Array }[];
}

const groupCache = new WeakMap<PhenotypeModel, DiseaseGroups>();

function sourceOrder(id: string): number {
  if (id.startsWith('OMIM:')) return 0;
  if (id.startsWith('ORPHA:')) return 1;
  return 2;
}

/** Compares ids deterministically: OMIM before ORPHA before DECIPHER, then by number/text. */
export function compareDiseaseIds(a: string, b: string): number {
  const s = sourceOrder(a) - sourceOrder(b);
  if (s) return s;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Groups the model's diseases by Mondo class (diseases without one stand alone). */
export function getDiseaseGroups(model: PhenotypeModel): DiseaseGroups {
  const cached = groupCache.get(model);
  if (cached) return cached;
  const byKey = new Map<string, number[]>();
  model.diseases.forEach((d, i) => {
    const key = d.mondo ?? d.id;
    const list = byKey.get(key);
    if (list) list.push(i);
    else byKey.set(key, [i]);
  });
  const groupOf = new Int32Array(model.diseases.length);
  const members: number[][] = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => compareDiseaseIds(model.diseases[a]?.id ?? '', model.diseases[b]?.id ?? ''));
    for (const d of list) groupOf[d] = members.length;
    members.push(list);
  }
  const repIds = members.map((list) => model.diseases[list[0] ?? 0]?.id ?? '');
  const byId = Array.from(repIds.keys()).sort((a, b) => compareDiseaseIds(repIds[a] ?? '', repIds[b] ?? ''));
  const idOrder = new Int32Array(members.length);
  byId.forEach((gi, pos) => (idOrder[gi] = pos));
  const geneGroups: DiseaseGroups['geneGroups'] = [];
  const { byId: borrowed, profiles } = getBorrowedProfiles(model);
  const G = members.length;
  for (const gene of model.kb.genes.values()) {
    const gs = new Set<number>();
    for (const link of gene.diseases) {
      if (link.association === 'POLYGENIC') continue;
      const d = model.diseaseIndex.get(link.id);
      if (d !== undefined) gs.add(groupOf[d] ?? 0);
      const b = borrowed.get(link.id);
      if (b !== undefined && profiles[b]?.kind === 'series') gs.add(G + b);
    }
    if (gs.size) geneGroups.push({ symbol: gene.symbol, groups: Int32Array.from([...gs].sort((a, b) => (a < G ? (idOrder[a] ?? 0) : a) - (b < G ? (idOrder[b] ?? 0) : b))) });
  }
  const g = { groupOf, members, idOrder, geneGroups };
  groupCache.set(model, g);
  return g;
}

/**
 * The id a disease is ranked and listed under: its Mondo group's representative (OMIM preferred,
 * then ORPHA, then DECIPHER; DiseaseRanking.id), so ORPHA:87 reads OMIM:101200 wherever the
 * disease list does. Ids outside the annotations are returned unchanged.
 */
export function preferredDiseaseId(kb: HpoKb, id: string): string {
  const model = getPhenotypeModel(kb);
  const d = model.diseaseIndex.get(id);
  if (d === undefined) return id;
  const groups = getDiseaseGroups(model);
  return model.diseases[groups.members[groups.groupOf[d] ?? -1]?.[0] ?? d]?.id ?? id;
}

/** Best (max) log-LR of each group and the member that gives it. */
export function groupScores(model: PhenotypeModel, lnLr: Float64Array): { score: Float64Array; best: Int32Array } {
  const { members } = getDiseaseGroups(model);
  const score = new Float64Array(members.length);
  const best = new Int32Array(members.length);
  members.forEach((list, g) => {
    let s = -Infinity;
    let b = list[0] ?? 0;
    for (const d of list) {
      const v = lnLr[d] ?? -Infinity;
      if (v > s) {
        s = v;
        b = d;
      }
    }
    score[g] = s;
    best[g] = b;
  });
  return { score, best };
}

/**
 * Indices of the `k` highest scores, all ties with the k-th included (unordered). A numeric
 * typed-array sort finds the threshold; only the few entries above it are sorted by the caller.
 */
export function topIndices(score: Float64Array, k: number): number[] {
  if (k >= score.length) return Array.from(score.keys());
  const sorted = Float64Array.from(score).sort();
  const threshold = sorted[sorted.length - k] ?? -Infinity;
  const out: number[] = [];
  for (let i = 0; i < score.length; i++) if ((score[i] ?? -Infinity) >= threshold) out.push(i);
  return out;
}

const LN10 = Math.log(10);

function termRefs(model: PhenotypeModel, ids: string[]): TermRef[] {
  return ids.map((id) => ({ id, label: model.kb.ontology.label(id) ?? id }));
}

/** Readable lines for one disease: what matched, what argues against. */
export function describeDiseaseMatch(matched: TermMatch[], excluded: ExcludedTermEffect[]): string[] {
  const lines: string[] = [];
  const fmtP = (p: number | null, text: string | null): string => {
    if (p == null) return '';
    const counts = reportedCounts(p, text);
    return ` (seen in ${Math.round(p * 100)}% of patients${counts ? `, ${counts}` : ''})`;
  };
  for (const m of [...matched].sort((a, b) => b.lr - a.lr)) {
    const lr = `LR ${m.lr.toPrecision(3)}`;
    switch (m.kind) {
      case 'exact':
        lines.push(`${m.label} (${m.term}) is a feature of the disease${fmtP(m.frequency, m.frequencyText)}: ${lr}`);
        break;
      case 'implied':
        lines.push(`${m.label} (${m.term}) is implied by the disease feature ${m.diseaseTermLabel} (${m.diseaseTerm})${fmtP(m.frequency, m.frequencyText)}: ${lr}`);
        break;
      case 'partial':
        lines.push(`${m.label} (${m.term}) is related to the disease feature ${m.diseaseTermLabel} (${m.diseaseTerm}): ${lr}`);
        break;
      case 'unmatched':
        lines.push(`${m.label} (${m.term}) is not explained by the disease: ${lr}`);
        break;
      case 'contradicted':
        lines.push(`${m.label} (${m.term}) is annotated as NOT a feature (${m.diseaseTermLabel}): ${lr}`);
        break;
      case 'onset':
        lines.push(describeOnset(m));
        break;
      default: {
        const never: never = m.kind;
        throw new Error(`unknown match kind ${String(never)}`);
      }
    }
  }
  for (const e of excluded) {
    if (e.diseaseFrequency >= 0.2)
      lines.push(`${e.label} (${e.term}) is absent although ${Math.round(e.diseaseFrequency * 100)}% of patients show it: LR ${e.lr.toPrecision(3)}`);
  }
  return lines;
}

/** The onset line of an explanation (score.ts onsetMatch). */
export function describeOnset(m: TermMatch): string {
  const lr = `LR ${m.lr.toPrecision(3)}`;
  if (m.diseaseTerm == null || m.frequency == null) return `Onset ${m.label} (${m.term}): the disease has no onset annotation: ${lr}`;
  return `Onset ${m.label} (${m.term}) against the disease's onset ${m.diseaseTermLabel} (${m.diseaseTerm}; ${Math.round(m.frequency * 100)}% of its patients expected at this onset): ${lr}`;
}

/** Ranks every disease (grouped) and every gene by phenotype alone. */
export function rankPhenotype(kb: HpoKb, query: PhenotypeQuery, options: RankPhenotypeOptions = {}): PhenotypeRankingResult {
  const model = options.model ?? getPhenotypeModel(kb);
  const scoring = options.scoring ?? DEFAULT_SCORING_OPTIONS;
  const q = resolveQuery(model, query, scoring);
  const lnLr = scoreDiseases(model, q, scoring);
  const capped = capBorrowed(model, groupScores(model, lnLr).score, borrowedScores(model, q, scoring));
  return buildPhenotypeResult(model, q, lnLr, options.explainTop ?? 20, scoring, options.limit ?? 200, options.calibration ?? PHENOTYPE_CALIBRATION, capped.score, capped);
}

/**
 * Log-LR plus log prior of every borrowed profile (phenotype/series.ts), index-aligned with its
 * profiles; -Infinity (not listed) for a 'similar-titles' profile: in the phenotype-only ranking such
 * profiles cost the annotated diagnoses more than they gained held out (rank-analysis.md, session 12);
 * they rank genes only (rank/prioritisers.ts).
 */
export function borrowedScores(model: PhenotypeModel, q: ResolvedQuery, scoring: PhenotypeScoringOptions): Float64Array {
  const ln = scoreBorrowed(model, q, scoring);
  const { profiles } = getBorrowedProfiles(model);
  for (let i = 0; i < ln.length; i++) ln[i] = profiles[i]?.kind === 'series' ? (ln[i] ?? 0) + SERIES_PRIOR_LN : -Infinity;
  return ln;
}

/**
 * A borrowed profile never outranks the annotated diseases it borrows from: its score is capped
 * just below the best of its series members' group scores (phenotype alone cannot tell the
 * members of a series apart, and the profile is their mean). Phenotype-only ranking only: with
 * genotypes (rank-case.ts) the gene can tell them apart, and no cap applies. With the cap, SERIES_PRIOR_LN places
 * the profile right behind its best member rather than above annotated diagnoses (cohort-grouped
 * CV on the dev split, bench/rank-named-cv.ts, session 10). Returns the capped scores and, per
 * profile, the group that capped it (-1: not capped).
 */
export function capBorrowed(model: PhenotypeModel, groupScore: Float64Array, borrowed: Float64Array): BorrowedCap {
  const { profiles } = getBorrowedProfiles(model);
  const { groupOf } = getDiseaseGroups(model);
  const score = Float64Array.from(borrowed);
  const cappedBy = new Int32Array(borrowed.length).fill(-1);
  profiles.forEach((p, i) => {
    let best = -Infinity;
    let bestGroup = -1;
    for (const id of p.siblings) {
      const d = model.diseaseIndex.get(id);
      const g = d === undefined ? -1 : (groupOf[d] ?? -1);
      if (g >= 0 && (groupScore[g] ?? -Infinity) > best) {
        best = groupScore[g] ?? -Infinity;
        bestGroup = g;
      }
    }
    if (bestGroup >= 0 && (score[i] ?? -Infinity) >= best - CAP_MARGIN_LN) {
      score[i] = best - CAP_MARGIN_LN;
      cappedBy[i] = bestGroup;
    }
  });
  return { score, cappedBy, uncapped: borrowed };
}

export interface BorrowedCap {
  score: Float64Array;
  cappedBy: Int32Array;
  uncapped: Float64Array;
}

/** How far (natural log) below its best series member a capped profile is placed. */
const CAP_MARGIN_LN = 1e-6;

/**
 * Assembles ranked diseases and genes from per-disease log-LRs and the scores of the borrowed
 * profiles of diseases known only by name (`borrowed`, index-aligned with getBorrowedProfiles,
 * same scale, prior included); post-test probabilities by `calibration` over every disease group
 * and profile.
 */
export function buildPhenotypeResult(
  model: PhenotypeModel,
  q: ResolvedQuery,
  lnLr: Float64Array,
  explainTop: number,
  scoring: PhenotypeScoringOptions,
  limit: number,
  calibration: Calibration,
  borrowed: Float64Array,
  /** The cap applied to `borrowed` (capBorrowed), for the explanation; absent when none was. */
  capped?: BorrowedCap,
): PhenotypeRankingResult {
  const groups = getDiseaseGroups(model);
  const { score: groupScore, best } = groupScores(model, lnLr);
  const { idOrder } = groups;
  const G = groupScore.length;
  const { profiles, twins } = getBorrowedProfiles(model);
  // Disease groups first, then the profiles (ties: annotated before borrowed, then by id).
  const score = new Float64Array(G + borrowed.length);
  score.set(groupScore);
  score.set(borrowed, G);
  const tieOrder = (i: number): number => (i < G ? (idOrder[i] ?? 0) : i);
  // A borrowed profile scored -Infinity is not listed (a 'similar-titles' profile: genes only).
  const order = topIndices(score, limit).filter((g) => g < G || Number.isFinite(score[g] ?? -Infinity));
  order.sort((a, b) => (score[b] ?? 0) - (score[a] ?? 0) || tieOrder(a) - tieOrder(b));
  const probability = postTestProbabilities(score, calibration);
  const diseases: DiseaseRanking[] = order.slice(0, limit).map((g, i) => {
    if (g >= G) {
      const p = profiles[g - G];
      if (!p) throw new Error(`internal: borrowed profile ${g - G} missing`);
      const nd = p.disease;
      const r: DiseaseRanking = {
        id: nd.id,
        name: nd.name,
        mergedIds: [],
        mondo: nd.mondo,
        rank: i + 1,
        score: (score[g] ?? 0) / LN10,
        postTestProbability: probability[g] ?? 0,
        inheritance: termRefs(model, [...nd.inheritance].sort()),
        onset: [],
        genes: [...nd.genes].sort(),
        phenotypeSource: 'series',
        explanation: [`${nd.name} (${nd.id}): ${describeBorrowed(p)}; prior 10^${(SERIES_PRIOR_LN / LN10).toFixed(2)}`],
      };
      const by = capped?.cappedBy[g - G] ?? -1;
      if (capped && by >= 0) {
        const member = model.diseases[groups.members[by]?.[0] ?? 0];
        r.explanation?.push(
          `Score 10^${((capped.uncapped[g - G] ?? 0) / LN10).toFixed(2)} capped just below its best-fitting series member ${member?.name ?? ''} (${member?.id ?? ''}, 10^${((groupScore[by] ?? 0) / LN10).toFixed(2)}): a borrowed phenotype does not outrank the diseases it is borrowed from`,
        );
      }
      if (i < explainTop) {
        const ex = explainBorrowed(model, q, p, scoring);
        r.matched = ex.matched;
        r.excluded = ex.excluded;
        r.explanation?.push(...describeDiseaseMatch(ex.matched, ex.excluded));
      }
      return r;
    }
    const list = groups.members[g] ?? [];
    const rep = model.diseases[list[0] ?? 0];
    const bestD = best[g] ?? 0;
    const inh = new Set<string>();
    const onset = new Set<string>();
    const genes = new Set<string>();
    for (const d of list) {
      const dis = model.diseases[d];
      dis?.inheritance.forEach((x) => inh.add(x));
      dis?.onset.forEach((x) => onset.add(x));
      dis?.genes.forEach((x) => genes.add(x));
    }
    const r: DiseaseRanking = {
      id: rep?.id ?? '',
      name: rep?.name ?? '',
      mergedIds: [...list.slice(1).map((d) => model.diseases[d]?.id ?? ''), ...((rep?.mondo && twins.get(rep.mondo)) || [])],
      mondo: rep?.mondo ?? null,
      rank: i + 1,
      score: (score[g] ?? 0) / LN10,
      postTestProbability: probability[g] ?? 0,
      inheritance: termRefs(model, [...inh].sort()),
      onset: termRefs(model, [...onset].sort()),
      genes: [...genes].sort(),
      phenotypeSource: 'annotations',
    };
    if (i < explainTop) {
      const ex = explainDisease(model, q, bestD, scoring);
      r.matched = ex.matched;
      r.excluded = ex.excluded;
      r.explanation = describeDiseaseMatch(ex.matched, ex.excluded);
      if (bestD !== list[0]) r.explanation.unshift(`Scored on ${model.diseases[bestD]?.id ?? ''} (same Mondo disease ${rep?.mondo ?? ''})`);
    }
    return r;
  });
  // Rank position of each group for gene tie-breaks; groups outside the top share the last place.
  const rankOfGroup = new Int32Array(score.length).fill(order.length);
  order.forEach((g, i) => (rankOfGroup[g] = i));
  const genes = rankGenesByDiseases(model, score, rankOfGroup, limit);
  return {
    hpoVersion: model.kb.versions.hpo,
    annotationsVersion: model.kb.versions.annotations,
    used: {
      present: termRefs(model, q.present.map((t) => model.termId(t))),
      excluded: termRefs(model, q.excluded.map((t) => model.termId(t))),
      onset: q.onset ? (termRefs(model, [model.termId(q.onset.term)])[0] ?? null) : null,
    },
    ignored: q.ignored,
    diseases,
    genes,
  };
}

/** Genes scored by their best disease group (POLYGENIC associations are not used). */
function rankGenesByDiseases(model: PhenotypeModel, groupScore: Float64Array, rankOfGroup: Int32Array, limit: number): PhenotypeGeneRanking[] {
  const groups = getDiseaseGroups(model);
  const scored = groups.geneGroups.map((gg, i) => {
    let bestScore = -Infinity;
    let bestGroup = -1;
    for (const g of gg.groups) {
      const s = groupScore[g] ?? -Infinity;
      if (s > bestScore || (s === bestScore && (rankOfGroup[g] ?? 0) < (rankOfGroup[bestGroup] ?? 0))) {
        bestScore = s;
        bestGroup = g;
      }
    }
    return { i, bestScore, bestGroup };
  });
  const geneScore = Float64Array.from(scored, (x) => x.bestScore);
  const keep = new Set(topIndices(geneScore, limit));
  const top = scored.filter((x) => keep.has(x.i));
  top.sort((a, b) => b.bestScore - a.bestScore || a.i - b.i);
  const { profiles } = getBorrowedProfiles(model);
  const G = groups.members.length;
  const repId = (g: number): string => (g >= G ? (profiles[g - G]?.disease.id ?? '') : (model.diseases[groups.members[g]?.[0] ?? 0]?.id ?? ''));
  return top.slice(0, limit).map((x, rank) => {
    const gg = groups.geneGroups[x.i];
    return {
      symbol: gg?.symbol ?? '',
      rank: rank + 1,
      score: x.bestScore / LN10,
      bestDisease: repId(x.bestGroup),
      diseases: [...(gg?.groups ?? [])].map(repId),
    };
  });
}
