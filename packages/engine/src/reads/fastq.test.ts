import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkFastq, FastqParseError, formatFastqRecord, openReads, readName } from './fastq.ts';

const rec = (name: string, seq = 'ACGTACGT', qual = 'IIIIIIII') => `@${name}\n${seq}\n+\n${qual}\n`;
const file = (text: string | Buffer, name = 'reads.fq') => ({ input: Readable.from([Buffer.from(text)]), name });

async function failure(p: Promise<unknown>): Promise<FastqParseError> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(FastqParseError);
  return e as FastqParseError;
}

describe('FASTQ reader', () => {
  it('reads single-end plain and gzip files with CRLF line ends', async () => {
    const text = rec('r1') + rec('r2 comment') + rec('r3');
    expect(await checkFastq(file(text))).toEqual({ layout: 'single', reads: 3, complete: true, maxReadLength: 8 });
    expect((await checkFastq(file(gzipSync(text.replace(/\n/g, '\r\n')), 'reads.fq.gz'))).reads).toBe(3);
  });

  it('detects interleaved pairs from the first two reads and pairs mates by name without /1 /2', async () => {
    const text = rec('p1/1') + rec('p1/2') + rec('p2/1') + rec('p2/2');
    const src = await openReads(file(text));
    expect(src.layout).toBe('interleaved');
    const pairs = [];
    for await (const p of src.pairs) pairs.push([p.r1.name, p.r2?.name]);
    expect(pairs).toEqual([['p1', 'p1'], ['p2', 'p2']]);
  });

  it('pairs a file with its mate file and names the record whose mate does not match', async () => {
    const ok = await checkFastq(file(rec('a/1') + rec('b/1')), file(rec('a/2') + rec('b/2'), 'mate.fq'));
    expect(ok).toMatchObject({ layout: 'paired', reads: 4 });
    const e = await failure(checkFastq(file(rec('a/1') + rec('b/1')), file(rec('a/2') + rec('c/2'), 'mate.fq')));
    expect(e.file).toBe('mate.fq');
    expect(e.record).toBe(2);
    expect(e.message).toMatch(/^mate\.fq: record 2 \(line 5\): read "c" is not the mate of "b"/);
  });

  it('pairs plain files read from disk (no bytes lost while the mate file opens)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fastq-test-'));
    try {
      writeFileSync(path.join(dir, 'r1.fq'), rec('a/1') + rec('b/1'));
      writeFileSync(path.join(dir, 'r2.fq'), rec('a/2') + rec('b/2'));
      const r = await checkFastq({ input: path.join(dir, 'r1.fq'), name: 'r1.fq' }, { input: path.join(dir, 'r2.fq'), name: 'r2.fq' });
      expect(r).toMatchObject({ layout: 'paired', reads: 4, complete: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses mate files of different lengths, naming the longer one', async () => {
    const e = await failure(checkFastq(file(rec('a') + rec('b')), file(rec('a'), 'mate.fq')));
    expect(e.message).toMatch(/^reads\.fq: record 2 .*mate file mate\.fq ended after 1 reads/);
  });

  it('refuses an interleaved file with an odd number of reads', async () => {
    const e = await failure(checkFastq(file(rec('p1/1') + rec('p1/2') + rec('p2/1'))));
    expect(e.message).toMatch(/record 3 .*has no mate/);
  });

  it('names file, record and line of a sequence/quality length mismatch', async () => {
    const e = await failure(checkFastq(file(rec('r1') + rec('r2', 'ACGT', 'III'))));
    expect(e.message).toBe('reads.fq: record 2 (line 8): 4 bases but 3 quality values (they must be equal)');
  });

  it('names a truncated last record', async () => {
    const e = await failure(checkFastq(file(rec('r1') + '@r2\nACGT\n')));
    expect(e.record).toBe(2);
    expect(e.message).toMatch(/ends inside this record \(2 of its 4 lines\)/);
  });

  it('refuses a record without an @ header, a bad + line, non-base sequences and binary content', async () => {
    expect((await failure(checkFastq(file(rec('r1') + 'r2\nACGT\n+\nIIII\n')))).message).toMatch(/record 2 \(line 5\): a record must begin with an "@"/);
    expect((await failure(checkFastq(file('@r1\nACGT\n-\nIIII\n')))).message).toMatch(/line 3\): the third line must begin with "\+"/);
    expect((await failure(checkFastq(file('@r1\nAC1T\n+\nIIII\n')))).message).toMatch(/line 2\): the sequence line is not bases/);
    expect((await failure(checkFastq(file(Buffer.from([0x40, 0x72, 0x0a, 0x00, 0xff, 0x0a, 0x2b, 0x0a, 0x49, 0x49, 0x0a]))))).message).toMatch(/binary content/);
  });

  it('refuses an empty file', async () => {
    expect((await failure(checkFastq(file('')))).message).toBe('reads.fq: the file holds no reads');
  });

  it('stops at the asked number of reads', async () => {
    const text = Array.from({ length: 50 }, (_, i) => rec(`r${i}`)).join('');
    expect(await checkFastq(file(text), undefined, 10)).toMatchObject({ reads: 10, complete: false });
  });

  it('writes records without the header comment', () => {
    expect(formatFastqRecord({ header: 'r1/1 1:N:0', name: 'r1', seq: 'AC', qual: 'II' })).toBe('@r1/1\nAC\n+\nII\n');
    expect(readName('r7/2 x')).toBe('r7');
  });
});
