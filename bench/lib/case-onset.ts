/**
 * The disease onset of each dev case, read from the raw phenopackets
 * (phenopackets-dev-raw.tar.gz: diseases[].onset; the compact jsonl has none), as the HPO onset
 * term a user would give: an ontologyClass as is, an age (ISO 8601) mapped to its HPO onset class
 * by the engine's onsetTermOfAge, a gestational age as Antenatal onset. The term joins the case's
 * present terms, the product's own input (resolveQuery reads onset terms from the term list).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { onsetTermOfAge, onsetTermOfGestationalAge } from '../../packages/engine/src/phenotype/onset.ts';

interface RawOnset {
  ontologyClass?: { id?: string };
  age?: { iso8601duration?: string };
  gestationalAge?: { weeks?: number; days?: number };
}

/** The HPO onset term of one phenopacket TimeElement (null when it holds none of the three forms). */
export function onsetTermOf(onset: RawOnset | undefined, where: string): string | null {
  if (!onset) return null;
  try {
    if (onset.ontologyClass?.id) return onset.ontologyClass.id;
    if (onset.age?.iso8601duration) return onsetTermOfAge(onset.age.iso8601duration);
    if (onset.gestationalAge) return onsetTermOfGestationalAge(onset.gestationalAge.weeks ?? NaN);
  } catch (e) {
    throw new Error(`${where}: diseases[].onset: ${(e as Error).message}`);
  }
  return null;
}

/** Files of a ustar archive (regular files only), path -> content. */
export function readTar(buf: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let at = 0;
  while (at + 512 <= buf.length) {
    const h = buf.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const str = (a: number, n: number): string => h.subarray(a, a + n).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(str(124, 12).trim() || '0', 8);
    const type = str(156, 1);
    const prefix = str(345, 155);
    const name = (prefix ? `${prefix}/` : '') + str(0, 100);
    at += 512;
    if (type === '0' || type === '') files.set(name.replace(/^\.\//, ''), buf.subarray(at, at + size));
    at += Math.ceil(size / 512) * 512;
  }
  return files;
}

/** source_path -> onset term of every raw dev phenopacket that states a disease onset (the first disease's that does). */
export function loadCaseOnsets(benchDir: string): Map<string, string> {
  const path = join(benchDir, 'phenopackets-dev-raw.tar.gz');
  const out = new Map<string, string>();
  for (const [name, body] of readTar(gunzipSync(readFileSync(path)))) {
    if (!name.endsWith('.json')) continue;
    const p = JSON.parse(body.toString('utf8')) as { diseases?: { onset?: RawOnset }[] };
    for (const d of p.diseases ?? []) {
      const t = onsetTermOf(d.onset, `${path}:${name}`);
      if (t) {
        out.set(name, t);
        break;
      }
    }
  }
  return out;
}

/**
 * Adds each case's onset term (joined by source_path) to its present terms, unless `--no-onset`
 * is given (the figures before onset was used); returns the number of cases given one.
 */
export function addCaseOnsets(cases: { source_path?: string; hpo_present: string[] }[], benchDir: string): number {
  if (process.argv.includes('--no-onset')) return 0;
  const onsets = loadCaseOnsets(benchDir);
  let n = 0;
  for (const c of cases) {
    const t = c.source_path ? onsets.get(c.source_path) : undefined;
    if (t && !c.hpo_present.includes(t)) {
      c.hpo_present = [...c.hpo_present, t];
      n++;
    }
  }
  return n;
}
