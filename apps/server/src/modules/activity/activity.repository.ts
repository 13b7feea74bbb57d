/** SQL for the account activity log. */
import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { activityEvents, type ActivityEventRow } from '../../db/schema/index.ts';

export interface NewActivityEvent {
  userId: string;
  kind: string;
  detail?: Record<string, string | number | null>;
  ip?: string | null;
  userAgent?: string | null;
}

export async function insertActivityEvent(db: Executor, event: NewActivityEvent): Promise<void> {
  await db.insert(activityEvents).values({
    userId: event.userId,
    kind: event.kind,
    detail: event.detail ?? {},
    ip: event.ip ?? null,
    userAgent: event.userAgent ?? null,
  });
}

/** Newest first; the cursor is the last row's (createdAt, id) of the previous page. */
export async function listActivityEvents(
  db: Executor,
  userId: string,
  limit: number,
  after?: { createdAt: Date; id: string },
): Promise<ActivityEventRow[]> {
  const keyset =
    after === undefined
      ? undefined
      : or(lt(activityEvents.createdAt, after.createdAt), and(eq(activityEvents.createdAt, after.createdAt), lt(activityEvents.id, after.id)));
  return db
    .select()
    .from(activityEvents)
    .where(and(eq(activityEvents.userId, userId), keyset))
    .orderBy(desc(activityEvents.createdAt), desc(activityEvents.id))
    .limit(limit);
}
