// Which compiled bundle (apps/cli/dist/<command>.mjs, built by `npm run build:cli`) may run a
// command: only one newer than every source file it was built from (dist/inputs.json, paths
// relative to apps/cli), so an edited source never runs stale code.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The bundle's path, or null when the command is not compiled or the bundle is stale. */
export function compiledCommand(name, cliDir) {
  if (name === undefined) return null;
  let built;
  try {
    built = JSON.parse(readFileSync(join(cliDir, 'dist/inputs.json'), 'utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(built.commands) || !built.commands.includes(name) || !Array.isArray(built.inputs)) return null;
  const bundle = join(cliDir, 'dist', `${name}.mjs`);
  try {
    const builtMs = statSync(bundle).mtimeMs;
    for (const input of built.inputs) {
      if (statSync(join(cliDir, input)).mtimeMs > builtMs) return null;
    }
  } catch {
    return null;
  }
  return bundle;
}
