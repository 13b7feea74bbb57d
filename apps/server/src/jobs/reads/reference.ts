/**
 * The reference genome reads are aligned to: RARELENS_REFERENCE (a FASTA, plain or bgzip) with
 * RARELENS_REFERENCE_ASSEMBLY, or, without them, the small demo reference shipped with the
 * reference data (hg19 chrM + a 5 kb excerpt of chr20, RARELENS_SOURCES/reads), labelled as a
 * demo everywhere it is shown.
 *
 * Indexes (`bwa index`, `samtools faidx`) are built once, on first use, under
 * <data dir>/reference/<key>/ and reused: a build happens in a temporary directory renamed into
 * place when complete, under a lock directory, so concurrent workers never see half an index.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ReadsReference } from '@rarelens/contract';
import type { Assembly, ReferenceContig } from '@rarelens/engine';
import { runPipe } from './processes.ts';

export interface ReferenceConfig {
  /** FASTA files concatenated into the reference (one for a configured reference). */
  fastas: string[];
  assembly: Assembly;
  /** Shown in the UI and the report. */
  label: string;
  /** The embedded demo reference (not a genome). */
  demo: boolean;
  /** The variable to name in errors. */
  variable: string;
}

/** Files of the shipped demo reference, under RARELENS_SOURCES. */
export const DEMO_REFERENCE_FILES = ['reads/chrM_hg19.fa', 'reads/demo20.hg19_chr20_excerpt.fa'];
export const DEMO_REFERENCE_LABEL = 'Demo reference (hg19 chrM + 5 kb of chr20), not a genome';

/** Reference problems are configuration errors: they name the variable. */
export class ReferenceConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReferenceConfigError';
  }
}

export function referenceConfig(env: { reference?: string; assembly?: Assembly; sourcesDir?: string }): ReferenceConfig {
  if (env.reference !== undefined) {
    if (env.assembly === undefined) {
      throw new ReferenceConfigError('RARELENS_REFERENCE is set but RARELENS_REFERENCE_ASSEMBLY is not: set it to GRCh37 or GRCh38');
    }
    return { fastas: [env.reference], assembly: env.assembly, label: `${path.basename(env.reference)} (${env.assembly})`, demo: false, variable: 'RARELENS_REFERENCE' };
  }
  return {
    fastas: env.sourcesDir === undefined ? [] : DEMO_REFERENCE_FILES.map((f) => path.join(env.sourcesDir!, f)),
    assembly: 'GRCh37',
    label: DEMO_REFERENCE_LABEL,
    demo: true,
    variable: 'RARELENS_SOURCES (demo reference; or set RARELENS_REFERENCE)',
  };
}

/** Throws a ReferenceConfigError naming the variable when a FASTA is missing or unreadable. */
export async function assertReferenceReadable(ref: ReferenceConfig): Promise<void> {
  if (ref.fastas.length === 0) {
    throw new ReferenceConfigError(
      'No reference genome to align the reads to: set RARELENS_REFERENCE (a FASTA) and RARELENS_REFERENCE_ASSEMBLY, or RARELENS_SOURCES for the shipped demo reference',
    );
  }
  for (const f of ref.fastas) {
    try {
      await access(f);
      const s = await stat(f);
      if (!s.isFile() || s.size === 0) throw new Error('not a non-empty file');
    } catch (e) {
      throw new ReferenceConfigError(`The reference FASTA ${f} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check ${ref.variable}`);
    }
  }
}

/** The reference FASTQ uploads are aligned to, or why there is none (the message names the variable). */
export async function describeReference(config: () => ReferenceConfig): Promise<ReadsReference> {
  try {
    const ref = config();
    await assertReferenceReadable(ref);
    return { label: ref.label, assembly: ref.assembly, demo: ref.demo, error: null };
  } catch (e) {
    if (!(e instanceof ReferenceConfigError)) throw e;
    return { label: 'No usable reference', assembly: null, demo: false, error: e.message };
  }
}

export interface PreparedReference {
  /** Indexed plain FASTA. */
  fasta: string;
  contigs: ReferenceContig[];
  config: ReferenceConfig;
}

