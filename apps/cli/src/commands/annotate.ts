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
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  ANNOTATION_INFO_FIELDS,
  AssemblyRequiredError,
  createAnnotator,
  createVcfWriter,
  declaredAfKeys,
  KbSourceError,
  loadChain,
  loadGenomeKb,
  readKbManifest,
  readVcf,
  toAnnotationInfo,
  toAnnotationJson,
  UnknownSampleError,
  VcfParseError,
  type Assembly,
  type VcfHeader,
} from '@rarelens/engine';
import { parseCommandArgs, runCommand, stringOptions, UsageError } from '../args.ts';
import { defaultKbDir } from './kb.ts';

const USAGE = `Usage:
  rarelens annotate --vcf FILE --out FILE [--assembly GRCh37|GRCh38] [--sample NAME] [--kb DIR] [--fasta FILE] [--format jsonl|vcf]
    --vcf       input VCF (plain, .gz or bgzip)
    --out       output file (.jsonl; or .vcf / .vcf.gz with --format vcf)
    --assembly  genome assembly of the input when the header does not say
    --sample    sample column to report (default: the first)
    --kb        knowledge base directory (default $RARELENS_KB or ./data/kb)
    --fasta     GRCh38 reference FASTA with .fai (codon-level consequences, HGVS p.)
    --format    jsonl (default) or vcf`;

interface Args {
  vcf: string;
  out: string;
  assembly?: Assembly;
  sample?: string;
  kb: string;
  fasta?: string;
  format: 'jsonl' | 'vcf';
}

const OPTIONS = stringOptions('vcf', 'out', 'assembly', 'sample', 'kb', 'fasta', 'format');

function parseAnnotateArgs(argv: readonly string[]): Args {
  const { values: v } = parseCommandArgs(argv, { options: OPTIONS });
  if (!v.vcf) throw new UsageError('--vcf is required');
  if (!v.out) throw new UsageError('--out is required');
  if (v.assembly !== undefined && v.assembly !== 'GRCh37' && v.assembly !== 'GRCh38') throw new UsageError(`--assembly must be GRCh37 or GRCh38, got ${v.assembly}`);
  const format = v.format ?? (/\.vcf(\.gz)?$/.test(v.out) ? 'vcf' : 'jsonl');
  if (format !== 'jsonl' && format !== 'vcf') throw new UsageError(`--format must be jsonl or vcf, got ${format}`);
  return { vcf: resolve(v.vcf), out: resolve(v.out), assembly: v.assembly, sample: v.sample, kb: resolve(v.kb ?? defaultKbDir()), fasta: v.fasta, format };
}

/** The header declares population frequencies (INFO keys or CSQ/ANN frequency fields). */
function hasPopulationData(h: VcfHeader): boolean {
  return declaredAfKeys(h).length > 0 || h.annotations.some((l) => l.fields.some((f) => /^(gnomAD|gnomADe|gnomADg|MAX_AF|ExAC)(_|$)/.test(f) || f === 'AF'));
}

export function run(argv: string[]): Promise<number> {
  return runCommand('annotate', USAGE, argv, () => annotate(parseAnnotateArgs(argv)));
}

async function annotate(args: Args): Promise<number> {
  const t0 = performance.now();
  const tmp = `${args.out}.tmp-${process.pid}`;
  try {
    const manifest = await readKbManifest(args.kb);
    const kb = await loadGenomeKb(args.kb);
    const chain = kb.chainPath ? await loadChain(kb.chainPath) : undefined;
    const reader = await readVcf(args.vcf, { sample: args.sample, assembly: args.assembly, liftover: chain });
    if (reader.assembly === 'GRCh37' && !chain) throw new KbSourceError(args.kb, 'the input is GRCh37 but the KB has no hg19ToHg38 chain; rebuild it with the liftover/ chain in the sources');
    const annotator = createAnnotator(kb, { fasta: args.fasta, populationDataInInput: hasPopulationData(reader.header), infoKeys: new Set(reader.header.info.keys()) });
    const counts = new Map<string, number>();
    let n = 0;
    if (args.format === 'jsonl') {
      const out = createWriteStream(tmp);
      let buf = '';
      // Whole batches (one per decoded chunk): one await per ~1 MiB of input, not per variant.
      for await (const batch of reader.batches()) {
        for (const v of batch) {
          const a = annotator.annotate(v);
          counts.set(a.acmg.classification, (counts.get(a.acmg.classification) ?? 0) + 1);
          buf += `${JSON.stringify(toAnnotationJson(a))}\n`;
        }
        n += batch.length;
        if (buf.length > 1 << 20) {
          if (!out.write(buf)) await once(out, 'drain');
          buf = '';
        }
      }
      out.end(buf);
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
    await rename(tmp, args.out);
    const s = reader.summary;
    const secs = (performance.now() - t0) / 1000;
    console.error(
      [
        `annotated ${n.toLocaleString('en')} alleles from ${s.records.toLocaleString('en')} records in ${secs.toFixed(2)} s (${reader.assembly}${reader.assembly === 'GRCh37' ? ' lifted to GRCh38' : ''}, sample ${reader.sample ?? '-'}, sequence: ${annotator.sequenceSource})`,
        `classes: ${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}`,
        s.liftFailed.length ? `failed to lift: ${s.liftFailed.length} (first: line ${s.liftFailed[0]!.line} ${s.liftFailed[0]!.reason})` : '',
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
    await rm(tmp, { force: true });
    if (e instanceof AssemblyRequiredError) {
      console.error(`rarelens annotate: ${e.message}.\nRun again with --assembly GRCh37 or --assembly GRCh38.`);
      return 2;
    }
    if (e instanceof VcfParseError || e instanceof UnknownSampleError || e instanceof KbSourceError) {
      console.error(`rarelens annotate: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
