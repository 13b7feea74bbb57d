/**
 * The account activity log: every module that does something on a user's behalf (or against
 * their account) records it here, and the user reads it on their account page.
 */
import type { ActivityKind } from '@rarelens/contract';
import type { Database, Executor } from '../../db/database.ts';
import type { ActivityEventRow } from '../../db/schema/index.ts';
import { insertActivityEvent, listActivityEvents } from './activity.repository.ts';

/** Where a request came from, as recorded with an event. */
export interface RequestOrigin {
  ip?: string | null;
  userAgent?: string | null;
}

export type ActivityService = ReturnType<typeof createActivityService>;
/** The port other modules record through. */
export type ActivityRecorder = Pick<ActivityService, 'record'>;

export function createActivityService({ database }: { database: Database }) {
  const { db } = database;
  return {
    /** Records one event; inside the caller's transaction when `executor` is given. */
    async record(
      userId: string,
      kind: ActivityKind,
      detail: Record<string, string | number | null> = {},
      origin: RequestOrigin = {},
      executor: Executor = db,
    ): Promise<void> {
      await insertActivityEvent(executor, {
        userId,
        kind,
        detail,
        ip: origin.ip ?? null,
        // A user agent is informative, not evidence: cap what a client can make us store.
        userAgent: origin.userAgent?.slice(0, 300) ?? null,
      });
    },

    list(userId: string, limit: number, after?: { createdAt: Date; id: string }): Promise<ActivityEventRow[]> {
      return listActivityEvents(db, userId, limit, after);
    },
  };
}
