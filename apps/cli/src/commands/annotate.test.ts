import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnnotationJsonlWriter, buildKb, genomicStep } from '@rarelens/engine';
import { encodeBlock, IntergenicSnvPath, openAnnotation } from './annotate-jsonl.ts';
import { run } from './annotate.ts';

// The flags the command gives V8 (recorded here, not set in the test process).
const v8Flags = vi.hoisted(() => [] as string[]);
vi.mock('node:v8', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:v8')>();
  return { ...actual, setFlagsFromString: (flags: string) => void v8Flags.push(flags) };
});

const HGNC =
  'hgnc_id\tsymbol\tname\tlocus_group\tlocus_type\tstatus\tlocation\talias_symbol\tprev_symbol\tentrez_id\tensembl_gene_id\trefseq_accession\tomim_id\tmane_select\n' +
  'HGNC:99901\tTESTG\ttest gene\tprotein-coding gene\tgene with protein product\tApproved\t1p36\t\t\t999001\tENSG09990001\tNM_999001\t\t"ENST09990001.1|NM_999001.1"\n';
const GTF = [
  ['exon', 1001, 1100],
  ['exon', 1201, 1300],
  ['CDS', 1051, 1100],
  ['CDS', 1201, 1250],
]
  .map(([t, s, e]) => `chr1\tX\t${t}\t${s}\t${e}\t.\t+\t.\tgene_id "G"; transcript_id "ENST09990001.1"; gene_name "TESTG"; tag "MANE_Select";`)
  .join('\n');

let dir: string;
let kbDir: string;
let vcfNoAssembly: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rarelens-cli-'));
  const src = join(dir, 'sources');
  await mkdir(src);
  await writeFile(join(src, 'hgnc_complete_set.test.txt'), HGNC);
  await writeFile(join(src, 'gencode.v99.annotation.gtf'), `${GTF}\n`);
  kbDir = join(dir, 'kb');
  await buildKb({ sourcesDir: src, outDir: kbDir, steps: [genomicStep()] });
  vcfNoAssembly = join(dir, 'in.vcf');
  await writeFile(
    vcfNoAssembly,
    ['##fileformat=VCFv4.2', '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tP1', '1\t1150\t.\tA\tG\t50\tPASS\t.\tGT\t0/1', '1\t1060\t.\tAC\tA\t50\tPASS\t.\tGT\t1/1'].join('\n') + '\n',
  );
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function captureErrors(): { text: () => string; restore: () => void } {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
    lines.push(a.map(String).join(' '));
  });
  return { text: () => lines.join('\n'), restore: () => spy.mockRestore() };
}

