// Runs drizzle-kit with `drizzle-orm` resolved from this workspace. npm may install
// drizzle-orm under apps/server/node_modules while hoisting drizzle-kit to the root; drizzle-kit
// would then not find it, neither by require() (fixed with NODE_PATH) nor by its dynamic
// import() (fixed with a resolve hook).
// Usage (from apps/server): node scripts/drizzle-kit.mjs generate --name <change>
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const serverPackage = new URL('../package.json', import.meta.url).href;
const require = createRequire(serverPackage);
const bin = path.join(path.dirname(require.resolve('drizzle-kit')), 'bin.cjs');
const hook =
  'data:text/javascript,' +
  encodeURIComponent(`
    import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(\`
      export async function resolve(specifier, context, next) {
        if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
          return next(specifier, { ...context, parentURL: ${JSON.stringify(serverPackage)} });
        }
        return next(specifier, context);
      }\`));`);
const result = spawnSync(process.execPath, ['--import', hook, bin, ...process.argv.slice(2)], {
  cwd: serverDir,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_PATH: [path.join(serverDir, 'node_modules'), process.env.NODE_PATH]
      .filter(Boolean)
      .join(path.delimiter),
  },
});
process.exit(result.status ?? 1);