async function cacheKey(ref: ReferenceConfig): Promise<string> {
  const h = createHash('sha256');
  for (const f of ref.fastas) {
    const s = await stat(f);
    h.update(`${path.resolve(f)}\0${s.size}\0${s.mtimeMs}\0`);
  }
  h.update(ref.assembly);
  return h.digest('hex').slice(0, 16);
}

async function readContigs(fai: string): Promise<ReferenceContig[]> {
  const text = await readFile(fai, 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [name, length] = l.split('\t');
      return { name: name!, length: Number(length) };
    });
}

const isGzip = async (file: string) => {
  const fh = createReadStream(file, { start: 0, end: 1 });
  const chunks: Buffer[] = [];
  for await (const c of fh) chunks.push(c as Buffer);
  const b = Buffer.concat(chunks);
  return b[0] === 0x1f && b[1] === 0x8b;
};

/**
 * The indexed reference of `ref` when it has already been built under `cacheRoot` (the web server
 * serves its sequence to the genome browser), else null. Never builds anything.
 */
export async function builtReference(ref: ReferenceConfig, cacheRoot: string): Promise<{ fasta: string; fai: string } | null> {
  if (ref.fastas.length === 0) return null;
  try {
    const dir = path.join(cacheRoot, await cacheKey(ref));
    await access(path.join(dir, 'READY'));
    return { fasta: path.join(dir, 'reference.fa'), fai: path.join(dir, 'reference.fa.fai') };
  } catch {
    return null;
  }
}

const LOCK_STALE_MS = 12 * 3600 * 1000;

/**
 * The indexed reference, built on first use. `onProgress` gets the share of the index built
 * (0..1, from bwa's "characters processed" lines).
 */
export async function prepareReference(
  ref: ReferenceConfig,
  cacheRoot: string,
  opts: { signal: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<PreparedReference> {
  await assertReferenceReadable(ref);
  const dir = path.join(cacheRoot, await cacheKey(ref));
  const fasta = path.join(dir, 'reference.fa');
  const ready = path.join(dir, 'READY');
  const exists = (f: string) => access(f).then(() => true, () => false);
  if (await exists(ready)) return { fasta, contigs: await readContigs(`${fasta}.fai`), config: ref };
  await mkdir(cacheRoot, { recursive: true });
  const lock = `${dir}.lock`;
  for (;;) {
    opts.signal.throwIfAborted();
    try {
      await mkdir(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const s = await stat(lock).catch(() => null);
      if (s && Date.now() - s.mtimeMs > LOCK_STALE_MS) await rm(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 1000));
      if (await exists(ready)) return { fasta, contigs: await readContigs(`${fasta}.fai`), config: ref };
    }
  }
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    if (await exists(ready)) return { fasta, contigs: await readContigs(`${fasta}.fai`), config: ref };
    await rm(dir, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
    const tmpFasta = path.join(tmp, 'reference.fa');
    // One plain FASTA: bwa, samtools and bcftools all read it without a .gzi.
    const out = createWriteStream(tmpFasta);
    let total = 0;
    for (const f of ref.fastas) {
      total += (await stat(f)).size;
      const src = createReadStream(f);
      const gz = await isGzip(f);
      await pipeline(gz ? src.pipe(createGunzip()) : src, out, { end: false, signal: opts.signal });
    }
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    await runPipe([{ program: 'samtools', args: ['faidx', tmpFasta] }], { signal: opts.signal });
    const contigs = await readContigs(`${tmpFasta}.fai`);
    const bases = contigs.reduce((s, c) => s + c.length, 0) || total;
    await runPipe([{ program: 'bwa', args: ['index', tmpFasta] }], {
      signal: opts.signal,
      onStderr: (_p, t) => {
        // "[BWTIncConstructFromPacked] 10 iterations done. 99999990 characters processed."
        const m = /(\d+) characters processed/g;
        let last: RegExpExecArray | null = null;
        for (let x = m.exec(t); x; x = m.exec(t)) last = x;
        if (last) opts.onProgress?.(Math.min(0.99, Number(last[1]) / (2 * bases)));
      },
    });
    await writeFile(path.join(tmp, 'READY'), `${new Date().toISOString()}\n${ref.fastas.join('\n')}\n`);
    await rename(tmp, dir);
    return { fasta, contigs, config: ref };
  } finally {
    await rm(tmp, { recursive: true, force: true });
    await rm(lock, { recursive: true, force: true });
  }
}
