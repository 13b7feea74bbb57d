import { describe, expect, it } from 'vitest';
import { compoundHetGroups } from './compound-het.ts';

const row = (id: number, partners: number[] = []) => ({ id, compoundHetPartners: partners });

describe('compoundHetGroups', () => {
  it('puts each compound-heterozygous pair together where its first variant stands', () => {
    const rows = [row(1, [4]), row(2), row(3, [5]), row(4, [1]), row(5, [3])];
    expect(compoundHetGroups(rows).map((g) => g.map((r) => r.id))).toEqual([[1, 4], [2], [3, 5]]);
  });

  it('joins a variant paired with several others into one group and ignores partners not on the page', () => {
    const rows = [row(7, [8, 9]), row(8, [7]), row(10, [99]), row(9, [7])];
    expect(compoundHetGroups(rows).map((g) => g.map((r) => r.id))).toEqual([[7, 8, 9], [10]]);
  });
});
