/**
 * Compiles the start-up-sensitive CLI commands (`rarelens annotate`) into one JavaScript bundle
 * each with esbuild (apps/cli/dist/<command>.mjs), so the command starts without a TypeScript
 * loader transpiling the engine's modules at run time. apps/cli/bin/rarelens.js runs the
 * bundle while it is newer than every file it was built from (apps/cli/dist/inputs.json) and
 * falls back to the sources through tsx otherwise, so an edit never runs stale code.
 * Usage: npm run build:cli [-- --outdir DIR]   (another directory: for tests; the shim reads apps/cli/dist)
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = join(root, 'apps/cli');
const COMPILED_COMMANDS = ['annotate'];
// Worker threads the compiled commands start (dist/<name>.mjs beside the command's bundle).
const WORKERS = ['annotate-worker'];
const argv = process.argv.slice(2);
const outdir = argv.includes('--outdir') ? resolve(argv[argv.indexOf('--outdir') + 1]) : join(cliDir, 'dist');

const result = await build({
  entryPoints: Object.fromEntries([...COMPILED_COMMANDS, ...WORKERS].map((c) => [c, join(cliDir, 'src/commands', `${c}.ts`)])),
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Packages from the registry stay imports (node_modules); the workspace's TypeScript is compiled in.
  packages: 'external',
  alias: Object.fromEntries(['contract', 'engine', 'phenome'].map((p) => [`@rarelens/${p}`, join(root, 'packages', p, 'src/index.ts')])),
  metafile: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs).map((f) => relative(cliDir, resolve(root, f)));
writeFileSync(join(outdir, 'inputs.json'), `${JSON.stringify({ builtAt: new Date().toISOString(), commands: COMPILED_COMMANDS, inputs }, null, 1)}\n`);
console.log(`built ${COMPILED_COMMANDS.map((c) => relative(root, join(outdir, `${c}.mjs`))).join(', ')} from ${inputs.length} files`);
