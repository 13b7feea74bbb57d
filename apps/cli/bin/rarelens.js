#!/usr/bin/env node
// Entry shim. A command compiled by `npm run build:cli` (apps/cli/dist/<command>.mjs, esbuild)
// runs as plain JavaScript while the bundle is newer than every source file it was built from;
// otherwise (not built, or a source edited since) the TypeScript CLI runs through tsx's loader.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledCommand } from './compiled.js';

const [name, ...rest] = process.argv.slice(2);
const bundle = compiledCommand(name, fileURLToPath(new URL('../', import.meta.url)));
if (bundle !== null) {
  const mod = await import(pathToFileURL(bundle).href);
  try {
    process.exitCode = await mod.run(rest);
  } catch (err) {
    // As src/main.ts reports an unexpected error.
    console.error(`rarelens: ${err instanceof Error ? err.message : String(err)}`);
    if (process.env.RARELENS_DEBUG && err instanceof Error) console.error(err.stack);
    process.exitCode = 1;
  }
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
