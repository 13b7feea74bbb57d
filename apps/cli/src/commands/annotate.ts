/**
 * rarelens annotate --vcf FILE [--assembly GRCh37|GRCh38] [--sample NAME] [--kb DIR]
 *                   [--fasta FILE] [--format jsonl|vcf] --out FILE
 *
 * Reads a VCF (plain/gzip/bgzip), lifts GRCh37 input to GRCh38 with the KB's chain, annotates and
 * classifies every allele, and writes one JSON object per variant (snake_case) or a VCF with the
 * annotations in INFO (RL_*). The assembly comes from the header or --assembly; never assumed.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import {
  describeLiftFailures,
  AnnotationJsonlWriter,
  ANNOTATION_INFO_FIELDS,
  AssemblyRequiredError,
  createVcfWriter,
  KbSourceError,
  readKbManifest,
  readVcf,
  toAnnotationInfo,
  UnknownSampleError,
  VcfParseError,
  type Assembly,
  type VcfReader,
} from '@rarelens/engine';
import { parseCommandArgs, runCommand, stringOptions, UsageError } from '../args.ts';
import { encodeBlock, IntergenicSnvPath, openAnnotation } from './annotate-jsonl.ts';
import { AnnotateInputError, annotateInWorkers } from './annotate-pool.ts';
import { outputTarget } from '../output.ts';
import { trace, traceThreads } from './annotate-trace.ts';
import { defaultKbDir } from './kb.ts';

const USAGE = `Usage:
  rarelens annotate --vcf FILE --out FILE [--assembly GRCh37|GRCh38] [--sample NAME] [--kb DIR] [--fasta FILE] [--format jsonl|vcf]
    --vcf       input VCF (plain, .gz or bgzip)
    --out       output file (.jsonl; or .vcf / .vcf.gz with --format vcf)
    --assembly  genome assembly of the input when the header does not say
    --sample    sample column to report (default: the first)
    --kb        knowledge base directory (default $RARELENS_KB or ./data/kb)
    --fasta     GRCh38 reference FASTA with .fai (codon-level consequences, HGVS p.)
    --format    jsonl (default) or vcf
    --threads   worker threads for JSONL output (default: one per CPU for inputs of 16 MiB or more,
                else 1 = this thread only)`;

interface Args {
  vcf: string;
  out: string;
  assembly?: Assembly;
  sample?: string;
  kb: string;
  fasta?: string;
  format: 'jsonl' | 'vcf';
  threads?: number;
}

const OPTIONS = stringOptions('vcf', 'out', 'assembly', 'sample', 'kb', 'fasta', 'format', 'threads');

/**
 * V8's tier-up budget for this command's threads: 4x its default (67,584 bytecode units run before a
 * function is optimised). The annotation code has many paths that a genome takes for the first time
 * after the hot functions were optimised, and each such path deoptimised them and had them compiled
 * again (annotate() ~14 times, on V8's background threads, in each worker); with more type feedback
 * before the first optimisation there are fewer recompilations. Set before the workers start (their
 * isolates read it when they are made); the command is the process's only work.
 */
export const INTERRUPT_BUDGET = 4 * 67_584;

/**
 * V8 flags of this command's threads besides the budget. --no-lazy-feedback-allocation: a
 * function records type feedback from its first call (by default only after it has run for a
 * while). Paths a worker takes on its first records and then rarely (a new contig in the reader's
 * parseLine and the writer's add()) had no feedback when the function was optimised, so the next
 * new contig deoptimised it and had it compiled again, in every worker. 1 M-record genome head, 2
 * workers (--trace-opt/--trace-deopt, session 17): deopts 62 -> 45, parseLine compiled 4 -> 2 times.
 */
export const V8_FLAGS = ['--no-lazy-feedback-allocation'];

/** Inputs from this size on (bytes on disk) are annotated in worker threads by default. */
const PARALLEL_FROM_BYTES = 16 << 20;

function parseAnnotateArgs(argv: readonly string[]): Args {
  const { values: v } = parseCommandArgs(argv, { options: OPTIONS });
  if (!v.vcf) throw new UsageError('--vcf is required');
  if (!v.out) throw new UsageError('--out is required');
  if (v.assembly !== undefined && v.assembly !== 'GRCh37' && v.assembly !== 'GRCh38') throw new UsageError(`--assembly must be GRCh37 or GRCh38, got ${v.assembly}`);
  const format = v.format ?? (/\.vcf(\.gz)?$/.test(v.out) ? 'vcf' : 'jsonl');
  if (format !== 'jsonl' && format !== 'vcf') throw new UsageError(`--format must be jsonl or vcf, got ${format}`);
  let threads: number | undefined;
  if (v.threads !== undefined) {
    threads = Number(v.threads);
    if (!Number.isInteger(threads) || threads < 1 || threads > 64) throw new UsageError(`--threads must be a whole number from 1 to 64, got ${v.threads}`);
  }
  return { vcf: resolve(v.vcf), out: resolve(v.out), assembly: v.assembly, sample: v.sample, kb: resolve(v.kb ?? defaultKbDir()), fasta: v.fasta, format, threads };
}

export function run(argv: string[]): Promise<number> {
  return runCommand('annotate', USAGE, argv, () => annotate(parseAnnotateArgs(argv)));
}

