import { describe, expect, it } from 'vitest';
import { ResultsCache } from './results-cache.ts';

describe('ResultsCache (list totals: no version)', () => {
  it('computes a missing entry once, also for concurrent callers, and keeps it', async () => {
    const cache = new ResultsCache<number>();
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
    const cache = new ResultsCache<number>();
    await expect(cache.get('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get('k', () => Promise.resolve(7))).toBe(7);
  });

  it('drops the least recently used entry beyond its size', async () => {
    const cache = new ResultsCache<string>(2);
    await cache.get('a', () => Promise.resolve('a1'));
    await cache.get('b', () => Promise.resolve('b1'));
    await cache.get('a', () => Promise.resolve('a2')); // a is now the most recent
    await cache.get('c', () => Promise.resolve('c1')); // b goes
    expect(cache.size).toBe(2);
    expect(await cache.get('a', () => Promise.resolve('a3'))).toBe('a1');
    expect(await cache.get('b', () => Promise.resolve('b2'))).toBe('b2');
  });
});

describe('ResultsCache with versions (GenomeTalks case contexts)', () => {
  it('loads a case once per version and replaces the entry when the version changes', async () => {
    const cache = new ResultsCache<string>(4);
    const loads: string[] = [];
    const load = (v: string) => () => {
      loads.push(v);
      return Promise.resolve(`context of ${v}`);
    };
    expect(await cache.get('case-a', load('run1|t1'), 'run1|t1')).toBe('context of run1|t1');
    expect(await cache.get('case-a', load('run1|t1'), 'run1|t1')).toBe('context of run1|t1');
    expect(loads).toEqual(['run1|t1']);
    // A re-ranking: a new version of the same case replaces its entry, it does not add one.
    expect(await cache.get('case-a', load('run1|t2'), 'run1|t2')).toBe('context of run1|t2');
    expect(loads).toEqual(['run1|t1', 'run1|t2']);
    expect(cache.size).toBe(1);
  });

  it('keeps at most maxCases cases, the least recently asked about leaving first', async () => {
    const cache = new ResultsCache<number>(3);
    let loads = 0;
    const load = () => Promise.resolve(++loads);
    for (const id of ['a', 'b', 'c']) await cache.get(id, load, 'v');
    await cache.get('a', load, 'v'); // a is now the most recent
    await cache.get('d', load, 'v'); // evicts b
    expect(cache.size).toBe(3);
    expect(loads).toBe(4);
    await cache.get('a', load, 'v');
    await cache.get('c', load, 'v');
    expect(loads).toBe(4);
    await cache.get('b', load, 'v');
    expect(loads).toBe(5);
  });

  it('shares one load between concurrent questions and forgets a failed load', async () => {
    const cache = new ResultsCache<string>(2);
    let loads = 0;
    let fail = true;
    const load = () => {
      loads++;
      return new Promise<string>((resolve, reject) => setTimeout(() => (fail ? reject(new Error('database down')) : resolve('ok')), 5));
    };
    const both = [cache.get('a', load, 'v'), cache.get('a', load, 'v')];
    await expect(Promise.all(both)).rejects.toThrow('database down');
    expect(loads).toBe(1);
    expect(cache.size).toBe(0);
    fail = false;
    expect(await cache.get('a', load, 'v')).toBe('ok');
    expect(loads).toBe(2);
  });
});
