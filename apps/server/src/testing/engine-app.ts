/**
 * An app with the real engine and knowledge base for end-to-end tests over the API: a temporary
 * data dir, an SMTP inbox, the in-process worker and a signed-in user. Needs a built KB
 * (RARELENS_KB, default ./data/kb) and the reference data (RARELENS_SOURCES, default ../shared/data).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp } from './test-app.ts';

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

export async function startEngineApp(name: string, options: { pglite?: boolean } = {}): Promise<EngineApp> {
  const test = await createTestApp({ name, kb: engineTestPaths.kbDir, cases: { jobs: { inProcessWorker: true, pollMs: 100 } }, ...(options.pglite ? { pglite: true } : {}) });
  const user = await test.signUp();
  return {
    app: test.app,
    dataDir: test.dataDir,
    auth: user.auth,
    async signUp() {
      const other = await test.signUp();
      return { email: other.email, auth: other.auth };
    },
    close: () => test.close(),
  };
}

/**
 * Starts an engine app before the suite's tests, hands it to `ready` (set-up that needs it, in the
 * same hook and time limit) and closes it after them.
 */
export function useEngineApp(
  name: string,
  ready: (engine: EngineApp) => void | Promise<void>,
  options: { pglite?: boolean; timeoutMs?: number } = {},
): void {
  let engine: EngineApp | undefined;
  beforeAll(async () => {
    engine = await startEngineApp(name, { pglite: options.pglite });
    await ready(engine);
  }, options.timeoutMs ?? 120_000);
  afterAll(async () => {
    await engine?.close();
  });
}
