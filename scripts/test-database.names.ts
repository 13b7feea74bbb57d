/** Where the test databases live and how they are named (scripts/test-database.setup.ts, scripts/test-database.worker.ts). */

/** The environment variable through which the global setup names the run's migrated template database. */
export const TEMPLATE_ENV = 'RARELENS_TEST_DATABASE_TEMPLATE';

/** The server the test databases are created on (TEST_DATABASE_ADMIN_URL). */
export function adminUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** The URL of database `name` on that server. */
export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
