/** Inserts one row and returns it as stored (defaults filled in); an insert that returns nothing is a bug, not a case to handle. */
import { getTableName } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.ts';

export async function insertOne<T extends PgTable>(db: Executor, table: T, values: PgInsertValue<T>): Promise<T['$inferSelect']> {
  const rows = (await db.insert(table).values(values).returning()) as T['$inferSelect'][];
  const row = rows[0];
  if (row === undefined) throw new Error(`insert into ${getTableName(table)} returned no row`);
  return row;
}
