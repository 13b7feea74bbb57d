import { describe, expect, it } from 'vitest';
import { loadOnce } from './load-once.ts';

describe('loadOnce', () => {
  it('runs the load once and shares its answer', async () => {
    let runs = 0;
    const load = loadOnce(() => Promise.resolve(`answer ${++runs}`));
    const [a, b] = await Promise.all([load(), load()]);
    expect([a, b, await load()]).toEqual(['answer 1', 'answer 1', 'answer 1']);
    expect(runs).toBe(1);
  });

  it('runs again after a load that found nothing (null)', async () => {
    const answers: (string | null)[] = [null, 'found'];
    let runs = 0;
    const load = loadOnce(() => Promise.resolve(answers[runs++] ?? null));
    expect(await load()).toBeNull();
    expect(await load()).toBe('found');
    expect(await load()).toBe('found');
    expect(runs).toBe(2);
  });

  it('runs again after a load that failed', async () => {
    let runs = 0;
    const load = loadOnce(() => (++runs === 1 ? Promise.reject(new Error('no knowledge base yet')) : Promise.resolve('built')));
    await expect(load()).rejects.toThrow('no knowledge base yet');
    expect(await load()).toBe('built');
    expect(runs).toBe(2);
  });
});
