/**
 * bench:fastq — raw data analysis (FASTQ -> BAM -> VCF), accuracy and overhead.
 *
 *  1. Accuracy: reads simulated (bench/lib/read-sim.ts: cycle-dependent substitution errors,
 *     rare indel errors, Phred qualities) from the shipped demo reference with planted SNVs and
 *     1-6 bp indels, paired-end at --depth (30x), run through the product's own stage code
 *     (prepareReference + runReadsPipeline, the worker's defaults); recall and precision of the
 *     called variants against the truth (normalised with bcftools norm), SNVs and indels apart.
 *  2. Overhead: the same reads at --timing-depth through the product pipeline and through the
 *     same bwa + samtools + bcftools commands run bare from bash (files on the command line, no
 *     Node in between), alternated, in one run; same threads.
 *  3. The real NA12878 chrM reads (shipped): the product's calls over chrM.
 *  4. Extrapolation to a 30x genome on this machine and on a 16-core worker.
 *
 * Writes bench/results/fastq.md. Usage:
 *   nice npm run bench:fastq -- [--depth 30] [--samples 3] [--timing-depth 300] [--rounds 3] [--threads 2]
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { commandLine, ploidyFileText, readsCommands, readsOutputs, sampleSexText } from '@rarelens/engine';
import { runReadsPipeline, type ReadsPipelineResult } from '../apps/server/src/jobs/reads/reads-pipeline.ts';
import { prepareReference, referenceConfig, type PreparedReference } from '../apps/server/src/jobs/reads/reference.ts';
import { DefaultSim, parseFasta, plantVariants, simulatePairs, truthVcf, type Contig, type SimOptions } from './lib/read-sim.ts';
import { formatMachine, machineInfo } from './lib/machine.ts';

const root = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    depth: { type: 'string', default: '30' },
    samples: { type: 'string', default: '3' },
    'timing-depth': { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    threads: { type: 'string', default: '2' },
    out: { type: 'string', default: join(root, 'bench/results/fastq.md') },
  },
});
const depth = Number(args.depth);
const samples = Number(args.samples);
const timingDepth = Number(args['timing-depth']);
const rounds = Number(args.rounds);
const threads = Number(args.threads);
const sources = resolve(process.env.RARELENS_SOURCES ?? join(root, '../shared/data'));
const signal = new AbortController().signal;
const haploid = (c: string) => c === 'chrM' || c === 'MT';

const work = mkdtempSync(join(tmpdir(), 'rarelens-bench-fastq-'));
const log = (s: string) => process.stderr.write(`${s}\n`);
const loads: number[] = [];
const sampleLoad = () => loads.push(machineInfo().load1m);

async function writeFastqs(contigs: Contig[], variants: ReturnType<typeof plantVariants>, o: SimOptions, prefix: string) {
  const files = [`${prefix}_R1.fastq.gz`, `${prefix}_R2.fastq.gz`];
  const sinks = files.map((f) => createWriteStream(f));
  const gz = sinks.map((sink) => {
    const z = createGzip({ level: 1 });
    z.pipe(sink);
    return z;
  });
  let pairs = 0;
  const buf: [string[], string[]] = [[], []];
  const flush = async () => {
    for (const i of [0, 1] as const) {
      if (!gz[i]!.write(buf[i].join(''))) await once(gz[i]!, 'drain');
      buf[i] = [];
    }
  };
  for (const p of simulatePairs(contigs, variants, o)) {
    buf[0].push(`@${p.name}/1\n${p.r1.seq}\n+\n${p.r1.qual}\n`);
    buf[1].push(`@${p.name}/2\n${p.r2.seq}\n+\n${p.r2.qual}\n`);
    if (++pairs % 5000 === 0) await flush();
  }
  await flush();
  for (const z of gz) z.end();
  await Promise.all(sinks.map((sink) => once(sink, 'close')));
  return { r1: files[0]!, r2: files[1]!, pairs };
}

async function product(reference: PreparedReference, reads: { r1: string; r2: string | null }, dir: string, sample: string): Promise<{ ms: number; result: ReadsPipelineResult }> {
  await mkdir(dir, { recursive: true });
  const t = performance.now();
  const result = await runReadsPipeline({
    reads: { path: reads.r1, name: reads.r1.split('/').pop()! },
    mate: reads.r2 ? { path: reads.r2, name: reads.r2.split('/').pop()! } : null,
    reference,
    sex: 'female',
    sample,
    readGroup: `${sample}.bench`,
    threads,
    work: dir,
    signal,
    onProgress: () => undefined,
    totalBytes: statSync(reads.r1).size + (reads.r2 ? statSync(reads.r2).size : 0),
  });
  return { ms: performance.now() - t, result };
}

/** The same commands, run bare from bash: the reads given to bwa mem as files. */
function bare(reference: PreparedReference, reads: { r1: string; r2: string }, dir: string, sample: string): { ms: number; stages: Record<string, number> } {
  execFileSync('mkdir', ['-p', dir]);
  const out = readsOutputs(dir);
  writeFileSync(out.ploidy, ploidyFileText(reference.contigs, reference.config.assembly));
  writeFileSync(out.samples, sampleSexText(sample, 'female'));
  const stages = readsCommands({ reference: reference.fasta, work: dir, threads, sample, readGroup: `${sample}.bare`, paired: false, contigs: reference.contigs });
  const [align] = stages.alignment;
  const bwa = align![0]!;
  bwa.args = [...bwa.args.slice(0, -1), reads.r1, reads.r2];
  const script = (pipes: typeof stages.alignment) => pipes.map((p) => commandLine(p)).join('\n');
  const times: Record<string, number> = {};
  const t0 = performance.now();
  for (const stage of ['alignment', 'duplicates', 'calling'] as const) {
    const t = performance.now();
    if (stage === 'calling' && stages.callingParts.length > 0) {
      // The per-contig parts as the product runs them: `threads` at a time (xargs -P).
      const scripts = stages.callingParts.map((p, i) => {
        const f = join(dir, `part${i}.sh`);
        writeFileSync(f, `set -euo pipefail\n${commandLine(p)}\n`);
        return f;
      });
      execFileSync('bash', ['-c', `set -euo pipefail\nprintf '%s\\n' ${scripts.join(' ')} | xargs -P ${threads} -n 1 bash`], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
    }
    execFileSync('bash', ['-c', `set -euo pipefail\n${script(stages[stage])}`], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
    times[stage] = performance.now() - t;
  }
  return { ms: performance.now() - t0, stages: times };
}

interface Call {
  key: string;
  gt: string;
  qual: number;
  snv: boolean;
}

function readVcf(file: string): Call[] {
  const text = execFileSync('bcftools', ['view', '-H', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const f = l.split('\t');
      const gt = (f[9] ?? '').split(':')[0]!.replace('|', '/');
      return { key: `${f[0]}:${f[1]}:${f[3]}>${f[4]}`, gt, qual: Number(f[5]), snv: f[3]!.length === 1 && f[4]!.length === 1 };
    });
}

interface Tally {
  truth: number;
  calls: number;
  tp: number;
  gtMatch: number;
}
const emptyTally = (): Tally => ({ truth: 0, calls: 0, tp: 0, gtMatch: 0 });

function compare(truth: Call[], calls: Call[], into: { snv: Tally; indel: Tally }, minQual: number) {
  const kept = calls.filter((c) => c.qual >= minQual);
  const truthMap = new Map(truth.map((t) => [t.key, t]));
  for (const t of truth) into[t.snv ? 'snv' : 'indel'].truth++;
  for (const c of kept) {
    const tally = into[c.snv ? 'snv' : 'indel'];
    tally.calls++;
    const t = truthMap.get(c.key);
    if (t) {
      tally.tp++;
      const norm = (g: string) => (g === '1' ? '1/1' : g);
      if (norm(t.gt) === norm(c.gt) || (t.gt === '1' && c.gt === '1')) tally.gtMatch++;
    }
  }
}

const pct = (n: number, d: number) => (d === 0 ? '–' : (n / d).toFixed(4));
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
  const machine = formatMachine();
  log(`bench:fastq at ${commit}${dirty ? ' (+ uncommitted changes)' : ''} on ${machine}`);
  sampleLoad();

  // The product's reference: the embedded default (demo reference), index built once.
  const refT = performance.now();
  const reference = await prepareReference(referenceConfig({ sourcesDir: sources }), join(work, 'reference'), { signal });
  const refMs = performance.now() - refT;
  const contigs = parseFasta(readFileSync(reference.fasta, 'utf8'));
  const refBases = contigs.reduce((s, c) => s + c.seq.length, 0);

  // 1. Accuracy at 30x.
  const all = { snv: emptyTally(), indel: emptyTally() };
  const q20 = { snv: emptyTally(), indel: emptyTally() };
  const perSample: string[] = [];
  let identical = true;
  let productAccMs = 0;
  let bareAccMs = 0;
  let toolVersions: Record<string, string> = {};
  let commands: string[] = [];
  for (let s = 1; s <= samples; s++) {
    const o: SimOptions = { ...DefaultSim, seed: s, depth, haploid };
    const variants = plantVariants(contigs, o);
    const dir = join(work, `acc${s}`);
    await mkdir(dir, { recursive: true });
    writeFileSync(join(dir, 'truth.vcf'), truthVcf(contigs, variants, `SIM${s}`));
    execFileSync('bash', ['-c', `set -euo pipefail; bcftools norm -f ${reference.fasta} -m- ${dir}/truth.vcf -Oz -o ${dir}/truth.norm.vcf.gz 2>/dev/null`]);
    const reads = await writeFastqs(contigs, variants, o, join(dir, 'sim'));
    const p = await product(reference, reads, join(dir, 'product'), `SIM${s}`);
    const b = bare(reference, reads, join(dir, 'bare'), `SIM${s}`);
    sampleLoad();
    productAccMs += p.ms;
    bareAccMs += b.ms;
    toolVersions = p.result.tools;
    commands = p.result.commands;
    const truth = readVcf(`${dir}/truth.norm.vcf.gz`);
    const calls = readVcf(p.result.files.vcf);
    const bareCalls = readVcf(readsOutputs(join(dir, 'bare')).vcf);
    const same = calls.map((c) => `${c.key} ${c.gt}`).join('\n') === bareCalls.map((c) => `${c.key} ${c.gt}`).join('\n');
    identical &&= same;
    const one = { snv: emptyTally(), indel: emptyTally() };
    compare(truth, calls, one, 0);
    compare(truth, calls, all, 0);
    compare(truth, calls, q20, 20);
    const qc = p.result.qc;
    perSample.push(
      `| ${s} | ${reads.pairs.toLocaleString('en-US')} | ${one.snv.truth} / ${one.indel.truth} | ${pct(one.snv.tp, one.snv.truth)} | ${pct(one.snv.tp, one.snv.calls)} | ${pct(one.indel.tp, one.indel.truth)} | ${pct(one.indel.tp, one.indel.calls)} | ${(qc.mappedRate * 100).toFixed(2)} % | ${qc.meanDepth.toFixed(1)} | ${qc.tiTv?.toFixed(2) ?? '–'} | ${same ? 'yes' : 'NO'} |`,
    );
    log(`sample ${s}: SNV recall ${pct(one.snv.tp, one.snv.truth)} precision ${pct(one.snv.tp, one.snv.calls)}; indel recall ${pct(one.indel.tp, one.indel.truth)} precision ${pct(one.indel.tp, one.indel.calls)}`);
  }

  // 2. Overhead at the timing depth: product and bare alternated.
  const o: SimOptions = { ...DefaultSim, seed: 1000, depth: timingDepth, haploid };
  const tv = plantVariants(contigs, o);
  const tdir = join(work, 'timing');
  await mkdir(tdir, { recursive: true });
  const treads = await writeFastqs(contigs, tv, o, join(tdir, 'sim'));
  const fastqBytes = statSync(treads.r1).size + statSync(treads.r2).size;
  const productRuns: { ms: number; stages: Record<string, number> }[] = [];
  const bareRuns: { ms: number; stages: Record<string, number> }[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ['product', 'bare'] : ['bare', 'product'];
    for (const which of order) {
      const dir = join(tdir, `${which}${r}`);
      if (which === 'product') {
        const p = await product(reference, treads, dir, 'TIMING');
        productRuns.push({ ms: p.ms, stages: p.result.timings });
      } else bareRuns.push(bare(reference, treads, dir, 'TIMING'));
      rmSync(dir, { recursive: true, force: true });
      sampleLoad();
    }
    log(`timing round ${r + 1}: product ${secs(productRuns.at(-1)!.ms)}, bare ${secs(bareRuns.at(-1)!.ms)}`);
  }
  const median = (xs: number[]) => {
    const v = [...xs].sort((a, b) => a - b);
    const m = Math.floor(v.length / 2);
    return v.length % 2 === 1 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
  };
  const pMs = median(productRuns.map((r) => r.ms));
  const bMs = median(bareRuns.map((r) => r.ms));
  const stageMedian = (runs: typeof productRuns, k: string) => median(runs.map((r) => r.stages[k] ?? 0));

  // 3. The real NA12878 chrM reads.
  const na = join(sources, 'reads/NA12878.chrM_hg19.reads.fastq.gz');
  const np = await product(reference, { r1: na, r2: null }, join(work, 'na12878'), 'NA12878');
  const naCalls = readVcf(np.result.files.vcf);
  const known = ['chrM:150:T>C', 'chrM:152:T>C', 'chrM:195:C>T'];
  sampleLoad();

  // 4. Extrapolation: read bases aligned per second, and depth x reference bases called per second.
  const readBases = treads.pairs * 2 * DefaultSim.readLength;
  const alignRate = readBases / (stageMedian(productRuns, 'alignment') / 1000);
  const dupRate = readBases / (stageMedian(productRuns, 'duplicates') / 1000);
  const callRate = (refBases * timingDepth) / (stageMedian(productRuns, 'calling') / 1000);
  const genomeBases = 3.1e9 * 30;
  const hours = (rate: number) => genomeBases / rate / 3600;
  const here = { align: hours(alignRate), dup: hours(dupRate), call: hours(callRate) };
  // 16 cores: bwa mem and samtools sort/markdup scale with threads (x16/threads, an upper bound:
  // this machine's 2 cores are shared); calling runs one pipe per contig, `threads` at a time, so it
  // scales the same way until the largest contig alone is the wall time (chr1, ~8.0 % of GRCh38's
  // 3.1 Gb: the measured single-lane rate over 249 Mb).
  const scale = 16 / threads;
  const chr1Share = 248.956e6 / 3.1e9;
  const sixteen = { align: here.align / scale, dup: here.dup / scale, call: Math.max(here.call / scale, here.call * threads * chr1Share) };

  const loadText = `load(1m) min ${Math.min(...loads).toFixed(2)}, max ${Math.max(...loads).toFixed(2)} over the run`;
  const tq = (t: Tally) => `${pct(t.tp, t.truth)} | ${pct(t.tp, t.calls)} | ${t.tp} / ${t.truth} truth, ${t.calls} calls | ${pct(t.gtMatch, t.tp)}`;
  const md = `# bench:fastq — raw data analysis (FASTQ -> BAM -> VCF)

Commit ${commit}${dirty ? ' (+ uncommitted changes)' : ''}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${machine}; ${loadText}
(the machine's 2 cores are shared with other engineers' jobs: absolute times are noisy, the product/bare
ratio is measured in one run, alternated). Command: \`nice npm run bench:fastq -- --depth ${depth} --samples ${samples} --timing-depth ${timingDepth} --rounds ${rounds} --threads ${threads}\`.

Tools: ${Object.values(toolVersions).join(', ')}. Reference: the embedded default, ${reference.config.label}
(${contigs.map((c) => `${c.name} ${c.seq.length.toLocaleString('en-US')} bp`).join(', ')}); index built by the product in ${secs(refMs)}.
Code path: the worker's own stage code (\`prepareReference\` + \`runReadsPipeline\`, apps/server/src/jobs/reads) with the
worker's defaults (WORKER_THREADS=${threads}, female sample: chrM haploid, demo20 diploid).

## 1. Accuracy on simulated reads (${depth}x, paired 2 x ${DefaultSim.readLength} bp)

Simulator: bench/lib/read-sim.ts (own code). Variants planted every ~${DefaultSim.variantSpacing} bp at least ${DefaultSim.fragmentMean} bp from contig ends,
${Math.round(DefaultSim.indelShare * 100)} % indels of 1-6 bp, 60 % of the demo20 ones heterozygous; fragments ${DefaultSim.fragmentMean} ± ${DefaultSim.fragmentSd} bp;
substitution errors rising from ${DefaultSim.errorStart} (cycle 1) to ${DefaultSim.errorEnd} (cycle ${DefaultSim.readLength}), 1 bp indel errors at ${DefaultSim.indelError}/base,
qualities = the cycle's error rate in Phred ± 2. The truth is normalised with \`bcftools norm -f ref -m-\` like the calls;
a call matches when chrom, pos, ref and alt are equal. ${samples} samples (seeds 1-${samples}), each ranked on its own:

| sample | read pairs | truth SNV / indel | SNV recall | SNV precision | indel recall | indel precision | mapped | mean depth | Ti/Tv | bare calls identical |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${perSample.join('\n')}

All samples pooled (every call the product keeps, and at QUAL >= 20):

| set | recall | precision | counts | genotype match (of TP) |
| --- | --- | --- | --- | --- |
| SNVs, all calls | ${tq(all.snv)} |
| indels, all calls | ${tq(all.indel)} |
| SNVs, QUAL >= 20 | ${tq(q20.snv)} |
| indels, QUAL >= 20 | ${tq(q20.indel)} |

Goal SNV recall >= 0.98 and precision >= 0.99: ${all.snv.tp / all.snv.truth >= 0.98 && all.snv.tp / Math.max(1, all.snv.calls) >= 0.99 ? '**met**' : '**not met**'} (all calls).

## 2. Product overhead over the bare tools

The same simulated reads at ${timingDepth}x (${treads.pairs.toLocaleString('en-US')} pairs, ${(fastqBytes / 2 ** 20).toFixed(1)} MiB gzip), ${rounds} rounds alternated,
median wall time. Product: bwa mem reads the two files itself while Node checks every record alongside (4-line
records, mates paired; bad reads stop the aligner), QC reports and tool versions beside the steps; bare: the same
commands from bash, the per-contig calling pipes run ${threads} at a time with \`xargs -P\` as the product does.

| | alignment | duplicates | calling | total |
| --- | --- | --- | --- | --- |
| product | ${secs(stageMedian(productRuns, 'alignment'))} | ${secs(stageMedian(productRuns, 'duplicates'))} | ${secs(stageMedian(productRuns, 'calling'))} | ${secs(pMs)} |
| bare | ${secs(stageMedian(bareRuns, 'alignment'))} | ${secs(stageMedian(bareRuns, 'duplicates'))} | ${secs(stageMedian(bareRuns, 'calling'))} | ${secs(bMs)} |

Product overhead: **${(((pMs - bMs) / bMs) * 100).toFixed(1)} %** (goal <= 10 %). Runs (ms): product ${productRuns.map((r) => Math.round(r.ms)).join(', ')}; bare ${bareRuns.map((r) => Math.round(r.ms)).join(', ')}.
The product's totals include its QC reports (\`samtools flagstat\`, \`samtools coverage\`, \`bcftools stats\`), which the bare run does not do.
At ${depth}x (accuracy runs, ${samples} samples summed): product ${secs(productAccMs)}, bare ${secs(bareAccMs)}.
Calls of product and bare identical in every accuracy sample: ${identical ? 'yes' : 'NO'}.

Commands (from the product's record of the last accuracy run):

${commands.map((c) => `    ${c.replaceAll(work, '<work>')}`).join('\n')}

## 3. Real reads: NA12878 chrM (shipped, ${np.result.qc.reads.toLocaleString('en-US')} single-end reads)

Product pipeline in ${secs(np.ms)}: ${(np.result.qc.mappedRate * 100).toFixed(2)} % mapped, ${(np.result.qc.duplicateRate * 100).toFixed(1)} % duplicates, mean depth ${np.result.qc.meanDepth.toFixed(1)}x over ${np.result.qc.coveredBases.toLocaleString('en-US')} covered bases.
Calls (haploid chrM):

| call | GT | QUAL | known |
| --- | --- | --- | --- |
${naCalls.map((c) => `| ${c.key} | ${c.gt} | ${c.qual} | ${known.includes(c.key) ? 'yes' : ''} |`).join('\n')}

Known variants found: ${known.filter((k) => naCalls.some((c) => c.key === k)).length} of 3 (${known.join(', ')}).

## 4. A 30x genome

Rates measured above at ${timingDepth}x (product, ${threads} threads on this loaded 2-core machine): alignment
${(alignRate / 1e6).toFixed(2)} M read bases/s, duplicates ${(dupRate / 1e6).toFixed(1)} M read bases/s, calling ${(callRate / 1e6).toFixed(1)} M
(reference bases x depth)/s. A 30x genome is ~${(genomeBases / 1e9).toFixed(0)} G read bases (3.1 Gb x 30):

| stage | this machine (${threads} threads) | 16-core worker |
| --- | --- | --- |
| alignment (bwa mem, fixmate, sort) | ${here.align.toFixed(1)} h | ${sixteen.align.toFixed(1)} h |
| duplicates (markdup, index) | ${here.dup.toFixed(1)} h | ${sixteen.dup.toFixed(1)} h |
| calling (mpileup, call, norm) | ${here.call.toFixed(1)} h | ${sixteen.call.toFixed(1)} h |
| total | ${(here.align + here.dup + here.call).toFixed(1)} h | ${(sixteen.align + sixteen.dup + sixteen.call).toFixed(1)} h |

How these are made and what they leave out: a straight extrapolation of the measured rates, alignment and
duplicates scaled by 16/${threads} threads (bwa mem and samtools scale close to linearly; an optimistic bound),
calling (one \`bcftools mpileup -r <contig> | call | norm\` pipe per contig, ${threads} at a time) by the same factor but
never below the largest contig alone (chr1 at the measured rate of one pipe). The demo reference is tiny and repeat-free
compared with a genome, where bwa mem is slower per base (repeats, larger index that does not stay in cache): treat the
alignment figures as a lower bound. Index building (\`bwa index\` on 3.1 Gb, once per reference and cached under the data
directory) is not included.

## Scaling out

- More workers on the shared queue: every case is one pg-boss job; any number of workers (\`npm run worker\`,
  WORKER_THREADS each) take cases from the same PostgreSQL queue, so throughput grows with workers, one case per
  worker at a time. Workers need the reference FASTA (RARELENS_REFERENCE) and build or share its index under their
  data directory (built once, under a lock, renamed into place).
- Calling is split by contig: one \`bcftools mpileup -r <contig> | call | norm\` pipe per contig of the reference,
  WORKER_THREADS at a time, the parts concatenated in reference order (\`bcftools concat\`), so a 16-core worker calls
  ~16 chromosomes at once; chr1 (~8 % of the genome) then bounds the stage. Splitting large contigs into windows is the
  next step past that bound.
- A GPU aligner as a drop-in stage: the alignment stage is one command pipe decided in
  packages/engine/src/reads/pipeline.ts (\`readsCommands\`), reads on stdin and a coordinate-sorted BAM out; a GPU
  aligner with the same contract (e.g. one that writes SAM/BAM from FASTQ) replaces that pipe without touching
  duplicates, calling or the rest of the case.
`;
  writeFileSync(args.out, md);
  log(`wrote ${args.out}`);
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
