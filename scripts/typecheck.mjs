#!/usr/bin/env node
/**
 * `npm run typecheck`: the Node workspaces as one program (tsconfig.check.json) and the web app
 * (apps/web/tsconfig.json) at the same time; fails when either reports an error.
 * A workspace alone: `npm run typecheck -w <workspace>`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = ['tsconfig.check.json', 'apps/web/tsconfig.json'];

const results = await Promise.all(
  projects.map(
    (project) =>
      new Promise((done) => {
        let output = '';
        const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit', '--pretty', 'false'], { cwd: root });
        child.stdout.on('data', (c) => (output += c));
        child.stderr.on('data', (c) => (output += c));
        child.on('error', (e) => done({ project, code: 1, output: `${output}${e.message}\n` }));
        child.on('close', (code, signal) => done({ project, code: code ?? (signal ? 1 : 0), output }));
      }),
  ),
);
for (const { project, code, output } of results) {
  if (output !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  if (code !== 0) console.error(`typecheck: ${project} failed (exit ${code})`);
}
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
