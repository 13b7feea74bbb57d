/**
 * Raw data analysis (FASTQ -> aligned reads -> called variants), the decisions: which commands
 * of the field's tools run, in which order and with which settings (bwa mem with read groups,
 * samtools fixmate/sort/markdup/index, bcftools mpileup | call -m | norm -m-), the ploidy of
 * each contig from the patient's sex, and the quality figures read from the tools' reports.
 * The server runs these commands as child processes (apps/server/src/jobs/reads); nothing here
 * starts a process.
 */
import { normalizeContig } from '../genome/contigs.ts';
import type { Assembly } from '../types.ts';

/** Below this share of mapped reads the reads do not come from the reference's assembly. */
export const MIN_MAPPING_RATE = 0.5;

/**
 * The pseudo-autosomal regions of chrX (1-based, inclusive), diploid in males.
 * GRCh37: X:60001-2699520 and X:154931044-155260560; GRCh38: X:10001-2781479 and
 * X:155701383-156030895 (Genome Reference Consortium).
 */
export const PAR_REGIONS: Record<Assembly, [number, number][]> = {
  GRCh37: [
    [60001, 2699520],
    [154931044, 155260560],
  ],
  GRCh38: [
    [10001, 2781479],
    [155701383, 156030895],
  ],
};

export type PatientSex = 'male' | 'female';

export interface ReferenceContig {
  name: string;
  length: number;
}

/**
 * The `bcftools call --ploidy-file` text for a reference: diploid by default; chrM haploid for
 * everyone; for males chrX haploid outside the PARs and chrY haploid; chrY absent (0) in females.
 * Columns: CHROM FROM TO SEX PLOIDY (sex codes M and F, as in the samples file).
 */
export function ploidyFileText(contigs: readonly ReferenceContig[], assembly: Assembly): string {
  const lines: string[] = [];
  for (const c of contigs) {
    const name = normalizeContig(c.name);
    if (name === 'MT') {
      lines.push(`${c.name}\t1\t${c.length}\tM\t1`, `${c.name}\t1\t${c.length}\tF\t1`);
    } else if (name === 'Y') {
      lines.push(`${c.name}\t1\t${c.length}\tM\t1`, `${c.name}\t1\t${c.length}\tF\t0`);
    } else if (name === 'X') {
      let from = 1;
      for (const [s, e] of PAR_REGIONS[assembly]) {
        if (s > c.length) break;
        if (s > from) lines.push(`${c.name}\t${from}\t${s - 1}\tM\t1`);
        from = e + 1;
      }
      if (from <= c.length) lines.push(`${c.name}\t${from}\t${c.length}\tM\t1`);
    }
  }
  lines.push('*\t*\t*\tM\t2', '*\t*\t*\tF\t2');
  return `${lines.join('\n')}\n`;
}

/** The `bcftools call -S` samples file: the sample and its sex code. */
export function sampleSexText(sample: string, sex: PatientSex): string {
  return `${sample}\t${sex === 'male' ? 'M' : 'F'}\n`;
}

/** A sample / read-group name from the case label: [A-Za-z0-9._-] only, never empty. */
export function sampleNameOf(label: string): string {
  const s = label.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 64);
  return s === '' ? 'sample' : s;
}

export interface ReadsPipelinePaths {
  /** Indexed FASTA (bwa index + samtools faidx next to it). */
  reference: string;
  /** Work directory of this run (temporary files). */
  work: string;
}

export interface ReadsPipelineOptions extends ReadsPipelinePaths {
  threads: number;
  sample: string;
  /** Read-group id (unique per run). */
  readGroup: string;
  /** The reads are one interleaved file (bwa mem -p); two mate files are simply given as two files. */
  paired: boolean;
  /**
   * The reference's contigs, in order: with several, variants are called per contig in parallel
   * (at most `threads` at once) and the parts concatenated in reference order.
   */
  contigs?: readonly ReferenceContig[];
}

/** A command: the program and its arguments (no shell). */
export interface Command {
  program: 'bwa' | 'samtools' | 'bcftools';
  args: string[];
}

export type ReadsStage = 'alignment' | 'duplicates' | 'calling';

