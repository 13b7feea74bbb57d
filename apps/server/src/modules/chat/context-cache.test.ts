import { describe, expect, it } from 'vitest';
import { PerCaseCache } from './context-cache.ts';

describe('PerCaseCache (GenomeTalks case contexts)', () => {
  it('loads a case once per version and replaces the entry when the version changes', async () => {
    const cache = new PerCaseCache<string>(4);
    const loads: string[] = [];
    const load = (v: string) => () => {
      loads.push(v);
      return Promise.resolve(`context of ${v}`);
    };
    expect(await cache.get('case-a', 'run1|t1', load('run1|t1'))).toBe('context of run1|t1');
    expect(await cache.get('case-a', 'run1|t1', load('run1|t1'))).toBe('context of run1|t1');
    expect(loads).toEqual(['run1|t1']);
    // A re-ranking: a new version of the same case replaces its entry, it does not add one.
    expect(await cache.get('case-a', 'run1|t2', load('run1|t2'))).toBe('context of run1|t2');
    expect(loads).toEqual(['run1|t1', 'run1|t2']);
    expect(cache.size).toBe(1);
  });

  it('keeps at most maxCases cases, the least recently asked about leaving first', async () => {
    const cache = new PerCaseCache<number>(3);
    let loads = 0;
    const load = () => Promise.resolve(++loads);
    for (const id of ['a', 'b', 'c']) await cache.get(id, 'v', load);
    await cache.get('a', 'v', load); // a is now the most recent
    await cache.get('d', 'v', load); // evicts b
    expect(cache.size).toBe(3);
    expect(loads).toBe(4);
    await cache.get('a', 'v', load);
    await cache.get('c', 'v', load);
    expect(loads).toBe(4);
    await cache.get('b', 'v', load);
    expect(loads).toBe(5);
  });

  it('shares one load between concurrent questions and forgets a failed load', async () => {
    const cache = new PerCaseCache<string>(2);
    let loads = 0;
    let fail = true;
    const load = () => {
      loads++;
      return new Promise<string>((resolve, reject) => setTimeout(() => (fail ? reject(new Error('database down')) : resolve('ok')), 5));
    };
    const both = [cache.get('a', 'v', load), cache.get('a', 'v', load)];
    await expect(Promise.all(both)).rejects.toThrow('database down');
    expect(loads).toBe(1);
    expect(cache.size).toBe(0);
    fail = false;
    expect(await cache.get('a', 'v', load)).toBe('ok');
    expect(loads).toBe(2);
  });
});
