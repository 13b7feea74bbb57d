/**
 * Cohort-grouped cross-validation for the ranking benchmark (dev split only).
 *
 * Gene-score constants: every ranked gene keeps the parts of its score (`GeneScoreParts`, as the
 * engine computed them); `geneScoreLn` — the engine's own function — re-weighs them for each grid
 * point. Each of 5 folds (sha256(cohort) mod 5) is scored with the grid point that maximises
 * top-1 + 0.5 top-10 + 0.1 top-100 on the other four: the held-out figures. When the ranking
 * reported every candidate explanation of each gene (rank()'s `onGeneCandidates`: each annotated
 * disease, a disease known by name, a possibly allelic disease, a new disease), each grid point
 * re-chooses the gene's best candidate, as the engine would under those constants.
 *
 * Post-test probabilities: temperature and "none of these" score (rank/calibration.ts) fitted by
 * maximum likelihood of the diagnosed item; held out the same way; reliability table of the
 * predicted probability of the first item against how often it is the diagnosis.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_GENE_SCORE_CONSTANTS, DISEASE_CALIBRATION, GENE_CALIBRATION, geneScoreLn, ranksOf, temperLn, postTestProbabilities, type Calibration, type GeneScoreConstants, type GeneScoreParts } from '../../packages/engine/src/index.ts';

export const FOLDS = 5;
export const foldOf = (cohort: string): number => Number(BigInt(`0x${createHash('sha256').update(cohort).digest('hex')}`) % BigInt(FOLDS));

/**
 * One case's ranked genes (every gene with candidate variants) and which are causal. `candidates`
 * (aligned with `parts`, from rank()'s `onGeneCandidates`) holds every candidate explanation of each
 * gene, so that each constant set re-chooses the gene's best one; without it the gene keeps the
 * candidate chosen under the shipped constants.
 */
export interface GeneCase {
  cohort: string;
  parts: GeneScoreParts[];
  causal: boolean[];
  candidates?: GeneScoreParts[][];
}
/** One case's item scores (natural log, every ranked item) and the indices of the diagnosis. */
export interface ScoreCase {
  cohort: string;
  ln: Float64Array;
  truth: number[];
}

/**
 * The grid (9,216 constant sets). namePhenotypeScale and unannotatedClinvarLn stay at the values
 * every fold chose in the earlier, wider grids (1 and 0), phenotypeScale loses 1 (chosen by no fold
 * since session 5): each gene now carries all its candidate explanations, which multiplies the work
 * per constant set, and the allelic-disease and series priors took their place (-1000 = off).
 */
const AXES = {
  phenotypeScale: [0.5, 0.7],
  genotypeWeight: [2, 3, 4],
  unknownGeneLn: [-8, -6, -4, -2],
  namedDiseaseLn: [-4, -3, -2, -1],
  namePhenotypeScale: [1],
  constrainedLofLn: [0, 1, 2],
  constrainedMissenseLn: [0, 1],
  unannotatedClinvarLn: [0],
  allelicDiseaseLn: [-1000, -6, -4, -2],
  seriesDiseaseLn: [-1000, -4, -2, 0],
  similarTitlesDiseaseLn: [-1000, -4, -2, 0],
} as const satisfies Record<keyof GeneScoreConstants, readonly number[]>;

export function constantsGrid(): GeneScoreConstants[] {
  let out: GeneScoreConstants[] = [{ ...DEFAULT_GENE_SCORE_CONSTANTS }];
  for (const [key, values] of Object.entries(AXES) as [keyof GeneScoreConstants, readonly number[]][]) out = out.flatMap((k) => values.map((v) => ({ ...k, [key]: v })));
  return out;
}

export const describeConstants = (k: GeneScoreConstants): string => (Object.keys(AXES) as (keyof GeneScoreConstants)[]).map((key) => `${key} ${k[key]}`).join(', ');

