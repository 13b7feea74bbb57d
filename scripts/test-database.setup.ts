/**
 * Vitest global setup: creates a throw-away PostgreSQL database for this run and drops it
 * afterwards. The server under test reads DATABASE_URL; TEST_DATABASE_ADMIN_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) is where the database is created.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';

export default async function setup(): Promise<() => Promise<void>> {
  const adminUrl =
    process.env.TEST_DATABASE_ADMIN_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `rarelens_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
}
