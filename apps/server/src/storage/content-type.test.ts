import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ContentRejectedError, sniffAttachment, sniffGenome } from './content-type.ts';

const VCF = '##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n1\t100\t.\tA\tG\t50\tPASS\t.\n';
const FASTQ = '@read1\nACGTN\n+\nIIIII\n';

/** A minimal BGZF block: gzip member with the 'BC' extra subfield. */
function bgzf(text: string): Buffer {
  const gz = gzipSync(text);
  const extra = Buffer.from([0x42, 0x43, 2, 0, 0, 0]);
  const header = Buffer.from(gz.subarray(0, 10));
  header[3] = (header[3] ?? 0) | 4;
  const xlen = Buffer.alloc(2);
  xlen.writeUInt16LE(extra.length);
  return Buffer.concat([header, xlen, extra, gz.subarray(10)]);
}

describe('sniffGenome', () => {
  it('accepts a plain VCF by its fileformat header', () => {
    expect(sniffGenome(Buffer.from(VCF), 'a.vcf')).toEqual({ role: 'genome', format: 'vcf', compression: 'none' });
  });
  it('accepts a CRLF VCF with a byte-order mark', () => {
    expect(sniffGenome(Buffer.from('\uFEFF' + VCF.replace(/\n/g, '\r\n')), 'a.vcf').format).toBe('vcf');
  });
  it('tells gzip from bgzip and looks at the VCF header inside', () => {
    expect(sniffGenome(gzipSync(VCF), 'a.vcf.gz').compression).toBe('gzip');
    expect(sniffGenome(bgzf(VCF), 'a.vcf.gz')).toEqual({ role: 'genome', format: 'vcf', compression: 'bgzip' });
  });
  it('accepts a truncated gzip prefix', () => {
    const big = VCF + '1\t200\t.\tC\tT\t50\tPASS\t.\n'.repeat(20000);
    const gz = gzipSync(big);
    expect(sniffGenome(gz.subarray(0, 1000), 'a.vcf.gz').format).toBe('vcf');
  });
  it('accepts FASTQ, plain and gzipped', () => {
    expect(sniffGenome(Buffer.from(FASTQ), 'r.fastq').format).toBe('fastq');
    expect(sniffGenome(gzipSync(FASTQ), 'r.fq.gz')).toEqual({ role: 'genome', format: 'fastq', compression: 'gzip' });
  });
  it('rejects a FASTQ record whose quality length differs from the sequence', () => {
    expect(() => sniffGenome(Buffer.from('@r\nACGT\n+\nII\n'), 'r.fastq')).toThrow(ContentRejectedError);
  });
  it('rejects a text file that is not VCF, naming how it starts', () => {
    expect(() => sniffGenome(Buffer.from('chrom,pos\n1,2\n'), 'x.csv')).toThrow(/x\.csv: not a VCF or FASTQ file.*"chrom,pos"/);
  });
  it('rejects a gzip of something else, saying it looked inside', () => {
    expect(() => sniffGenome(gzipSync('hello'), 'x.gz')).toThrow(/inside the gzip data/);
  });
  it('never echoes binary bytes into the message (a gzip of zeros, as a gzip bomb is)', () => {
    const bomb = gzipSync(Buffer.alloc(1 << 20));
    expect(() => sniffGenome(bomb, 'bomb.vcf.gz')).toThrow(/inside the gzip data.*it starts with binary data, not text/);
    try {
      sniffGenome(bomb, 'bomb.vcf.gz');
    } catch (e) {
      // eslint-disable-next-line no-control-regex
      expect((e as Error).message).not.toMatch(/[\u0000-\u0008]/);
    }
  });
  it('rejects binary content and empty files', () => {
    expect(() => sniffGenome(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), 'x.png')).toThrow(/binary content/);
    expect(() => sniffGenome(Buffer.alloc(0), 'e.vcf')).toThrow(/empty/);
  });
  it('rejects corrupt gzip data', () => {
    const gz = gzipSync(VCF);
    const bad = Buffer.concat([gz.subarray(0, 10), Buffer.alloc(40, 0xff)]);
    expect(() => sniffGenome(bad, 'bad.gz')).toThrow(/could not be decompressed/);
  });
});

describe('sniffAttachment', () => {
  it('recognises images and PDFs by magic bytes', () => {
    expect(sniffAttachment(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'a').mediaType).toBe('image/png');
    expect(sniffAttachment(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'a').format).toBe('jpeg');
    expect(sniffAttachment(Buffer.from('%PDF-1.7\n'), 'a').format).toBe('pdf');
    const dicom = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM')]);
    expect(sniffAttachment(dicom, 'a').format).toBe('dicom');
  });
  it('recognises an Office document from its first ZIP entry', () => {
    const name = Buffer.from('[Content_Types].xml');
    const hdr = Buffer.alloc(30);
    hdr.writeUInt32LE(0x04034b50, 0);
    hdr.writeUInt16LE(name.length, 26);
    expect(sniffAttachment(Buffer.concat([hdr, name]), 'r.docx').format).toBe('office-openxml');
  });
  it('accepts UTF-8 text reports and rejects executables', () => {
    expect(sniffAttachment(Buffer.from('Report: café\n'), 'r.txt').format).toBe('text');
    expect(() => sniffAttachment(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), 'a.out')).toThrow(/unsupported file type/);
  });
});
