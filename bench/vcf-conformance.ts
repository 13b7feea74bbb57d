/**
 * VCF conformance: reads the VCF specification's own test suite (hts-specs `test/vcf/<version>/passed`
 * and `failed`) with the product's reader, as the worker does, and prints how many valid files are
 * read and how many invalid files are refused with a VcfParseError (anything else is a crash).
 *
 *   node --import tsx bench/vcf-conformance.ts /path/to/hts-specs/test/vcf
 *
 * The suite is not committed (it is another project's); point the script at a checkout.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AssemblyRequiredError, VcfParseError, readVcf, type VcfReader } from '../packages/engine/src/vcf/index.ts';

const root = process.argv[2];
if (root === undefined) {
  console.error('usage: bench/vcf-conformance.ts HTS_SPECS/test/vcf');
  process.exit(2);
}

async function readAll(path: string): Promise<{ ok: true; warnings: number } | { ok: false; error: unknown }> {
  try {
    let reader: VcfReader;
    try {
      reader = await readVcf(path);
    } catch (err) {
      if (!(err instanceof AssemblyRequiredError)) throw err;
      // The suite's files rarely declare contig lengths; the upload form would ask the user.
      reader = await readVcf(path, { assembly: 'GRCh37' });
    }
    for await (const batch of reader.batches()) void batch;
    const s = reader.summary;
    return { ok: true, warnings: s.structural };
  } catch (error) {
    return { ok: false, error };
  }
}

let failures = 0;
for (const version of readdirSync(root).filter((d) => /^\d/.test(d) && statSync(join(root, d)).isDirectory()).sort()) {
  for (const kind of ['passed', 'failed'] as const) {
    const dir = join(root, version, kind);
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.vcf') || f.endsWith('.vcf.gz'));
    } catch {
      continue;
    }
    let read = 0;
    let refused = 0;
    let crashed = 0;
    const notes: string[] = [];
    for (const f of files.sort()) {
      const r = await readAll(join(dir, f));
      if (r.ok) read++;
      else if (r.error instanceof VcfParseError) {
        refused++;
        if (kind === 'passed') notes.push(`  refused valid ${f}: ${String(r.error)}`);
      } else {
        crashed++;
        notes.push(`  CRASH ${f}: ${String(r.error)}`);
      }
    }
    console.log(`VCF ${version} ${kind}: ${files.length} files, read ${read}, refused ${refused}, crashed ${crashed}`);
    for (const n of notes.slice(0, 30)) console.log(n);
    if (kind === 'passed') failures += refused + crashed;
    else failures += crashed;
  }
}
process.exitCode = failures === 0 ? 0 : 1;
