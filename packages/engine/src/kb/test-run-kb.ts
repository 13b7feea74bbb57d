/**
 * For tests: the knowledge base that `npm test` built in this run. scripts/test.mjs (and .ci/run
 * on a clean clone) set RARELENS_TEST_KB_FRESH to RARELENS_KB when they built that directory with
 * buildKb from RARELENS_SOURCES, with this checkout's code, just before the tests: a test of what
 * buildKb writes reads those files instead of building the same ones again (the full build is
 * about half a minute of one core). Otherwise (a KB built earlier, perhaps by other code or from
 * other sources, or no test runner) the answer is null and the test builds its own.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function kbBuiltThisRun(sourcesDir: string): string | null {
  const fresh = process.env.RARELENS_TEST_KB_FRESH;
  const kb = process.env.RARELENS_KB;
  const sources = process.env.RARELENS_SOURCES;
  if (!fresh || !kb || !sources) return null;
  if (resolve(fresh) !== resolve(kb) || resolve(sources) !== resolve(sourcesDir)) return null;
  return existsSync(join(kb, 'manifest.json')) ? resolve(kb) : null;
}
