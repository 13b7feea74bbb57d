/**
 * The job queue on pg-boss 10, the same on PostgreSQL and PGlite (pg-boss talks to either
 * through the database's `executeSql`). pg-boss keeps the jobs (schema `pgboss`), enforces one
 * queued and one active job per singleton key (queue policy `stately`), retries with
 * exponential backoff, and fails jobs whose worker stopped responding (expiry). This runner
 * adds what a genome analysis needs on top:
 *
 * - a heartbeat: every `heartbeatMs` the running attempt moves its `started_on` forward, so
 *   the expiry (`staleAfterMs`) catches a dead worker within seconds however long a healthy
 *   job runs (pg-boss's own `work()` would cut a job off at its expiry);
 * - ownership: an attempt is (job id, retry_count); `assertOwnership` locks the job row in the
 *   transaction that publishes results and throws LostJobLockError when another attempt took
 *   over, so a worker presumed dead never publishes a second copy;
 * - input errors fail at once (no retry), and `onFailed` runs exactly once when a job has
 *   failed for good, including a job whose worker died on its last attempt.
 *
 * Enqueueing happens inside the caller's transaction (pg-boss `send` with a `db` adapter), so
 * a case row and its analysis job commit together or not at all. On PostgreSQL the enqueue also
 * notifies JOBS_CHANNEL (delivered at commit) and every working process LISTENs on it (on the
 * process's one listener connection, which reconnects), so a worker in another process starts a
 * job (a re-rank) at once instead of at its next poll.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type SQL } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { rowsOf, type Database, type Executor } from '../db/database.ts';
import type { NotificationSubscription } from '../db/notification-listener.ts';
import { LostJobLockError, type AnyJobDefinition, type JobDefinition, type JobRegistry, type SqlRunner } from './job.registry.ts';

export interface RunnerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobQueueOptions {
  /** Jobs run at once by this process's worker. */
  concurrency?: number;
  /** Idle polling interval (ms, pg-boss minimum 500 is not imposed on our own loop). */
  pollMs?: number;
  /** Heartbeat interval (ms). */
  heartbeatMs?: number;
  /** A running job without a heartbeat for this long is presumed dead and retried (ms). */
  staleAfterMs?: number;
  /** How often pg-boss maintenance (expiry, archiving) runs (s). */
  maintenanceSeconds?: number;
  workerId?: string;
  logger: RunnerLogger;
}

/** PostgreSQL NOTIFY channel of new jobs (payload: the job's name). */
export const JOBS_CHANNEL = 'rarelens_jobs';

/** The pg-boss schema holding the queue tables. */
export const BOSS_SCHEMA = 'pgboss';
/** Arbitrary constant key of the advisory lock serialising pg-boss installation across processes. */
const BOSS_START_LOCK_KEY = 7_231_440_922;

/** Unique per process and runner: `<host>:<pid>:<random>`. */
export function createWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

function describeError(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** pg-boss's `db` contract over a drizzle database or open transaction (`$1`… placeholders). */
export function executorAdapter(db: Executor): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  return {
    async executeSql(text, values = []) {
      const parts = text.split(/\$(\d+)/);
      const chunks: SQL[] = [];
      for (let i = 0; i < parts.length; i++) {
        if (i % 2 === 0) chunks.push(sql.raw(parts[i]!));
        else chunks.push(sql`${values[Number(parts[i]) - 1] ?? null}`);
      }
      return { rows: rowsOf(await db.execute(sql.join(chunks))) };
    },
  };
}

interface FetchedJob {
  id: string;
  name: string;
  data: unknown;
  retryCount: number;
}

export class JobQueue {
  readonly workerId: string;
  readonly boss: PgBoss;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly heartbeatMs: number;
  private readonly staleAfterMs: number;
  private readonly logger: RunnerLogger;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private started: Promise<void> | null = null;
  private working = false;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** Set by wake(): a wake-up that came while the loop was fetching makes it look again instead of sleeping. */
  private woken = false;
  /** PostgreSQL: the LISTEN on JOBS_CHANNEL while working. */
  private subscription: NotificationSubscription | null = null;

