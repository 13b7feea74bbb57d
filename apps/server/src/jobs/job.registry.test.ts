import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineJob, exponentialBackoff, JobRegistry } from './job.registry.ts';

const job = (name: string, maxAttempts = 2) =>
  defineJob({
    name,
    payload: z.object({ id: z.string() }),
    retry: { maxAttempts, backoffMs: exponentialBackoff(1000, 5000) },
    perform: () => Promise.resolve(),
  });

describe('exponentialBackoff', () => {
  it('doubles from the base and stops at the cap', () => {
    const b = exponentialBackoff(1000, 5000);
    expect([1, 2, 3, 4, 5].map(b)).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
  it('refuses a cap below the base', () => {
    expect(() => exponentialBackoff(1000, 10)).toThrow(RangeError);
  });
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