async function annotate(args: Args): Promise<number> {
  const t0 = performance.now();
  trace(performance.timeOrigin, 'main', 'cli ready');
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
  const target = await outputTarget(args.out);
  const tmp = target.path;
  try {
    const manifest = await readKbManifest(args.kb);
    // RARELENS_ANNOTATE_FULL_PATH=1: no short path for intergenic substitutions (to compare outputs).
    const input = { vcf: args.vcf, assembly: args.assembly, sample: args.sample, kb: args.kb, fasta: args.fasta, fullPathOnly: process.env.RARELENS_ANNOTATE_FULL_PATH === '1' };
    const threads = args.threads ?? ((await stat(args.vcf).then((st) => st.size, () => 0)) >= PARALLEL_FROM_BYTES ? Math.min(availableParallelism(), 8) : 1);
    const counts = new Map<string, number>();
    let n = 0;
    let reader: VcfReader;
    let sequenceSource: string;
    if (args.format === 'jsonl' && threads > 1) {
      // This thread reads the header (errors about it come from here, as in-process) and the
      // text; the workers annotate. The summary is gathered from their blocks.
      reader = await readVcf(args.vcf, { sample: args.sample, assembly: args.assembly });
      const out = createWriteStream(tmp);
      const write = async (bytes: Uint8Array, written: () => void) => {
        const more = out.write(bytes, (err) => {
          if (!err) written();
        });
        if (!more) await once(out, 'drain');
      };
      const r = await annotateInWorkers(input, reader, threads, write, counts, reader.summary);
      out.end();
      await once(out, 'finish');
      n = r.alleles;
      sequenceSource = r.sequenceSource;
    } else {
      const opened = await openAnnotation(input);
      reader = opened.reader;
      const annotator = opened.annotator;
      trace(performance.timeOrigin, 'main', 'KB and header loaded');
      sequenceSource = annotator.sequenceSource;
      if (args.format === 'jsonl') {
        const out = createWriteStream(tmp);
        const encoder = new AnnotationJsonlWriter();
        const short = input.fullPathOnly ? null : IntergenicSnvPath.open(reader, opened.kb, encoder);
        const classes: Record<string, number> = {};
        // Whole blocks (one per decoded chunk): one await per ~1 MiB of input, not per variant.
        for await (const block of reader.textBlocks()) {
          n += encodeBlock(block.text, block.firstLine, reader, annotator, encoder, short, classes);
          if (encoder.length > 1 << 20) {
            // Once written, the buffer's memory goes back to the encoder for the next ones (as the
            // workers' do): no new buffer, and no fresh pages to fault in, per MiB of output.
            const bytes = encoder.take();
            const more = out.write(bytes, (err) => {
              if (!err) encoder.recycle(bytes.buffer as ArrayBuffer);
            });
            if (!more) await once(out, 'drain');
          }
        }
        trace(performance.timeOrigin, 'main', 'last block encoded');
        traceThreads();
        for (const [k, c] of Object.entries(classes)) counts.set(k, c);
        out.end(encoder.take());
        await once(out, 'finish');
      } else {
        const writer = createVcfWriter(tmp, {
          assembly: 'GRCh38',
          sample: reader.sample,
          info: ANNOTATION_INFO_FIELDS,
          source: 'RareLens annotate',
          meta: [`##rarelens_kb=built ${manifest.builtAt} by ${manifest.softwareVersion}`, `##rarelens_input=${args.vcf} (${reader.assembly})`],
          compress: args.out.endsWith('.gz') ? 'bgzf' : 'none',
        });
        for await (const batch of reader.batches()) {
          for (const v of batch) {
            const a = annotator.annotate(v);
            counts.set(a.acmg.classification, (counts.get(a.acmg.classification) ?? 0) + 1);
            await writer.write({ chrom: a.chrom, pos: a.pos, id: v.id, ref: a.ref, alt: a.alt, qual: a.qual, filter: a.filter, info: toAnnotationInfo(a), genotype: reader.sample ? a.genotype : null });
          }
          n += batch.length;
        }
        await writer.close();
      }
      annotator.close();
    }
    await target.commit();
    trace(performance.timeOrigin, 'main', 'output closed');
    const s = reader.summary;
    const secs = (performance.now() - t0) / 1000;
    console.error(
      [
        `annotated ${n.toLocaleString('en')} alleles from ${s.records.toLocaleString('en')} records in ${secs.toFixed(2)} s (${reader.assembly}${reader.assembly === 'GRCh37' ? ' lifted to GRCh38' : ''}, sample ${reader.sample ?? '-'}, sequence: ${sequenceSource})`,
        `classes: ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}`,
        describeLiftFailures(s.liftFailed),
        s.skippedRefBlocks + s.skippedNoAlt + s.skippedStar + s.skippedNonRef + s.skippedTelomere
          ? `skipped: ${s.skippedRefBlocks} reference blocks, ${s.skippedNoAlt} no-ALT records, ${s.skippedTelomere} POS 0 (telomere) records, ${s.skippedStar} '*' and ${s.skippedNonRef} <NON_REF> alleles`
          : '',
        `wrote ${args.out}`,
      ]
        .filter(Boolean)
        .join('\n'),
    );
    return 0;
  } catch (e) {
    await target.discard();
    if (e instanceof AssemblyRequiredError) {
      console.error(`rarelens annotate: ${e.message}.\nRun again with --assembly GRCh37 or --assembly GRCh38.`);
      return 2;
    }
    if (e instanceof VcfParseError || e instanceof UnknownSampleError || e instanceof KbSourceError || e instanceof AnnotateInputError) {
      console.error(`rarelens annotate: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
