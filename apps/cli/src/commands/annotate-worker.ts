/**
 * Worker thread of `rarelens annotate`: opens the KB, the input's header and an annotator like
 * the command does, then turns blocks of whole VCF lines (from the main thread's reader of the
 * same file) into JSONL bytes. Messages: see AnnotateBlock / BlockResult in annotate-pool.ts.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { AnnotationJsonlWriter, decodeBlock, KbSourceError, UnknownSampleError, VcfParseError, type VcfSummary } from '@rarelens/engine';
import { encodeBlock, openAnnotation, type AnnotateInput, type IntergenicSnvPath } from './annotate-jsonl.ts';
import type { AnnotateBlock, BlockResult, RecycledOutput, WorkerError } from './annotate-pool.ts';
import { trace, TRACE } from './annotate-trace.ts';

const port = parentPort!;

// Detach one ArrayBuffer now, before any code is optimised. A thread's first detach (here: the
// first block's output, transferred to the main thread) invalidates V8's array-buffer-detaching
// protector, and with it every optimised function that reads or writes a typed array (the JSONL
// writer, the KB's column lookups, transcript models, annotate itself: ~25 functions recompiled
// per worker, measured with --trace-deopt). Invalidated at start, it costs no recompilation.
structuredClone(null, { transfer: [new ArrayBuffer(0)] });

function describe(e: unknown): WorkerError {
  if (e instanceof VcfParseError) return { kind: 'vcf', file: e.file, line: e.line, reason: e.reason, message: e.message };
  if (e instanceof KbSourceError || e instanceof UnknownSampleError) return { kind: 'input', message: e.message };
  return { kind: 'other', message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
}

/** The summary's counts since the last call (and the summary reset to zero). */
function takeSummary(s: VcfSummary): Partial<VcfSummary> {
  const d: Partial<VcfSummary> = {
    records: s.records,
    alleles: s.alleles,
    skippedStar: s.skippedStar,
    skippedNonRef: s.skippedNonRef,
    skippedRefBlocks: s.skippedRefBlocks,
    skippedNoAlt: s.skippedNoAlt,
    skippedTelomere: s.skippedTelomere,
    structural: s.structural,
    liftFailed: s.liftFailed.splice(0),
  };
  s.records = s.alleles = s.skippedStar = s.skippedNonRef = s.skippedRefBlocks = s.skippedNoAlt = s.skippedTelomere = s.structural = 0;
  return d;
}

const origin = (workerData as { origin?: number }).origin ?? performance.timeOrigin;
const name = `worker ${threadId}`;
trace(origin, name, 'started');
try {
  const { reader, annotator } = await openAnnotation(workerData as AnnotateInput);
  trace(origin, name, 'KB and header loaded');
  reader.close();
  port.postMessage({ ready: true, sequenceSource: annotator.sequenceSource });
  const encoder = new AnnotationJsonlWriter();
  // No short path for intergenic substitutions here (the in-process path has it): with two
  // workers on the 1 M-record genome head it did not lower the command's CPU (RARELENS_ANNOTATE_
  // FULL_PATH=0 / 1 pairs, load 18-21: 8.38 / 8.46 / 9.01 s with it against 8.34 / 8.36 / 8.23 s
  // without), while one thread gained 12 % (6.45 / 6.88 / 6.46 against 7.69 / 7.51 / 7.39 s).
  const short: IntergenicSnvPath | null = null;
  port.on('message', (m: AnnotateBlock | RecycledOutput | null) => {
    if (m === null) {
      trace(origin, name, 'done');
      annotator.close();
      port.close();
      return;
    }
    if ('recycle' in m) {
      encoder.recycle(m.recycle);
      return;
    }
    let result: BlockResult;
    const input = m.bytes.buffer as ArrayBuffer;
    try {
      const counts: Record<string, number> = {};
      // Each variant annotated and encoded as soon as its line is parsed (none kept for the block).
      if (TRACE && m.id < 2) trace(origin, name, `block ${m.id} start`);
      const alleles = encodeBlock(decodeBlock(m.bytes), m.firstLine, reader, annotator, encoder, short, counts);
      const out = encoder.take();
      if (TRACE) trace(origin, name, `block ${m.id} end`);
      result = { id: m.id, input, out, alleles, counts, summary: takeSummary(reader.summary) };
      port.postMessage(result, [out.buffer as ArrayBuffer, input]);
    } catch (e) {
      // Lines encoded before the error are dropped with the block (the command fails on it).
      encoder.recycle(encoder.take().buffer as ArrayBuffer);
      result = { id: m.id, input, error: describe(e) };
      port.postMessage(result, [input]);
    }
  });
} catch (e) {
  port.postMessage({ ready: false, error: describe(e) });
}
