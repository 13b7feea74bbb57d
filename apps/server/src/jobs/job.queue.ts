/**
 * The job queue on PostgreSQL (or PGlite, same SQL): enqueue, claim with
 * FOR UPDATE SKIP LOCKED, heartbeat, complete, retry or fail. Safe for any number of worker
 * processes on any number of machines sharing one database.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type JobDefinition, type SqlRunner } from './job.registry.ts';

export interface ClaimedJob {
  id: string;
  queue: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

export interface EnqueueOptions {
  /** While a job with this key is queued or active, enqueueing another is a no-op. */
  singletonKey?: string;
  /** Start no earlier than this many ms from now. */
  delayMs?: number;
}

/** Enqueues a job after validating its payload; returns the job id, or null for a duplicate singleton. */
export async function enqueueJob<P>(
  db: SqlRunner,
  def: JobDefinition<P>,
  payload: P,
  options: EnqueueOptions = {},
): Promise<string | null> {
  const data = def.payload.parse(payload);
  const delay = Math.max(0, Math.round(options.delayMs ?? 0));
  const res = rowsOf(
    await db.execute(sql`
    insert into jobs (queue, payload, max_attempts, run_after, singleton_key)
    values (${def.name}, ${JSON.stringify(data)}::jsonb, ${def.retry.maxAttempts},
            now() + make_interval(secs => ${delay / 1000}), ${options.singletonKey ?? null})
    on conflict (singleton_key) where state in ('queued', 'active') do nothing
    returning id`),
  );
  const row = res[0];
  return row ? String(row.id) : null;
}

/**
 * Claims the oldest runnable job of the given queues: a queued job whose time has come, or an
 * active job whose worker stopped sending heartbeats for `staleAfterMs` (crashed or killed).
 */
export async function claimJob(
  db: SqlRunner,
  queues: string[],
  workerId: string,
  staleAfterMs: number,
): Promise<ClaimedJob | null> {
  if (queues.length === 0) return null;
  const res = rowsOf(
    await db.execute(sql`
    update jobs set state = 'active', attempts = attempts + 1, locked_by = ${workerId},
                    heartbeat_at = now()
    where id = (
      select id from jobs
      where queue in (${sql.join(
        queues.map((q) => sql`${q}`),
        sql`, `,
      )})
        and ((state = 'queued' and run_after <= now())
          or (state = 'active' and heartbeat_at < now() - make_interval(secs => ${staleAfterMs / 1000})))
      order by run_after, created_at
      for update skip locked
      limit 1)
    returning id, queue, payload, attempts, max_attempts`),
  );
  const row = res[0];
  if (!row) return null;
  const payload =
    typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
  return {
    id: String(row.id),
    queue: String(row.queue),
    payload,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
  };
}

/** Refreshes the heartbeat; false when this worker no longer holds the job. */
export async function heartbeatJob(
  db: SqlRunner,
  jobId: string,
  workerId: string,
): Promise<boolean> {
  const res = rowsOf(
    await db.execute(sql`
    update jobs set heartbeat_at = now()
    where id = ${jobId} and locked_by = ${workerId} and state = 'active' returning id`),
  );
  return res.length > 0;
}

/** True while `workerId` holds the job; locks the row until the surrounding transaction ends. */
export async function holdsJob(tx: SqlRunner, jobId: string, workerId: string): Promise<boolean> {
  const res = rowsOf(
    await tx.execute(sql`
    select id from jobs where id = ${jobId} and locked_by = ${workerId} and state = 'active' for update`),
  );
  return res.length > 0;
}

export async function completeJob(db: SqlRunner, jobId: string, workerId: string): Promise<void> {
  await db.execute(sql`
    update jobs set state = 'completed', completed_at = now(), locked_by = null, last_error = null
    where id = ${jobId} and locked_by = ${workerId} and state = 'active'`);
}

/** Puts the job back in the queue after `delayMs`; false when this worker no longer holds it. */
export async function retryJob(
  db: SqlRunner,
  jobId: string,
  workerId: string,
  error: string,
  delayMs: number,
): Promise<boolean> {
  const res = rowsOf(
    await db.execute(sql`
    update jobs set state = 'queued', locked_by = null, heartbeat_at = null, last_error = ${error},
                    run_after = now() + make_interval(secs => ${delayMs / 1000})
    where id = ${jobId} and locked_by = ${workerId} and state = 'active' returning id`),
  );
  return res.length > 0;
}

/** Marks the job failed for good; false when this worker no longer holds it. */
export async function failJob(
  db: SqlRunner,
  jobId: string,
  workerId: string,
  error: string,
): Promise<boolean> {
  const res = rowsOf(
    await db.execute(sql`
    update jobs set state = 'failed', completed_at = now(), locked_by = null, last_error = ${error}
    where id = ${jobId} and locked_by = ${workerId} and state = 'active' returning id`),
  );
  return res.length > 0;
}

/** Gives a job back to the queue without counting the attempt (worker shutting down). */
export async function releaseJob(db: SqlRunner, jobId: string, workerId: string): Promise<void> {
  await db.execute(sql`
    update jobs set state = 'queued', locked_by = null, heartbeat_at = null,
                    attempts = greatest(attempts - 1, 0), run_after = now()
    where id = ${jobId} and locked_by = ${workerId} and state = 'active'`);
}
