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

const USAGE = `Usage:
  rarelens kb build [--sources DIR] [--out DIR]   build the knowledge base
  rarelens kb info [--kb DIR]                     show the manifest of a built KB
Defaults: --sources $RARELENS_SOURCES (else ../shared/data), --out/--kb $RARELENS_KB (else ./data/kb)`;

class UsageError extends Error {}

function option(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
  return v;
}

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

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === 'build') {
      const known = new Set(['--sources', '--out']);
      for (let i = 0; i < rest.length; i += 2) if (!known.has(rest[i] ?? '')) throw new UsageError(`unknown option ${rest[i]}`);
      const sourcesDir = resolve(option(rest, '--sources') ?? defaultSourcesDir());
      const outDir = resolve(option(rest, '--out') ?? defaultKbDir());
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
    if (sub === 'info') {
      const dir = resolve(option(rest, '--kb') ?? defaultKbDir());
      console.log(JSON.stringify(await readKbManifest(dir), null, 2));
      return 0;
    }
    console.error(USAGE);
    return sub === '--help' || sub === '-h' ? 0 : 2;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`rarelens kb: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof KbSourceError) {
      console.error(`rarelens kb: ${e.message}\nNo KB was written; the previous KB (if any) is unchanged.`);
      return 1;
    }
    throw e;
  }
}
