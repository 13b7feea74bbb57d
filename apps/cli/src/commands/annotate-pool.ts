/**
 * `rarelens annotate` over worker threads: this thread reads and decompresses the input and cuts
 * it into blocks of whole lines (VcfReader.byteBlocks, about 1 MiB each, bytes in memory that goes
 * to the worker and comes back with its answer: no text decoded or copied here); each worker parses
 * (VcfReader.parseBlockEach of its own reader of the same file), annotates and encodes its blocks to
 * JSONL bytes; this thread writes the blocks' bytes in input order. The output, the counts and
 * the summary are those of the in-process path, and the first error in input order is the one
 * reported, as there.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { VcfParseError, type VcfReader, type VcfSummary } from '@rarelens/engine';
import type { AnnotateInput } from './annotate-jsonl.ts';
import { trace, traceThreads } from './annotate-trace.ts';

export interface AnnotateBlock {
  id: number;
  /** The block's lines (VcfReader.byteBlocks), in memory transferred to the worker and back with its result. */
  bytes: Uint8Array;
  firstLine: number;
}

/** A block's output memory, written to the file, sent back (transferred) to the worker that filled it. */
export interface RecycledOutput {
  recycle: ArrayBuffer;
}

export interface WorkerError {
  /** vcf: a VcfParseError; input: a bad KB, sample or assembly (message for the user); other: a bug. */
  kind: 'vcf' | 'input' | 'other';
  message: string;
  file?: string;
  line?: number;
  reason?: string;
}

export type BlockResult =
  | { id: number; input: ArrayBuffer; out: Uint8Array; alleles: number; counts: Record<string, number>; summary: Partial<VcfSummary> }
  | { id: number; input: ArrayBuffer; error: WorkerError };

/** A problem with the input or the KB found by a worker, worded for the user. */
export class AnnotateInputError extends Error {}

function errorOf(e: WorkerError): Error {
  if (e.kind === 'vcf') return new VcfParseError(e.file ?? '', e.line ?? 0, e.reason ?? e.message);
  if (e.kind === 'input') return new AnnotateInputError(e.message);
  return new Error(`annotation worker failed: ${e.message}`);
}

/** Blocks handed to one worker and not yet answered: two keep it busy while one travels. */
const IN_FLIGHT_PER_WORKER = 2;
/** Bytes of a new input block's memory: a decompressed chunk (1 MiB) and room for a line carried over. */
const INPUT_BLOCK_BYTES = (1 << 20) + (64 << 10);
/** Input blocks' memory kept for reuse (the blocks in flight and a few more). */
const MAX_SPARE_INPUTS = 16;
/** Young generation of each worker (MiB): annotation allocates many short-lived objects. */
const YOUNG_GENERATION_MB = 64;

