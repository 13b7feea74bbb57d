/**
 * Child process of the annotation benchmark: reads one VCF with the engine (and annotates it
 * when --annotate is given and the engine exports an annotator), then prints one JSON line:
 * { records, alleles, liftFailed, seconds, maxRssMiB }. Seconds exclude process start and the
 * loading of the chain/KB (reported separately as setupSeconds).
 */

import * as engine from '../../packages/engine/src/index.ts';
import { annotatorEntryPoints, type AnnotatorLike } from './annotator.ts';

/** The JSON line the worker prints. */
export interface ParseWorkerResult {
  records: number;
  alleles: number;
  liftFailed: number;
  annotated: number;
  setupSeconds: number;
  seconds: number;
  maxRssMiB: number;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const file = args[0];
  if (file === undefined) throw new Error('usage: parse-worker FILE [--chain PATH] [--annotate KB_DIR]');
  const chainPath = args.includes('--chain') ? args[args.indexOf('--chain') + 1] : undefined;
  const kbDir = args.includes('--annotate') ? args[args.indexOf('--annotate') + 1] : undefined;
  const t0 = performance.now();
  const liftover = chainPath !== undefined ? await engine.loadChain(chainPath) : undefined;
  const entry = kbDir !== undefined ? annotatorEntryPoints() : null;
  if (kbDir !== undefined && entry === null) throw new Error('the engine exports no loadGenomeKb/createAnnotator');
  const kb = entry !== null && kbDir !== undefined ? await entry.loadGenomeKb(kbDir) : null;
  const t1 = performance.now();
  const reader = await engine.readVcf(file, { liftover });
  // Same annotator options as `rarelens annotate`.
  const annotator: AnnotatorLike | null =
    entry !== null && kb !== null
      ? entry.createAnnotator(kb, {
          populationDataInInput: engine.headerHasPopulationFrequencies(reader.header),
          infoKeys: new Set(reader.header.info.keys()),
        })
      : null;
  let annotated = 0;
  let sink = 0;
  for await (const batch of reader.batches()) {
    if (annotator !== null) {
      for (const v of batch) {
        // Keep the result alive so the work cannot be optimised away.
        if (annotator.annotate(v) !== undefined) sink++;
      }
      annotated += batch.length;
    }
  }
  annotator?.close?.();
  if (annotator !== null && sink !== annotated) throw new Error('annotator returned undefined');
  const t2 = performance.now();
  const s = reader.summary;
  const result: ParseWorkerResult = {
    records: s.records,
    alleles: s.alleles,
    liftFailed: s.liftFailed.length,
    annotated,
    setupSeconds: (t1 - t0) / 1000,
    seconds: (t2 - t1) / 1000,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : JSON.stringify(err)}\n`);
  process.exit(1);
});
