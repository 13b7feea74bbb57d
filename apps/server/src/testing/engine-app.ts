/**
 * An app with the real engine and knowledge base for end-to-end tests over the API: a temporary
 * data dir, an SMTP inbox, the in-process worker and a signed-in user. Needs a built KB
 * (RARELENS_KB, default ./data/kb) and the reference data (RARELENS_SOURCES, default ../shared/data).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../env.ts';
import { signUpAndLogIn } from './helpers.ts';
import { startSmtpInbox } from './smtp-inbox.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
export const engineTestPaths = {
  repoRoot,
  kbDir: path.resolve(process.env.RARELENS_KB ?? path.join(repoRoot, 'data/kb')),
  sources: path.resolve(process.env.RARELENS_SOURCES ?? path.join(repoRoot, '../shared/data')),
};

/** Is the KB built and are the given files (relative to the reference data) present? */
export function engineTestReady(...sourceFiles: string[]): boolean {
  return existsSync(path.join(engineTestPaths.kbDir, 'manifest.json')) && sourceFiles.every((f) => existsSync(path.join(engineTestPaths.sources, f)));
}

export interface EngineApp {
  app: FastifyInstance;
  dataDir: string;
  /** Headers of the signed-in user. */
  auth: Record<string, string>;
  /** Signs up and logs in another user (e.g. one a case is shared with). */
  signUp(): Promise<{ email: string; auth: Record<string, string> }>;
  close(): Promise<void>;
}

export async function startEngineApp(name: string): Promise<EngineApp> {
  const inbox = await startSmtpInbox();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `rarelens-${name}-test-`));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RARELENS_DATA_DIR: dataDir,
    RARELENS_KB: engineTestPaths.kbDir,
    RARELENS_WEB_DIST: path.join(dataDir, 'no-web-build'),
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    SMTP_URL: inbox.url,
  });
  const app = await buildApp({ config, cases: { jobs: { inProcessWorker: true, pollMs: 100 } } });
  await app.ready();
  const user = await signUpAndLogIn(app, inbox);
  return {
    app,
    dataDir,
    auth: { authorization: `Bearer ${user.token}` },
    async signUp() {
      const other = await signUpAndLogIn(app, inbox);
      return { email: other.email, auth: { authorization: `Bearer ${other.token}` } };
    },
    async close() {
      await app.close();
      await inbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
