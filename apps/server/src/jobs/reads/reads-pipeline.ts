/**
 * The raw data analysis stage of the worker: FASTQ -> BAM -> VCF with the field's tools, as
 * decided by @rarelens/engine (readsCommands). `bwa mem` reads the FASTQ files itself while the
 * engine's FASTQ reader checks every record alongside (mates paired, progress by bytes; bad reads
 * stop the aligner); every other step is a child-process pipe. All files live in `work` (the caller removes it).
 */
import { writeFile } from 'node:fs/promises';
import {
  commandLine,
  lowMappingMessage,
  MIN_MAPPING_RATE,
  openReads,
  parseBcftoolsStats,
  parseCoverage,
  parseFlagstatTsv,
  ploidyFileText,
  readsCommands,
  readsOutputs,
  readsQc,
  sampleSexText,
  type ReadsQc,
  type Command,
  type ReadsStage,
} from '@rarelens/engine';
import type { PreparedReference } from './reference.ts';
import { runPipe, toolVersion } from './processes.ts';

export interface ReadsInput {
  /** Local path of the FASTQ (plain or gzip), and the name the user knows. */
  path: string;
  name: string;
}

export interface ReadsPipelineInput {
  reads: ReadsInput;
  mate: ReadsInput | null;
  reference: PreparedReference;
  sex: 'male' | 'female';
  sample: string;
  readGroup: string;
  threads: number;
  work: string;
  signal: AbortSignal;
  /** Stage and share of it done (0..1). */
  onProgress: (stage: ReadsStage, fraction: number) => void;
  /** Total compressed size of the read files (alignment progress). */
  totalBytes: number;
}

export interface ReadsPipelineResult {
  layout: 'single' | 'paired' | 'interleaved';
  files: ReturnType<typeof readsOutputs>;
  qc: ReadsQc;
  /** Tool name -> version line. */
  tools: Record<string, string>;
  /** The command lines run, in order. */
  commands: string[];
  /** Wall time per stage (ms). */
  timings: Record<string, number>;
}

/** The reads do not map to the reference: an input problem (never retried). */
export class ReadsMappingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadsMappingError';
  }
}

export async function runReadsPipeline(input: ReadsPipelineInput): Promise<ReadsPipelineResult> {
  // Processes started beside the main steps (versions, QC reports): a failed run still waits for
  // them, so nothing of it is left running when the caller removes the work directory.
  const background: Promise<unknown>[] = [];
  try {
    return await runStages(input, background);
  } finally {
    await Promise.allSettled(background);
  }
}

