/**
 * Typed job registry (CONVENTIONS §7): each job has a name, a zod payload holding ids only,
 * `perform()`, a retry policy and `onFailed()`. Handlers must be idempotent: a job can run
 * again after a crash, so it must produce the same end state without duplicating results.
 */
import type { z } from 'zod';
import type { Executor } from '../db/database.ts';

export interface JobContext {
  jobId: string;
  /** 1 for the first run, 2 after the first retry or crash recovery, ... */
  attempt: number;
  workerId: string;
  /** Aborted when the worker stops or loses the job's lock to another worker. */
  signal: AbortSignal;
  /**
   * Throws LostJobLockError unless this worker still holds the job. Call it inside the
   * transaction that commits results so a worker presumed dead cannot overwrite a newer run.
   */
  assertOwnership(tx: SqlRunner): Promise<void>;
}

/** A drizzle database or open transaction (either driver). */
export type SqlRunner = Executor;

export interface RetryPolicy {
  /** Total attempts, including the first (1 = never retried). */
  maxAttempts: number;
  /** Delay before the first retry, in seconds. */
  delaySeconds: number;
  /** Exponential backoff (pg-boss `retryBackoff`): the delay doubles with each retry, with jitter. */
  backoff: boolean;
}

export interface JobDefinition<P> {
  name: string;
  payload: z.ZodType<P>;
  retry: RetryPolicy;
  /** Errors for which another attempt cannot help (bad input): fail at once. */
  isPermanent?(error: unknown): boolean;
  perform(payload: P, ctx: JobContext): Promise<void>;
  /** Runs once when the job has failed for good (permanent error or attempts exhausted). */
  onFailed?(payload: P, error: unknown, ctx: Omit<JobContext, 'signal'>): Promise<void>;
}

/** Identity helper that keeps the payload type of a job definition. */
export function defineJob<P>(def: JobDefinition<P>): JobDefinition<P> {
  return def;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobDefinition = JobDefinition<any>;

export class JobRegistry {
  private readonly defs = new Map<string, AnyJobDefinition>();

  register<P>(def: JobDefinition<P>): this {
    if (this.defs.has(def.name)) throw new Error(`job ${def.name} is registered twice`);
    if (!(Number.isInteger(def.retry.maxAttempts) && def.retry.maxAttempts >= 1))
      throw new RangeError(`job ${def.name}: retry.maxAttempts must be a whole number >= 1`);
    if (!(def.retry.delaySeconds >= 0)) throw new RangeError(`job ${def.name}: retry.delaySeconds must be >= 0`);
    this.defs.set(def.name, def);
    return this;
  }

  get(name: string): AnyJobDefinition | undefined {
    return this.defs.get(name);
  }

  names(): string[] {
    return [...this.defs.keys()];
  }
}

/** Another worker took over the job (this one was presumed dead); its writes must not commit. */
export class LostJobLockError extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId} is no longer held by this worker`);
    this.name = 'LostJobLockError';
  }
}
