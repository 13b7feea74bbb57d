/**
 * Builds the real app for integration tests: PostgreSQL from DATABASE_URL (created by the
 * vitest global setup) unless `pglite` is asked for, mail to an in-process SMTP server, a
 * throw-away data directory, and rate limits raised unless a test sets its own.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../app.ts';
import { loadConfig } from '../env.ts';
import { testOntology } from './test-ontology.ts';

export interface TestAppOptions {
  smtpUrl?: string;
  env?: Record<string, string>;
  /** Use embedded PGlite in the temp data directory instead of DATABASE_URL. */
  pglite?: boolean;
  /** Case-module seams (engine, job options), as buildApp takes them. */
  cases?: BuildAppOptions['cases'];
}

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  close(): Promise<void>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rarelens-server-test-'));
  const databaseUrl = options.pglite === true ? undefined : process.env.DATABASE_URL;
  if (options.pglite !== true && databaseUrl === undefined) {
    throw new Error(
      'DATABASE_URL is not set: run integration tests with `npx vitest run --project integration`',
    );
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RARELENS_DATA_DIR: dataDir,
    RARELENS_WEB_DIST: path.join(dataDir, 'no-web-build'),
    PUBLIC_URL: 'http://rarelens.test',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...(options.smtpUrl === undefined ? {} : { SMTP_URL: options.smtpUrl }),
    ...options.env,
  });
  // Without a built KB the upload's HPO check runs on a small test ontology.
  const kbBuilt = existsSync(path.join(config.kbDir, 'manifest.json'));
  const cases = kbBuilt ? options.cases : { ontology: testOntology, ...options.cases };
  const app = await buildApp({ config, ...(cases === undefined ? {} : { cases }) });
  await app.ready();
  return {
    app,
    dataDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
