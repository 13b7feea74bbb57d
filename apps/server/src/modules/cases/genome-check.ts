/**
 * The checks made on a stored genome file before its case is queued, so that an input problem is
 * answered at once (400 naming the field, the file and the line) instead of failing in the worker:
 *
 *  - the header and the first records parse (the engine's own reader: bad POS, column counts,
 *    alleles… with file:line);
 *  - the file holds at least one record on a chromosome the analysis knows (a header-only file,
 *    or one with only unknown contigs, is refused rather than "Completed with 0 variants");
 *  - the genome assembly is known: said by the header, chosen by the user, or inferred from the
 *    records (ClinVar alleles and reference bases of both builds). When none of these can tell,
 *    the upload is refused naming the `assembly` field, so the form asks the user.
 */
import type { Readable } from 'node:stream';
import {
  AssemblyRequiredError,
  checkFastq,
  CONTIG_LENGTHS,
  FastqParseError,
  inferAssemblyFromRecords,
  normalizeContig,
  probeVcfRecords,
  readVcf,
  VcfParseError,
  type Assembly,
  type AssemblyProbeKb,
  loadChain,
  type GenomeKb,
  type LiftoverChain,
} from '@rarelens/engine';

export type RequestedAssembly = Assembly | 'auto';

export interface GenomeCheckInput {
  /** Opens the stored file from its start (called once per pass). */
  open: () => Promise<Readable>;
  /** The file name the user knows, used in every message. */
  name: string;
  format: string;
  assembly: RequestedAssembly;
  /** The mate FASTQ of paired reads. */
  mate?: { open: () => Promise<Readable>; name: string };
}

export type GenomeCheckResult =
  | {
      ok: true;
      /** The assembly to analyse with ('auto' = the header says it). */
      assembly: RequestedAssembly;
      /** How an assembly was inferred from the records, when it was. */
      inferred: string | null;
    }
  | { ok: false; field: 'genomeFile' | 'genomeMateFile' | 'assembly'; message: string };

export type GenomeCheck = (input: GenomeCheckInput) => Promise<GenomeCheckResult>;

/** Records read by the check: enough to meet a malformed line early and to infer the assembly. */
export const CHECKED_RECORDS = 5000;
/**
 * Reads checked at upload (FASTQ): every record's layout, and mates pairing up. The worker checks
 * the rest as it streams the reads into the aligner (same reader, same messages).
 */
export const CHECKED_READS = 200_000;

export interface GenomeCheckSources {
  /** What the assembly inference reads of the KB, or null without a built KB. */
  genome: () => Promise<AssemblyProbeKb | null>;
  /** The GRCh37 -> GRCh38 chain, or null when the KB has none. */
  chain: () => Promise<LiftoverChain | null>;
}

/** The sources from the server's knowledge base (loaded once, on the first header-silent file). */
export function genomeCheckSources(kb: { isBuilt(): boolean; genome(): Promise<GenomeKb> }): GenomeCheckSources {
  let chain: Promise<LiftoverChain | null> | null = null;
  return {
    genome: async () => (kb.isBuilt() ? kb.genome() : null),
    chain: () => {
      chain ??= (async () => {
        if (!kb.isBuilt()) return null;
        const path = (await kb.genome()).chainPath;
        return path ? loadChain(path) : null;
      })().catch((e: unknown) => {
        chain = null;
        throw e;
      });
      return chain;
    },
  };
}

const KNOWN_CONTIGS = new Set(Object.keys(CONTIG_LENGTHS.GRCh38));

export function createGenomeCheck(sources: GenomeCheckSources): GenomeCheck {
  return async (input) => {
    if (input.format === 'fastq') return checkReads(input);
    if (input.format !== 'vcf') return { ok: true, assembly: input.assembly, inferred: null };
    const refuse = (field: 'genomeFile' | 'assembly', message: string): GenomeCheckResult => ({ ok: false, field, message });
    let assembly = input.assembly;
    let inferred: string | null = null;
    try {
      try {
        await readRecords(input, assembly);
      } catch (e) {
        if (!(e instanceof AssemblyRequiredError)) throw e;
        const probe = await probeVcfRecords(await input.open(), { max: CHECKED_RECORDS, name: input.name });
        if (probe.dataLines === 0) return refuse('genomeFile', noRecords(input.name));
        const [genome, chain] = await Promise.all([sources.genome(), sources.chain()]);
        const inference = genome === null ? null : inferAssemblyFromRecords(probe.records, genome, chain);
        if (inference?.assembly == null) {
          return refuse(
            'assembly',
            `${input.name} does not say which genome assembly it uses (no contig lengths or ##reference in its header)` +
              (inference ? `, and its records do not settle it: ${inference.reason}` : '') +
              '. Choose GRCh37 or GRCh38.',
          );
        }
        assembly = inference.assembly;
        inferred = inference.reason;
      }
      const seen = await readRecords(input, assembly);
      if (seen.dataLines === 0) return refuse('genomeFile', noRecords(input.name));
      if (seen.complete && seen.alleles === 0) {
        return refuse(
          'genomeFile',
          `${input.name} has ${seen.dataLines} data line${seen.dataLines === 1 ? '' : 's'} but no variant allele to analyse (only reference calls, reference blocks, '*' or telomere records)`,
        );
      }
      if (seen.complete && seen.onKnownContigs === 0) {
        return refuse(
          'genomeFile',
          `${input.name} has no record on a human chromosome the analysis knows (1-22, X, Y, MT); its chromosomes: ${[...seen.contigs].slice(0, 5).join(', ')}`,
        );
      }
      return { ok: true, assembly, inferred };
    } catch (e) {
      if (e instanceof VcfParseError) return refuse('genomeFile', e.message);
      throw e;
    }
  };
}

/** FASTQ: the first CHECKED_READS reads (and their mates) parse. */
async function checkReads(input: GenomeCheckInput): Promise<GenomeCheckResult> {
  try {
    await checkFastq(
      { input: await input.open(), name: input.name },
      input.mate ? { input: await input.mate.open(), name: input.mate.name } : undefined,
      CHECKED_READS,
    );
    return { ok: true, assembly: input.assembly, inferred: null };
  } catch (e) {
    if (!(e instanceof FastqParseError)) throw e;
    const onMate = input.mate !== undefined && e.file === input.mate.name && e.file !== input.name;
    return { ok: false, field: onMate ? 'genomeMateFile' : 'genomeFile', message: e.message };
  }
}

function noRecords(name: string): string {
  return `${name} has a VCF header but no variant records: there is nothing to analyse`;
}

/** Reads the header and up to CHECKED_RECORDS records with the engine's reader. */
async function readRecords(input: GenomeCheckInput, assembly: RequestedAssembly) {
  const reader = await readVcf(await input.open(), {
    name: input.name,
    ...(assembly === 'auto' ? {} : { assembly }),
  });
  let alleles = 0;
  let onKnownContigs = 0;
  const contigs = new Set<string>();
  let complete = true;
  try {
    outer: for await (const batch of reader.batches()) {
      for (const v of batch) {
        alleles++;
        const contig = normalizeContig(v.chrom);
        if (KNOWN_CONTIGS.has(contig)) onKnownContigs++;
        else if (contigs.size < 20) contigs.add(v.chrom);
        if (alleles >= CHECKED_RECORDS) {
          complete = false;
          break outer;
        }
      }
    }
  } finally {
    reader.close();
  }
  return { dataLines: reader.summary.records, alleles, onKnownContigs, contigs, complete };
}