/** 1 + the number of non-causal items scored at least as high as the best causal one (ties count against it); null without a causal item. */
export function pessimisticRankOf(scores: ArrayLike<number>, isTruth: (i: number) => boolean): number | null {
  let best = -Infinity;
  let found = false;
  for (let i = 0; i < scores.length; i++)
    if (isTruth(i)) {
      found = true;
      best = Math.max(best, scores[i] ?? -Infinity);
    }
  if (!found) return null;
  let above = 0;
  for (let i = 0; i < scores.length; i++) if (!isTruth(i) && (scores[i] ?? -Infinity) >= best) above++;
  return 1 + above;
}

export interface TopK {
  n: number;
  top1: number;
  top3: number;
  top10: number;
  top100: number;
}

export function topK(ranks: readonly (number | null)[]): TopK {
  const t = { n: ranks.length, top1: 0, top3: 0, top10: 0, top100: 0 };
  for (const r of ranks) {
    if (r == null) continue;
    if (r <= 1) t.top1++;
    if (r <= 3) t.top3++;
    if (r <= 10) t.top10++;
    if (r <= 100) t.top100++;
  }
  return t;
}

/** The CV objective: top-1 + 0.5 top-10 + 0.1 top-100, as a fraction of the cases. */
export const objective = (ranks: readonly (number | null)[]): number => {
  const t = topK(ranks);
  return (t.top1 + 0.5 * t.top10 + 0.1 * t.top100) / Math.max(1, t.n);
};

/** 'top-1 / top-3 / top-10 / top-100' in percent. */
export function formatTopK(ranks: readonly (number | null)[]): string {
  const t = topK(ranks);
  const p = (x: number): string => ((100 * x) / Math.max(1, t.n)).toFixed(1);
  return `${p(t.top1)} / ${p(t.top3)} / ${p(t.top10)} / ${p(t.top100)}`;
}

/**
 * Cohort-grouped choice among settings already ranked case by case (`ranks[setting][case]`): each
 * fold takes the setting with the best objective on the other four folds (the first on a tie).
 * Returns each fold's chosen setting index and the held-out rank of every case.
 */
export function chooseByFold(ranks: readonly (readonly (number | null)[])[], cohorts: readonly string[]): { chosen: number[]; heldOut: (number | null)[] } {
  const heldOut: (number | null)[] = cohorts.map(() => null);
  const chosen: number[] = [];
  for (let f = 0; f < FOLDS; f++) {
    let best = 0;
    let bestObjective = -Infinity;
    ranks.forEach((rs, j) => {
      const o = objective(rs.filter((_, i) => foldOf(cohorts[i] ?? '') !== f));
      if (o > bestObjective + 1e-12) {
        bestObjective = o;
        best = j;
      }
    });
    chosen.push(best);
    cohorts.forEach((c, i) => {
      if (foldOf(c) === f) heldOut[i] = ranks[best]?.[i] ?? null;
    });
  }
  return { chosen, heldOut };
}

/**
 * Identical candidate lists give identical scores under every constant set: ranked once, with a
 * count. A gene's score is the best of its candidates (alternatives, held column-wise for speed in
 * ranges start[g]..start[g+1]); `scorePacked` is `geneScoreLn` written out over them, and `pack`
 * checks that the best candidate under the shipped constants scores what the engine chose.
 */
interface PackedCase {
  start: Int32Array;
  count: Int32Array;
  causal: GeneScoreParts[][];
  source: Uint8Array; // 0 annotations, 1 disease-name, 2 none, 3 allelic, 4 series, 5 similar-titles
  phenotypeLn: Float64Array;
  temperedLn: Float64Array;
  fitLn: Float64Array;
  constraint: Uint8Array; // 0 none, 1 lof, 2 missense
  clinvar: Uint8Array; // 1: ClinVar pathogenic allele in the fit
}

const SOURCE_CODE = { annotations: 0, 'disease-name': 1, none: 2, allelic: 3, series: 4, 'similar-titles': 5 } as const;

