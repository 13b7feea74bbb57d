/**
 * The analysis engine on its own thread: the same AnalysisEngine the jobs use, with annotation,
 * family QC and ranking executed by engine.thread.ts in a worker thread, so that an in-process
 * worker (the embedded default) keeps the API's event loop free while a genome is analysed.
 * The thread's heap is capped (RARELENS_ANALYSIS_MEMORY_MB); a thread that dies (out of memory,
 * crash) fails the job it was running with a clear message and is started again for the next.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { isCandidate, type AcmgOptions, type AnnotatedVariant, type Family } from '@rarelens/engine';
import {
  AnalysisInputError,
  type AnalysisEngine,
  type AnnotationStream,
  type EncodedBatch,
  type FamilyFinish,
  type FamilyRun,
  type GeneFacts,
  type VariantInheritanceValue,
} from '../analysis-engine.ts';
import { fromThreadError, type FamilyFinished, type FromThread, type Ranked, type ThreadError, type ThreadInit, type ToThread } from './protocol.ts';

export interface ThreadedEngineOptions {
  kbDir: string;
  acmg: AcmgOptions;
  /** Heap cap of the thread (old generation), in MB. */
  memoryMb: number;
  /** Variants per message (tests use small batches to cross the credit window). */
  batch?: number;
}

export interface ThreadedEngine {
  /** The AnalysisEngine factory the jobs take (starts the thread on first use). */
  engine: () => Promise<AnalysisEngine>;
  /** Stops the thread (the app's onClose). */
  close(): Promise<void>;
}

const THREAD_SCRIPT = fileURLToPath(new URL('./engine.thread.mjs', import.meta.url));

interface StreamState {
  batches: AnnotatedVariant[][];
  encoded: EncodedBatch[];
  ended: boolean;
  error: Error | null;
  wake: (() => void) | null;
  counts: Record<string, number>;
  onProgress: (f: number) => void;
  header: { resolve: (m: Extract<FromThread, { op: 'header' }>) => void; reject: (e: Error) => void } | null;
}

interface Pending {
  resolve: (m: FromThread) => void;
  reject: (e: Error) => void;
}

