/**
 * The analysis thread: the production engine (createEngineAnalysis over the KB) answering the
 * API process's requests (protocol.ts). Annotation streams back in batches under a credit
 * window, so a slow consumer (the database) holds the thread back instead of its memory growing;
 * a family's trio QC is counted here as the variants stream by.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AnnotatedVariant } from '@rarelens/engine';
import { createKnowledgeBase } from '../../kb/knowledge-base.ts';
import { encodeStoredVariants } from '../../db/run-variants.ts';
import { createEngineAnalysis, rankStoredRows, type AnalysisEngine, type RankingPatient, type RunFamily, type EncodedBatch, type FamilyRun } from '../analysis-engine.ts';
import { BATCH, CREDITS, toThreadError, type FromThread, type ThreadInit, type ToThread } from './protocol.ts';

const port = parentPort;
if (!port) throw new Error('engine.thread.ts runs as a worker thread');
const init = workerData as ThreadInit;
const engine = createEngineAnalysis(createKnowledgeBase(init.kbDir), init.acmg);
const batchSize = init.batch ?? BATCH;

const post = (m: FromThread): void => port.postMessage(m);

interface Stream {
  abort: AbortController;
  credits: number;
  wake: (() => void) | null;
  family: FamilyRun | null;
}
const streams = new Map<number, Stream>();
/** Family runs of finished streams, until the job asks for the result. */
const families = new Map<number, FamilyRun>();

async function annotate(id: number, input: Extract<ToThread, { op: 'annotate' }>['input']): Promise<void> {
  const e = await engine();
  const stream: Stream = { abort: new AbortController(), credits: CREDITS, wake: null, family: null };
  streams.set(id, stream);
  try {
    let progress = 0;
    const s = await e.annotate({ ...input, signal: stream.abort.signal, onProgress: (f) => (progress = f) });
    stream.family = s.family ? e.familyRun(s.family) : null;
    post({ op: 'header', id, inputAssembly: s.inputAssembly, family: s.family });
    const credit = async () => {
      while (stream.credits === 0) {
        stream.abort.signal.throwIfAborted();
        await new Promise<void>((resolve) => (stream.wake = resolve));
      }
      stream.abort.signal.throwIfAborted();
      stream.credits--;
    };
    if (input.encodeStored) {
      // Candidates cross as objects (the job ranks them); the others as the rows it stores.
      let ordinal = 0;
      let candidates: EncodedBatch['candidates'] = [];
      let others: { id: number; variant: AnnotatedVariant }[] = [];
      const send = async () => {
        await credit();
        post({ op: 'encoded', id, batch: { count: candidates.length + others.length, candidates, rows: encodeStoredVariants(others) }, progress });
        candidates = [];
        others = [];
      };
      for await (const v of s.variants) {
        stream.family?.add(v);
        ordinal++;
        (e.isRankCandidate(v) ? candidates : others).push({ id: ordinal, variant: v });
        if (candidates.length + others.length >= batchSize) await send();
      }
      if (candidates.length + others.length) await send();
    } else {
      let batch: AnnotatedVariant[] = [];
      const send = async () => {
        await credit();
        post({ op: 'batch', id, variants: batch, progress });
        batch = [];
      };
      for await (const v of s.variants) {
        stream.family?.add(v);
        batch.push(v);
        if (batch.length >= batchSize) await send();
      }
      if (batch.length) await send();
    }
    if (stream.family) families.set(id, stream.family);
    post({ op: 'end', id, counts: s.counts() });
  } finally {
    streams.delete(id);
  }
}

async function handle(m: ToThread): Promise<void> {
  switch (m.op) {
    case 'load': {
      const e: AnalysisEngine = await engine();
      post({ op: 'loaded', id: m.id, softwareVersion: e.softwareVersion, kbVersions: e.kbVersions });
      return;
    }
    case 'annotate':
      return annotate(m.id, m.input);
    case 'more': {
      const s = streams.get(m.id);
      if (s) {
        s.credits++;
        s.wake?.();
        s.wake = null;
      }
      return;
    }
    case 'abort': {
      const s = streams.get(m.id);
      s?.abort.abort(new Error('the analysis was stopped'));
      s?.wake?.();
      families.delete(m.id);
      return;
    }
    case 'finishFamily': {
      const run = families.get(m.stream);
      if (!run) throw new Error(`no family run for stream ${m.stream}`);
      families.delete(m.stream);
      const done = await run.finish(m.candidates);
      const index = new Map(done.candidates.map((v, i) => [v, i]));
      post({
        op: 'familyFinished',
        id: m.id,
        result: {
          family: done.family,
          candidates: done.candidates,
          inheritance: done.candidates.map((v) => {
            const inh = done.inheritance(v);
            return inh ? { tags: inh.tags, rules: inh.rules, partners: inh.partners.map((p) => index.get(p) ?? -1).filter((i) => i >= 0) } : null;
          }),
        },
      });
      return;
    }
    case 'rank':
    case 'rankStored': {
      const e = await engine();
      const ranking =
        m.op === 'rank'
          ? await rankCandidates(e, m.candidates, m.patient, m.family)
          : await rankStoredRows(e, m.rows, m.patient, m.family);
      const geneFacts: Record<string, ReturnType<AnalysisEngine['geneFacts']>> = {};
      for (const g of ranking.genes) geneFacts[g.symbol] = e.geneFacts(g.symbol);
      post({
        op: 'ranked',
        id: m.id,
        result: { diseases: ranking.diseases, genes: ranking.genes, variantRanks: ranking.variantRanks, geneFacts },
      });
      return;
    }
  }
}

async function rankCandidates(e: AnalysisEngine, candidates: AnnotatedVariant[], patient: RankingPatient, family: RunFamily | null) {
  const r = await e.rank(candidates, patient, family);
  return { ...r, variantRanks: candidates.map((v) => r.variantRank?.(v) ?? null) };
}

port.on('message', (m: ToThread) => {
  handle(m).catch((e: unknown) => {
    if (m.op === 'annotate' || m.op === 'load' || m.op === 'finishFamily' || m.op === 'rank' || m.op === 'rankStored') post({ op: 'failed', id: m.id, error: toThreadError(e) });
  });
});
