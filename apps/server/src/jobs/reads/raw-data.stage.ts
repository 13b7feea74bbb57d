/**
 * The raw data analysis stage of analyse-case (FASTQ cases): prepare the reference (index built
 * once), align -> mark duplicates -> call (reads-pipeline.ts), then hand the called VCF to the
 * usual annotation and ranking. Progress is stored on the case per stage. The BAM + index and the
 * called VCF + index are copied to the upload storage and recorded with the run in its publishing
 * transaction; nothing of a failed or killed attempt survives: the work directory is removed on
 * success and failure, and a rerun first removes what a killed worker left (work directories of
 * the case, outputs never published).
 */
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { sampleNameOf, type ReadsStage } from '@rarelens/engine';
import type { ProductFileRow, ProductRow } from '../../db/schema/products.ts';
import type { AnalysisDeps, VcfInput } from '../analyse-case.job.ts';
import type { JobContext } from '../job.registry.ts';
import { runReadsPipeline } from './reads-pipeline.ts';
import { prepareReference, referenceConfig, type ReferenceConfig } from './reference.ts';

export interface RawDataDeps {
  /** The configured reference (throws ReferenceConfigError naming the variable). */
  reference: () => ReferenceConfig;
  /** Where indexes are cached (<data dir>/reference). */
  cacheDir: string;
  /** Where work directories are made (<data dir>/work). */
  workDir: string;
  /** WORKER_THREADS. */
  threads: number;
}

/** Storage prefix of a case's raw data analysis outputs. */
export const rawDataPrefix = (caseId: string) => `products/${caseId}/reads`;

/** Share of the progress bar (0-100) at which each stage starts; annotation and ranking follow. */
export const STAGE_START: Record<'reference' | ReadsStage | 'annotation', number> = {
  reference: 0,
  alignment: 5,
  duplicates: 55,
  calling: 65,
  annotation: 75,
};
const NEXT: Record<'reference' | ReadsStage, number> = {
  reference: STAGE_START.alignment,
  alignment: STAGE_START.duplicates,
  duplicates: STAGE_START.calling,
  calling: STAGE_START.annotation,
};

interface RawDataContext {
  deps: AnalysisDeps;
  reads: RawDataDeps;
  caseId: string;
  caseRow: ProductRow;
  ctx: JobContext;
  genome: ProductFileRow;
  mate: ProductFileRow | null;
}

export async function runRawDataAnalysis(c: RawDataContext, analyse: (input: VcfInput) => Promise<void>): Promise<void> {
  const { db, store, storage } = c.deps;
  const { signal } = c.ctx;
  const caseTag = `case-${c.caseId}-`;
  // What a killed attempt left behind on this machine and in storage.
  await mkdir(c.reads.workDir, { recursive: true });
  for (const entry of await readdir(c.reads.workDir)) {
    if (entry.startsWith(caseTag)) await rm(path.join(c.reads.workDir, entry), { recursive: true, force: true });
  }
  await storage.deletePrefix(rawDataPrefix(c.caseId));

  let lastWrite = 0;
  const progress = async (stage: 'reference' | ReadsStage, fraction: number, force = false) => {
    const now = Date.now();
    if (!force && now - lastWrite < 1000) return;
    lastWrite = now;
    const from = STAGE_START[stage];
    await store.setProgress(db, c.caseId, from + (NEXT[stage] - from) * fraction, stage);
  };
  await store.setStatus(db, c.caseId, { status: 'Processing', progress: 0, stage: 'reference' });
  const reference = await prepareReference(c.reads.reference(), c.reads.cacheDir, {
    signal,
    onProgress: (f) => void progress('reference', f).catch(() => undefined),
  });

  const work = await mkdtemp(path.join(c.reads.workDir, caseTag));
  try {
    const result = await storage.withLocalFile(c.genome.storageKey, (readsPath) => {
      const run = (matePath: string | null) =>
        runReadsPipeline({
          reads: { path: readsPath, name: c.genome.originalName },
          mate: matePath && c.mate ? { path: matePath, name: c.mate.originalName } : null,
          reference,
          sex: c.caseRow.gender,
          sample: sampleNameOf(c.caseRow.caseId),
          readGroup: `${sampleNameOf(c.caseRow.caseId)}.${c.ctx.jobId.slice(0, 8)}`,
          threads: c.reads.threads,
          work,
          signal,
          totalBytes: c.genome.sizeBytes + (c.mate?.sizeBytes ?? 0),
          onProgress: (stage, f) => void progress(stage, f, f === 0).catch(() => undefined),
        });
      return c.mate ? storage.withLocalFile(c.mate.storageKey, (m) => run(m)) : run(null);
    });
    signal.throwIfAborted();

    // Outputs to storage (published with the run; removed by onFailed if anything fails later).
    const prefix = rawDataPrefix(c.caseId);
    const keys = {
      bamKey: `${prefix}/alignments.bam`,
      baiKey: `${prefix}/alignments.bam.bai`,
      vcfKey: `${prefix}/calls.vcf.gz`,
      tbiKey: `${prefix}/calls.vcf.gz.tbi`,
    };
    const [bam, , vcf] = await Promise.all([
      storage.put(keys.bamKey, createReadStream(result.files.bam)),
      storage.put(keys.baiKey, createReadStream(result.files.bai)),
      storage.put(keys.vcfKey, createReadStream(result.files.vcf)),
      storage.put(keys.tbiKey, createReadStream(result.files.tbi)),
    ]);
    const ref = reference.config;
    const qc = { ...result.qc };
    await store.setProgress(db, c.caseId, STAGE_START.annotation, 'annotation');
    await analyse({
      path: result.files.vcf,
      displayName: `${c.genome.originalName} (called variants)`,
      assembly: ref.assembly,
      progressFrom: STAGE_START.annotation,
      counts: {
        reads: qc.reads,
        readsMapped: qc.mappedReads,
        readsDuplicate: qc.duplicateReads,
        ...Object.fromEntries(Object.entries(result.timings).map(([k, v]) => [`ms${k[0]!.toUpperCase()}${k.slice(1)}`, Math.round(v)])),
      },
      beforeCommit: (tx, runId) =>
        store.insertReadAlignment(tx, {
          runId,
          productId: c.caseId,
          layout: result.layout,
          reference: { label: ref.label, assembly: ref.assembly, demo: ref.demo, contigs: reference.contigs },
          qc: { ...qc },
          tools: result.tools,
          commands: result.commands,
          ...keys,
          bamBytes: bam.bytes,
          vcfBytes: vcf.bytes,
        }),
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The stage's settings from the server configuration. */
export function rawDataDepsOf(config: {
  dataDir: string;
  sourcesDir: string | undefined;
  reference: string | undefined;
  referenceAssembly: 'GRCh37' | 'GRCh38' | undefined;
  workerThreads: number;
}): RawDataDeps {
  return {
    reference: () => referenceConfig({ reference: config.reference, assembly: config.referenceAssembly, sourcesDir: config.sourcesDir }),
    cacheDir: path.join(config.dataDir, 'reference'),
    workDir: path.join(config.dataDir, 'work'),
    threads: config.workerThreads,
  };
}
