/**
 * The one builder of the real app for integration tests: PostgreSQL from DATABASE_URL (created
 * by the vitest global setup) unless `pglite` is asked for, mail to an in-process SMTP inbox
 * (started here and closed with the app), a throw-away data directory, and rate limits raised
 * unless a test sets its own.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type BuildAppOptions } from '../app.ts';
import { loadConfig, type Config } from '../env.ts';
import { signUpAndLogIn } from './helpers.ts';
import { startSmtpInbox, type SmtpInbox } from './smtp-inbox.ts';
import { testOntology } from './test-ontology.ts';

export interface TestAppOptions {
  /** Where the app sends mail instead of the inbox started here (e.g. a closed port). */
  smtpUrl?: string;
  /** An inbox shared with other apps of the test (not closed with this app). */
  inbox?: SmtpInbox;
  env?: Record<string, string>;
  /** Use embedded PGlite in the temp data directory instead of DATABASE_URL. */
  pglite?: boolean;
  /**
   * The knowledge base: a directory, or 'none' (a missing one: tests on the fixture engine and
   * the small test ontology). Default: RARELENS_KB or ./data/kb as configured.
   */
  kb?: string;
  /** Case-module seams (engine, job options), as buildApp takes them. */
  cases?: BuildAppOptions['cases'];
  /** GenomeTalks seams, as buildApp takes them. */
  chat?: BuildAppOptions['chat'];
  /** Prefix of the temporary data directory's name. */
  name?: string;
  /** Share another test app's data directory (its secrets and files; left for that app to remove). */
  dataDir?: string;
  /** Where the app's log lines go (set LOG_LEVEL in `env` to see them: tests log nothing by default). */
  logStream?: BuildAppOptions['logStream'];
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  /** The inbox the app sends mail to. */
  inbox: SmtpInbox;
  /** Signs up, verifies by mail and logs in a new user; answers their headers too. */
  signUp(): Promise<{ email: string; token: string; userId: string; auth: Record<string, string> }>;
  close(): Promise<void>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDataDir = options.dataDir === undefined ? mkdtempSync(path.join(os.tmpdir(), `rarelens-${options.name ?? 'server'}-test-`)) : null;
  const dataDir = options.dataDir ?? ownDataDir!;
  const databaseUrl = options.pglite === true ? undefined : process.env.DATABASE_URL;
  if (options.pglite !== true && databaseUrl === undefined) {
    throw new Error(
      'DATABASE_URL is not set: run integration tests with `npx vitest run --project integration`',
    );
  }
  const ownInbox = options.inbox === undefined ? await startSmtpInbox() : null;
  const inbox = options.inbox ?? ownInbox!;
  const kb = options.kb === 'none' ? path.join(dataDir, 'no-kb') : options.kb;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RARELENS_DATA_DIR: dataDir,
    RARELENS_WEB_DIST: path.join(dataDir, 'no-web-build'),
    PUBLIC_URL: 'http://rarelens.test',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    SMTP_URL: options.smtpUrl ?? inbox.url,
    ...(kb === undefined ? {} : { RARELENS_KB: kb }),
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...options.env,
  });
  // Without a built KB the upload's HPO check runs on a small test ontology.
  const kbBuilt = existsSync(path.join(config.kbDir, 'manifest.json'));
  const cases = kbBuilt ? options.cases : { ontology: testOntology, ...options.cases };
  const app = await buildApp({
    config,
    ...(cases === undefined ? {} : { cases }),
    ...(options.chat === undefined ? {} : { chat: options.chat }),
    ...(options.logStream === undefined ? {} : { logStream: options.logStream }),
  });
  await app.ready();
  return {
    app,
    config,
    dataDir,
    inbox,
    async signUp() {
      const user = await signUpAndLogIn(app, inbox);
      return { ...user, auth: { authorization: `Bearer ${user.token}` } };
    },
    async close() {
      await app.close();
      await ownInbox?.close();
      if (ownDataDir !== null) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test app for the whole file: built before the first test (then `ready` is called with it,
 * e.g. to keep `app` and `inbox` in variables) and closed after the last.
 */
export function useTestApp(options: TestAppOptions = {}, ready?: (test: TestApp) => void | Promise<void>): void {
  let test: TestApp | undefined;
  beforeAll(async () => {
    test = await createTestApp(options);
    await ready?.(test);
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });
}