export function createThreadedEngine(options: ThreadedEngineOptions): ThreadedEngine {
  let worker: Worker | null = null;
  let loading: Promise<AnalysisEngine> | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const streams = new Map<number, StreamState>();
  /** The stream a family came from (its QC is counted by the thread). */
  const familyStream = new WeakMap<Family, number>();
  const geneFactsCache = new Map<string, GeneFacts | null>();

  const errorOf = (e: ThreadError): Error => (e.name === 'AnalysisInputError' ? new AnalysisInputError(e.message) : fromThreadError(e));

  function failAll(error: Error): void {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    for (const s of streams.values()) {
      s.error = error;
      s.header?.reject(error);
      s.header = null;
      s.wake?.();
    }
  }

  function onMessage(m: FromThread): void {
    const stream = streams.get(m.id);
    if (stream) {
      if (m.op === 'header') {
        stream.header?.resolve(m);
        stream.header = null;
      } else if (m.op === 'batch') {
        stream.batches.push(m.variants);
        stream.onProgress(m.progress);
      } else if (m.op === 'encoded') {
        stream.encoded.push(m.batch);
        stream.onProgress(m.progress);
      } else if (m.op === 'end') {
        stream.counts = m.counts;
        stream.ended = true;
      } else if (m.op === 'failed') {
        stream.error = errorOf(m.error);
        stream.header?.reject(stream.error);
        stream.header = null;
      }
      stream.wake?.();
      stream.wake = null;
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.op === 'failed') p.reject(errorOf(m.error));
    else p.resolve(m);
  }

  function start(): Worker {
    const init: ThreadInit = { kbDir: options.kbDir, acmg: options.acmg, ...(options.batch ? { batch: options.batch } : {}) };
    const w = new Worker(THREAD_SCRIPT, {
      workerData: init,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
    });
    w.on('message', onMessage);
    let crash: Error | null = null;
    w.on('error', (e: Error & { code?: string }) => {
      crash =
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new AnalysisInputError(
              `The analysis needed more memory than this server gives it (${options.memoryMb} MB, RARELENS_ANALYSIS_MEMORY_MB); raise the limit or analyse the genome on a worker with more memory.`,
            )
          : new Error(`the analysis thread failed: ${e.message}`);
    });
    w.on('exit', (code) => {
      if (worker === w) {
        worker = null;
        loading = null;
      }
      failAll(crash ?? new Error(`the analysis thread stopped (exit code ${code})`));
    });
    return w;
  }

  const post = (m: ToThread): void => {
    if (!worker) throw new Error('the analysis thread is not running');
    worker.postMessage(m);
  };

  function request<K extends FromThread['op']>(m: ToThread & { id: number }): Promise<Extract<FromThread, { op: K }>> {
    return new Promise((resolve, reject) => {
      pending.set(m.id, { resolve: resolve as (m: FromThread) => void, reject });
      try {
        post(m);
      } catch (e) {
        pending.delete(m.id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  function familyRun(family: Family): FamilyRun {
    const stream = familyStream.get(family);
    if (stream === undefined) throw new Error('familyRun: the family does not come from an annotation stream of this engine');
    return {
      // Counted by the thread as the variants stream by.
      add: () => undefined,
      async finish(candidates) {
        const id = nextId++;
        const done = await request<'familyFinished'>({ op: 'finishFamily', id, stream, candidates: [...candidates] });
        return familyResult(done.result);
      },
    };
  }

  async function annotate(input: Parameters<AnalysisEngine['annotate']>[0]): Promise<AnnotationStream> {
    const id = nextId++;
    const state: StreamState = { batches: [], encoded: [], ended: false, error: null, wake: null, counts: {}, onProgress: input.onProgress, header: null };
    const header = new Promise<Extract<FromThread, { op: 'header' }>>((resolve, reject) => (state.header = { resolve, reject }));
    streams.set(id, state);
    const abort = () => {
      if (!state.ended && worker) worker.postMessage({ op: 'abort', id } satisfies ToThread);
    };
    input.signal.addEventListener('abort', abort, { once: true });
    const cleanup = () => {
      input.signal.removeEventListener('abort', abort);
      streams.delete(id);
    };
    try {
      post({ op: 'annotate', id, input: { path: input.path, displayName: input.displayName, assembly: input.assembly, pedigree: input.pedigree ?? null, sample: input.sample ?? null, ...(input.encodeStored ? { encodeStored: true } : {}) } });
      const h = await header;
      if (h.family) familyStream.set(h.family, id);
      /** The batches of the stream as they arrive, with a credit given back for each. */
      async function* batches<B>(queue: B[]): AsyncGenerator<B> {
        try {
          for (;;) {
            const batch = queue.shift();
            if (batch) {
              if (worker) worker.postMessage({ op: 'more', id } satisfies ToThread);
              yield batch;
              continue;
            }
            if (state.error) throw state.error;
            if (state.ended) return;
            await new Promise<void>((resolve) => (state.wake = resolve));
          }
        } finally {
          abort();
          cleanup();
        }
      }
      async function* variants(): AsyncGenerator<AnnotatedVariant> {
        for await (const batch of batches(state.batches)) yield* batch;
      }
      return {
        inputAssembly: h.inputAssembly,
        family: h.family,
        variants: variants(),
        ...(input.encodeStored ? { encoded: batches(state.encoded) } : {}),
        counts: () => state.counts,
      };
    } catch (e) {
      abort();
      cleanup();
      throw e;
    }
  }

  async function load(): Promise<AnalysisEngine> {
    worker = start();
    const id = nextId++;
    const loaded = await request<'loaded'>({ op: 'load', id });
    return {
      softwareVersion: loaded.softwareVersion,
      kbVersions: loaded.kbVersions,
      annotate,
      isRankCandidate: (v) => isCandidate(v),
      familyRun,
      async rank(candidates, patient, family) {
        const rid = nextId++;
        const { result } = await request<'ranked'>({ op: 'rank', id: rid, candidates, patient, family: family ?? null });
        return rankingOf(candidates, result, geneFactsCache);
      },
      async rankStored(rows, patient, family) {
        const rid = nextId++;
        const { result } = await request<'ranked'>({ op: 'rankStored', id: rid, rows, patient, family: family ?? null });
        for (const [symbol, facts] of Object.entries(result.geneFacts)) geneFactsCache.set(symbol, facts);
        return { diseases: result.diseases, genes: result.genes, variantRanks: result.variantRanks };
      },
      geneFacts: (symbol) => geneFactsCache.get(symbol) ?? null,
    };
  }

  return {
    engine() {
      loading ??= load().catch((e: unknown) => {
        loading = null;
        const w = worker;
        worker = null;
        void w?.terminate();
        throw e;
      });
      return loading;
    },
    async close() {
      const w = worker;
      worker = null;
      loading = null;
      if (w) await w.terminate();
    },
  };
}

/** The family result with the thread's indexes turned back into this side's variants. */
function familyResult(r: FamilyFinished): FamilyFinish {
  const byVariant = new Map<AnnotatedVariant, VariantInheritanceValue | null>();
  r.candidates.forEach((v, i) => {
    const inh = r.inheritance[i];
    byVariant.set(v, inh ? { tags: inh.tags, rules: inh.rules, partners: inh.partners.map((p) => r.candidates[p]!) } : null);
  });
  return { family: r.family, candidates: r.candidates, inheritance: (v) => byVariant.get(v) ?? null };
}

function rankingOf(candidates: AnnotatedVariant[], r: Ranked, cache: Map<string, GeneFacts | null>) {
  for (const [symbol, facts] of Object.entries(r.geneFacts)) cache.set(symbol, facts);
  const ranks = new Map<AnnotatedVariant, number>();
  candidates.forEach((v, i) => {
    const rank = r.variantRanks[i];
    if (rank !== null && rank !== undefined) ranks.set(v, rank);
  });
  return { diseases: r.diseases, genes: r.genes, variantRank: (v: AnnotatedVariant) => ranks.get(v) ?? null };
}
