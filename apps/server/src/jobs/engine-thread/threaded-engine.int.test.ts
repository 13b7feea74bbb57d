/**
 * The engine on its own thread answers exactly what the engine in this thread answers (same
 * annotations, counts and ranking of a real exome), stops when the job is aborted, and a thread
 * that outgrows its heap cap fails the job with a message naming the limit (no retry).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnnotatedVariant } from '@rarelens/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeStoredVariants } from '../../db/run-variants.ts';
import { createKnowledgeBase } from '../../kb/knowledge-base.ts';
import { hasRealEngine, kbDir, smallPfeifferVcf } from '../../testing/pfeiffer-vcf.ts';
import { AnalysisInputError, createEngineAnalysis, type AnalysisEngine, type AnnotateInput } from '../analysis-engine.ts';
import { isInputError } from '../analyse-case.job.ts';
import { createThreadedEngine, type ThreadedEngine } from './threaded-engine.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'rarelens-thread-'));
const vcf = path.join(dir, 'pfeiffer.vcf');
const patient = { hpoTerms: ['HP:0000244', 'HP:0011304', 'HP:0001770'], excludedTerms: [], sex: 'female' as const };
const threads: ThreadedEngine[] = [];

afterAll(async () => {
  await Promise.all(threads.map((t) => t.close()));
  rmSync(dir, { recursive: true, force: true });
});

function input(signal = new AbortController().signal): AnnotateInput {
  return { path: vcf, displayName: 'pfeiffer.vcf', assembly: null, signal, onProgress: () => undefined };
}

async function annotateAll(engine: AnalysisEngine, signal?: AbortSignal): Promise<{ variants: AnnotatedVariant[]; counts: Record<string, number>; inputAssembly: string }> {
  const stream = await engine.annotate(input(signal));
  const variants: AnnotatedVariant[] = [];
  for await (const v of stream.variants) variants.push(v);
  return { variants, counts: stream.counts(), inputAssembly: stream.inputAssembly };
}

describe.runIf(hasRealEngine)('the analysis engine on its own thread', () => {
  it('annotates and ranks a real exome exactly as the engine of this thread does', async () => {
    writeFileSync(vcf, smallPfeifferVcf());
    const threaded = createThreadedEngine({ kbDir, acmg: {}, memoryMb: 8192, batch: 40 });
    threads.push(threaded);
    const [viaThread, here] = await Promise.all([threaded.engine(), createEngineAnalysis(createKnowledgeBase(kbDir))()]);
    expect(viaThread.kbVersions).toEqual(here.kbVersions);

    const a = await annotateAll(viaThread);
    const b = await annotateAll(here);
    expect(a.variants.length).toBeGreaterThan(40 * 5); // more batches than the credit window
    expect(a.variants).toEqual(b.variants);
    expect(a.counts).toEqual(b.counts);
    expect(a.inputAssembly).toBe('GRCh37');

    const candidatesA = a.variants.filter((v) => viaThread.isRankCandidate(v));
    const candidatesB = b.variants.filter((v) => here.isRankCandidate(v));
    const [ra, rb] = await Promise.all([viaThread.rank(candidatesA, patient), here.rank(candidatesB, patient)]);
    expect(ra.genes).toEqual(rb.genes);
    expect(ra.diseases).toEqual(rb.diseases);
    expect(ra.genes[0]?.symbol).toBe('FGFR2');
    expect(candidatesA.map((v) => ra.variantRank?.(v) ?? null)).toEqual(candidatesB.map((v) => rb.variantRank?.(v) ?? null));
    for (const g of ra.genes.slice(0, 20)) expect(viaThread.geneFacts(g.symbol)).toEqual(here.geneFacts(g.symbol));
  });

  it('gives the stored rows as COPY text and the candidates as objects when asked (encodeStored)', async () => {
    writeFileSync(vcf, smallPfeifferVcf());
    const threaded = createThreadedEngine({ kbDir, acmg: {}, memoryMb: 8192, batch: 40 });
    threads.push(threaded);
    const [viaThread, here] = await Promise.all([threaded.engine(), createEngineAnalysis(createKnowledgeBase(kbDir))()]);
    const stream = await viaThread.annotate({ ...input(), encodeStored: true });
    let count = 0;
    let batches = 0;
    let rows = '';
    const candidates: { id: number; variant: AnnotatedVariant }[] = [];
    for await (const b of stream.encoded!) {
      batches++;
      count += b.count;
      candidates.push(...b.candidates);
      rows += b.rows;
    }
    const b = await annotateAll(here);
    const all = b.variants.map((variant, i) => ({ id: i + 1, variant }));
    expect(batches).toBeGreaterThan(5); // more batches than the credit window
    expect(count).toBe(all.length);
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates).toEqual(all.filter((c) => here.isRankCandidate(c.variant)));
    expect(rows).toBe(encodeStoredVariants(all.filter((c) => !here.isRankCandidate(c.variant))));
    expect(rows.split('\n').length - 1).toBe(all.length - candidates.length);
    expect(stream.counts()).toEqual(b.counts);
  });

  it('stops annotating when the job is aborted and serves the next job', async () => {
    const threaded = createThreadedEngine({ kbDir, acmg: {}, memoryMb: 8192, batch: 40 });
    threads.push(threaded);
    const engine = await threaded.engine();
    const controller = new AbortController();
    const stream = await engine.annotate(input(controller.signal));
    let seen = 0;
    await expect(
      (async () => {
        for await (const _ of stream.variants) {
          if (++seen === 10) controller.abort(new Error('stopped by the test'));
          controller.signal.throwIfAborted();
        }
      })(),
    ).rejects.toThrow('stopped by the test');
    expect(seen).toBe(10);
    // The thread is still there and answers the next annotation in full.
    const again = await annotateAll(engine);
    expect(again.variants.length).toBeGreaterThan(40 * 5);
  });

  it('fails the job with the memory limit named when the thread outgrows its heap cap', async () => {
    const threaded = createThreadedEngine({ kbDir, acmg: {}, memoryMb: 16 });
    threads.push(threaded);
    const error = await threaded.engine().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AnalysisInputError);
    expect((error as Error).message).toMatch(/needed more memory than this server gives it \(16 MB, RARELENS_ANALYSIS_MEMORY_MB\)/);
    expect(isInputError(error)).toBe(true);
  });
});
