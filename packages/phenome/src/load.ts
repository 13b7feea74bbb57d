/**
 * Loading the HPO for PhenomeAI from the reference-data directory (RARELENS_SOURCES) or an
 * explicit file. Node-only; the extractor itself takes an in-memory Ontology.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ontology, parseObo, parseObographs } from '@rarelens/engine';

/** The HPO release PhenomeAI is benchmarked with (see bench/results/phenome.md). */
export const DEFAULT_HPO_FILE = 'hpo/hp.v2026-01-08.json.gz';

/** The reference-data directory: RARELENS_SOURCES, else ../shared/data next to the repository root. */
export function sourcesDir(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string {
  const fromEnv = env.RARELENS_SOURCES;
  if (fromEnv) return resolve(cwd, fromEnv);
  let dir = resolve(cwd);
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'packages')))
      return resolve(dir, '../shared/data');
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return resolve(cwd, '../shared/data');
}

/** Default HPO file path: $RARELENS_HPO if set, else <sources>/hpo/hp.v2026-01-08.json.gz. */
export function defaultHpoPath(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string {
  if (env.RARELENS_HPO) return resolve(cwd, env.RARELENS_HPO);
  return join(sourcesDir(env, cwd), DEFAULT_HPO_FILE);
}

/** Reads hp.json / hp.obo, optionally gzip-compressed. Errors name the file. */
export function loadOntologyFile(path: string): Ontology {
  if (!existsSync(path))
    throw new Error(`HPO file not found: ${path} (set RARELENS_SOURCES or RARELENS_HPO)`);
  let buf = readFileSync(path);
  if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
  const text = buf.toString('utf8');
  try {
    if (/\.obo(\.gz)?$/i.test(path) || text.startsWith('format-version:'))
      return new Ontology(parseObo(text));
    return new Ontology(parseObographs(JSON.parse(text)));
  } catch (err) {
    throw new Error(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