function scoreAlternative(c: PackedCase, j: number, k: GeneScoreConstants): number {
  const src = c.source[j];
  const con = c.constraint[j];
  const phen =
    src === 0
      ? k.phenotypeScale * (c.temperedLn[j] ?? 0)
      : src === 3
        ? k.allelicDiseaseLn + k.phenotypeScale * (c.temperedLn[j] ?? 0)
        : src === 4
          ? k.seriesDiseaseLn + k.phenotypeScale * (c.temperedLn[j] ?? 0)
          : src === 5
            ? k.similarTitlesDiseaseLn + k.phenotypeScale * (c.temperedLn[j] ?? 0)
            : src === 1
            ? k.namedDiseaseLn + k.namePhenotypeScale * (c.phenotypeLn[j] ?? 0)
            : k.unknownGeneLn;
  return phen + k.genotypeWeight * (c.fitLn[j] ?? 0) + (con === 1 ? k.constrainedLofLn : con === 2 ? k.constrainedMissenseLn : 0) + ((src === 1 || src === 2 || src === 4 || src === 5) && c.clinvar[j] ? k.unannotatedClinvarLn : 0);
}

function scorePacked(c: PackedCase, g: number, k: GeneScoreConstants): number {
  let best = -Infinity;
  for (let j = c.start[g] ?? 0; j < (c.start[g + 1] ?? 0); j++) best = Math.max(best, scoreAlternative(c, j, k));
  return best;
}

const partsKey = (p: GeneScoreParts): string => `${p.source}|${p.phenotypeLn}|${p.fitLn}|${p.constraint}|${p.clinvar}`;

/**
 * A gene's candidates without duplicates and without those another candidate of the same kind
 * beats under every constant set (no more phenotype evidence and no better genotype fit; the
 * weights of both are positive).
 */
function prune(cands: readonly GeneScoreParts[]): GeneScoreParts[] {
  const uniq = [...new Map(cands.map((p) => [partsKey(p), p])).values()];
  const kind = (p: GeneScoreParts): string => `${p.source}|${p.constraint}|${p.clinvar}`;
  return uniq
    .filter((p) => !uniq.some((o) => o !== p && kind(o) === kind(p) && o.phenotypeLn >= p.phenotypeLn && o.fitLn >= p.fitLn && (o.phenotypeLn > p.phenotypeLn || o.fitLn > p.fitLn)))
    .sort((a, b) => (partsKey(a) < partsKey(b) ? -1 : 1));
}

function pack(c: GeneCase): PackedCase {
  const byKey = new Map<string, { alts: GeneScoreParts[]; chosen: GeneScoreParts; n: number }>();
  const causal: GeneScoreParts[][] = [];
  c.parts.forEach((p, i) => {
    const alts = prune(c.candidates?.[i] ?? [p]);
    if (c.causal[i]) {
      causal.push(alts);
      return;
    }
    const key = alts.map(partsKey).join(';');
    const e = byKey.get(key);
    if (e) e.n++;
    else byKey.set(key, { alts, chosen: p, n: 1 });
  });
  const entries = [...byKey.values()];
  const flat = entries.flatMap((e) => e.alts);
  const start = new Int32Array(entries.length + 1);
  entries.forEach((e, i) => (start[i + 1] = (start[i] ?? 0) + e.alts.length));
  const packed: PackedCase = {
    start,
    count: Int32Array.from(entries, (e) => e.n),
    causal,
    source: Uint8Array.from(flat, (p) => SOURCE_CODE[p.source]),
    phenotypeLn: Float64Array.from(flat, (p) => p.phenotypeLn),
    temperedLn: Float64Array.from(flat, (p) => temperLn(p.phenotypeLn)),
    fitLn: Float64Array.from(flat, (p) => p.fitLn),
    constraint: Uint8Array.from(flat, (p) => (p.constraint === 'lof' ? 1 : p.constraint === 'missense' ? 2 : 0)),
    clinvar: Uint8Array.from(flat, (p) => (p.clinvar ? 1 : 0)),
  };
  for (let j = 0; j < flat.length; j++) {
    const p = flat[j];
    if (!p) continue;
    const a = scoreAlternative(packed, j, DEFAULT_GENE_SCORE_CONSTANTS);
    const b = geneScoreLn(p, DEFAULT_GENE_SCORE_CONSTANTS);
    if (Math.abs(a - b) > 1e-9) throw new Error(`rank-cv: packed score ${a} differs from the engine's geneScoreLn ${b}`);
  }
  entries.forEach((e, g) => {
    const a = scorePacked(packed, g, DEFAULT_GENE_SCORE_CONSTANTS);
    const b = CV_CHECKS.savedUnderOtherConstants ? bestOf(e.alts, DEFAULT_GENE_SCORE_CONSTANTS) : geneScoreLn(e.chosen, DEFAULT_GENE_SCORE_CONSTANTS);
    if (Math.abs(a - b) > 1e-9) throw new Error(`rank-cv: best candidate scores ${a}, the engine's chosen one ${b}`);
  });
  return packed;
}