function startWorker(input: AnnotateInput): Worker {
  const options = { workerData: { ...input, origin: performance.timeOrigin }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } };
  // The compiled command (dist/annotate.mjs) runs the compiled worker beside it; the sources
  // run the TypeScript worker through tsx's loader, registered in the worker's own thread.
  if (import.meta.url.endsWith('.mjs')) return new Worker(new URL('./annotate-worker.mjs', import.meta.url), options);
  // tsx's ESM API entry (the "import" condition of its exports; require.resolve gives the CJS one).
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  const api = (JSON.parse(readFileSync(pkg, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
  const tsx = new URL(api, pathToFileURL(pkg)).href;
  const entry = new URL('./annotate-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry)}); }).catch((e) => { throw e; });`;
  return new Worker(boot, { ...options, eval: true });
}

interface PoolWorker {
  worker: Worker;
  inFlight: number;
}

export interface PoolResult {
  alleles: number;
  sequenceSource: string;
}

/**
 * Annotate every record of `reader` (header read, records not) in `threads` workers, handing
 * each block's JSONL bytes to `write` in input order; counts and summary are added to.
 */
export async function annotateInWorkers(
  input: AnnotateInput,
  reader: VcfReader,
  threads: number,
  write: (bytes: Uint8Array, written: () => void) => Promise<void>,
  counts: Map<string, number>,
  summary: VcfSummary,
): Promise<PoolResult> {
  const pool: PoolWorker[] = [];
  // Answers by block id, with the worker that sent each.
  const results = new Map<number, { r: BlockResult; from: Worker }>();
  let failure: Error | null = null;
  // Set when the workers are let go (a write finishing later keeps its memory).
  let finished = false;
  // Set by the workers' event handlers (a function, so the loops below re-read it).
  const failed = (): Error | null => failure;
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const waitForNews = () => new Promise<void>((resolve) => (wake = resolve));
  // Memory of input blocks the workers have given back: the reader copies the next blocks into it
  // (no new allocation, page faults or garbage per block).
  const spareInputs: ArrayBuffer[] = [];
  const alloc = (n: number): Uint8Array => {
    for (let k = spareInputs.length - 1; k >= 0; k--) {
      if (spareInputs[k]!.byteLength >= n) return new Uint8Array(spareInputs.splice(k, 1)[0]!);
    }
    // Room for a chunk plus a long line carried over from the one before.
    return new Uint8Array(Math.max(n, INPUT_BLOCK_BYTES));
  };
  try {
    let sequenceSource = '';
    await Promise.all(
      Array.from({ length: threads }, () => {
        const worker = startWorker(input);
        const pw: PoolWorker = { worker, inFlight: 0 };
        pool.push(pw);
        return new Promise<void>((resolve, reject) => {
          worker.once('message', (m: { ready: boolean; sequenceSource?: string; error?: WorkerError }) => {
            if (!m.ready) return reject(errorOf(m.error!));
            sequenceSource = m.sequenceSource ?? '';
            worker.on('message', (r: BlockResult) => {
              pw.inFlight--;
              if (spareInputs.length < MAX_SPARE_INPUTS) spareInputs.push(r.input);
              results.set(r.id, { r, from: worker });
              signal();
            });
            resolve();
          });
          worker.on('error', (e) => {
            failure ??= new Error(`annotation worker failed: ${e.stack ?? e.message}`);
            reject(failure);
            signal();
          });
          worker.on('exit', (code) => {
            if (code !== 0 && failure === null) failure = new Error(`annotation worker exited with code ${code}`);
            reject(failure ?? new Error('annotation worker exited before it was ready'));
            signal();
          });
        });
      }),
    );

    trace(performance.timeOrigin, 'main', 'workers ready');
    let sent = 0;
    let written = 0;
    let alleles = 0;
    const flush = async () => {
      for (let e = results.get(written); e !== undefined; e = results.get(written)) {
        results.delete(written);
        const { r, from } = e;
        if ('error' in r) throw errorOf(r.error);
        alleles += r.alleles;
        for (const [k, v] of Object.entries(r.counts)) counts.set(k, (counts.get(k) ?? 0) + v);
        addSummary(summary, r.summary);
        // Once in the file, the block's memory goes back to its worker for its next block.
        const memory = r.out.buffer as ArrayBuffer;
        await write(r.out, () => {
          if (failure === null && !finished) from.postMessage({ recycle: memory } satisfies RecycledOutput, [memory]);
        });
        written++;
      }
    };
    for await (const block of reader.byteBlocks(alloc)) {
      for (;;) {
        const f = failed();
        if (f !== null) throw f;
        await flush();
        const idle = pool.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
        if (idle.inFlight < IN_FLIGHT_PER_WORKER) {
          idle.inFlight++;
          idle.worker.postMessage({ id: sent++, bytes: block.bytes, firstLine: block.firstLine } satisfies AnnotateBlock, [block.bytes.buffer as ArrayBuffer]);
          break;
        }
        await waitForNews();
      }
    }
    trace(performance.timeOrigin, 'main', 'input read');
    while (written < sent) {
      const f = failed();
      if (f !== null) throw f;
      await flush();
      if (written < sent && !results.has(written)) await waitForNews();
    }
    trace(performance.timeOrigin, 'main', 'last block written');
    traceThreads();
    return { alleles, sequenceSource };
  } finally {
    finished = true;
    for (const { worker } of pool) {
      worker.removeAllListeners('exit');
      void worker.terminate();
    }
  }
}

function addSummary(s: VcfSummary, d: Partial<VcfSummary>): void {
  s.records += d.records ?? 0;
  s.alleles += d.alleles ?? 0;
  s.skippedStar += d.skippedStar ?? 0;
  s.skippedNonRef += d.skippedNonRef ?? 0;
  s.skippedRefBlocks += d.skippedRefBlocks ?? 0;
  s.skippedNoAlt += d.skippedNoAlt ?? 0;
  s.skippedTelomere += d.skippedTelomere ?? 0;
  s.structural += d.structural ?? 0;
  if (d.liftFailed) s.liftFailed.push(...d.liftFailed);
}
