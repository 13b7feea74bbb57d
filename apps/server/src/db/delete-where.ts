/** Deletes the rows `where` picks and answers whether there were any (false: nothing to delete). */
import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.ts';

export async function deleteWhere(db: Executor, table: PgTable, where: SQL | undefined): Promise<boolean> {
  const rows = await db.delete(table).where(where).returning({ found: sql<number>`1` });
  return rows.length > 0;
}
