/**
 * Vitest setup file (integration and browser projects), run in the test worker before each file:
 * points DATABASE_URL at this worker's own copy of the run's migrated database
 * (scripts/test-database.setup.ts), creating the copy from that template on the worker's first
 * file. Files of one worker share their copy, as all files shared one database when they ran
 * one at a time; files of different workers never see each other's rows, jobs or notifications.
 */
import pg from 'pg';
import { adminUrl, databaseUrl, TEMPLATE_ENV } from './test-database.names.ts';

const template = process.env[TEMPLATE_ENV];
if (template === undefined) throw new Error(`${TEMPLATE_ENV} is not set: run these tests through vitest (its global setup creates the database)`);
const name = `${template}_w${process.env.VITEST_POOL_ID ?? '1'}`;

const admin = new pg.Client({ connectionString: adminUrl() });
await admin.connect();
try {
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } catch (error) {
      // 42P04: created meanwhile by another file of the same pool id (it is the same copy).
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
  }
} finally {
  await admin.end();
}
process.env.DATABASE_URL = databaseUrl(name);