/**
 * `savedUnderOtherConstants`: the candidates were saved by a run under other shipped constants
 * (rank-cv-saved.ts --reweigh), so the engine's choice then is not its choice now; the packed best is
 * checked against geneScoreLn's best of the same candidates instead (what `rank` takes).
 */
export const CV_CHECKS = { savedUnderOtherConstants: false };

const bestOf = (alts: readonly GeneScoreParts[], k: GeneScoreConstants): number => alts.reduce((m, p) => Math.max(m, geneScoreLn(p, k)), -Infinity);

/** Ranks are counted up to 1 + RANK_CAP (every reported figure is top-100 or better). */
const RANK_CAP = 100;

function rankUnder(c: PackedCase, k: GeneScoreConstants): number | null {
  if (!c.causal.length) return null;
  let best = -Infinity;
  for (const alts of c.causal) best = Math.max(best, bestOf(alts, k));
  let above = 0;
  // Ranks beyond RANK_CAP count alike (top-100 is the deepest figure): stop counting there.
  for (let g = 0; g < c.count.length && above < RANK_CAP; g++) if (scorePacked(c, g, k) >= best) above += c.count[g] ?? 0;
  return 1 + Math.min(above, RANK_CAP);
}

export interface ConstantsCv {
  grid: number;
  shipped: (number | null)[];
  heldOut: (number | null)[];
  inSampleBest: { constants: GeneScoreConstants; ranks: (number | null)[] };
  folds: { fold: number; cases: number; chosen: GeneScoreConstants; trainTop1: number; testTop1: number }[];
}

/** Ranks of the causal gene under the shipped constants, and held out (constants chosen on the other cohort folds). */
export function crossValidateConstants(cases: GeneCase[], shipped: GeneScoreConstants = DEFAULT_GENE_SCORE_CONSTANTS): ConstantsCv {
  const grid = constantsGrid();
  const packed = cases.map(pack);
  const ranks = grid.map((k) => packed.map((c) => rankUnder(c, k)));
  const fold = cases.map((c) => foldOf(c.cohort));
  const pick = (keep: (i: number) => boolean): number => {
    let bi = 0;
    let bo = -Infinity;
    grid.forEach((_, g) => {
      const o = objective((ranks[g] ?? []).filter((_, i) => keep(i)));
      if (o > bo) {
        bo = o;
        bi = g;
      }
    });
    return bi;
  };
  const heldOut: (number | null)[] = new Array<number | null>(cases.length).fill(null);
  const folds: ConstantsCv['folds'] = [];
  for (let f = 0; f < FOLDS; f++) {
    const g = pick((i) => fold[i] !== f);
    const r = ranks[g] ?? [];
    const test = r.filter((_, i) => fold[i] === f);
    r.forEach((x, i) => {
      if (fold[i] === f) heldOut[i] = x;
    });
    folds.push({ fold: f, cases: test.length, chosen: grid[g] ?? shipped, trainTop1: topK(r.filter((_, i) => fold[i] !== f)).top1 / Math.max(1, cases.length - test.length), testTop1: topK(test).top1 / Math.max(1, test.length) });
  }
  const best = pick(() => true);
  return {
    grid: grid.length,
    shipped: packed.map((c) => rankUnder(c, shipped)),
    heldOut,
    inSampleBest: { constants: grid[best] ?? shipped, ranks: ranks[best] ?? [] },
    folds,
  };
}

// ---- calibration -------------------------------------------------------------------------

const TEMPERATURES = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1, 1.2];
const NULL_LNS = Array.from({ length: 31 }, (_, i) => -20 + 2 * i);
const RANK_EXPONENTS = [0, 0.5, 1, 1.5, 2, 2.5, 3, 4];

