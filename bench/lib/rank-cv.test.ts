import { describe, expect, it } from 'vitest';
import { chooseByFold, foldOf, formatTopK, FOLDS } from './rank-cv.ts';

// One cohort per fold (found by hashing, as the benchmark assigns them).
const cohortOfFold: string[] = [];
for (let i = 0; cohortOfFold.filter(Boolean).length < FOLDS; i++) {
  const c = `cohort-${i}`;
  cohortOfFold[foldOf(c)] ??= c;
}
const cohorts = cohortOfFold.flatMap((c) => [c, c]);

describe('chooseByFold', () => {
  it('takes, for every fold, the setting that is best on the other four and reports that setting\'s ranks for the fold', () => {
    const shipped = cohorts.map(() => 5);
    const better = cohorts.map(() => 1);
    const r = chooseByFold([shipped, better], cohorts);
    expect(r.chosen).toEqual([1, 1, 1, 1, 1]);
    expect(r.heldOut).toEqual(better);
  });

  it('never lets a fold choose on its own cases: a setting that wins only through fold 0 is not chosen for fold 0', () => {
    // Fold 0 holds ten cases, every other fold one.
    const many = [...Array.from({ length: 10 }, () => cohortOfFold[0] ?? ''), ...cohortOfFold.slice(1)];
    const shipped = many.map(() => 2);
    const local = many.map((c) => (foldOf(c) === 0 ? 1 : 11));
    const r = chooseByFold([shipped, local], many);
    // Chosen on all cases, `local` would win everywhere; held out, fold 0 sees only the other folds' cases.
    expect(r.chosen).toEqual([0, 1, 1, 1, 1]);
    expect(r.heldOut).toEqual(many.map((c) => (foldOf(c) === 0 ? 2 : 11)));
  });

  it('keeps the first setting on a tie and formats top-k in percent', () => {
    const a = cohorts.map(() => 2);
    expect(chooseByFold([a, [...a]], cohorts).chosen).toEqual([0, 0, 0, 0, 0]);
    expect(formatTopK([1, 2, 11, null])).toBe('25.0 / 50.0 / 50.0 / 75.0');
  });
});
