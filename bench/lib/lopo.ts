/**
 * Leave-own-publication-out (LOPO, issue 17 items 3/7). The n/m tallies of phenotype.hpoa are
 * curated from the phenopacket-store cohorts the dev split is drawn from, so a dev case's own
 * record is counted in its diagnosis' annotations. Under LOPO each case is ranked with every member
 * of its diagnosis' Mondo group rebuilt from the hpoa rows whose reference is not one of the case's
 * publications (`pmids`), pooled as the KB build pools them; every other disease stays as shipped.
 *
 *  - `rankPhenotypeLopo` (bench:rank part (a), bench/rank-pheno-lopo.ts): the product's
 *    rankPhenotype with the rebuilt members' log-LRs put in place of the KB's (the model, its
 *    background and the borrowed series profiles stay as shipped); a member with no row left has
 *    no phenotype profile and is not ranked.
 *  - `lopoKb` (bench:rank part (b)): a copy of the HPO KB with the rebuilt members, for `rank`,
 *    which then rebuilds the phenotype model (as bench/lib/hidden-disease.ts does); a member with no
 *    row left is known by its title only, as the KB build keeps gene-linked diseases without annotations.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  annotationProbability,
  DEFAULT_SCORING_OPTIONS,
  getPhenotypeModel,
  parseFrequency,
  PHENOTYPE_CALIBRATION,
  resolveQuery,
  scoreDiseases,
  scoreWithPostings,
  type DiseaseAnnotation,
  type HpoDisease,
  type HpoKb,
  type NamedDisease,
  type PhenotypeModel,
  type PhenotypeModelOptions,
  type PhenotypeQuery,
  type PhenotypeRankingResult,
  type PhenotypeScoringOptions,
  type Postings,
} from '../../packages/engine/src/index.ts';
import { accumulate, finishAnnotation, ONSET_ROOT, type AnnotationAcc } from '../../packages/engine/src/kb/hpo-kb.ts';
import { getOnsetTable, onsetDistribution, onsetLr } from '../../packages/engine/src/phenotype/onset.ts';
import { borrowedScores, buildPhenotypeResult, capBorrowed, getDiseaseGroups, groupScores } from '../../packages/engine/src/phenotype/rank-phenotype.ts';
import { namedEntry } from './hidden-disease.ts';

/** One phenotype (aspect P) or onset (aspect C under Onset) row of phenotype.hpoa: resolved term, reference(s) as written, frequency, NOT. */
export interface HpoaRow {
  term: string;
  ref: string;
  freq: string;
  not: boolean;
  /** An onset row (aspect C, the term under Onset HP:0003674). */
  onset?: boolean;
}

/**
 * Phenotype rows per disease id from phenotype.hpoa text, with the onset rows when `isOnset` is
 * given; terms resolved through `resolve` (obsolete ids to their replacement), unresolvable ones dropped.
 */
export function parseHpoaRows(text: string, resolve: (id: string) => string | null | undefined, isOnset?: (term: string) => boolean): Map<string, HpoaRow[]> {
  const rowsOf = new Map<string, HpoaRow[]>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#') || line.startsWith('database_id')) continue;
    const f = line.split('\t');
    if (f[10] !== 'P' && !(f[10] === 'C' && isOnset)) continue;
    const term = resolve(f[3] ?? '');
    if (!term) continue;
    const onset = f[10] === 'C';
    if (onset && !isOnset?.(term)) continue;
    const list = rowsOf.get(f[0] ?? '') ?? [];
    list.push({ term, ref: f[4] ?? '', freq: (f[7] ?? '').trim(), not: f[2] === 'NOT' || (!onset && parseFrequency(f[7] ?? '') === 0), ...(onset ? { onset } : {}) });
    rowsOf.set(f[0] ?? '', list);
  }
  return rowsOf;
}

