/**
 * The system of record: PostgreSQL via node-postgres when DATABASE_URL is set, otherwise
 * embedded PGlite under the data directory. Both share one drizzle schema and one migration
 * set (apps/server/drizzle), applied here at start.
 *
 * To add tables from another module: add `src/db/schema/<resource>.ts`, re-export it from
 * `src/db/schema/index.ts`, then run `npm run db:generate -w @rarelens/server -- --name <change>`
 * and commit the generated SQL under apps/server/drizzle/.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import type { Config } from '../env.ts';
import { createNotificationListener, type NotificationListener } from './notification-listener.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The drizzle database, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a repository can run queries on: the database or an open transaction. */
export type Executor = Db | Tx;

/** Rows of a raw `execute()` result; node-postgres and PGlite both answer `{ rows }`. */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  const rows = (result as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(rows)) throw new Error('unexpected result of a raw SQL query (no rows array)');
  return rows as Record<string, unknown>[];
}

export type DatabaseKind = 'postgres' | 'pglite';

/** A raw SQL runner with pg's `{ rows }` shape (the contract pg-boss's `db.executeSql` expects). */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

interface DatabaseBase {
  db: Db;
  /**
   * The database for prepared statements that are planned once and run with every value
   * (PostgreSQL: plan_cache_mode = force_generic_plan on a pool of its own; PGlite, one
   * connection: `db`). PostgreSQL otherwise plans a prepared statement anew on each execution
   * whenever its generic plan's estimate looks worse, as it does for a list page's unknown LIMIT
   * and OFFSET: the planning then costs more than the execution. Only for statements whose plan
   * is the same for every value: a filter that a partial index serves for some values only
   * (the list's consequence, zygosity and ACMG filters) needs the plan of its values (`db`).
   */
  genericPlanDb: Db;
  executeSql: ExecuteSql;
  /** Closes the pool or the embedded database. */
  close(): Promise<void>;
}

export type Database =
  | (DatabaseBase & {
      kind: 'postgres';
      pool: pg.Pool;
      /**
       * The process's one LISTEN connection (db/notification-listener.ts), opened with its first
       * subscription (the job wake-up, the session and case access caches) and ended with the
       * last one or with the database.
       */
      listener: NotificationListener;
      /**
       * A second pool whose connections plan a prepared statement once, for every value
       * (plan_cache_mode = force_generic_plan): for the statements whose best plan does not
       * depend on their values (genericPlanDb). Its connections open when first used.
       */
      genericPlanPool: pg.Pool;
    })
  | (DatabaseBase & { kind: 'pglite'; client: PGlite });

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Arbitrary constant key for the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_KEY = 7_231_440_921;

/** Applies the migrations; when they fail, closes the database before passing the error on. */
async function migrateOrClose(migrate: () => Promise<void>, close: () => Promise<void>): Promise<void> {
  try {
    await migrate();
  } catch (error) {
    await close();
    throw error;
  }
}

/** Where the database reports a lost LISTEN connection (default: process warnings). */
export interface DatabaseLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

const warningLogger: DatabaseLogger = {
  warn: (obj, msg) => process.emitWarning(`${msg} ${JSON.stringify(obj)}`, 'DatabaseWarning'),
};

/** The connection `options` (server settings) of `url` with `option` added. */
export function withOption(url: string, option: string): string {
  const given = new URL(url).searchParams.get('options');
  return given ? `${given} ${option}` : option;
}

/** Opens the configured database and applies pending migrations. */
export async function createDatabase(
  config: Pick<Config, 'databaseUrl' | 'pgliteDir'>,
  options: { logger?: DatabaseLogger } = {},
): Promise<Database> {
  if (config.databaseUrl !== undefined) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection that the server drops (restart, failover, network) is discarded by the
    // pool and the next query opens a new one; without a listener the error would end the process.
    const lost = (error: Error) => process.emitWarning(`PostgreSQL connection lost (${error.message}); the next query reconnects`, 'DatabaseWarning');
    pool.on('error', lost);
    // A checked-out client (a transaction, a COPY, pg-boss's lock) has no pool listener: its
    // query already fails with the error, so the event itself only needs to be heard.
    pool.on('connect', (client) => client.on('error', lost));
    await migrateOrClose(async () => {
      // Several processes (server, workers) may start together: one migrates at a time.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    }, () => pool.end());
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    const genericPlanPool = new pg.Pool({ connectionString: config.databaseUrl, max: 10, options: withOption(config.databaseUrl, '-c plan_cache_mode=force_generic_plan') });
    genericPlanPool.on('error', lost);
    genericPlanPool.on('connect', (client) => client.on('error', lost));
    const genericPlanDb = drizzleNodePg(genericPlanPool, { schema }) as unknown as Db;
    // Outside the pool (its connections stay for queries); TCP keep-alive notices a dead peer.
    const listener = createNotificationListener({
      newClient: () => new pg.Client({ ...pool.options, keepAlive: true }),
      logger: options.logger ?? warningLogger,
    });
    return {
      kind: 'postgres',
      db,
      genericPlanDb,
      pool,
      genericPlanPool,
      listener,
      executeSql: async (text, values) => {
        const result = await pool.query(text, values);
        return { rows: result.rows as unknown[] };
      },
      close: async () => {
        await listener.close();
        await Promise.all([pool.end(), genericPlanPool.end()]);
      },
    };
  }

  mkdirSync(config.pgliteDir, { recursive: true });
  const client = await PGlite.create(config.pgliteDir);
  await migrateOrClose(
    () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    () => client.close(),
  );
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    genericPlanDb: db,
    client,
    executeSql: async (text, values) => {
      // PGlite's extended protocol takes one statement; pg-boss sends multi-statement
      // scripts without parameters, which go through exec().
      if (values === undefined || values.length === 0) {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const result = await client.query(text, values);
      return { rows: result.rows };
    },
    close: () => client.close(),
  };
}

/** Cheap liveness probe used by /api/health. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
