import { describe, expect, it } from 'vitest';
import { CountCache, countKey } from './count-cache.ts';

describe('CountCache', () => {
  it('computes a missing entry once, also for concurrent callers, and keeps it', async () => {
    const cache = new CountCache<number>();
    let calls = 0;
    const compute = () => {
      calls++;
      return new Promise<number>((r) => setTimeout(() => r(42), 5));
    };
    expect(await Promise.all([cache.get('k', compute), cache.get('k', compute), cache.get('k', compute)])).toEqual([42, 42, 42]);
    expect(await cache.get('k', compute)).toBe(42);
    expect(calls).toBe(1);
  });

  it('does not keep a failed count', async () => {
    const cache = new CountCache<number>();
    await expect(cache.get('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get('k', () => Promise.resolve(7))).toBe(7);
  });

  it('drops the least recently used entry beyond its size', async () => {
    const cache = new CountCache<string>(2);
    await cache.get('a', () => Promise.resolve('a1'));
    await cache.get('b', () => Promise.resolve('b1'));
    await cache.get('a', () => Promise.resolve('a2')); // a is now the most recent
    await cache.get('c', () => Promise.resolve('c1')); // b goes
    expect(cache.size).toBe(2);
    expect(await cache.get('a', () => Promise.resolve('a3'))).toBe('a1');
    expect(await cache.get('b', () => Promise.resolve('b2'))).toBe('b2');
  });
});

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