const logAddExp = (a: number, b: number): number => (a === -Infinity ? b : b === -Infinity ? a : Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b))));

/**
 * Loss at every grid point (t, a, s0), per case: the negative log-likelihood of the diagnosis
 * (the "none" alternative when it is not listed) plus the log-loss of "the first item is the
 * diagnosis" (what the reliability table checks). The first term alone lets the cases whose
 * diagnosis ranks far down flatten every distribution, the second alone ignores all but the first item.
 */
function caseNll(c: ScoreCase): Float64Array {
  const nN = NULL_LNS.length;
  const nA = RANK_EXPONENTS.length;
  const out = new Float64Array(TEMPERATURES.length * nA * nN);
  const logRank = ranksOf(c.ln).map(Math.log);
  let top = 0;
  for (let i = 1; i < c.ln.length; i++) if ((c.ln[i] ?? -Infinity) > (c.ln[top] ?? -Infinity)) top = i;
  const topHit = c.truth.includes(top);
  TEMPERATURES.forEach((t, ti) => {
    RANK_EXPONENTS.forEach((a, ai) => {
      let max = -Infinity;
      for (let i = 0; i < c.ln.length; i++) max = Math.max(max, t * (c.ln[i] ?? -Infinity) - a * (logRank[i] ?? 0));
      let sum = 0;
      for (let i = 0; i < c.ln.length; i++) sum += Math.exp(t * (c.ln[i] ?? -Infinity) - a * (logRank[i] ?? 0) - max);
      const lse = max === -Infinity ? -Infinity : max + Math.log(sum);
      let truthLse = -Infinity;
      for (const i of c.truth) truthLse = logAddExp(truthLse, t * (c.ln[i] ?? -Infinity) - a * (logRank[i] ?? 0));
      const topLogit = t * (c.ln[top] ?? -Infinity) - a * (logRank[top] ?? 0);
      NULL_LNS.forEach((n0, ni) => {
        const z = logAddExp(lse, t * n0);
        const pTop = Math.min(1 - 1e-12, Math.max(1e-12, Math.exp(topLogit - z)));
        out[(ti * nA + ai) * nN + ni] = z - (c.truth.length ? truthLse : t * n0) - Math.log(topHit ? pTop : 1 - pTop);
      });
    });
  });
  return out;
}

/** The grid point with the lowest mean negative log-likelihood over the chosen cases. */
function bestOnGrid(perCase: Float64Array[], keep: (i: number) => boolean): { calibration: Calibration; nll: number } {
  const total = new Float64Array(perCase[0]?.length ?? 0);
  let n = 0;
  perCase.forEach((v, i) => {
    if (!keep(i)) return;
    n++;
    for (let g = 0; g < v.length; g++) total[g] = (total[g] ?? 0) + (v[g] ?? 0);
  });
  let bi = 0;
  total.forEach((v, i) => {
    if (v < (total[bi] ?? Infinity)) bi = i;
  });
  const nN = NULL_LNS.length;
  const nA = RANK_EXPONENTS.length;
  return {
    calibration: { temperature: TEMPERATURES[Math.floor(bi / (nA * nN))] ?? 1, nullLn: NULL_LNS[bi % nN] ?? 0, rankExponent: RANK_EXPONENTS[Math.floor(bi / nN) % nA] ?? 0 },
    nll: (total[bi] ?? NaN) / Math.max(1, n),
  };
}

export function fitCalibration(cases: ScoreCase[]): { calibration: Calibration; nll: number } {
  return bestOnGrid(cases.map(caseNll), () => true);
}

export function meanNll(cases: ScoreCase[], c: Calibration): number {
  let s = 0;
  for (const x of cases) {
    const p = postTestProbabilities(x.ln, c);
    const none = 1 - p.reduce((a, b) => a + b, 0);
    const pt = x.truth.length ? x.truth.reduce((a, i) => a + (p[i] ?? 0), 0) : none;
    s -= Math.log(Math.max(pt, 1e-300));
  }
  return s / Math.max(1, cases.length);
}