  constructor(
    private readonly database: Database,
    private readonly registry: JobRegistry,
    options: JobQueueOptions,
  ) {
    this.concurrency = options.concurrency ?? 1;
    this.pollMs = options.pollMs ?? 1000;
    this.heartbeatMs = options.heartbeatMs ?? 5000;
    this.staleAfterMs = options.staleAfterMs ?? 30_000;
    this.workerId = options.workerId ?? createWorkerId();
    this.logger = options.logger;
    if (!(this.concurrency >= 1)) throw new RangeError('concurrency must be >= 1');
    if (!(this.staleAfterMs >= 1000 && this.staleAfterMs > this.heartbeatMs * 2))
      throw new RangeError('staleAfterMs must be at least 1 s and exceed two heartbeat intervals');
    this.boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
      schema: BOSS_SCHEMA,
      schedule: false,
      // Expiry of dead workers' jobs runs in every process; pg-boss lets one run at a time.
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceSeconds ?? Math.max(1, Math.round(this.staleAfterMs / 3000)),
    });
    this.boss.on('error', (e: unknown) => this.logger.error({ err: describeError(e) }, 'pg-boss error'));
  }

  /** Installs/migrates the pg-boss schema and creates (or updates) one queue per job. Idempotent. */
  start(): Promise<void> {
    this.started ??= this.serialized(async () => {
      await this.boss.start();
      for (const name of this.registry.names()) {
        const def = this.registry.get(name)!;
        const options = {
          name,
          policy: 'stately' as const,
          // One extra retry is kept for a worker that dies on the last attempt: the runner then
          // fails the job itself and runs onFailed (see perform()).
          retryLimit: def.retry.maxAttempts,
          retryDelay: def.retry.delaySeconds,
          retryBackoff: def.retry.backoff,
          expireInSeconds: Math.ceil(this.staleAfterMs / 1000),
          retentionDays: 7,
        };
        if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, options);
        else await this.boss.createQueue(name, options);
      }
    });
    return this.started;
  }

  /**
   * Runs `fn` under a PostgreSQL session advisory lock: processes starting together on a fresh
   * database (API x2 + workers) would otherwise race pg-boss's CREATE SCHEMA and createQueue
   * ("duplicate key value violates unique constraint pg_namespace_nspname_index"). PGlite is
   * single-process, so nothing to serialise there.
   */
  private async serialized(fn: () => Promise<void>): Promise<void> {
    if (this.database.kind !== 'postgres') return fn();
    const client = await this.database.pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [BOSS_START_LOCK_KEY]);
      try {
        await fn();
      } finally {
        await client.query('select pg_advisory_unlock($1)', [BOSS_START_LOCK_KEY]);
      }
    } finally {
      client.release();
    }
  }

  /** Starts the worker loop (after `start()`): this process runs jobs too. */
  async work(): Promise<void> {
    await this.start();
    if (this.working) return;
    this.working = true;
    this.stopping = false;
    this.listen();
    this.loop = this.runLoop();
  }

  /**
   * PostgreSQL: wakes the loop when any process enqueues a job (else it polls every pollMs). The
   * LISTEN is on the process's one listener connection (Database.listener, db/notification-listener.ts),
   * which reconnects after a lost connection; whenever LISTEN is (again) in place the loop looks
   * for work once, since a notification sent meanwhile was missed.
   */
  private listen(): void {
    if (this.database.kind !== 'postgres' || this.subscription) return;
    this.subscription = this.database.listener.subscribe([JOBS_CHANNEL], {
      notify: () => this.wake(),
      listening: () => this.wake(),
    });
  }

  private async unlisten(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.unsubscribe();
  }

  /**
   * Enqueues a job inside the caller's transaction; returns its id, or null when a job with the
   * same singleton key is already queued (pg-boss `stately`: one queued + one running).
   */
  async enqueue<P>(tx: Executor, def: JobDefinition<P>, payload: P, singletonKey: string): Promise<string | null> {
    const data = def.payload.parse(payload) as object;
    const id = await this.boss.send(def.name, data, { singletonKey, db: executorAdapter(tx) });
    // Delivered when the caller's transaction commits (not at all if it rolls back).
    if (id && this.database.kind === 'postgres') await executorAdapter(tx).executeSql('select pg_notify($1, $2)', [JOBS_CHANNEL, def.name]);
    return id;
  }

  /** Asks the worker loop to look for work now (after an enqueue in this process). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  get activeCount(): number {
    return this.running.size;
  }

  /**
   * Stops the worker and pg-boss. Running jobs are aborted unless `graceful` (an aborted job
   * is failed and retried after its backoff); resolves once nothing of this runner executes.
   */
  async stop(options: { graceful?: boolean } = {}): Promise<void> {
    this.stopping = true;
    this.working = false;
    this.wake();
    if (!options.graceful) for (const r of this.running.values()) r.controller.abort(new Error('worker stopping'));
    await this.loop;
    await this.unlisten();
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    if (this.started) {
      await this.started.catch(() => undefined);
      await this.boss.stop({ graceful: false, wait: true, close: false });
      this.started = null;
    }
  }

  private async runLoop(): Promise<void> {
    const names = this.registry.names();
    let next = 0;
    while (this.working) {
      this.woken = false;
      let job: FetchedJob | null = null;
      if (this.running.size < this.concurrency) {
        for (let i = 0; i < names.length && !job; i++) {
          const name = names[(next + i) % names.length]!;
          try {
            const got = (await this.boss.fetch(name, { batchSize: 1, includeMetadata: true })) as unknown as FetchedJob[] | null;
            job = got?.[0] ?? null;
          } catch (e) {
            this.logger.error({ err: describeError(e), queue: name }, 'job fetch failed');
          }
        }
        next++;
      }
      if (job) {
        this.execute(job);
        continue;
      }
      // Woken during the fetch (a job enqueued after it read the queue, a job ended, stop()):
      // look again now rather than after pollMs.
      if (this.woken) continue;
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

  private execute(job: FetchedJob): void {
    const controller = new AbortController();
    const done = this.perform(job, controller).finally(() => {
      this.running.delete(job.id);
      this.wake();
    });
    this.running.set(job.id, { controller, done });
  }

  private sqlRows(text: string, values: unknown[], db: SqlRunner = this.database.db) {
    return executorAdapter(db).executeSql(text, values);
  }

  /** True while this attempt holds the job; locks the row until the surrounding transaction ends. */
  private async holds(tx: SqlRunner, job: FetchedJob): Promise<boolean> {
    const { rows } = await this.sqlRows(
      `select id from ${BOSS_SCHEMA}.job where name = $1 and id = $2 and state = 'active' and retry_count = $3 for update`,
      [job.name, job.id, job.retryCount],
      tx,
    );
    return rows.length > 0;
  }

  /** Moves the attempt's expiry clock forward; false when this attempt no longer holds the job. */
  private async heartbeat(job: FetchedJob): Promise<boolean> {
    const { rows } = await this.sqlRows(
      `update ${BOSS_SCHEMA}.job set started_on = now() where name = $1 and id = $2 and state = 'active' and retry_count = $3 returning id`,
      [job.name, job.id, job.retryCount],
    );
    return rows.length > 0;
  }

  /** Fails the job for good (no further retry), if this attempt still holds it. */
  private async failForGood(job: FetchedJob, message: string): Promise<boolean> {
    const { rows } = await this.sqlRows(
      `update ${BOSS_SCHEMA}.job set retry_limit = retry_count where name = $1 and id = $2 and state = 'active' and retry_count = $3 returning id`,
      [job.name, job.id, job.retryCount],
    );
    if (rows.length === 0) return false;
    await this.boss.fail(job.name, job.id, { message });
    return true;
  }

  private async perform(job: FetchedJob, controller: AbortController): Promise<void> {
    const def: AnyJobDefinition | undefined = this.registry.get(job.name);
    const attempt = job.retryCount + 1;
    const log = { jobId: job.id, queue: job.name, attempt, workerId: this.workerId };
    const ctxBase = {
      jobId: job.id,
      attempt,
      workerId: this.workerId,
      assertOwnership: async (tx: SqlRunner) => {
        if (!(await this.holds(tx, job))) throw new LostJobLockError(job.id);
      },
    };
    if (!def) {
      await this.failForGood(job, `no handler registered for ${job.name}`);
      return;
    }
    const parsed = def.payload.safeParse(job.data);
    if (!parsed.success) {
      const msg = `invalid payload: ${parsed.error.message}`;
      this.logger.error(log, msg);
      if (await this.failForGood(job, msg)) await def.onFailed?.(job.data, new Error(msg), ctxBase);
      return;
    }
    const payload: unknown = parsed.data;
    // The attempt before this one used the last try and its worker stopped responding.
    if (attempt > def.retry.maxAttempts) {
      const err = new Error(`gave up after ${def.retry.maxAttempts} attempts (the worker running it stopped responding)`);
      if (await this.failForGood(job, err.message)) await this.onFailed(def, payload, err, ctxBase, log);
      return;
    }
    const timer = setInterval(() => {
      this.heartbeat(job).then(
        (held) => {
          if (!held) controller.abort(new LostJobLockError(job.id));
        },
        (e: unknown) => this.logger.warn({ ...log, err: describeError(e) }, 'heartbeat failed'),
      );
    }, this.heartbeatMs);
    try {
      this.logger.info(log, 'job started');
      await def.perform(payload, { ...ctxBase, signal: controller.signal });
      const { rows } = await this.sqlRows(
        `update ${BOSS_SCHEMA}.job set state = 'completed', completed_on = now() where name = $1 and id = $2 and state = 'active' and retry_count = $3 returning id`,
        [job.name, job.id, job.retryCount],
      );
      if (rows.length === 0) this.logger.warn(log, 'job finished after another attempt took it over');
      else this.logger.info(log, 'job completed');
    } catch (e) {
      if (e instanceof LostJobLockError || controller.signal.reason instanceof LostJobLockError) {
        // Another attempt owns it now (this worker was presumed dead): leave the row alone.
        this.logger.warn({ ...log, err: describeError(e) }, 'job abandoned: lock lost');
        return;
      }
      const msg = describeError(e);
      const permanent = def.isPermanent?.(e) ?? false;
      if (!permanent && attempt < def.retry.maxAttempts) {
        this.logger.warn({ ...log, err: msg }, 'job failed, will retry');
        if (await this.holds(this.database.db, job)) await this.boss.fail(job.name, job.id, { message: msg });
        return;
      }
      this.logger.error({ ...log, err: msg, permanent }, 'job failed');
      if (await this.failForGood(job, msg)) await this.onFailed(def, payload, e, ctxBase, log);
    } finally {
      clearInterval(timer);
    }
  }

  private async onFailed(
    def: AnyJobDefinition,
    payload: unknown,
    error: unknown,
    ctx: Parameters<NonNullable<AnyJobDefinition['onFailed']>>[2],
    log: object,
  ): Promise<void> {
    try {
      await def.onFailed?.(payload, error, ctx);
    } catch (hookError) {
      this.logger.error({ ...log, err: describeError(hookError) }, 'onFailed hook failed');
    }
  }
}
