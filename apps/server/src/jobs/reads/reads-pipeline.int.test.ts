/**
 * The alignment stage reads the FASTQ files in bwa while every record is checked alongside: good
 * mate files align as pairs (not one file ignored), and reads that break the format stop the
 * aligner with the check's own message (file, record), even when bwa would have read past them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FastqParseError } from '@rarelens/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReadsPipeline } from './reads-pipeline.ts';
import { prepareReference, referenceConfig, type PreparedReference } from './reference.ts';

const sources = process.env.RARELENS_SOURCES ?? path.resolve(import.meta.dirname, '../../../../../../shared/data');
const dir = mkdtempSync(path.join(os.tmpdir(), 'reads-pipeline-test-'));
let reference: PreparedReference;
let chrM = '';

beforeAll(async () => {
  reference = await prepareReference(referenceConfig({ sourcesDir: sources }), path.join(dir, 'reference'), { signal: new AbortController().signal });
  chrM = readFileSync(path.join(sources, 'reads/chrM_hg19.fa'), 'utf8').split('\n').filter((l) => !l.startsWith('>')).join('').toUpperCase();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const revcomp = (s: string) => [...s].reverse().map((c) => ({ A: 'T', C: 'G', G: 'C', T: 'A' })[c] ?? 'N').join('');
/** n read pairs of 70 bp from chrM, fragments of 300 bp. */
function mates(n: number, rename?: (i: number) => string): [string, string] {
  let a = '';
  let b = '';
  for (let i = 0; i < n; i++) {
    const start = 1000 + i * 37;
    const r1 = chrM.slice(start, start + 70);
    const r2 = revcomp(chrM.slice(start + 230, start + 300));
    a += `@p${i}/1\n${r1}\n+\n${'I'.repeat(70)}\n`;
    b += `@${rename ? rename(i) : `p${i}`}/2\n${r2}\n+\n${'I'.repeat(70)}\n`;
  }
  return [a, b];
}

async function run(name: string, r1: string, r2: string) {
  const work = path.join(dir, name);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'r1.fq'), r1);
  writeFileSync(path.join(work, 'r2.fq'), r2);
  return runReadsPipeline({
    reads: { path: path.join(work, 'r1.fq'), name: 'reads_R1.fq' },
    mate: { path: path.join(work, 'r2.fq'), name: 'reads_R2.fq' },
    reference,
    sex: 'female',
    sample: 'S1',
    readGroup: 'S1.test',
    threads: 2,
    work,
    signal: new AbortController().signal,
    onProgress: () => undefined,
    totalBytes: r1.length + r2.length,
  });
}

describe('alignment of mate files read by bwa, checked alongside', () => {
  it('aligns two mate files as pairs', async () => {
    const [a, b] = mates(200);
    const result = await run('good', a, b);
    expect(result.layout).toBe('paired');
    expect(result.qc.reads).toBe(400);
    expect(result.qc.mappedRate).toBeGreaterThan(0.99);
    expect(result.commands[0]).toMatch(/^bwa mem .* '<reads_R1\.fq>' '<reads_R2\.fq>' \| samtools fixmate/);
    expect(result.commands[0]).not.toMatch(/ -p /);
  }, 120_000);

  it('ends with the check’s message when a mate is out of order, and with it for a truncated last record', async () => {
    const [a, b] = mates(200, (i) => (i === 150 ? 'other' : `p${i}`));
    const e = await run('mismatch', a, b).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(FastqParseError);
    expect((e as Error).message).toMatch(/^reads_R2\.fq: record 151 .*read "other" is not the mate of "p150"/);
    const [c, d] = mates(50);
    // The mate file loses its last quality line.
    const cut = await run('truncated', c, d.slice(0, d.lastIndexOf('\n', d.length - 2) + 1)).then(() => null, (x: unknown) => x);
    expect(cut).toBeInstanceOf(FastqParseError);
    expect((cut as Error).message).toMatch(/^reads_R2\.fq: record 50 .*ends inside this record \(3 of its 4 lines\)/);
  }, 120_000);
});