/** The first item's predicted probability and whether it is the diagnosis (engine order: the first item is index 0 of the sorted scores). */
function firstItem(c: ScoreCase, cal: Calibration): { p: number; hit: boolean } {
  const p = postTestProbabilities(c.ln, cal);
  let top = 0;
  for (let i = 1; i < c.ln.length; i++) if ((c.ln[i] ?? -Infinity) > (c.ln[top] ?? -Infinity)) top = i;
  return { p: p[top] ?? 0, hit: c.truth.includes(top) };
}

export interface CalibrationCv {
  shipped: Calibration;
  inSample: { p: number; hit: boolean }[];
  heldOut: { p: number; hit: boolean }[];
  folds: { fold: number; chosen: Calibration }[];
  fitAll: Calibration;
  nll: { shipped: number; heldOut: number };
}

export function crossValidateCalibration(cases: ScoreCase[], shipped: Calibration): CalibrationCv {
  const fold = cases.map((c) => foldOf(c.cohort));
  const perCase = cases.map(caseNll);
  const heldOut = new Array<{ p: number; hit: boolean }>(cases.length);
  const folds: CalibrationCv['folds'] = [];
  let heldNll = 0;
  for (let f = 0; f < FOLDS; f++) {
    const { calibration } = bestOnGrid(perCase, (i) => fold[i] !== f);
    folds.push({ fold: f, chosen: calibration });
    const test = cases.filter((_, i) => fold[i] === f);
    heldNll += meanNll(test, calibration) * test.length;
    cases.forEach((c, i) => {
      if (fold[i] === f) heldOut[i] = firstItem(c, calibration);
    });
  }
  return {
    shipped,
    inSample: cases.map((c) => firstItem(c, shipped)),
    heldOut,
    folds,
    fitAll: bestOnGrid(perCase, () => true).calibration,
    nll: { shipped: meanNll(cases, shipped), heldOut: heldNll / Math.max(1, cases.length) },
  };
}

const pct = (x: number, n: number): string => (n ? `${((100 * x) / n).toFixed(1)} %` : 'n/a');