/** The files a run produces in its work directory. */
export function readsOutputs(work: string) {
  return {
    sorted: `${work}/sorted.bam`,
    bam: `${work}/alignments.bam`,
    bai: `${work}/alignments.bam.bai`,
    markdupStats: `${work}/markdup.txt`,
    ploidy: `${work}/ploidy.txt`,
    samples: `${work}/samples.txt`,
    vcf: `${work}/calls.vcf.gz`,
    tbi: `${work}/calls.vcf.gz.tbi`,
    /** The calls of the i-th contig when calling is split by contig. */
    part: (i: number) => `${work}/calls.part${String(i).padStart(5, '0')}.bcf`,
  };
}

/** A contig as a bcftools region (names with a colon in braces, as htslib reads them). */
function regionOf(name: string): string {
  return name.includes(':') ? `{${name}}` : name;
}

/**
 * The commands of each stage; the commands of one stage run as one pipe (stdout -> stdin).
 * alignment: bwa mem (the reads file(s) replace the trailing '-') | samtools fixmate -m | samtools sort;
 * duplicates: samtools markdup, then samtools index;
 * calling: bcftools mpileup | bcftools call -m (ploidy by sex) | bcftools norm -m- -f ref,
 * then bcftools index -t. With several contigs the calling pipe runs once per contig
 * (`callingParts`, independent, run in parallel) and `calling` concatenates the parts in
 * reference order, then indexes.
 */
export function readsCommands(o: ReadsPipelineOptions): Record<ReadsStage, Command[][]> & { callingParts: Command[][] } {
  const out = readsOutputs(o.work);
  const t = String(o.threads);
  const rg = `@RG\\tID:${o.readGroup}\\tSM:${o.sample}\\tLB:${o.sample}\\tPL:ILLUMINA`;
  // Sorting memory per thread: bounded so a 30x genome sorts in temporary files, not in RAM.
  const sortMem = '768M';
  const mpileup = (region: string[], threads: string[]): Command => ({
    program: 'bcftools',
    args: ['mpileup', ...threads, ...region, '-f', o.reference, '-a', 'FORMAT/AD,FORMAT/DP', '-Ou', out.bam],
  });
  const call: Command = { program: 'bcftools', args: ['call', '-m', '-v', '--ploidy-file', out.ploidy, '-S', out.samples, '-Ou'] };
  const index: Command[] = [{ program: 'bcftools', args: ['index', '-t', out.vcf] }];
  const contigs = o.contigs ?? [];
  const split = contigs.length > 1;
  return {
    alignment: [
      [
        { program: 'bwa', args: ['mem', '-t', t, '-R', rg, ...(o.paired ? ['-p'] : []), o.reference, '-'] },
        { program: 'samtools', args: ['fixmate', '-m', '-u', '-', '-'] },
        { program: 'samtools', args: ['sort', '-@', t, '-m', sortMem, '-l', '1', '-T', `${o.work}/sort`, '-o', out.sorted, '-'] },
      ],
    ],
    duplicates: [
      [{ program: 'samtools', args: ['markdup', '-@', t, '-f', out.markdupStats, out.sorted, out.bam] }],
      [{ program: 'samtools', args: ['index', '-@', t, out.bam] }],
    ],
    callingParts: split
      ? contigs.map((c, i) => [
          mpileup(['-r', regionOf(c.name)], []),
          call,
          { program: 'bcftools', args: ['norm', '-m-', '-f', o.reference, '-Ob', '-o', out.part(i)] },
        ])
      : [],
    calling: split
      ? [[{ program: 'bcftools', args: ['concat', '--threads', t, '-Oz', '-o', out.vcf, ...contigs.map((_, i) => out.part(i))] }], index]
      : [[mpileup([], ['--threads', t]), call, { program: 'bcftools', args: ['norm', '--threads', t, '-m-', '-f', o.reference, '-Oz', '-o', out.vcf] }], index],
  };
}

