/** The row of `table` that `where` picks (a lookup by a key), or null when there is none. */
import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.ts';

export async function findOne<T extends PgTable>(db: Executor, table: T, where: SQL | undefined): Promise<T['$inferSelect'] | null> {
  const t: PgTable = table; // drizzle types from() for a concrete table only; the row is T's
  const [row] = (await db.select().from(t).where(where).limit(1)) as T['$inferSelect'][];
  return row ?? null;
}
