/**
 * Information-content term similarity over the annotation-based IC of a phenotype model.
 * Resnik: IC of the most informative common ancestor (MICA). Lin: 2 * IC(MICA) / (IC(a) + IC(b)).
 * Best-match average (BMA) compares two term sets (e.g. a patient and a disease).
 */
import type { PhenotypeModel } from './model.ts';

/** The most informative common ancestor of two terms (indices), or -1 when they share none. */
export function mostInformativeCommonAncestor(model: PhenotypeModel, a: number, b: number): number {
  const ancB = model.ancestors[b];
  if (!ancB) return -1;
  let best = -1;
  let bestIc = -1;
  for (const c of model.ancestors[a] ?? []) {
    if (!model.isA(b, c)) continue;
    const ic = model.ic[c] ?? 0;
    if (ic > bestIc) {
      bestIc = ic;
      best = c;
    }
  }
  return best;
}

/** Resnik similarity (nats). */
export function resnik(model: PhenotypeModel, a: number, b: number): number {
  const c = mostInformativeCommonAncestor(model, a, b);
  return c < 0 ? 0 : (model.ic[c] ?? 0);
}

/** Lin similarity in [0, 1]. */
export function lin(model: PhenotypeModel, a: number, b: number): number {
  const denom = (model.ic[a] ?? 0) + (model.ic[b] ?? 0);
  return denom > 0 ? (2 * resnik(model, a, b)) / denom : 0;
}

/** Symmetric best-match average of Resnik similarity between two term sets. */
export function bestMatchAverage(model: PhenotypeModel, xs: readonly number[], ys: readonly number[], sim: (m: PhenotypeModel, a: number, b: number) => number = resnik): number {
  if (!xs.length || !ys.length) return 0;
  const oneWay = (p: readonly number[], q: readonly number[]): number => p.reduce((s, a) => s + Math.max(...q.map((b) => sim(model, a, b))), 0) / p.length;
  return (oneWay(xs, ys) + oneWay(ys, xs)) / 2;
}