/** How a command is written in the method section (and logs). */
export function commandLine(pipe: Command[]): string {
  return pipe.map((c) => [c.program, ...c.args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a}'`))].join(' ')).join(' | ');
}

/** The quality figures shown on the case. */
export interface ReadsQc {
  /** Reads in the input (primary records). */
  reads: number;
  mappedReads: number;
  /** Share of primary reads mapped, 0..1. */
  mappedRate: number;
  duplicateReads: number;
  /** Share of primary reads marked duplicate, 0..1. */
  duplicateRate: number;
  /** Mean depth over the bases covered by at least one read. */
  meanDepth: number;
  coveredBases: number;
  snvs: number;
  transitions: number;
  transversions: number;
  /** Ti/Tv of the called SNVs (null without transversions). */
  tiTv: number | null;
}

/** `samtools flagstat -O tsv`: "passed\tfailed\tlabel" lines. */
export function parseFlagstatTsv(text: string): { primary: number; primaryMapped: number; primaryDuplicates: number } {
  const value = (label: string): number => {
    for (const line of text.split('\n')) {
      const [pass, fail, name] = line.split('\t');
      if (name === label) return Number(pass) + Number(fail);
    }
    throw new Error(`samtools flagstat output has no "${label}" line`);
  };
  return { primary: value('primary'), primaryMapped: value('primary mapped'), primaryDuplicates: value('primary duplicates') };
}

/** `samtools coverage` table: covered bases and mean depth over them (all contigs). */
export function parseCoverage(text: string): { coveredBases: number; meanDepth: number } {
  let covered = 0;
  let depthSum = 0;
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const f = line.split('\t');
    const start = Number(f[1]);
    const end = Number(f[2]);
    const cov = Number(f[4]);
    const mean = Number(f[6]);
    if (![start, end, cov, mean].every(Number.isFinite)) throw new Error(`samtools coverage: unreadable line ${JSON.stringify(line)}`);
    covered += cov;
    depthSum += mean * (end - start + 1);
  }
  return { coveredBases: covered, meanDepth: covered === 0 ? 0 : depthSum / covered };
}

/** `bcftools stats`: SNV count and transitions/transversions (TSTV line of the first set). */
export function parseBcftoolsStats(text: string): { snvs: number; transitions: number; transversions: number } {
  let snvs = 0;
  let ts = 0;
  let tv = 0;
  for (const line of text.split('\n')) {
    const f = line.split('\t');
    if (f[0] === 'SN' && f[1] === '0' && f[2] === 'number of SNPs:') snvs = Number(f[3]);
    if (f[0] === 'TSTV' && f[1] === '0') {
      ts = Number(f[2]);
      tv = Number(f[3]);
    }
  }
  return { snvs, transitions: ts, transversions: tv };
}

export function readsQc(
  flagstat: ReturnType<typeof parseFlagstatTsv>,
  coverage: ReturnType<typeof parseCoverage>,
  stats: ReturnType<typeof parseBcftoolsStats>,
): ReadsQc {
  const rate = (n: number) => (flagstat.primary === 0 ? 0 : n / flagstat.primary);
  return {
    reads: flagstat.primary,
    mappedReads: flagstat.primaryMapped,
    mappedRate: rate(flagstat.primaryMapped),
    duplicateReads: flagstat.primaryDuplicates,
    duplicateRate: rate(flagstat.primaryDuplicates),
    meanDepth: coverage.meanDepth,
    coveredBases: coverage.coveredBases,
    snvs: stats.snvs,
    transitions: stats.transitions,
    transversions: stats.transversions,
    tiTv: stats.transversions === 0 ? null : stats.transitions / stats.transversions,
  };
}

/** The message of a run whose reads mostly do not map. */
export function lowMappingMessage(mappedRate: number, referenceLabel: string): string {
  return (
    `Only ${(mappedRate * 100).toFixed(1)} % of the reads map to the reference (${referenceLabel}); at least ` +
    `${MIN_MAPPING_RATE * 100} % is expected: the reads do not match the reference assembly. Check that the ` +
    'FASTQ comes from a human genome of this assembly (RARELENS_REFERENCE / RARELENS_REFERENCE_ASSEMBLY).'
  );
}

/**
 * The line of a tool's stderr that says what went wrong: the last line mentioning an error,
 * else the last non-empty line.
 */
export function toolErrorLine(stderr: string): string | null {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (/error|fail|fatal|abort|cannot|can't|could not|invalid|not found|no such/i.test(lines[i]!)) return lines[i]!;
  }
  return lines.at(-1) ?? null;
}
