#!/usr/bin/env node
/**
 * `npm test`: the whole suite, as CI runs it.
 *  1. builds the knowledge base from RARELENS_SOURCES when RARELENS_KB has none yet;
 *  2. builds the web app (the browser tests drive the real build);
 *  3. runs every vitest project (unit, web, integration on a throw-away PostgreSQL database, e2e
 *     in Debian Chromium) and prints one closing line "N passed, N failed, N skipped".
 * Extra arguments go to vitest (e.g. `npm test -- --project unit`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const env = { ...process.env };
env.RARELENS_SOURCES ??= resolve(root, '../shared/data');
env.RARELENS_KB ??= resolve(root, 'data/kb');
const args = process.argv.slice(2);

function run(cmd, cmdArgs, label) {
  console.log(`\n> ${label}`);
  const r = spawnSync(cmd, cmdArgs, { cwd: root, env, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${label} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

if (!existsSync(join(env.RARELENS_KB, 'manifest.json'))) {
  if (!existsSync(env.RARELENS_SOURCES)) {
    console.error(`RARELENS_SOURCES=${env.RARELENS_SOURCES} does not exist: cannot build the knowledge base the tests need.`);
    process.exit(1);
  }
  run('node', ['apps/cli/bin/rarelens.js', 'kb', 'build', '--sources', env.RARELENS_SOURCES, '--out', env.RARELENS_KB], 'knowledge base build');
}
if (!args.includes('--skip-web-build')) run('npm', ['run', 'build:web', '--silent'], 'web build');

const report = join(mkdtempSync(join(tmpdir(), 'rarelens-test-')), 'vitest.json');
const vitestArgs = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args.filter((a) => a !== '--skip-web-build')];
const r = spawnSync('npx', vitestArgs, { cwd: root, env, stdio: 'inherit' });
let summary = null;
try {
  summary = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  // vitest died before writing its report; its exit status decides.
}
if (summary) {
  const skipped = (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0);
  console.log(`\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(r.status ?? 1);