describe('rarelens annotate', () => {
  it('refuses a VCF whose header does not give the assembly and asks for --assembly', async () => {
    const err = captureErrors();
    const code = await run(['--vcf', vcfNoAssembly, '--kb', kbDir, '--out', join(dir, 'x.jsonl')]);
    err.restore();
    expect(code).toBe(2);
    expect(err.text()).toMatch(/--assembly GRCh37 or --assembly GRCh38/);
  });

  it('writes one snake_case JSON object per variant with consequences, HGVS, genotype and ACMG', async () => {
    const out = join(dir, 'out.jsonl');
    const err = captureErrors();
    const code = await run(['--vcf', vcfNoAssembly, '--kb', kbDir, '--assembly', 'GRCh38', '--out', out]);
    err.restore();
    expect(code).toBe(0);
    const rows = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ chrom: '1', pos: 1150, ref: 'A', alt: 'G', gene: 'TESTG', consequences: ['intron_variant'], impact: 'MODIFIER', genotype: { gt: '0/1', zygosity: 'heterozygous' } });
    expect(rows[1]).toMatchObject({ consequences: ['frameshift_variant'], hgvs_c: 'ENST09990001.1:c.11del', impact: 'HIGH' });
    for (const k of ['hgvs_p', 'af', 'clinvar', 'acmg', 'score', 'transcript']) expect(rows[0]).toHaveProperty(k);
    expect((rows[1]!.acmg as { criteria: unknown[] }).criteria).toBeInstanceOf(Array);
  });

  it('raises V8\'s tier-up budget to 4x its default and has feedback recorded from a function\'s first call, before the workers start', async () => {
    v8Flags.length = 0;
    const code = await run(['--vcf', vcfNoAssembly, '--kb', kbDir, '--assembly', 'GRCh38', '--threads', '2', '--out', join(dir, 'budget.jsonl')]);
    expect(code).toBe(0);
    expect(v8Flags).toEqual([`--interrupt-budget=${4 * 67_584}`, '--no-lazy-feedback-allocation']);
  });

  it('--format vcf writes the annotations into INFO', async () => {
    const out = join(dir, 'out.vcf');
    const err = captureErrors();
    const code = await run(['--vcf', vcfNoAssembly, '--kb', kbDir, '--assembly', 'GRCh38', '--format', 'vcf', '--out', out]);
    err.restore();
    expect(code).toBe(0);
    const text = await readFile(out, 'utf8');
    expect(text).toMatch(/##INFO=<ID=RL_CSQ,/);
    expect(text).toMatch(/RL_GENE=TESTG;.*RL_CSQ=frameshift_variant;/);
  });

  it('names the line of a malformed record and writes no output', async () => {
    const bad = join(dir, 'bad.vcf');
    await writeFile(bad, ['##fileformat=VCFv4.2', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO', '1\tnotanumber\t.\tA\tG\t.\t.\t.'].join('\n') + '\n');
    const out = join(dir, 'bad.jsonl');
    const err = captureErrors();
    const code = await run(['--vcf', bad, '--kb', kbDir, '--assembly', 'GRCh38', '--out', out]);
    err.restore();
    expect(code).toBe(1);
    expect(err.text()).toMatch(/bad\.vcf:3:/);
    await expect(readFile(out)).rejects.toThrow();
  });

  it('writes into a named pipe in place and leaves it a pipe (renaming over /dev/null as root replaced the device)', async () => {
    const fifo = join(dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const reading = readFile(fifo, 'utf8');
    const err = captureErrors();
    const code = await run(['--vcf', vcfNoAssembly, '--kb', kbDir, '--assembly', 'GRCh38', '--out', fifo]);
    err.restore();
    expect(code).toBe(0);
    const rows = (await reading).trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(JSON.parse(rows[1]!)).toMatchObject({ consequences: ['frameshift_variant'] });
    expect((await stat(fifo)).isFIFO()).toBe(true);
    expect((await readdir(dir)).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('refuses an --out that is a directory before reading anything', async () => {
    const outDir = join(dir, 'an-output-dir');
    await mkdir(outDir);
    const err = captureErrors();
    const code = await run(['--vcf', vcfNoAssembly, '--kb', kbDir, '--assembly', 'GRCh38', '--out', outDir]);
    err.restore();
    expect(code).toBe(2);
    expect(err.text()).toMatch(/--out .*an-output-dir is a directory/);
    expect((await stat(outDir)).isDirectory()).toBe(true);
  });
});

/** A VCF of `n` records (several 1 MiB blocks when n is large), with multi-allelic and no-ALT records among them. */
async function bigVcf(path: string, n: number, badLine?: number): Promise<void> {
  const lines = ['##fileformat=VCFv4.2', '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">', '##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Depth">', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tP1'];
  const pad = 'X'.repeat(60);
  for (let i = 0; i < n; i++) {
    const pos = 1000 + (i % 400);
    const alt = i % 7 === 0 ? 'G,T' : i % 11 === 0 ? '.' : i % 5 === 0 ? 'ACG' : 'G';
    lines.push(`1\t${lines.length + 1 === badLine ? 'x' : pos}\trs${i}\tA\t${alt}\t${i % 90}\tPASS\tNOTE=${pad}\tGT:DP\t${i % 3 === 0 ? '1/1' : '0/1'}:${i % 50}`);
  }
  await writeFile(path, lines.join('\n') + '\n');
}

describe('rarelens annotate --threads (worker threads)', () => {
  it('writes byte for byte what one thread writes, with the same counts and summary, over many blocks', async () => {
    const vcf = join(dir, 'big.vcf');
    await bigVcf(vcf, 30_000);
    const outputs: string[] = [];
    const messages: string[] = [];
    for (const threads of ['1', '3']) {
      const out = join(dir, `big.${threads}.jsonl`);
      const err = captureErrors();
      const code = await run(['--vcf', vcf, '--kb', kbDir, '--assembly', 'GRCh38', '--threads', threads, '--out', out]);
      err.restore();
      expect(code).toBe(0);
      outputs.push(await readFile(out, 'utf8'));
      messages.push(err.text().replace(/ in [\d.]+ s /, ' ').replace(/wrote .*/, ''));
    }
    const rows = outputs[0]!.trim().split('\n');
    // 30,000 records: 2,338 without ALT are skipped, 4,286 multi-allelic ones give two alleles.
    expect(rows).toHaveLength(30_000 - 2_338 + 4_286);
    expect(JSON.parse(rows.at(-1)!)).toMatchObject({ input: { line: 30_004 } });
    expect(outputs[1]).toBe(outputs[0]);
    expect(messages[1]).toBe(messages[0]);
    expect(messages[0]).toMatch(/from 30,000 records/);
    expect(messages[0]).toMatch(/2338 no-ALT records/);
  }, 120_000);

  it('reuses its output memory in one thread once written, as the workers do (no new buffer per block)', async () => {
    const vcf = join(dir, 'big.recycle.vcf');
    await bigVcf(vcf, 60_000);
    const take = vi.spyOn(AnnotationJsonlWriter.prototype, 'take');
    const recycle = vi.spyOn(AnnotationJsonlWriter.prototype, 'recycle');
    const allocations = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const err = captureErrors();
    const code = await run(['--vcf', vcf, '--kb', kbDir, '--assembly', 'GRCh38', '--threads', '1', '--out', join(dir, 'big.recycle.jsonl')]);
    err.restore();
    const taken = take.mock.calls.length;
    const recycled = recycle.mock.calls.length;
    // The writer's buffers (8 MiB; the file is read in 1 MiB ones).
    const fresh = allocations.mock.calls.filter(([n]) => n >= 4 << 20).length;
    for (const spy of [take, recycle, allocations]) spy.mockRestore();
    expect(code).toBe(0);
    // One take() per ~1 MiB input block (the last one at the end); each written one given back.
    expect(taken).toBeGreaterThanOrEqual(5);
    expect(recycled).toBe(taken - 1);
    // The first buffer, one while a write is pending and the one the last take() starts: not one per block.
    expect(fresh).toBeLessThanOrEqual(3);
    expect(fresh).toBeLessThan(taken);
  }, 120_000);

  it('reports the first malformed line in input order, from a worker, and writes no output', async () => {
    const vcf = join(dir, 'big-bad.vcf');
    await bigVcf(vcf, 30_000, 25_001);
    const out = join(dir, 'big-bad.jsonl');
    const err = captureErrors();
    const code = await run(['--vcf', vcf, '--kb', kbDir, '--assembly', 'GRCh38', '--threads', '2', '--out', out]);
    err.restore();
    expect(code).toBe(1);
    expect(err.text()).toMatch(/big-bad\.vcf:25001: bad POS "x"/);
    await expect(readFile(out)).rejects.toThrow();
    const left = (await readdir(dir)).filter((f) => f.startsWith('big-bad.jsonl'));
    expect(left).toEqual([]);
  }, 120_000);

  it('refuses --threads that is not a whole number from 1 to 64', async () => {
    const err = captureErrors();
    const code = await run(['--vcf', vcfNoAssembly, '--kb', kbDir, '--threads', '0', '--out', join(dir, 't.jsonl')]);
    err.restore();
    expect(code).toBe(2);
    expect(err.text()).toMatch(/--threads must be a whole number from 1 to 64, got 0/);
  });
});

describe('the compiled command (npm run build:cli)', () => {
  it('writes byte for byte what the TypeScript sources write, as JSONL and as VCF', async () => {
    const outdir = join(dir, 'dist');
    const root = resolve(import.meta.dirname, '../../../..');
    execFileSync(process.execPath, [join(root, 'scripts/build-cli.mjs'), '--outdir', outdir], { stdio: 'pipe' });
    const compiled = (await import(pathToFileURL(join(outdir, 'annotate.mjs')).href)) as { run: (argv: string[]) => Promise<number> };
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const ext of ['jsonl', 'vcf']) {
        const [a, b] = [join(dir, `src.${ext}`), join(dir, `compiled.${ext}`)];
        const args = (out: string) => ['--vcf', vcfNoAssembly, '--assembly', 'GRCh38', '--kb', kbDir, '--out', out];
        expect(await run(args(a))).toBe(0);
        expect(await compiled.run(args(b))).toBe(0);
        const [x, y] = [await readFile(a, 'utf8'), await readFile(b, 'utf8')];
        expect(x.length).toBeGreaterThan(0);
        expect(y).toBe(x);
        if (ext === 'jsonl') {
          // The compiled command's worker threads run the compiled worker (dist/annotate-worker.mjs).
          const c = join(dir, 'compiled.threads.jsonl');
          expect(await compiled.run([...args(c), '--threads', '2'])).toBe(0);
          expect(await readFile(c, 'utf8')).toBe(x);
        }
      }
      // Errors come out the same way: exit code and message.
      const missing = ['--vcf', join(dir, 'missing.vcf'), '--assembly', 'GRCh38', '--kb', kbDir, '--out', join(dir, 'x.jsonl')];
      const code = await compiled.run(missing);
      expect(code).not.toBe(0);
      expect(code).toBe(await run(missing));
    } finally {
      err.mockRestore();
    }
  }, 120_000);
});

/**
 * Lines for the short path's test: intergenic substitutions (far from TESTG at chr1:1001-1300) in
 * every spelling the short path takes or must leave to the full path, among genic, multi-allelic,
 * indel, lower-case, mitochondrial and other lines, on two contigs.
 */
function shortPathVcf(crlf: boolean): string {
  const lines = [
    '##fileformat=VCFv4.2',
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Depth">',
    '##contig=<ID=chr1,length=248956422>',
    '##contig=<ID=chr2,length=242193529>',
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tP1',
  ];
  const quals = ['50', '.', '12.5', '007', '0', '1e3', '0.0000001', '99.90', '-1', '3.'];
  const filters = ['PASS', '.', 'q10;lowDP', 'LowQual', 'a;;b', '"odd"'];
  const gts = ['0/1', '1|1', '1', './.', '0|1:x', '1/2', '', '0/0'];
  const alts: [string, string][] = [['A', 'G'], ['C', 'T'], ['G', 'A'], ['T', 'C'], ['a', 'G'], ['A', 'g'], ['A', 'A'], ['N', 'A'], ['A', 'G,T'], ['AC', 'A'], ['A', '<DEL>'], ['A', '*']];
  let i = 0;
  for (const chrom of ['chr1', 'chr2']) {
    for (const base of [1150, 3000, 9000, 40_000, 1_000_000]) {
      for (let k = 0; k < 60; k++, i++) {
        const [ref, alt] = alts[i % alts.length]!;
        const format = i % 13 === 0 ? 'GT:DP' : 'GT';
        const gt = gts[i % gts.length]!;
        const sample = format === 'GT:DP' ? `${gt || '0/1'}:12` : gt;
        lines.push(`${chrom}\t${base + k * 7}\trs${i}\t${ref}\t${alt}\t${quals[i % quals.length]}\t${filters[i % filters.length]}\tNOTE=x\t${format}\t${sample}`);
      }
    }
  }
  lines.push('chrM\t100\t.\tA\tG\t50\tPASS\t.\tGT\t1/1', 'chr3\t5000\t.\tA\tG\t50\tPASS\t.\tGT\t0/1', 'chr3\t9000\t.\tC\tT\t50\tPASS\t.\tGT\t0/1');
  return lines.join(crlf ? '\r\n' : '\n') + '\n';
}

describe('rarelens annotate: the short path for intergenic substitutions', () => {
  it('writes byte for byte what the full path writes, in-process and in workers, and takes the intergenic substitutions', async () => {
    for (const crlf of [false, true]) {
      const vcf = join(dir, `short${crlf ? '.crlf' : ''}.vcf`);
      await writeFile(vcf, shortPathVcf(crlf));
      const outputs: string[] = [];
      const messages: string[] = [];
      for (const [threads, full] of [['1', '1'], ['1', '0'], ['2', '1'], ['2', '0']] as const) {
        const out = join(dir, `short.${threads}.${full}.jsonl`);
        vi.stubEnv('RARELENS_ANNOTATE_FULL_PATH', full);
        const err = captureErrors();
        const code = await run(['--vcf', vcf, '--kb', kbDir, '--assembly', 'GRCh38', '--threads', threads, '--out', out]);
        err.restore();
        vi.unstubAllEnvs();
        expect(code).toBe(0);
        outputs.push(await readFile(out, 'utf8'));
        messages.push(err.text().replace(/ in [\d.]+ s /, ' ').replace(/wrote .*/, ''));
      }
      expect(outputs[0]!.split('\n').length).toBeGreaterThan(500);
      for (const o of outputs.slice(1)) expect(o).toBe(outputs[0]);
      for (const m of messages.slice(1)) expect(m).toBe(messages[0]);
    }

    // A line the short path would take but for its POS (past chr2's end) among lines it takes: the
    // same error, naming that line, on both paths.
    const bad = join(dir, 'short-bad.vcf');
    await writeFile(bad, shortPathVcf(false).replace('chr2\t40014\t', 'chr2\t300000000\t'));
    const errors: string[] = [];
    for (const [threads, full] of [['1', '1'], ['1', '0'], ['2', '1'], ['2', '0']] as const) {
      vi.stubEnv('RARELENS_ANNOTATE_FULL_PATH', full);
      const err = captureErrors();
      const code = await run(['--vcf', bad, '--kb', kbDir, '--assembly', 'GRCh38', '--threads', threads, '--out', join(dir, 'short-bad.jsonl')]);
      err.restore();
      vi.unstubAllEnvs();
      expect(code).toBe(1);
      errors.push(err.text());
    }
    expect(errors[0]).toMatch(/short-bad\.vcf:\d+: POS 300000000 is beyond the end of chr2/);
    for (const e of errors.slice(1)) expect(e).toBe(errors[0]);

    // The same blocks through encodeBlock with and without the short path: same bytes, and the
    // short path wrote the plain intergenic substitutions (not the first one, which it learns from).
    const vcf = join(dir, 'short.vcf');
    const encode = async (withShort: boolean) => {
      const { reader, annotator, kb } = await openAnnotation({ vcf, kb: kbDir, assembly: 'GRCh38' });
      const writer = new AnnotationJsonlWriter();
      const short = withShort ? IntergenicSnvPath.open(reader, kb, writer) : null;
      const counts: Record<string, number> = {};
      let alleles = 0;
      for await (const b of reader.textBlocks()) alleles += encodeBlock(b.text, b.firstLine, reader, annotator, writer, short, counts);
      return { text: writer.take().toString('utf8'), counts, alleles, written: short?.written ?? 0, summary: { ...reader.summary } };
    };
    const [full, short] = [await encode(false), await encode(true)];
    expect(short.text).toBe(full.text);
    expect(short.counts).toEqual(full.counts);
    expect(short.alleles).toBe(full.alleles);
    expect(short.summary).toEqual(full.summary);
    // Eligible: upper-case one-base REF and ALT, different, FORMAT GT with a GT, QUAL '.' or plain
    // digits, at 9,000+ on chr1 (TESTG's transcript reaches 1,300 + 5,000) or on chr2 and chr3
    // after their first lines (a contig's first line goes the full path: the reader learns the
    // contig there); not on chrM.
    const expected = shortPathVcf(false)
      .split('\n')
      .filter((l) => {
        const f = l.split('\t');
        if (f.length !== 10 || f[0] === '#CHROM' || f[0] === 'chrM') return false;
        const pos = Number(f[1]);
        const plain = /^[ACGT]$/.test(f[3]!) && /^[ACGT]$/.test(f[4]!) && f[3] !== f[4] && f[8] === 'GT' && f[9] !== '' && /^(\.|\d+\.?\d*)$/.test(f[5]!);
        return plain && ((f[0] === 'chr2' && f[2] !== 'rs300') || (f[0] === 'chr3' && pos !== 5000) || (f[0] === 'chr1' && pos > 6300));
      }).length;
    expect(expected).toBeGreaterThan(100);
    // Less the first eligible line of the file, learnt from through the full path.
    expect(short.written).toBe(expected - 1);
    expect(full.written).toBe(0);
  }, 120_000);
});
