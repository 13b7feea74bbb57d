/**
 * The genome check made before a case is queued, on the real knowledge base (assembly inference
 * reads its reference bases, ClinVar and liftover chain) and real records of the Pfeiffer exome.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createKnowledgeBase } from '../../kb/knowledge-base.ts';
import { hasRealEngine, kbDir, smallPfeifferVcf } from '../../testing/pfeiffer-vcf.ts';
import { createGenomeCheck, genomeCheckSources, type GenomeCheckResult, type RequestedAssembly } from './genome-check.ts';

const check = createGenomeCheck(genomeCheckSources(createKnowledgeBase(kbDir)));
const run = (text: string, assembly: RequestedAssembly = 'auto', name = 'patient.vcf'): Promise<GenomeCheckResult> =>
  check({ open: () => Promise.resolve(Readable.from([Buffer.from(text)])), name, format: 'vcf', assembly });

const HEAD = '##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n';
const CONTIGS38 = '##fileformat=VCFv4.2\n##contig=<ID=chr1,length=248956422>\n##contig=<ID=chrUn_KI270302v1,length=2274>\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n';

/** The Pfeiffer records with a header that says nothing of the assembly (no contig lines). */
function headerSilentPfeiffer(): string {
  const lines = smallPfeifferVcf().split('\n');
  return [
    '##fileformat=VCFv4.1',
    lines.find((l) => l.startsWith('#CHROM'))!,
    ...lines.filter((l) => l !== '' && !l.startsWith('#')),
  ].join('\n') + '\n';
}

describe.runIf(hasRealEngine)('genome check before queueing', () => {
  it('infers GRCh37 from the records of a header-silent exome', async () => {
    const result = await run(headerSilentPfeiffer());
    expect(result).toMatchObject({ ok: true, assembly: 'GRCh37' });
    expect(result.ok && result.inferred).toMatch(/inferred GRCh37 from the records/);
  });

  it('refuses a header-silent file whose records cannot tell, naming the assembly field', async () => {
    const text = `${HEAD}1\t1000000\t.\tA\tG\t.\tPASS\t.\n1\t2000000\t.\tC\tT\t.\tPASS\t.\n`;
    const result = await run(text);
    expect(result).toMatchObject({ ok: false, field: 'assembly' });
    expect(!result.ok && result.message).toMatch(/^patient\.vcf does not say which genome assembly it uses .*Choose GRCh37 or GRCh38\.$/);
    // One statement of the problem, then what would have settled it (not 'do not tell: ... do not say').
    expect(!result.ok && result.message).toMatch(
      /\(no contig lengths or ##reference in its header\), and its records do not settle it: too few of the records match ClinVar alleles or known reference bases under one assembly \(needed: /,
    );
    // The same file with the assembly chosen is accepted.
    expect(await run(text, 'GRCh38')).toMatchObject({ ok: true, assembly: 'GRCh38', inferred: null });
  });

  it('refuses a header without records', async () => {
    expect(await run(CONTIGS38)).toEqual({
      ok: false,
      field: 'genomeFile',
      message: 'patient.vcf has a VCF header but no variant records: there is nothing to analyse',
    });
  });

  it('refuses a malformed record with its file and line', async () => {
    const result = await run(`${CONTIGS38}chr1\t100\t.\tA\tG\t.\tPASS\t.\nchr1\tten\t.\tA\tG\t.\tPASS\t.\n`);
    expect(result).toMatchObject({ ok: false, field: 'genomeFile' });
    expect(!result.ok && result.message).toMatch(/^patient\.vcf:6: .*POS/);
  });

  it('refuses records only on chromosomes the analysis does not know', async () => {
    const result = await run(`${CONTIGS38}chrUn_KI270302v1\t100\t.\tA\tG\t.\tPASS\t.\n`);
    expect(result).toMatchObject({ ok: false, field: 'genomeFile' });
    expect(!result.ok && result.message).toContain('no record on a human chromosome the analysis knows');
    expect(!result.ok && result.message).toContain('KI270302');
  });

  it("refuses a file with only '*' and reference-call alleles", async () => {
    const result = await run(`${CONTIGS38}chr1\t100\t.\tA\t*\t.\tPASS\t.\nchr1\t200\t.\tC\t.\t.\tPASS\t.\n`);
    expect(result).toMatchObject({ ok: false, field: 'genomeFile' });
    expect(!result.ok && result.message).toContain('2 data lines but no variant allele');
  });

  it('accepts CRLF line ends and a byte-order mark', async () => {
    const text = `\ufeff${CONTIGS38}chr1\t100\t.\tA\tG\t.\tPASS\t.\n`.replace(/\n/g, '\r\n');
    expect(await run(text)).toMatchObject({ ok: true, assembly: 'auto' });
  });

  it('checks FASTQ reads by content and names the mate file of a broken pair', async () => {
    const reads = (text: string) => () => Promise.resolve(Readable.from([Buffer.from(text)]));
    const good = '@r1/1\nACGT\n+\nIIII\n@r2/1\nGGCC\n+\nIIII\n';
    const mate = '@r1/2\nTTTT\n+\nIIII\n@r2/2\nCCCC\n+\nIII\n';
    expect(await check({ open: reads(good), name: 'r_1.fq', format: 'fastq', assembly: 'auto' })).toEqual({
      ok: true,
      assembly: 'auto',
      inferred: null,
    });
    const broken = await check({
      open: reads(good),
      name: 'r_1.fq',
      format: 'fastq',
      assembly: 'auto',
      mate: { open: reads(mate), name: 'r_2.fq' },
    });
    expect(broken).toMatchObject({ ok: false, field: 'genomeMateFile' });
    expect(!broken.ok && broken.message).toContain('r_2.fq');
  });
});
