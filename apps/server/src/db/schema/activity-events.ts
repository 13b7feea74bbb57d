import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn } from './columns.ts';
import { userRef } from './users.ts';

/**
 * What happened on a user's account, shown to that user (sign-ins, failed sign-ins, password
 * changes, shares, opened share links, report downloads, deletions, exports). Kept with the user
 * and removed with the account.
 */
export const activityEvents = pgTable(
  'activity_events',
  {
    id: idColumn(),
    userId: userRef(),
    kind: text('kind').notNull(),
    /** Kind-specific facts (case ID, recipient, file name); never secrets or tokens. */
    detail: jsonb('detail').$type<Record<string, string | number | null>>().notNull().default({}),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAtColumn(),
  },
  (t) => [index('activity_events_user_created_idx').on(t.userId, t.createdAt)],
);

export type ActivityEventRow = typeof activityEvents.$inferSelect;