async function runStages(input: ReadsPipelineInput, background: Promise<unknown>[]): Promise<ReadsPipelineResult> {
  const { signal } = input;
  const out = readsOutputs(input.work);
  const src = await openReads(
    { input: input.reads.path, name: input.reads.name },
    input.mate ? { input: input.mate.path, name: input.mate.name } : undefined,
  );
  const paired = src.layout !== 'single';
  const stages = readsCommands({
    reference: input.reference.fasta,
    work: input.work,
    threads: input.threads,
    sample: input.sample,
    readGroup: input.readGroup,
    // bwa mem -p for one interleaved file; two mate files are given as two files.
    paired: src.layout === 'interleaved',
    contigs: input.reference.contigs,
  });
  const commands: string[] = [];
  const timings: Record<string, number> = {};
  // Tool versions are asked for while the reads align (three short processes, off the critical path).
  const versions = Promise.all((['bwa', 'samtools', 'bcftools'] as const).map(async (p) => [p, await toolVersion(p, signal)] as const));
  versions.catch(() => undefined);
  background.push(versions);

  // 1. alignment: bwa mem reads the files itself (gzip or plain) | fixmate | sort, while every
  // record is checked here alongside (4-line records, mates paired): bad reads stop the aligner and
  // end the case with the check's message. Reading the files in bwa keeps Node off the aligner's
  // input path (bwa takes tens of Mbp per batch: a small file would wait for the whole check).
  let t = performance.now();
  input.onProgress('alignment', 0);
  let lastReport = 0;
  const [alignTemplate] = stages.alignment;
  const readFiles = [input.reads, ...(input.mate ? [input.mate] : [])];
  const withReads = (pipe: Command[], files: string[]): Command[] =>
    pipe.map((c, i) => (i === 0 ? { ...c, args: [...c.args.slice(0, -1), ...files] } : c));
  const alignPipe = withReads(alignTemplate!, readFiles.map((f) => f.path));
  commands.push(`${commandLine(withReads(alignTemplate!, readFiles.map((f) => `<${f.name}>`)))} (every record checked alongside${paired ? ', mates paired' : ''})`);
  const stopAlign = new AbortController();
  const alignSignal = AbortSignal.any([signal, stopAlign.signal]);
  // The check runs to the end even when the aligner fails first (bwa also stops on unpaired
  // mates): bad reads are the user's to fix, and the check's message names the file and record.
  const check = (async () => {
    for await (const _batch of src.batches) {
      const now = Date.now();
      if (now - lastReport > 1000) {
        lastReport = now;
        input.onProgress('alignment', Math.min(0.99, src.bytesRead() / Math.max(1, input.totalBytes)));
      }
      if (signal.aborted) return;
    }
  })();
  check.catch(() => stopAlign.abort());
  const [checked, ran] = await Promise.allSettled([check, runPipe(alignPipe, { signal: alignSignal })]);
  src.close();
  signal.throwIfAborted();
  if (checked.status === 'rejected') throw checked.reason as Error;
  if (ran.status === 'rejected') throw ran.reason as Error;
  timings.alignment = performance.now() - t;

  // 2. duplicates: markdup, index.
  t = performance.now();
  input.onProgress('duplicates', 0);
  // The QC reports read finished files: each runs beside the next step (they never change a file).
  const qcReport = (program: 'samtools' | 'bcftools', args: string[]) => {
    const p = runPipe([{ program, args }], { signal, captureStdout: true });
    p.catch(() => undefined);
    background.push(p);
    return p;
  };
  let flagstatText: Promise<string> | null = null;
  for (const [i, pipe] of stages.duplicates.entries()) {
    commands.push(commandLine(pipe));
    await runPipe(pipe, { signal });
    // After markdup: the read counts while the BAM is indexed.
    if (i === 0) flagstatText = qcReport('samtools', ['flagstat', '-O', 'tsv', out.bam]);
    input.onProgress('duplicates', (i + 1) / stages.duplicates.length);
  }
  const flagstat = parseFlagstatTsv(await flagstatText!);
  timings.duplicates = performance.now() - t;
  const mappedRate = flagstat.primary === 0 ? 0 : flagstat.primaryMapped / flagstat.primary;
  if (mappedRate < MIN_MAPPING_RATE) throw new ReadsMappingError(lowMappingMessage(mappedRate, input.reference.config.label));

  // 3. calling: ploidy from the patient's sex, mpileup | call -m | norm -m-, index.
  t = performance.now();
  input.onProgress('calling', 0);
  await writeFile(out.ploidy, ploidyFileText(input.reference.contigs, input.reference.config.assembly));
  await writeFile(out.samples, sampleSexText(input.sample, input.sex));
  // Depth over the indexed BAM while the variants are called.
  const coverageText = qcReport('samtools', ['coverage', out.bam]);
  // Per contig in parallel when the reference has several (at most `threads` pipes at once).
  const parts = stages.callingParts;
  const steps = parts.length + stages.calling.length + 1;
  let done = 0;
  if (parts.length > 0) {
    commands.push(`${commandLine(parts[0]!)} (one per contig: ${parts.length}, ${input.threads} at a time)`);
    // One failed part stops the others (their pipes are killed); its error is the stage's.
    const stop = new AbortController();
    const partSignal = AbortSignal.any([signal, stop.signal]);
    const failure: { error?: Error } = {};
    let next = 0;
    const lane = async () => {
      while (next < parts.length && !partSignal.aborted) {
        const pipe = parts[next++]!;
        try {
          await runPipe(pipe, { signal: partSignal });
        } catch (e) {
          if (!stop.signal.aborted) failure.error = e as Error;
          stop.abort();
          return;
        }
        input.onProgress('calling', ++done / steps);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(input.threads, parts.length)) }, lane));
    signal.throwIfAborted();
    if (failure.error) throw failure.error;
  }
  let statsText: Promise<string> | null = null;
  for (const [i, pipe] of stages.calling.entries()) {
    commands.push(commandLine(pipe));
    await runPipe(pipe, { signal });
    // After the calls are written: Ti/Tv while the VCF is indexed.
    if (i === 0) statsText = qcReport('bcftools', ['stats', out.vcf]);
    input.onProgress('calling', ++done / steps);
  }
  const [coverage, stats] = await Promise.all([coverageText, statsText!]);
  timings.calling = performance.now() - t;
  const tools = Object.fromEntries(await versions);
  const qc = readsQc(flagstat, parseCoverage(coverage), parseBcftoolsStats(stats));
  return { layout: src.layout, files: out, qc, tools, commands, timings };
}
