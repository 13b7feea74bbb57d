import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The PostgreSQL job queue (apps/server/src/jobs). Workers claim rows with
 * FOR UPDATE SKIP LOCKED and keep `heartbeat_at` fresh while they run; a row that is `active`
 * with a stale heartbeat belongs to a dead worker and is claimed again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').notNull(),
    /** queued | active | completed | failed */
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** At most one queued/active job per singleton key (e.g. one analysis per case). */
    singletonKey: text('singleton_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_claim_idx')
      .on(t.queue, t.runAfter)
      .where(sql`state = 'queued'`),
    index('jobs_active_heartbeat_idx')
      .on(t.heartbeatAt)
      .where(sql`state = 'active'`),
    uniqueIndex('jobs_singleton_idx')
      .on(t.singletonKey)
      .where(sql`state in ('queued', 'active')`),
  ],
);
