import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineJob, JobRegistry } from './job.registry.ts';

const job = (name: string, maxAttempts = 2) =>
  defineJob({
    name,
    payload: z.object({ id: z.string() }),
    retry: { maxAttempts, delaySeconds: 1, backoff: true },
    perform: () => Promise.resolve(),
  });

describe('JobRegistry', () => {
  it('registers jobs by name and refuses duplicates', () => {
    const r = new JobRegistry().register(job('a')).register(job('b'));
    expect(r.names()).toEqual(['a', 'b']);
    expect(r.get('a')?.name).toBe('a');
    expect(() => r.register(job('a'))).toThrow(/registered twice/);
  });
  it('refuses a retry policy without any attempt', () => {
    expect(() => new JobRegistry().register(job('c', 0))).toThrow(RangeError);
  });
});