/** Markdown reliability table: predicted probability of the first item by decile vs observed top-1. */
export function reliabilityTable(title: string, inSample: { p: number; hit: boolean }[], heldOut: { p: number; hit: boolean }[]): string[] {
  const bins = (xs: { p: number; hit: boolean }[]) =>
    Array.from({ length: 10 }, (_, b) => {
      const inBin = xs.filter((x) => Math.min(9, Math.floor(x.p * 10)) === b);
      return { n: inBin.length, mean: inBin.reduce((s, x) => s + x.p, 0), hits: inBin.filter((x) => x.hit).length };
    });
  const a = bins(inSample);
  const h = bins(heldOut);
  const ece = (bs: ReturnType<typeof bins>, n: number): string => (bs.reduce((s, b) => s + Math.abs(b.mean - b.hits), 0) / Math.max(1, n) * 100).toFixed(1);
  const lines = [
    `| ${title}: predicted top-1 probability | cases (shipped) | mean predicted | observed top-1 | cases (held out) | mean predicted | observed top-1 |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (let b = 0; b < 10; b++) {
    const x = a[b] ?? { n: 0, mean: 0, hits: 0 };
    const y = h[b] ?? { n: 0, mean: 0, hits: 0 };
    lines.push(`| ${b * 10}–${b === 9 ? 100 : b * 10 + 10} % | ${x.n} | ${pct(x.mean, x.n)} | ${pct(x.hits, x.n)} | ${y.n} | ${pct(y.mean, y.n)} | ${pct(y.hits, y.n)} |`);
  }
  const all = (xs: { p: number; hit: boolean }[]): string => `${xs.length} | ${pct(xs.reduce((s, x) => s + x.p, 0), xs.length)} | ${pct(xs.filter((x) => x.hit).length, xs.length)}`;
  lines.push(`| all | ${all(inSample)} | ${all(heldOut)} |`);
  lines.push('', `Expected calibration error (mean |predicted − observed| over the decile bins, weighted by cases): shipped ${ece(a, inSample.length)} points, held out ${ece(h, heldOut.length)} points.`);
  return lines;
}

export const formatCalibration = (c: Calibration): string => `temperature ${c.temperature}, none-of-these score ${c.nullLn}, rank exponent ${c.rankExponent}`;

/** What one ranked case contributes to the cross-validation (genes and diseases of a genotype-aware ranking). */
export function collectRanking(
  cohort: string,
  result: { genes: { symbol: string; score: number; scoreParts: GeneScoreParts }[]; diseases: { id: string; mergedIds: string[]; score: number }[] },
  causalGenes: readonly string[],
  diseaseIds: readonly string[],
  candidates?: ReadonlyMap<string, GeneScoreParts[]>,
): { gene: GeneCase; geneScores: ScoreCase; diseaseScores: ScoreCase } {
  const causal = result.genes.map((g) => causalGenes.includes(g.symbol));
  return {
    gene: { cohort, parts: result.genes.map((g) => g.scoreParts), causal, ...(candidates ? { candidates: result.genes.map((g) => prune(candidates.get(g.symbol) ?? [g.scoreParts])) } : {}) },
    geneScores: { cohort, ln: Float64Array.from(result.genes, (g) => g.score * Math.LN10), truth: causal.flatMap((c, i) => (c ? [i] : [])) },
    diseaseScores: diseaseCase(cohort, result.diseases, diseaseIds),
  };
}

/** A disease list as a calibration case (log10 scores; the diagnosis by id or merged id). */
export function diseaseCase(cohort: string, diseases: readonly { id: string; mergedIds: string[]; score: number }[], diseaseIds: readonly string[]): ScoreCase {
  return {
    cohort,
    ln: Float64Array.from(diseases, (d) => d.score * Math.LN10),
    truth: diseases.flatMap((d, i) => (diseaseIds.includes(d.id) || d.mergedIds.some((m) => diseaseIds.includes(m)) ? [i] : [])),
  };
}

const fmtRanks = (r: (number | null)[]): string => {
  const t = topK(r);
  const p = (x: number): string => pct(x, t.n);
  return `| ${t.n} | ${p(t.top1)} | ${p(t.top3)} | ${p(t.top10)} | ${p(t.top100)} |`;
};

/**
 * Ranks of the causal gene in other cases (e.g. the hidden-disease set) under the shipped constants
 * and under the constants each cohort fold chose on the other folds' normal cases (held out).
 */
export function rankOtherCases(cases: GeneCase[], cv: ConstantsCv, shipped: GeneScoreConstants = DEFAULT_GENE_SCORE_CONSTANTS): { shipped: (number | null)[]; heldOut: (number | null)[] } {
  const packed = cases.map(pack);
  return {
    shipped: packed.map((c) => rankUnder(c, shipped)),
    heldOut: packed.map((c, i) => rankUnder(c, cv.folds[foldOf(cases[i]?.cohort ?? '')]?.chosen ?? shipped)),
  };
}

/** A set of cases ranked differently (label, e.g. "disease hidden from the annotations") for the cross-validation section. */
export interface OtherCaseSet {
  label: string;
  cases: GeneCase[];
}

/** The shipped constants with the allelic-disease candidate switched off (the comparison row). */
const WITHOUT_ALLELIC: GeneScoreConstants = { ...DEFAULT_GENE_SCORE_CONSTANTS, allelicDiseaseLn: -1000 };

/** Held-in vs held-out figures of the shipped gene-score constants and calibrations (bench/lib/rank-cv.ts). */
export function crossValidationSection(geneCases: GeneCase[], geneScoreCases: ScoreCase[], diseaseScoreCases: ScoreCase[], others: readonly OtherCaseSet[] = []): string[] {
  const cv = crossValidateConstants(geneCases);
  const otherRows = others.flatMap((o) => {
    const r = rankOtherCases(o.cases, cv);
    return [`| ${o.label}, shipped constants ${fmtRanks(r.shipped)}`, `| ${o.label}, held out ${fmtRanks(r.heldOut)}`, `| ${o.label}, shipped constants without the allelic-disease candidate ${fmtRanks(ranksUnder(o.cases, WITHOUT_ALLELIC))}`];
  });
  // A case whose causal gene is ranked on an annotated disease vs one whose gene has none (by name or not at all).
  const annotated = geneCases.map((c) => c.parts.some((p, i) => c.causal[i] && p.source === 'annotations'));
  const sub = (r: (number | null)[], keep: boolean): (number | null)[] => r.filter((_, i) => annotated[i] === keep);
  const lines = [
    '### Cross-validation grouped by cohort (same cases)',
    '',
    `Gene-score constants shipped (rank-case.ts DEFAULT_GENE_SCORE_CONSTANTS): ${describeConstants(DEFAULT_GENE_SCORE_CONSTANTS)}. Held out: each of 5 cohort folds (sha256(cohort) mod 5) ranked with the constants that score best (top-1 + 0.5 top-10 + 0.1 top-100) on the other four, over a grid of ${cv.grid} constant sets; every candidate explanation of each gene (the engine's \`onGeneCandidates\`) re-weighed by the engine's \`geneScoreLn\`, the gene taking its best candidate under each constant set.`,
    '',
    '| causal gene | cases | top-1 | top-3 | top-10 | top-100 |',
    '| --- | --- | --- | --- | --- | --- |',
    `| shipped constants, in-sample ${fmtRanks(cv.shipped)}`,
    `| held out (constants chosen on the other folds) ${fmtRanks(cv.heldOut)}`,
    `| shipped constants without the allelic-disease candidate (allelicDiseaseLn -1000), in-sample ${fmtRanks(ranksUnder(geneCases, WITHOUT_ALLELIC))}`,
    `| gene with an annotated disease, in-sample ${fmtRanks(sub(cv.shipped, true))}`,
    `| gene with an annotated disease, held out ${fmtRanks(sub(cv.heldOut, true))}`,
    `| gene with no annotated disease, in-sample ${fmtRanks(sub(cv.shipped, false))}`,
    `| gene with no annotated disease, held out ${fmtRanks(sub(cv.heldOut, false))}`,
    ...otherRows,
    '',
    `In-sample best of the grid: ${describeConstants(cv.inSampleBest.constants)} (top-1 ${pct(topK(cv.inSampleBest.ranks).top1, cv.inSampleBest.ranks.length)}).`,
    ...cv.folds.map((f) => `Fold ${f.fold} (${f.cases} cases) chose ${describeConstants(f.chosen)}: top-1 ${(100 * f.trainTop1).toFixed(1)} % on its training folds, ${(100 * f.testTop1).toFixed(1)} % held out.`),
    '',
  ];
  for (const [label, cases, shipped] of [
    ['gene', geneScoreCases, GENE_CALIBRATION],
    ['disease', diseaseScoreCases, DISEASE_CALIBRATION],
  ] as const) {
    const cal = crossValidateCalibration(cases, shipped);
    lines.push(
      `### Post-test probability, ${label}s: reliability`,
      '',
      `Shipped calibration (rank/calibration.ts): ${formatCalibration(shipped)}; fitted on all these cases: ${formatCalibration(cal.fitAll)}; per held-out fold: ${cal.folds.map((f) => formatCalibration(f.chosen)).join('; ')}. Fit: the grid point with the least negative log-likelihood of the diagnosis plus log-loss of "the first ${label} is the diagnosis". Mean negative log-likelihood of the diagnosed ${label}: shipped ${cal.nll.shipped.toFixed(3)}, held out ${cal.nll.heldOut.toFixed(3)}.`,
      '',
      ...reliabilityTable(`${label}s`, cal.inSample, cal.heldOut),
      '',
    );
  }
  return lines;
}

/** Ranks of the causal gene in each case under each constant set of `grid` (`[set][case]`; the cases packed once). */
export function ranksOnGrid(cases: readonly GeneCase[], grid: readonly GeneScoreConstants[]): (number | null)[][] {
  const packed = cases.map(pack);
  return grid.map((k) => packed.map((c) => rankUnder(c, k)));
}

/** Ranks of the causal gene in each case under one constant set (every candidate re-chosen). */
export function ranksUnder(cases: readonly GeneCase[], k: GeneScoreConstants): (number | null)[] {
  return cases.map((c) => rankUnder(pack(c), k));
}
