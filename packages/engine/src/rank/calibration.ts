/**
 * Post-test probabilities from ranking scores (natural-log units).
 *
 * A ranking score is a sum of log-likelihood ratios and weighted log-fits; the per-term LRs are
 * multiplied as if independent, so a plain softmax over the scores is over-confident. The
 * post-test probability of item i is a tempered softmax with a "none of these" alternative and a
 * prior that decays with the item's rank r_i (1 = best; tied scores share the mean of their ranks):
 *
 *   P(i) = r_i^-a * exp(t * s_i) / (exp(t * s0) + sum_j r_j^-a * exp(t * s_j))
 *
 * where t (temperature) shrinks the scores, s0 is the score of "the cause is not in this list"
 * (a variant the candidate filter dropped, a structural variant, a disease not yet annotated) and
 * a (rank exponent) stops thousands of look-alike background items from taking the mass of the
 * few at the top: a whole exome carries ~4,000 genes with a rare coding-looking variant whose
 * scores differ little, and the plain softmax gives the first gene a few percent where it is the
 * cause four times in ten. The three are fitted by maximum likelihood of the diagnosed item on
 * the development split with 5-fold cross-validation grouped by cohort (bench:rank prints the
 * held-out reliability table).
 */

export interface Calibration {
  /** Multiplies every score before the softmax (0 < t). */
  temperature: number;
  /** Score (natural log, same scale as the items) of "the cause is not among the listed items". */
  nullLn: number;
  /** Exponent of the rank prior r^-a (0: uniform prior). */
  rankExponent: number;
}

function assertCalibration(c: Calibration): void {
  if (!(c.temperature > 0) || !Number.isFinite(c.temperature)) throw new RangeError(`calibration temperature must be a positive number, got ${c.temperature}`);
  if (!Number.isFinite(c.nullLn)) throw new RangeError(`calibration nullLn must be finite, got ${c.nullLn}`);
  if (!(c.rankExponent >= 0) || !Number.isFinite(c.rankExponent)) throw new RangeError(`calibration rankExponent must be a non-negative number, got ${c.rankExponent}`);
}

/** Rank of every item by descending score, 1-based; tied scores share the mean of the ranks they occupy. */
export function ranksOf(lnScores: ArrayLike<number>): Float64Array {
  const order = Array.from({ length: lnScores.length }, (_, i) => i).sort((a, b) => (lnScores[b] ?? -Infinity) - (lnScores[a] ?? -Infinity));
  const rank = new Float64Array(lnScores.length);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && lnScores[order[end] ?? 0] === lnScores[order[start] ?? 0]) end++;
    for (let k = start; k < end; k++) rank[order[k] ?? 0] = (start + 1 + end) / 2;
    start = end;
  }
  return rank;
}

/** Post-test probabilities of every item (same order as `lnScores`); they sum to less than 1 by the "none" share. */
export function postTestProbabilities(lnScores: ArrayLike<number>, c: Calibration): Float64Array {
  assertCalibration(c);
  const rank = c.rankExponent > 0 ? ranksOf(lnScores) : null;
  const logit = (i: number): number => c.temperature * (lnScores[i] ?? -Infinity) - (rank ? c.rankExponent * Math.log(rank[i] ?? 1) : 0);
  let max = c.temperature * c.nullLn;
  for (let i = 0; i < lnScores.length; i++) max = Math.max(max, logit(i));
  let sum = Math.exp(c.temperature * c.nullLn - max);
  const out = new Float64Array(lnScores.length);
  for (let i = 0; i < lnScores.length; i++) {
    const e = Math.exp(logit(i) - max);
    out[i] = e;
    sum += e;
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / sum;
  return out;
}

/**
 * Gene post-test probabilities of the genotype-aware ranking (rank-case.ts): refitted for the
 * gene-score constants of 2026-11-26 (phenotype scale 0.5, allelic-disease candidate) on 200 spiked
 * dev-split exomes (bench:rank --part b --sample-b 200 at 313c1e6: fitted on all cases t 0.3, s0 -20,
 * a 1, as four of five cohort folds; the previous t 0.2 gave an expected calibration error of 19.2
 * points there). Reliability table: bench/results/rank.md.
 */
export const GENE_CALIBRATION: Calibration = { temperature: 0.3, nullLn: -20, rankExponent: 1 };
/** Disease post-test probabilities of the genotype-aware ranking (same cases and run: fitted t 0.3, s0 4, a 1, as four of five folds; the previous t 0.25, s0 8 erred by 13.2 points). */
export const DISEASE_CALIBRATION: Calibration = { temperature: 0.3, nullLn: 4, rankExponent: 1 };
/**
 * Disease post-test probabilities of the phenotype-only ranking: refitted on the 4,489 dev-split
 * cases once diseases known only by name were ranked too (session 8, bench:rank --part a at
 * dead86e: fitted on all cases t 0.1, s0 14, a 1; the five cohort folds chose t 0.1-0.15, s0 14-16,
 * a 1; with the previous s0 20 the expected calibration error was 9.8 points, held out 3.8), and
 * again after the session-9 scoring constants (bench:rank --part a at cdcb4eb: fitted on all cases
 * t 0.1, s0 12, a 1, as four of five cohort folds; s0 14 erred by 7.1 points, held out 4.4).
 */
export const PHENOTYPE_CALIBRATION: Calibration = { temperature: 0.1, nullLn: 12, rankExponent: 1 };
