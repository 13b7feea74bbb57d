import { describe, expect, it } from 'vitest';
import { GENE_CALIBRATION, postTestProbabilities, ranksOf } from './calibration.ts';

describe('post-test probabilities', () => {
  it('is a tempered softmax with a "none of these" share', () => {
    const p = postTestProbabilities([2, 0], { temperature: 0.5, nullLn: 0, rankExponent: 0 });
    const z = Math.exp(1) + 1 + 1;
    expect(p[0]).toBeCloseTo(Math.exp(1) / z, 12);
    expect(p[1]).toBeCloseTo(1 / z, 12);
    expect(1 - (p[0] ?? 0) - (p[1] ?? 0)).toBeCloseTo(1 / z, 12);
  });

  it('keeps the order of the scores and stays finite for very large scores', () => {
    const p = postTestProbabilities([900, 850, -1e6], GENE_CALIBRATION);
    expect(p[0]).toBeGreaterThan(p[1] ?? 1);
    expect(p[1]).toBeGreaterThan(p[2] ?? 1);
    expect([...p].every(Number.isFinite)).toBe(true);
    expect(p[0]).toBeCloseTo(1, 3);
  });

  it('gives most of the mass to "none" when every score is far below its score', () => {
    const p = postTestProbabilities([-40, -45], { temperature: 1, nullLn: 0, rankExponent: 0 });
    expect((p[0] ?? 0) + (p[1] ?? 0)).toBeLessThan(1e-15);
  });

  it('refuses a non-positive temperature and a non-finite none score', () => {
    expect(() => postTestProbabilities([1], { temperature: 0, nullLn: 0, rankExponent: 0 })).toThrow(RangeError);
    expect(() => postTestProbabilities([1], { temperature: 1, nullLn: Number.NEGATIVE_INFINITY, rankExponent: 0 })).toThrow(/nullLn/);
  });

  it('weighs each item by its rank to the power -a, tied scores sharing the mean of their ranks', () => {
    expect([...ranksOf([1, 3, 3, 0])]).toEqual([3, 1.5, 1.5, 4]);
    const p = postTestProbabilities([3, 3, 1], { temperature: 1, nullLn: 0, rankExponent: 1 });
    const w = [Math.exp(3) / 1.5, Math.exp(3) / 1.5, Math.exp(1) / 3];
    const z = 1 + w.reduce((a, b) => a + b, 0);
    expect(p[0]).toBeCloseTo((w[0] ?? 0) / z, 12);
    expect(p[1]).toBeCloseTo(p[0] ?? 0, 12);
    expect(p[2]).toBeCloseTo((w[2] ?? 0) / z, 12);
  });

  it('lets a long tail of look-alike items take less of the first item\'s share as the exponent grows', () => {
    const scores = [0, ...Array.from({ length: 4000 }, () => -3)];
    const flat = postTestProbabilities(scores, { temperature: 0.5, nullLn: -10, rankExponent: 0 })[0] ?? 0;
    const decaying = postTestProbabilities(scores, { temperature: 0.5, nullLn: -10, rankExponent: 1.5 })[0] ?? 0;
    expect(flat).toBeLessThan(0.01);
    expect(decaying).toBeGreaterThan(0.3);
  });
});
