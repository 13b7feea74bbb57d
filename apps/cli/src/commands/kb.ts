/**
 * rarelens kb build --sources DIR --out DIR
 *
 * Builds the knowledge base (genes, transcripts, ClinVar, constraint, HPO) from the reference
 * files in DIR (default $RARELENS_SOURCES, else ../shared/data) into the KB directory (default
 * $RARELENS_KB, else ./data/kb). The old KB stays in place until the new one is complete.
 *
 * rarelens kb info [--kb DIR]   print the manifest of a built KB
 */
import { resolve } from 'node:path';
import { buildKb, KbSourceError, readKbManifest, type KbProgressEvent } from '@rarelens/engine';
import { parseCommandArgs, runCommand, UsageError } from '../args.ts';

const USAGE = `Usage:
  rarelens kb build [--sources DIR] [--out DIR]   build the knowledge base
  rarelens kb info [--kb DIR]                     show the manifest of a built KB
Defaults: --sources $RARELENS_SOURCES (else ../shared/data), --out/--kb $RARELENS_KB (else ./data/kb)`;

export function defaultSourcesDir(): string {
  return resolve(process.env.RARELENS_SOURCES ?? '../shared/data');
}

export function defaultKbDir(): string {
  return resolve(process.env.RARELENS_KB ?? './data/kb');
}

function reporter(): (e: KbProgressEvent) => void {
  const t0 = Date.now();
  const tty = process.stderr.isTTY;
  let lastProgress = false;
  return (e) => {
    const t = `[${((Date.now() - t0) / 1000).toFixed(1).padStart(5)} s]`;
    if (e.kind === 'progress') {
      const line = `${t} ${e.step ?? ''}: ${e.done?.toLocaleString('en') ?? ''}${e.total ? ` / ${e.total.toLocaleString('en')}` : ''} records`;
      if (tty) {
        process.stderr.write(`\r${line}`);
        lastProgress = true;
      } else process.stderr.write(`${line}\n`);
      return;
    }
    if (lastProgress) process.stderr.write('\n');
    lastProgress = false;
    process.stderr.write(`${t} ${e.kind === 'warn' ? 'warning: ' : ''}${e.message}\n`);
  };
}

export function run(argv: string[]): Promise<number> {
  return runCommand('kb', USAGE, argv, async () => {
    const [sub, ...rest] = argv;
    try {
      if (sub === 'build') {
        const { values } = parseCommandArgs(rest, { options: { sources: { type: 'string' }, out: { type: 'string' } } });
        return await build(resolve(values.sources ?? defaultSourcesDir()), resolve(values.out ?? defaultKbDir()));
      }
      if (sub === 'info') {
        const { values } = parseCommandArgs(rest, { options: { kb: { type: 'string' } } });
        console.log(JSON.stringify(await readKbManifest(resolve(values.kb ?? defaultKbDir())), null, 2));
        return 0;
      }
      throw new UsageError(sub === undefined ? 'missing action (build or info)' : `unknown action '${sub}' (build or info)`);
    } catch (e) {
      if (e instanceof KbSourceError) {
        console.error(`rarelens kb: ${e.message}\nNo KB was written; the previous KB (if any) is unchanged.`);
        return 1;
      }
      throw e;
    }
  });
}

async function build(sourcesDir: string, outDir: string): Promise<number> {
  const ac = new AbortController();
  const onSignal = (): void => ac.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  try {
    process.stderr.write(`Building KB from ${sourcesDir} into ${outDir}\n`);
    const manifest = await buildKb({ sourcesDir, outDir, signal: ac.signal, onProgress: reporter() });
    process.stderr.write(`KB ready: ${outDir} (${manifest.sources.length} sources, ${manifest.missing.length} optional missing, ${manifest.warnings.length} warnings)\n`);
    for (const m of manifest.missing) process.stderr.write(`  missing ${m.name}: ${m.reason}\n`);
  } finally {
    process.off('SIGINT', onSignal);
  }
  return 0;
}
