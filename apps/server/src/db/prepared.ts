/**
 * Prepared statements per database handle. A statement every request runs (session check,
 * case access) is built by drizzle once and parsed and planned by PostgreSQL once per
 * connection: on a busy server, building and planning such a query costs more than running it.
 */
import type { Executor } from './database.ts';

/** `build(db)` once per handle, then the same statement for that handle. */
export function preparedPerDb<T>(build: (db: Executor) => T): (db: Executor) => T {
  const byDb = new WeakMap<object, T>();
  return (db) => {
    let statement = byDb.get(db);
    if (statement === undefined) {
      statement = build(db);
      byDb.set(db, statement);
    }
    return statement;
  };
}
