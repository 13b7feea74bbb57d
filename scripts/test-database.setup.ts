/**
 * Vitest global setup (integration and browser projects): creates a throw-away PostgreSQL
 * database for this run, applies the migrations to it once, and drops it (and every copy made
 * of it) afterwards. Each test worker works on its own copy (scripts/test-database.worker.ts:
 * `CREATE DATABASE … TEMPLATE`): files of two workers never share rows, jobs or notifications
 * (the projects now run one file at a time; see vitest.config.ts). TEST_DATABASE_ADMIN_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) is where the databases are created.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { createDatabase } from '../apps/server/src/db/database.ts';
import { adminUrl, databaseUrl, TEMPLATE_ENV } from './test-database.names.ts';

// Both projects name this file and vitest may run their global setups at the same time: the
// first call creates the template (one promise, shared), the last teardown drops it.
const shared = globalThis as typeof globalThis & { rarelensTestDatabase?: { name: Promise<string>; users: number } };

async function createTemplate(): Promise<string> {
  // A name fresh per run, which a test worker extends with its pool id for its own copy.
  const name = `rarelens_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  // Migrated once here; the copies start migrated (and disconnected: a template must be).
  const database = await createDatabase({ databaseUrl: databaseUrl(name), pgliteDir: '' });
  await database.close();
  return name;
}

async function dropWithCopies(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const found = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [name]);
    for (const { datname } of found.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  // The workers connect to the admin database (never to the template) to make their copies.
  process.env.TEST_DATABASE_ADMIN_URL = adminUrl();
  const state = (shared.rarelensTestDatabase ??= { name: createTemplate(), users: 0 });
  state.users += 1;
  process.env[TEMPLATE_ENV] = await state.name;
  return async () => {
    state.users -= 1;
    if (state.users > 0) return;
    shared.rarelensTestDatabase = undefined;
    await dropWithCopies(await state.name);
  };
}
