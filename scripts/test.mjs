#!/usr/bin/env node
/**
 * `npm test`: the whole suite, as CI runs it.
 *  1. builds the knowledge base from RARELENS_SOURCES when RARELENS_KB has none yet and, at the
 *     same time, the web app (the browser tests drive the real build);
 *  2. runs every vitest project (unit, web, integration on a throw-away PostgreSQL database, e2e
 *     in Debian Chromium) and prints one closing line "N passed, N failed, N skipped".
 * Extra arguments go to vitest (e.g. `npm test -- --project unit`), except `--skip-web-build` and
 * `--prepare` (the builds only, no tests).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const env = { ...process.env };
env.RARELENS_SOURCES ??= resolve(root, '../shared/data');
env.RARELENS_KB ??= resolve(root, 'data/kb');
const args = process.argv.slice(2);
const ownFlags = ['--skip-web-build', '--prepare'];

/** Runs a step; resolves when it succeeded, ends the process with its status when it failed. */
function run(cmd, cmdArgs, label) {
  console.log(`\n> ${label}`);
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(cmd, cmdArgs, { cwd: root, env, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`${label} failed (${error.message})`);
      process.exit(1);
    });
    child.on('close', (code, signal) => {
      if (code !== 0) {
        console.error(`${label} failed (exit ${code ?? signal})`);
        process.exit(code ?? 1);
      }
      console.log(`> ${label}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      done();
    });
  });
}

// The knowledge base and the web build need each other's nothing: they run side by side (each
// is mostly one core; CI has two).
const steps = [];
if (!existsSync(join(env.RARELENS_KB, 'manifest.json'))) {
  if (!existsSync(env.RARELENS_SOURCES)) {
    console.error(`RARELENS_SOURCES=${env.RARELENS_SOURCES} does not exist: cannot build the knowledge base the tests need.`);
    process.exit(1);
  }
  steps.push(run('node', ['apps/cli/bin/rarelens.js', 'kb', 'build', '--sources', env.RARELENS_SOURCES, '--out', env.RARELENS_KB], 'knowledge base build'));
  // Built now by this code from these sources: the tests of the build read it instead of
  // building it again (packages/engine/src/kb/test-run-kb.ts).
  env.RARELENS_TEST_KB_FRESH = env.RARELENS_KB;
}
if (!args.includes('--skip-web-build')) steps.push(run('npm', ['run', 'build:web', '--silent'], 'web build'));
await Promise.all(steps);
// `--prepare`: the builds only (.ci/run makes them beside the static checks, then runs the tests).
if (args.includes('--prepare')) process.exit(0);

const report = join(mkdtempSync(join(tmpdir(), 'rarelens-test-')), 'vitest.json');
const vitestArgs = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args.filter((a) => !ownFlags.includes(a))];
const r = spawnSync('npx', vitestArgs, { cwd: root, env, stdio: 'inherit' });
let summary = null;
try {
  summary = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  // vitest died before writing its report; its exit status decides.
}
if (summary) {
  const skipped = (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0);
  console.log(`\nvitest's report (per-file times): ${report}`);
  console.log(`${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(r.status ?? 1);
