/**
 * Runs jobs from the queue: the worker process (`npm run worker`) and the in-process worker of
 * embedded mode both use it. Claims up to `concurrency` jobs, keeps their heartbeats fresh,
 * and on failure retries with the job's backoff or fails it for good and calls `onFailed`.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  claimJob,
  completeJob,
  failJob,
  heartbeatJob,
  holdsJob,
  releaseJob,
  retryJob,
  type ClaimedJob,
} from './job.queue.ts';
import {
  LostJobLockError,
  type JobRegistry,
  type SqlRunner,
} from './job.registry.ts';

export interface RunnerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobRunnerOptions {
  concurrency?: number;
  /** Idle polling interval (ms). */
  pollMs?: number;
  /** Heartbeat interval (ms). */
  heartbeatMs?: number;
  /** An active job without a heartbeat for this long is presumed dead and claimed again (ms). */
  staleAfterMs?: number;
  workerId?: string;
  logger: RunnerLogger;
}

/** Unique per process and runner: `<host>:<pid>:<random>`. */
export function createWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

function describeError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class JobRunner {
  readonly workerId: string;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly staleAfterMs: number;
  private readonly logger: RunnerLogger;
  private readonly running = new Map<
    string,
    { controller: AbortController; done: Promise<void> }
  >();
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly db: SqlRunner,
    private readonly registry: JobRegistry,
    options: JobRunnerOptions,
  ) {
    this.concurrency = options.concurrency ?? 1;
    this.pollMs = options.pollMs ?? 1000;
    this.heartbeatMs = options.heartbeatMs ?? 5000;
    this.staleAfterMs = options.staleAfterMs ?? 30_000;
    this.workerId = options.workerId ?? createWorkerId();
    this.logger = options.logger;
    if (!(this.concurrency >= 1)) throw new RangeError('concurrency must be >= 1');
    if (!(this.staleAfterMs > this.heartbeatMs * 2)) {
      throw new RangeError('staleAfterMs must exceed two heartbeat intervals');
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.runLoop();
  }

  /** Asks the loop to look for work now (e.g. right after an enqueue in the same process). */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Stops claiming. Running jobs are aborted (their signal fires) unless `graceful`, in which
   * case they may finish; either way this resolves once no job of this runner is executing.
   */
  async stop(options: { graceful?: boolean } = {}): Promise<void> {
    this.stopped = true;
    this.wake();
    if (!options.graceful)
      for (const r of this.running.values()) r.controller.abort(new Error('worker stopping'));
    await this.loop;
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  /** Number of jobs currently executing in this runner. */
  get activeCount(): number {
    return this.running.size;
  }

  private async runLoop(): Promise<void> {
    while (!this.stopped) {
      let claimed: ClaimedJob | null = null;
      if (this.running.size < this.concurrency) {
        try {
          claimed = await claimJob(
            this.db,
            this.registry.names(),
            this.workerId,
            this.staleAfterMs,
          );
        } catch (e) {
          this.logger.error({ err: e }, 'job claim failed');
        }
      }
      if (claimed) {
        this.execute(claimed);
        continue;
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.pollMs);
        this.wakeUp = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  private execute(job: ClaimedJob): void {
    const controller = new AbortController();
    const done = this.perform(job, controller).finally(() => {
      this.running.delete(job.id);
      this.wake();
    });
    this.running.set(job.id, { controller, done });
  }

  private async perform(job: ClaimedJob, controller: AbortController): Promise<void> {
    const def = this.registry.get(job.queue);
    const log = { jobId: job.id, queue: job.queue, attempt: job.attempts, workerId: this.workerId };
    const ctxBase = {
      jobId: job.id,
      attempt: job.attempts,
      workerId: this.workerId,
      assertOwnership: async (tx: SqlRunner) => {
        if (!(await holdsJob(tx, job.id, this.workerId))) throw new LostJobLockError(job.id);
      },
    };
    if (!def) {
      await failJob(this.db, job.id, this.workerId, `no handler registered for ${job.queue}`);
      return;
    }
    const parsed = def.payload.safeParse(job.payload);
    if (!parsed.success) {
      const msg = `invalid payload: ${parsed.error.message}`;
      this.logger.error(log, msg);
      if (await failJob(this.db, job.id, this.workerId, msg)) {
        await def.onFailed?.(job.payload, new Error(msg), ctxBase);
      }
      return;
    }
    const payload: unknown = parsed.data;
    // A job recovered from a dead worker may already have used its last attempt.
    if (job.attempts > job.maxAttempts) {
      const err = new Error(
        `gave up after ${job.maxAttempts} attempts (the worker running it stopped responding)`,
      );
      if (await failJob(this.db, job.id, this.workerId, err.message))
        await def.onFailed?.(payload, err, ctxBase);
      return;
    }
    const heartbeat = setInterval(() => {
      heartbeatJob(this.db, job.id, this.workerId).then(
        (held) => {
          if (!held) controller.abort(new LostJobLockError(job.id));
        },
        (e: unknown) => this.logger.warn({ ...log, err: e }, 'heartbeat failed'),
      );
    }, this.heartbeatMs);
    try {
      this.logger.info(log, 'job started');
      await def.perform(payload, { ...ctxBase, signal: controller.signal });
      await completeJob(this.db, job.id, this.workerId);
      this.logger.info(log, 'job completed');
    } catch (e) {
      if (e instanceof LostJobLockError) {
        // Another worker owns it now (this one was presumed dead): leave the row alone.
        this.logger.warn({ ...log, err: describeError(e) }, 'job abandoned: lock lost');
        return;
      }
      if (controller.signal.aborted && this.stopped) {
        // Shutting down: hand the job back at once, without spending an attempt.
        await releaseJob(this.db, job.id, this.workerId);
        this.logger.warn(log, 'job released: worker stopping');
        return;
      }
      const permanent = def.isPermanent?.(e) ?? false;
      const msg = describeError(e);
      if (!permanent && job.attempts < job.maxAttempts) {
        const delay = def.retry.backoffMs(job.attempts);
        this.logger.warn({ ...log, err: msg, retryInMs: delay }, 'job failed, will retry');
        await retryJob(this.db, job.id, this.workerId, msg, delay);
        return;
      }
      this.logger.error({ ...log, err: msg, permanent }, 'job failed');
      if (await failJob(this.db, job.id, this.workerId, msg)) {
        try {
          await def.onFailed?.(payload, e, ctxBase);
        } catch (hookError) {
          this.logger.error({ ...log, err: describeError(hookError) }, 'onFailed hook failed');
        }
      }
    } finally {
      clearInterval(heartbeat);
    }
  }
}
