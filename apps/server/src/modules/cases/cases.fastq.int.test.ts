/**
 * Raw data analysis end to end, on the embedded defaults (demo reference from RARELENS_SOURCES,
 * real engine and KB, PostgreSQL, in-process worker): the NA12878 chrM reads go through
 * alignment and calling to Completed with the known chrM variants; malformed FASTQ uploads are
 * refused naming the file and record with nothing left behind; reads from elsewhere end in Error
 * saying they do not match the reference. Needs bwa, samtools and bcftools on PATH.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUpAndLogIn } from '../../testing/helpers.ts';
import { multipartBody, waitForStatus, type FilePart } from '../../testing/multipart.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { na12878Reads, readsToolsInstalled, sourcesDir } from '../../testing/reads-fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const kbDir = path.resolve(process.env.RARELENS_KB ?? path.join(repoRoot, 'data/kb'));
const sources = sourcesDir;
const na12878 = na12878Reads;
const hasTools = readsToolsInstalled;
const ready = hasTools && existsSync(path.join(kbDir, 'manifest.json')) && existsSync(na12878);

let testApp: TestApp | undefined;
let inbox: SmtpInbox;
let app: FastifyInstance;
let dataDir: string;
let auth: Record<string, string>;
let colleague: Record<string, string>;
let stranger: Record<string, string>;
let rawCaseId: string;

const rec = (name: string, seq: string, qual = 'I'.repeat(seq.length)) => `@${name}\n${seq}\n+\n${qual}\n`;

function upload(files: FilePart[], caseId = 'RAW-1') {
  const { body, contentType } = multipartBody({ caseId, gender: 'female', symptoms: 'Muscle weakness and lactic acidosis', hpoTerms: JSON.stringify(['HP:0001324', 'HP:0003128']) }, files);
  return app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': contentType }, payload: body });
}

function leftovers(): string[] {
  const out: string[] = [];
  for (const dir of [path.join(dataDir, 'uploads', 'products'), path.join(dataDir, 'work')]) {
    if (!existsSync(dir)) continue;
    for (const d of readdirSync(dir)) out.push(`${dir}/${d}`);
  }
  return out;
}

describe.skipIf(!ready)('raw data analysis (FASTQ -> BAM -> VCF -> the usual case)', () => {
  beforeAll(async () => {
    testApp = await createTestApp({ name: 'fastq', kb: kbDir, env: { RARELENS_SOURCES: sources, WORKER_THREADS: '2' }, cases: { jobs: { inProcessWorker: true, pollMs: 100 } } });
    ({ app, inbox, dataDir } = testApp);
    const [user, col, other] = [await signUpAndLogIn(app, inbox), await signUpAndLogIn(app, inbox), await signUpAndLogIn(app, inbox)];
    auth = { authorization: `Bearer ${user.token}` };
    colleague = { authorization: `Bearer ${col.token}`, email: col.email };
    stranger = { authorization: `Bearer ${other.token}` };
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('aligns the NA12878 chrM reads on the demo reference and calls chrM 150 T>C, 152 T>C and 195 C>T (haploid) and lists the GRCh38 variant 152 T>C', async () => {
    const res = await upload([{ field: 'genomeFile', name: 'NA12878.chrM.fastq.gz', content: readFileSync(na12878) }], 'NA12878-chrM');
    expect(res.statusCode).toBe(202);
    const id = res.json<{ id: string }>().id;
    rawCaseId = id;
    const stages = new Set<string>();
    const deadline = Date.now() + 240_000;
    let status = '';
    while (Date.now() < deadline) {
      const d = (await app.inject({ method: 'GET', url: `/api/products/${id}`, headers: auth })).json<{ status: string; progressStage: string | null; error: unknown }>();
      status = d.status;
      if (d.progressStage) stages.add(d.progressStage);
      if (status === 'Completed' || status === 'Error') {
        expect(d.error).toBeNull();
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe('Completed');
    expect([...stages].some((s) => ['reference', 'alignment', 'duplicates', 'calling'].includes(s))).toBe(true);

    const details = (await app.inject({ method: 'GET', url: `/api/products/${id}`, headers: auth })).json<{ rawDataAnalysis: boolean; genomeFormat: string; assembly: string; run: { counts: Record<string, number> } }>();
    expect(details).toMatchObject({ rawDataAnalysis: true, genomeFormat: 'fastq', assembly: 'GRCh37' });
    expect(details.run.counts.reads).toBe(17486);

    // The calls on the demo reference (hg19 chrM, haploid): all three, genotype "1".
    const called = gunzipSync(readFileSync(path.join(dataDir, 'uploads', 'products', id, 'reads', 'calls.vcf.gz'))).toString('utf8');
    const calls = called.split('\n').filter((l) => l.startsWith('chrM\t')).map((l) => {
      const f = l.split('\t');
      return `${f[1]} ${f[3]}>${f[4]} GT=${f[9]!.split(':')[0]}`;
    });
    expect(calls).toEqual(expect.arrayContaining(['150 T>C GT=1', '152 T>C GT=1', '195 C>T GT=1']));
    // On GRCh38 (whose chrM is the rCRS) 150 C and 195 T are the reference bases: only 152 T>C is
    // a variant there; the other two are counted as not lifted, never silently dropped.
    const list = (await app.inject({ method: 'GET', url: `/api/products/${id}/variants?pageSize=100`, headers: auth })).json<{ items: { chrom: string; pos: number; ref: string; alt: string; zygosity: string }[] }>();
    const mt = list.items.filter((v) => v.chrom === 'MT').map((v) => `${v.pos} ${v.ref}>${v.alt} ${v.zygosity}`);
    // A haploid chrM call with its AD reads by its heteroplasmy, not as "hemizygous".
    expect(mt).toContain('152 T>C homoplasmic');
    expect(details.run.counts.liftFailed).toBe(2);
    // Both are hg19 chrM bases in 1-base gaps of the chain: counted by reason for the case screens.
    expect(details.run.counts['liftFailed.unmapped']).toBe(2);
    // The work directory goes once the job returns, a moment after the run's commit set Completed.
    await vi.waitFor(() => expect(leftovers().filter((p) => p.includes(`${path.sep}work${path.sep}`))).toEqual([]), { timeout: 15_000, interval: 50 });
  });

  it('keeps QC, reference, tools and command lines with the case', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${rawCaseId}/raw-data`, headers: auth });
    expect(res.statusCode).toBe(200);
    const info = res.json<{ layout: string; reference: { demo: boolean; assembly: string; label: string }; qc: Record<string, number | null>; tools: Record<string, string>; commands: string[]; files: { name: string }[] }>();
    expect(info.layout).toBe('single');
    expect(info.reference).toMatchObject({ demo: true, assembly: 'GRCh37' });
    expect(info.reference.label).toMatch(/demo/i);
    expect(info.qc).toMatchObject({ reads: 17486, mappedReads: 17477 });
    expect(info.qc.mappedRate).toBeGreaterThan(0.99);
    expect(info.qc.duplicateRate).toBeGreaterThan(0.9);
    expect(info.qc.meanDepth).toBeGreaterThan(10);
    expect(info.qc.snvs).toBeGreaterThanOrEqual(3);
    expect(info.tools.bwa).toMatch(/^bwa 0\.7/);
    expect(info.tools.samtools).toMatch(/^samtools 1\./);
    expect(info.commands[0]).toMatch(/^bwa mem -t 2 -R '@RG\\tID:NA12878-chrM\.[0-9a-f]{8}\\tSM:NA12878-chrM/);
    expect(info.commands.some((c) => /^bcftools mpileup .* \| bcftools call -m -v --ploidy-file /.test(c))).toBe(true);
    expect(info.files.map((f) => f.name)).toEqual(['alignments.bam', 'alignments.bam.bai', 'calls.vcf.gz', 'calls.vcf.gz.tbi']);
  });

  it('serves the alignments track with ranged reads to the owner and shared users, never to others', async () => {
    const share = await app.inject({ method: 'POST', url: `/api/products/${rawCaseId}/shares`, headers: auth, payload: { email: colleague.email } });
    expect(share.statusCode).toBeLessThan(300);
    const url = `/api/products/${rawCaseId}/raw-data/alignments.bam`;
    const head = await app.inject({ method: 'GET', url, headers: { ...auth, range: 'bytes=0-3' } });
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toMatch(/^bytes 0-3\/\d+$/);
    // A BAM is BGZF: a gzip member with the 'BC' extra field.
    expect([...head.rawPayload.subarray(0, 4)]).toEqual([0x1f, 0x8b, 0x08, 0x04]);
    const bai = await app.inject({ method: 'GET', url: `${url}.bai`, headers: { authorization: colleague.authorization!, range: 'bytes=0-3' } });
    expect(bai.statusCode).toBe(206);
    expect(bai.rawPayload.toString('latin1')).toBe('BAI\u0001');
    const size = Number(head.headers['content-range']!.toString().split('/')[1]);
    const outside = await app.inject({ method: 'GET', url, headers: { ...auth, range: `bytes=${size + 10}-` } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${size}`);
    expect(outside.json<{ code: string }>().code).toBe('validation_failed');
    expect((await app.inject({ method: 'GET', url, headers: stranger })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('gives the genome browser the reference the reads were aligned to: contigs, and its sequence with ranged reads', async () => {
    const info = (await app.inject({ method: 'GET', url: `/api/products/${rawCaseId}/raw-data`, headers: { authorization: colleague.authorization! } })).json<{
      reference: { contigs: { name: string; length: number }[] };
      track: { fasta: string | null; fai: string | null };
    }>();
    expect(info.reference.contigs).toEqual([
      { name: 'chrM', length: 16571 },
      { name: 'demo20', length: 5000 },
    ]);
    expect(info.track).toMatchObject({ fasta: 'raw-data/reference.fa', fai: 'raw-data/reference.fa.fai' });
    const fai = await app.inject({ method: 'GET', url: `/api/products/${rawCaseId}/${info.track.fai}`, headers: { authorization: colleague.authorization! } });
    expect(fai.statusCode).toBe(200);
    expect(fai.body).toMatch(/^chrM\t16571\t/);
    // hg19 chrM begins GATCACAGGTCTATCACCC (line 2 of the FASTA, after the ">chrM" header).
    const offset = Number(fai.body.split('\n')[0]!.split('\t')[2]);
    const seq = await app.inject({ method: 'GET', url: `/api/products/${rawCaseId}/${info.track.fasta}`, headers: { ...auth, range: `bytes=${offset}-${offset + 9}` } });
    expect(seq.statusCode).toBe(206);
    expect(seq.body).toBe('GATCACAGGT');
    expect((await app.inject({ method: 'GET', url: `/api/products/${rawCaseId}/raw-data/reference.fa`, headers: stranger })).statusCode).toBe(404);
  });

  it('lets only the owner download the BAM and the called VCF', async () => {
    const vcf = await app.inject({ method: 'GET', url: `/api/products/${rawCaseId}/raw-data/files/calls.vcf.gz`, headers: auth });
    expect(vcf.statusCode).toBe(200);
    expect(vcf.headers['content-disposition']).toMatch(/attachment; filename="calls\.vcf\.gz"/);
    expect(gunzipSync(vcf.rawPayload).toString('utf8')).toMatch(/^chrM\t152\t\.\tT\tC\t/m);
    const bam = await app.inject({ method: 'GET', url: `/api/products/${rawCaseId}/raw-data/files/alignments.bam`, headers: auth });
    expect(bam.statusCode).toBe(200);
    expect(Number(bam.headers['content-length'])).toBe(bam.rawPayload.length);
    const shared = await app.inject({ method: 'GET', url: `/api/products/${rawCaseId}/raw-data/files/alignments.bam`, headers: { authorization: colleague.authorization! } });
    expect(shared.statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/products/${rawCaseId}/raw-data/files/calls.vcf.gz`, headers: stranger })).statusCode).toBe(404);
  });

  it('marks the case "Raw data analysis" in the case list', async () => {
    const list = (await app.inject({ method: 'GET', url: '/api/products', headers: auth })).json<{ items: { id: string; rawDataAnalysis: boolean }[] }>();
    expect(list.items.find((c) => c.id === rawCaseId)?.rawDataAnalysis).toBe(true);
  });

  it.each([
    ['truncated', 'cut.fq', rec('r1', 'ACGTACGT') + '@r2\nACGT\n', /^cut\.fq: record 2 \(line 5\): the file ends inside this record/],
    ['length mismatch', 'len.fq', rec('r1', 'ACGTACGT') + rec('r2', 'ACGT', 'III'), /^len\.fq: record 2 \(line 8\): 4 bases but 3 quality values/],
    ['no @ header', 'hdr.fq.gz', gzipSync(rec('r1', 'ACGT') + 'r2\nACGT\n+\nIIII\n'), /^hdr\.fq\.gz: record 2 \(line 5\): a record must begin with an "@"/],
  ])('refuses a %s FASTQ at upload, naming file and record, and keeps nothing', async (_kind, name, content, message) => {
    const before = leftovers();
    const res = await upload([{ field: 'genomeFile', name, content }]);
    expect(res.statusCode).toBe(400);
    const body = res.json<{ issues: { path: string[]; message: string }[] }>();
    expect(body.issues[0]!.path).toEqual(['genomeFile']);
    expect(body.issues[0]!.message).toMatch(message);
    expect(leftovers()).toEqual(before);
  });

  it('refuses unpaired mates on genomeMateFile, naming the mate file and record', async () => {
    const before = leftovers();
    const res = await upload([
      { field: 'genomeFile', name: 'R1.fq', content: rec('a/1', 'ACGT') + rec('b/1', 'ACGT') },
      { field: 'genomeMateFile', name: 'R2.fq', content: rec('a/2', 'ACGT') + rec('x/2', 'ACGT') },
    ]);
    expect(res.statusCode).toBe(400);
    const issue = res.json<{ issues: { path: string[]; message: string }[] }>().issues[0]!;
    expect(issue.path).toEqual(['genomeMateFile']);
    expect(issue.message).toMatch(/^R2\.fq: record 2 \(line 5\): read "x" is not the mate of "b"/);
    expect(leftovers()).toEqual(before);
  });

  it('refuses binary and empty genome files with a clear message and keeps nothing', async () => {
    const before = leftovers();
    const binary = await upload([{ field: 'genomeFile', name: 'reads.fq', content: Buffer.from([0x40, 0x00, 0xff, 0xfe, 0x01, 0x02, 0x0a, 0x00]) }]);
    expect(binary.statusCode).toBe(400);
    expect(binary.json<{ message: string }>().message).toMatch(/^reads\.fq: not a VCF or FASTQ file/);
    const empty = await upload([{ field: 'genomeFile', name: 'empty.fq', content: '' }]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ message: string }>().message).toMatch(/empty\.fq: .*empty/);
    expect(leftovers()).toEqual(before);
  });

  it('refuses a mate file next to a VCF', async () => {
    const vcf = '##fileformat=VCFv4.2\n##contig=<ID=chr1,length=248956422>\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n';
    const res = await upload([
      { field: 'genomeFile', name: 'x.vcf', content: vcf },
      { field: 'genomeMateFile', name: 'R2.fq', content: rec('a', 'ACGT') },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ issues: { path: string[] }[] }>().issues[0]!.path).toEqual(['genomeMateFile']);
  });

  it('ends reads that do not map to the reference in Error saying they do not match the assembly, leaving no files', async () => {
    let seed = 7;
    const base = () => 'ACGT'[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % 4]!;
    const reads = Array.from({ length: 400 }, (_, i) => rec(`rnd${i}`, Array.from({ length: 100 }, base).join(''))).join('');
    const res = await upload([{ field: 'genomeFile', name: 'other-species.fq', content: reads }], 'RAW-UNMAPPED');
    expect(res.statusCode).toBe(202);
    const id = res.json<{ id: string }>().id;
    const done = await waitForStatus(app, auth, id, ['Completed', 'Error'], 120_000);
    expect(done.status).toBe('Error');
    expect(done.error?.reason).toMatch(/^Only 0\.0 % of the reads map to the reference .*the reads do not match the reference assembly/);
    const uploads = path.join(dataDir, 'uploads', 'products', id);
    expect(readdirSync(uploads)).not.toContain('reads');
    // The work directory goes once the job returns, a moment after the run's commit set Completed.
    await vi.waitFor(() => expect(leftovers().filter((p) => p.includes(`${path.sep}work${path.sep}`))).toEqual([]), { timeout: 15_000, interval: 50 });
  });
});