/** The phenotype.hpoa of the KB's annotation release in `<sources>/hpo`, parsed. */
export function loadHpoaRows(kb: HpoKb, sources: string): Map<string, HpoaRow[]> {
  const dir = join(sources, 'hpo');
  const files = readdirSync(dir).filter((f) => /^phenotype.*\.hpoa(\.gz)?$/.test(f)).sort();
  const name = files.find((f) => f.includes(kb.versions.annotations)) ?? files[files.length - 1];
  if (!name) throw new Error(`${dir}: no phenotype*.hpoa(.gz) for the leave-own-publication-out rebuild`);
  const raw = readFileSync(join(dir, name));
  return parseHpoaRows(
    (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'),
    (id) => kb.ontology.resolve(id),
    (t) => kb.ontology.isA(t, ONSET_ROOT),
  );
}

export interface RebuiltDisease {
  annotations: DiseaseAnnotation[];
  /** Terms annotated NOT (or frequency 0) by the kept rows. */
  excluded: string[];
  /** Onset terms of the kept onset rows (not NOT), as the KB build collects HpoDisease.onset. */
  onset: string[];
  /** Pooled frequency of each onset term that has one, as the KB build collects HpoDisease.onsetFrequency. */
  onsetFrequency: Record<string, number>;
  /** Rows left out (their reference is one of `drop`). */
  dropped: number;
}

/** A disease's annotations from its rows whose references (';'-separated) are none of `drop`, pooled as the KB build does (n/m summed, other frequencies by max). */
export function rebuildDisease(rows: readonly HpoaRow[] | undefined, drop: ReadonlySet<string>): RebuiltDisease {
  const acc = new Map<string, AnnotationAcc>();
  const onsetAcc = new Map<string, AnnotationAcc>();
  const excluded = new Set<string>();
  let dropped = 0;
  for (const r of rows ?? []) {
    if (r.ref.split(';').some((x) => drop.has(x.trim()))) {
      dropped++;
      continue;
    }
    if (r.not) {
      // The KB build keeps an onset row unless qualified NOT (hpo-kb.ts).
      if (!r.onset) excluded.add(r.term);
      continue;
    }
    // Pooled by the KB build's own accumulate / finishAnnotation.
    accumulate(r.onset ? onsetAcc : acc, r.term, r.freq, parseFrequency(r.freq));
  }
  const pooled = (a: AnnotationAcc): number | null => finishAnnotation(a).frequency;
  const onsetFrequency: Record<string, number> = {};
  for (const [t, a] of onsetAcc) {
    const f = pooled(a);
    if (f !== null) onsetFrequency[t] = f;
  }
  const annotations = [...acc].map(([term, a]) => ({
    term,
    frequency: pooled(a),
    frequencyText: null,
    onset: null,
    counts: a.m > 0 ? ([a.n, a.m] as [number, number]) : null,
  }));
  return { annotations, excluded: [...excluded], onset: [...onsetAcc.keys()].sort(), onsetFrequency, dropped };
}

/** Postings of one profile (index 0) from its annotations: max-propagated P and direct flags, as PhenotypeModel builds them. */
export function profilePostings(model: PhenotypeModel, ann: readonly DiseaseAnnotation[], options: PhenotypeModelOptions = model.options): { postings: Postings[]; p: Map<number, number> } {
  const p = new Map<number, number>();
  const direct = new Set<number>();
  for (const a of ann) {
    const ti = model.termIndex.get(a.term);
    if (ti === undefined) continue;
    direct.add(ti);
    const f = Math.fround(annotationProbability(a, options));
    for (const c of model.ancestors[ti] ?? []) if (f > (p.get(c) ?? -1)) p.set(c, f);
  }
  const T = model.termIds.length;
  const empty: Postings = { disease: new Int32Array(0), prob: new Float32Array(0), direct: new Uint8Array(0) };
  const postings: Postings[] = new Array<Postings>(T).fill(empty);
  for (const [c, f] of p) postings[c] = { disease: Int32Array.of(0), prob: Float32Array.of(f), direct: Uint8Array.of(direct.has(c) ? 1 : 0) };
  return { postings, p };
}

/** Natural-log LR of one rebuilt profile, as scoreDiseases scores an annotated disease (NOT terms as contradictions, the patient's onset against the rebuilt onset terms). */
export function scoreRebuilt(model: PhenotypeModel, rb: RebuiltDisease, q: ReturnType<typeof resolveQuery>, scoring: PhenotypeScoringOptions, options?: PhenotypeModelOptions): { ln: number; p: Map<number, number> } {
  const { postings, p } = profilePostings(model, rb.annotations, options);
  const not = rb.excluded.map((t) => model.termIndex.get(t)).filter((t): t is number => t !== undefined);
  const ln =
    scoreWithPostings(model, postings, 1, q, scoring, (t, best) => {
      if (not.some((e) => model.isA(t, e))) best[0] = Math.min(best[0] ?? scoring.contradictionLr, scoring.contradictionLr);
    })[0] ?? -Infinity;
  return { ln: ln + Math.log(rebuiltOnsetLr(model, rb, q, scoring)), p };
}

/** The onset LR of a rebuilt profile (its kept onset rows; the model's background, as for its phenotype). */
export function rebuiltOnsetLr(model: PhenotypeModel, rb: Pick<RebuiltDisease, 'onset' | 'onsetFrequency'>, q: ReturnType<typeof resolveQuery>, scoring: PhenotypeScoringOptions): number {
  if (!q.onset) return 1;
  return onsetLr(onsetDistribution(model.kb.ontology, rb.onset, scoring, rb.onsetFrequency), getOnsetTable(model, scoring).background, q.onset.classes, scoring.onsetWeight, scoring.onsetMaxLr);
}

/**
 * Indices of every annotated disease in the Mondo groups of the case's diagnosis (an ORPHA twin may
 * cite the publication too), and of an annotated Mondo twin of a diagnosis known only by name.
 */
export function diagnosisMembers(model: PhenotypeModel, diseaseIds: readonly string[]): number[] {
  const groups = getDiseaseGroups(model);
  const truth = new Set(diseaseIds.map((id) => model.diseaseIndex.get(id)).filter((d): d is number => d !== undefined));
  const mondo = new Set(diseaseIds.map((id) => model.kb.namedDiseases.get(id)?.mondo).filter((m): m is string => !!m));
  if (mondo.size) model.diseases.forEach((d, i) => d.mondo && mondo.has(d.mondo) && truth.add(i));
  return [...new Set([...truth].map((d) => groups.groupOf[d] ?? 0))].flatMap((g) => groups.members[g] ?? []);
}

export interface LopoRanking {
  result: PhenotypeRankingResult;
  /** hpoa rows of the diagnosis left out (0: its annotations do not cite the case's publications). */
  dropped: number;
}

/**
 * rankPhenotype (same model, scoring, grouping, borrowed-profile cap, result assembly) with the
 * diagnosis' group members scored on their annotations rebuilt without the rows citing `pmids`.
 */
export function rankPhenotypeLopo(
  kb: HpoKb,
  rowsOf: ReadonlyMap<string, readonly HpoaRow[]>,
  query: PhenotypeQuery,
  c: { disease_ids: readonly string[]; pmids?: readonly string[] },
  options: { scoring?: PhenotypeScoringOptions; limit?: number; model?: PhenotypeModel } = {},
): LopoRanking {
  const model = options.model ?? getPhenotypeModel(kb);
  const scoring = options.scoring ?? DEFAULT_SCORING_OPTIONS;
  const q = resolveQuery(model, query, scoring);
  const lnLr = scoreDiseases(model, q, scoring);
  const drop = new Set(c.pmids ?? []);
  let dropped = 0;
  for (const d of diagnosisMembers(model, c.disease_ids)) {
    const rb = rebuildDisease(rowsOf.get(model.diseases[d]?.id ?? ''), drop);
    dropped += rb.dropped;
    lnLr[d] = rb.annotations.length ? scoreRebuilt(model, rb, q, scoring).ln : -Infinity;
  }
  const capped = capBorrowed(model, groupScores(model, lnLr).score, borrowedScores(model, q, scoring));
  const result = buildPhenotypeResult(model, q, lnLr, 0, scoring, options.limit ?? 200, PHENOTYPE_CALIBRATION, capped.score, capped);
  return { result, dropped };
}

/**
 * A copy of the HPO KB whose diagnosis group members are rebuilt without the rows citing `pmids`
 * (for `rank`, which builds its phenotype model from the copy); null when no row cites them.
 */
export function lopoKb(kb: HpoKb, rowsOf: ReadonlyMap<string, readonly HpoaRow[]>, c: { disease_ids: readonly string[]; pmids?: readonly string[] }): HpoKb | null {
  const model = getPhenotypeModel(kb);
  const drop = new Set(c.pmids ?? []);
  const replaced = new Map<string, HpoDisease | null>();
  for (const d of diagnosisMembers(model, c.disease_ids)) {
    const dis = model.diseases[d];
    if (!dis) continue;
    const rb = rebuildDisease(rowsOf.get(dis.id), drop);
    if (!rb.dropped) continue;
    replaced.set(dis.id, rb.annotations.length ? { ...dis, annotations: rb.annotations, excluded: rb.excluded, onset: rb.onset, onsetFrequency: rb.onsetFrequency } : null);
  }
  if (!replaced.size) return null;
  const diseases: HpoDisease[] = [];
  const namedDiseases = new Map<string, NamedDisease>(kb.namedDiseases);
  for (const d of kb.diseases) {
    const r = replaced.get(d.id);
    if (r === undefined) diseases.push(d);
    else if (r) diseases.push(r);
    else namedDiseases.set(d.id, namedEntry(kb, d));
  }
  return { ...kb, diseases, diseaseById: new Map(diseases.map((d) => [d.id, d])), namedDiseases };
}
