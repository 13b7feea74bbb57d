import { describe, expect, it } from 'vitest';
import { countKey } from './count-cache.ts';

describe('countKey', () => {
  it('is the same for the same filters in any order, and differs by run, ranking, kind and filter', () => {
    const key = countKey('run', '2026-11-26 10:00:00+00', 'variants', { consequence: ['b', 'a'], maxAf: 0.01, gene: undefined, zygosity: [] });
    expect(countKey('run', '2026-11-26 10:00:00+00', 'variants', { maxAf: 0.01, consequence: ['a', 'b'] })).toBe(key);
    expect(countKey('run', '2026-11-26 10:05:00+00', 'variants', { maxAf: 0.01, consequence: ['a', 'b'] })).not.toBe(key);
    expect(countKey('other', '2026-11-26 10:00:00+00', 'variants', { maxAf: 0.01, consequence: ['a', 'b'] })).not.toBe(key);
    expect(countKey('run', '2026-11-26 10:00:00+00', 'clusters', { maxAf: 0.01, consequence: ['a', 'b'] })).not.toBe(key);
    expect(countKey('run', '2026-11-26 10:00:00+00', 'variants', { maxAf: 0.02, consequence: ['a', 'b'] })).not.toBe(key);
    expect(countKey('run', null, 'variants', { candidatesOnly: true })).not.toBe(countKey('run', null, 'variants', {}));
  });
});
