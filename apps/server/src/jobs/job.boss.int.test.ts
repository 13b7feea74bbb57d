/**
 * The pg-boss queue's guarantees, on real PostgreSQL and on PGlite alike: singleton per key,
 * retries with backoff, input errors failed at once with onFailed run once, a stale attempt
 * (worker presumed dead) that can neither publish nor complete, cancellation on stop, and N
 * workers sharing the queue with every job run once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDatabase, rowsOf, type Database } from '../db/database.ts';
import type { NotificationListener, NotificationSubscriber } from '../db/notification-listener.ts';
import { BOSS_SCHEMA, JobQueue } from './job.boss.ts';
import { defineJob, JobRegistry, type JobContext } from './job.registry.ts';

const silent = pino({ level: 'silent' });

interface Harness {
  performed: string[];
  failed: { key: string; error: string }[];
  published: string[];
  hold?: Promise<void>;
  contexts: Map<string, JobContext>;
}

function registry(h: Harness, database: Database): JobRegistry {
  const job = defineJob({
    name: 'test-job',
    payload: z.object({ key: z.string(), mode: z.enum(['ok', 'flaky', 'bad', 'hold', 'stall']) }),
    retry: { maxAttempts: 3, delaySeconds: 1, backoff: true },
    isPermanent: (e) => e instanceof Error && e.message.startsWith('bad input'),
    async perform({ key, mode }, ctx) {
      h.performed.push(`${key}#${ctx.attempt}`);
      h.contexts.set(key, ctx);
      if (mode === 'bad') throw new Error(`bad input in ${key}`);
      if (mode === 'flaky' && ctx.attempt < 3) throw new Error(`transient failure ${ctx.attempt}`);
      // A worker that stops responding: ignores its abort signal, then tries to publish.
      if (mode === 'stall' && ctx.attempt === 1) await h.hold;
      if (mode === 'hold') {
        await Promise.race([
          h.hold,
          new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error))),
        ]);
      }
      // Publishing happens only while this attempt still holds the job.
      await database.db.transaction(async (tx) => {
        await ctx.assertOwnership(tx);
        h.published.push(key);
      });
    },
    onFailed({ key }, error) {
      h.failed.push({ key, error: error instanceof Error ? error.message : String(error) });
      return Promise.resolve();
    },
  });
  return new JobRegistry().register(job);
}

async function waitFor(check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function jobRows(db: Database, key: string) {
  return rowsOf(
    await db.db.execute(
      sql.raw(`select state, retry_count, start_after, output from ${BOSS_SCHEMA}.job where data->>'key' = '${key}' order by created_on`),
    ),
  );
}

for (const kind of ['postgres', 'pglite'] as const) {
  describe(`pg-boss queue on ${kind}`, () => {
    let database: Database;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'rl-boss-'));
      database = await createDatabase(
        kind === 'postgres' ? { databaseUrl: process.env.DATABASE_URL!, pgliteDir: '' } : { databaseUrl: undefined, pgliteDir: dir },
      );
    });
    afterAll(async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const newQueue = (h: Harness, opts: { concurrency?: number } = {}) =>
      new JobQueue(database, registry(h, database), { pollMs: 50, heartbeatMs: 200, staleAfterMs: 1000, logger: silent, ...opts });
    const harness = (): Harness => ({ performed: [], failed: [], published: [], contexts: new Map() });

    it('keeps one queued job per singleton key, enqueued inside the caller’s transaction', async () => {
      const h = harness();
      const q = newQueue(h);
      await q.start();
      const def = registry(h, database).get('test-job')!;
      const ids = await database.db.transaction(async (tx) => [
        await q.enqueue(tx, def, { key: 's1', mode: 'ok' }, 'k:s1'),
        await q.enqueue(tx, def, { key: 's1', mode: 'ok' }, 'k:s1'),
      ]);
      expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(ids[1]).toBeNull();
      // A rolled-back transaction leaves no job.
      await database.db
        .transaction(async (tx) => {
          await q.enqueue(tx, def, { key: 's2', mode: 'ok' }, 'k:s2');
          throw new Error('rollback');
        })
        .catch(() => undefined);
      expect(await jobRows(database, 's2')).toEqual([]);
      await q.work();
      await waitFor(() => h.published.includes('s1'));
      await q.stop({ graceful: true });
      expect(h.performed).toEqual(['s1#1']);
      expect((await jobRows(database, 's1')).map((r) => r.state)).toEqual(['completed']);
    });

    // PGlite is one process (its in-process worker is woken directly): PostgreSQL only.
    it.runIf(kind === 'postgres')('starts a job another process enqueued without waiting for the next poll (LISTEN/NOTIFY)', async () => {
      const h = harness();
      // A worker polling once a minute, and another runner (another process) that only enqueues.
      const worker = new JobQueue(database, registry(h, database), { pollMs: 60_000, heartbeatMs: 200, staleAfterMs: 1000, logger: silent });
      const sender = newQueue(harness());
      await worker.work();
      // The loop's first fetch finds nothing; it then sleeps for pollMs.
      await new Promise((r) => setTimeout(r, 500));
      const def = registry(h, database).get('test-job')!;
      const t0 = Date.now();
      await database.db.transaction((tx) => sender.enqueue(tx, def, { key: 'n1', mode: 'ok' }, 'k:n1'));
      // Without the notification the worker would sleep for its 60 s poll.
      await waitFor(() => h.published.includes('n1'), 20_000);
      expect(Date.now() - t0).toBeLessThan(20_000);
      await worker.stop({ graceful: true });
      await sender.stop();
    });

    // PostgreSQL only (PGlite has no listener). The listener here is driven by hand: LISTEN back
    // after a lost connection means notifications may have been missed, so the worker looks once.
    it.runIf(kind === 'postgres')('looks for work once when LISTEN is back after a lost connection (a notification may have been missed)', async () => {
      if (database.kind !== 'postgres') return;
      const h = harness();
      let subscriber: NotificationSubscriber | undefined;
      const listener: NotificationListener = {
        subscribe(_channels, s) {
          subscriber = s;
          return { listening: false, ready: () => Promise.resolve(), unsubscribe: () => ((subscriber = undefined), Promise.resolve()) };
        },
        listening: false,
        backendPid: undefined,
        sync: () => Promise.resolve(),
        close: () => Promise.resolve(),
      };
      const worker = new JobQueue({ ...database, listener }, registry(h, database), { pollMs: 60_000, heartbeatMs: 200, staleAfterMs: 1000, logger: silent });
      const sender = newQueue(harness());
      await worker.work();
      await new Promise((r) => setTimeout(r, 500));
      subscriber!.lost?.();
      // Enqueued while the connection is down: its notification reaches no one.
      const def = registry(h, database).get('test-job')!;
      await database.db.transaction((tx) => sender.enqueue(tx, def, { key: 'm1', mode: 'ok' }, 'k:m1'));
      await new Promise((r) => setTimeout(r, 300));
      expect(h.performed).toEqual([]);
      const t0 = Date.now();
      subscriber!.listening?.();
      // Without that look the worker would sleep for its 60 s poll.
      await waitFor(() => h.published.includes('m1'), 20_000);
      expect(Date.now() - t0).toBeLessThan(20_000);
      await worker.stop({ graceful: true });
      await sender.stop();
      expect(subscriber).toBeUndefined();
    });

    it('does not lose a wake-up that comes while the worker is reading the queue', async () => {
      const h = harness();
      // A worker polling once a minute whose next read of the queue is held open by the test.
      const worker = new JobQueue(database, registry(h, database), { pollMs: 60_000, heartbeatMs: 200, staleAfterMs: 1000, logger: silent });
      const fetch = worker.boss.fetch.bind(worker.boss);
      let hold: { reached: () => void; release: Promise<void> } | null = null;
      worker.boss.fetch = (async (...args: Parameters<typeof fetch>) => {
        const found = await fetch(...args);
        const h2 = hold;
        hold = null;
        if (h2) {
          h2.reached();
          await h2.release;
        }
        return found;
      }) as typeof fetch;
      await worker.work();
      await new Promise((r) => setTimeout(r, 300));
      let release!: () => void;
      const reached = new Promise<void>((r) => (hold = { reached: r, release: new Promise<void>((rr) => (release = rr)) }));
      worker.wake();
      // The read found nothing; the job is enqueued and the worker woken before the read returns.
      await reached;
      const def = registry(h, database).get('test-job')!;
      await database.db.transaction((tx) => worker.enqueue(tx, def, { key: 'w1', mode: 'ok' }, 'k:w1'));
      // PostgreSQL: the enqueue's notification has been heard (a wake-up during the read) as well.
      if (database.kind === 'postgres') await database.listener.sync();
      worker.wake();
      const t0 = Date.now();
      release();
      // Without the wake-up kept the worker would sleep for its minute.
      await waitFor(() => h.published.includes('w1'), 20_000);
      expect(Date.now() - t0).toBeLessThan(20_000);
      const t1 = Date.now();
      await worker.stop({ graceful: true });
      expect(Date.now() - t1).toBeLessThan(20_000);
    });

    it('retries a failing job with growing delays until it succeeds, and fails bad input at once', async () => {
      const h = harness();
      const q = newQueue(h, { concurrency: 2 });
      await q.start();
      const def = registry(h, database).get('test-job')!;
      await database.db.transaction(async (tx) => {
        await q.enqueue(tx, def, { key: 'f1', mode: 'flaky' }, 'k:f1');
        await q.enqueue(tx, def, { key: 'b1', mode: 'bad' }, 'k:b1');
      });
      const started = Date.now();
      await q.work();
      await waitFor(() => h.published.includes('f1'), 60_000);
      await waitFor(() => h.failed.length === 1);
      await q.stop({ graceful: true });
      expect(h.performed.filter((p) => p.startsWith('f1'))).toEqual(['f1#1', 'f1#2', 'f1#3']);
      // Backoff: 1 s base doubling (pg-boss: delay * 2^retry / 2 + jitter), so >= 1 s + 2 s.
      expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
      expect(h.performed.filter((p) => p.startsWith('b1'))).toEqual(['b1#1']);
      expect(h.failed).toEqual([{ key: 'b1', error: 'bad input in b1' }]);
      expect((await jobRows(database, 'b1')).map((r) => r.state)).toEqual(['failed']);
      expect((await jobRows(database, 'f1')).map((r) => [r.state, r.retry_count])).toEqual([['completed', 2]]);
    });

    it('reruns the job of a worker presumed dead once, and that worker can no longer publish', async () => {
      const h = harness();
      let release!: () => void;
      h.hold = new Promise<void>((r) => (release = r));
      const q = newQueue(h);
      await q.start();
      const def = registry(h, database).get('test-job')!;
      const id = await database.db.transaction((tx) => q.enqueue(tx, def, { key: 'l1', mode: 'stall' }, 'k:l1'));
      await q.work();
      await waitFor(() => h.performed.includes('l1#1'));
      // What pg-boss's expiry does to a job whose heartbeat stopped: fail the attempt, retry later.
      await q.boss.fail('test-job', id!, { message: 'job failed by timeout in active state' });
      const h2 = harness();
      const q2 = newQueue(h2);
      await q2.work();
      await waitFor(() => h2.published.includes('l1'), 30_000);
      await q2.stop({ graceful: true });
      // The first worker wakes up and tries to publish: refused.
      release();
      await waitFor(() => q.activeCount === 0);
      await q.stop({ graceful: true });
      expect(h.published).toEqual([]);
      expect(h2.performed).toEqual(['l1#2']);
      expect((await jobRows(database, 'l1')).map((r) => [r.state, r.retry_count])).toEqual([['completed', 1]]);
    });

    it('aborts running jobs on stop (cancellation) and reruns them afterwards', async () => {
      const h = harness();
      h.hold = new Promise<void>(() => undefined); // never resolves by itself
      const q = newQueue(h);
      await q.start();
      const def = registry(h, database).get('test-job')!;
      await database.db.transaction((tx) => q.enqueue(tx, def, { key: 'c1', mode: 'hold' }, 'k:c1'));
      await q.work();
      await waitFor(() => h.performed.includes('c1#1'));
      await q.stop();
      expect(h.published).not.toContain('c1');
      const [row] = await jobRows(database, 'c1');
      expect(row?.state).toBe('retry');
      // Another worker picks it up after the backoff and it completes once.
      const h2 = harness();
      const q2 = newQueue(h2);
      await q2.work();
      await waitFor(() => h2.published.includes('c1'), 30_000);
      await q2.stop({ graceful: true });
      expect(h2.performed).toEqual(['c1#2']);
    });

    it('shares the queue between N workers, each job run exactly once', async () => {
      const hs = [harness(), harness(), harness()];
      const qs = hs.map((h) => newQueue(h, { concurrency: 2 }));
      await qs[0]!.start();
      const def = registry(hs[0]!, database).get('test-job')!;
      const keys = Array.from({ length: 12 }, (_, i) => `n${i}`);
      await database.db.transaction(async (tx) => {
        for (const k of keys) await qs[0]!.enqueue(tx, def, { key: k, mode: 'ok' }, `k:${k}`);
      });
      await Promise.all(qs.map((q) => q.work()));
      await waitFor(() => hs.reduce((n, h) => n + h.published.length, 0) >= keys.length);
      await Promise.all(qs.map((q) => q.stop({ graceful: true })));
      const all = hs.flatMap((h) => h.published).sort();
      expect(all).toEqual([...keys].sort());
      expect(new Set(all).size).toBe(keys.length);
    });
  });
}
