/**
 * Malformed-input corpus (issue 16, item 4): each kind of bad input a careless user, a broken
 * pipeline or an attacker sends, over the real API. For each kind the test checks the answer (an
 * HTTP status or, for a file only the analysis can judge, the case's Error) and that its message
 * names what is wrong and where (file, line, field); for every refused upload it checks that
 * nothing was left behind: no case row, no stored object, no queued job.
 * Valid-but-unusual inputs (CRLF, BOM, duplicate or unsorted records, missing genotypes,
 * symbolic alleles) are in the corpus too: they must be accepted and analysed.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOSS_SCHEMA } from '../src/jobs/job.boss.ts';
import { createFixtureEngine } from '../src/jobs/testing/fixture-engine.ts';
import { countOf, signUpAndLogIn, uniqueEmail } from '../src/testing/helpers.ts';
import { multipartBody, waitForStatus } from '../src/testing/multipart.ts';
import type { SmtpInbox } from '../src/testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../src/testing/test-app.ts';

const HEADER = [
  '##fileformat=VCFv4.2',
  '##contig=<ID=chr1,length=248956422>',
  '##contig=<ID=chr2,length=242193529>',
  '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
  '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1',
].join('\n');
const rec = (pos: number, ref = 'A', alt = 'G', chrom = 'chr1', gt = '0/1') => `${chrom}\t${pos}\t.\t${ref}\t${alt}\t50\tPASS\t.\tGT\t${gt}`;
const vcf = (...records: string[]) => `${HEADER}\n${records.join('\n')}\n`;
const GOOD = vcf(rec(1_000_000), rec(1_000_100, 'C', 'T'));

/** A BGZF block (gzip member with the BC extra field) around `data`. */
function bgzfBlock(data: Buffer): Buffer {
  const deflated = gzipSync(data).subarray(10, -8);
  const header = Buffer.from([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 0x42, 0x43, 2, 0, 0, 0]);
  const size = header.length + deflated.length + 8 - 1;
  header.writeUInt16LE(size, 16);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(data) >>> 0, 0);
  trailer.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, deflated, trailer]);
}

interface Upload {
  fields?: Record<string, string | string[]>;
  files?: { field: string; name: string; content: Buffer | string }[];
}
type Expect =
  | { status: 400 | 413 | 415 | 429; field?: string; message: RegExp }
  | { status: 202; error?: RegExp; name?: string };
interface Kind {
  kind: string;
  upload: Upload;
  expect: Expect;
}

const FIELDS = { caseId: 'CORPUS-1', gender: 'female', symptoms: 'Seizures and hypotonia', hpoTerms: JSON.stringify(['HP:0001250']), assembly: 'auto' };
const genome = (content: Buffer | string, name = 'patient.vcf'): Upload => ({ files: [{ field: 'genomeFile', name, content }] });
const withFields = (fields: Record<string, string | string[]>, upload: Upload = genome(GOOD)): Upload => ({ ...upload, fields: { ...FIELDS, ...fields } });

const CORPUS: Kind[] = [
  // --- the genome file: container and encoding
  { kind: 'empty file', upload: genome(''), expect: { status: 400, field: 'genomeFile', message: /patient\.vcf.*empty/ } },
  { kind: 'header, no records', upload: genome(`${HEADER}\n`), expect: { status: 400, field: 'genomeFile', message: /^patient\.vcf has a VCF header but no variant records/ } },
  { kind: 'binary (random bytes)', upload: genome(randomBytes(4096)), expect: { status: 400, field: 'genomeFile', message: /patient\.vcf/ } },
  { kind: 'PNG image as genome', upload: genome(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(512)]), 'scan.vcf'), expect: { status: 400, field: 'genomeFile', message: /scan\.vcf/ } },
  { kind: 'BCF (binary VCF)', upload: genome(gzipSync(Buffer.concat([Buffer.from('BCF\u0002\u0002'), randomBytes(200)])), 'calls.bcf'), expect: { status: 400, field: 'genomeFile', message: /calls\.bcf/ } },
  { kind: 'truncated gzip', upload: genome(gzipSync(Buffer.from(vcf(...Array.from({ length: 3000 }, (_, i) => rec(1_000_000 + i * 7))))).subarray(0, 5000), 'cut.vcf.gz'), expect: { status: 400, field: 'genomeFile', message: /cut\.vcf\.gz/ } },
  { kind: 'truncated bgzip', upload: genome(bgzfBlock(Buffer.from(vcf(...Array.from({ length: 2000 }, (_, i) => rec(1_000_000 + i * 7))))).subarray(0, 3000), 'cut.vcf.bgz'), expect: { status: 400, field: 'genomeFile', message: /cut\.vcf\.bgz/ } },
  { kind: 'gzip bomb (zeros)', upload: genome(gzipSync(Buffer.alloc(64 * 1024 * 1024)), 'bomb.vcf.gz'), expect: { status: 400, field: 'genomeFile', message: /^bomb\.vcf\.gz: [\x20-\x7e]+$/ } },
  { kind: 'CSV, not a VCF', upload: genome('chrom,pos,ref,alt\n1,100,A,G\n', 'variants.csv'), expect: { status: 400, field: 'genomeFile', message: /variants\.csv/ } },
  { kind: 'non-UTF-8 bytes in the header', upload: genome(Buffer.concat([Buffer.from('##fileformat=VCFv4.2\n##comment='), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(`\n${HEADER.split('\n').slice(1).join('\n')}\n${rec(1_000_000)}\n`)])), expect: { status: 202 } },
  { kind: 'UTF-8 byte-order mark', upload: genome(`\ufeff${GOOD}`), expect: { status: 202 } },
  { kind: 'CRLF line ends', upload: genome(GOOD.replace(/\n/g, '\r\n')), expect: { status: 202 } },
  // --- header
  { kind: 'missing #CHROM line', upload: genome('##fileformat=VCFv4.2\n##contig=<ID=chr1,length=248956422>\n'), expect: { status: 400, field: 'genomeFile', message: /patient\.vcf.*#CHROM/ } },
  { kind: 'records before the header', upload: genome(`${rec(100)}\n${HEADER}\n`), expect: { status: 400, field: 'genomeFile', message: /patient\.vcf/ } },
  { kind: 'malformed ##INFO line', upload: genome(GOOD.replace('##FORMAT=', '##INFO=<ID=DP,Number=1,Type=Integer\n##FORMAT=')), expect: { status: 400, field: 'genomeFile', message: /patient\.vcf:\d+: / } },
  { kind: 'no assembly and records that cannot tell', upload: genome(`##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n1\t1000000\t.\tA\tG\t.\tPASS\t.\n`), expect: { status: 400, field: 'assembly', message: /does not say which genome assembly.*Choose GRCh37 or GRCh38/ } },
  { kind: 'mixed assemblies (GRCh37 and GRCh38 contig lengths)', upload: genome(GOOD.replace('##contig=<ID=chr2,length=242193529>', '##contig=<ID=chr2,length=243199373>')), expect: { status: 400, field: 'genomeFile', message: /patient\.vcf/ } },
  // --- records
  { kind: 'too few columns', upload: genome(vcf(rec(1_000_000), 'chr1\t1000200\t.\tA\tG\t50\tPASS')), expect: { status: 400, field: 'genomeFile', message: /^patient\.vcf:7: / } },
  { kind: 'too many columns', upload: genome(vcf(rec(1_000_000), `${rec(1_000_200)}\textra`)), expect: { status: 400, field: 'genomeFile', message: /^patient\.vcf:7: / } },
  { kind: 'POS not a number', upload: genome(vcf(rec(1_000_000), 'chr1\tten\t.\tA\tG\t50\tPASS\t.\tGT\t0/1')), expect: { status: 400, field: 'genomeFile', message: /^patient\.vcf:7: .*POS/ } },
  { kind: 'negative POS', upload: genome(vcf('chr1\t-5\t.\tA\tG\t50\tPASS\t.\tGT\t0/1')), expect: { status: 400, field: 'genomeFile', message: /^patient\.vcf:6: .*POS/ } },
  { kind: 'POS past the chromosome end', upload: genome(vcf(rec(300_000_000))), expect: { status: 400, field: 'genomeFile', message: /^patient\.vcf:6: / } },
  { kind: 'REF with invalid bases', upload: genome(vcf(rec(1_000_000, 'AXZ', 'G'))), expect: { status: 400, field: 'genomeFile', message: /^patient\.vcf:6: .*REF/ } },
  { kind: 'ALT with invalid characters', upload: genome(vcf(rec(1_000_000, 'A', 'G1!'))), expect: { status: 400, field: 'genomeFile', message: /^patient\.vcf:6: .*ALT/ } },
  { kind: 'ALT equal to REF (valid grammar, nothing to call)', upload: genome(vcf(rec(1_000_000, 'A', 'A'), rec(1_000_100))), expect: { status: 202 } },
  { kind: "only '*' alleles", upload: genome(vcf(rec(1_000_000, 'A', '*'))), expect: { status: 400, field: 'genomeFile', message: /no variant allele to analyse/ } },
  { kind: 'symbolic alleles only (structural)', upload: genome(vcf(rec(1_000_000, 'A', '<DEL>').replace('\t.\tGT', '\tSVTYPE=DEL;END=1001000\tGT'))), expect: { status: 202 } },
  { kind: 'unknown chromosomes only', upload: genome(vcf(rec(100, 'A', 'G', 'chrUn_KI270302v1')).replace('##contig=<ID=chr1,', '##contig=<ID=chrUn_KI270302v1,length=2274>\n##contig=<ID=chr1,')), expect: { status: 400, field: 'genomeFile', message: /no record on a human chromosome/ } },
  { kind: 'duplicate records', upload: genome(vcf(rec(1_000_000), rec(1_000_000))), expect: { status: 202 } },
  { kind: 'unsorted records', upload: genome(vcf(rec(2_000_000), rec(1_000_000), rec(1_500_000, 'A', 'G', 'chr2'))), expect: { status: 202 } },
  { kind: 'multi-sample with missing genotypes', upload: genome(GOOD.replace('FORMAT\tS1', 'FORMAT\tS1\tS2').replace(/\tGT\t0\/1/g, '\tGT\t./.\t0/1')), expect: { status: 202 } },
  { kind: 'genotype column missing for a sample', upload: genome(vcf(rec(1_000_000), 'chr1\t1000200\t.\tA\tG\t50\tPASS\t.\tGT')), expect: { status: 400, field: 'genomeFile', message: /^patient\.vcf:7: / } },
  { kind: 'huge INFO (2 MB on one line, valid)', upload: genome(vcf(rec(1_000_000).replace('\tPASS\t.\t', `\tPASS\tNOTE=${'x'.repeat(2 * 1024 * 1024)}\t`))), expect: { status: 202 } },
  { kind: 'malformed line past the checked records', upload: genome(vcf(...Array.from({ length: 12_000 }, (_, i) => rec(1_000_000 + i * 10)), 'chr1\tbad\t.\tA\tG\t50\tPASS\t.\tGT\t0/1'), 'late.vcf'), expect: { status: 202, error: /^late\.vcf:12006: .*POS/ } },
  // --- file names
  { kind: 'path traversal in the file name', upload: genome(GOOD, '../../../etc/passwd.vcf'), expect: { status: 202, name: 'passwd.vcf' } },
  { kind: 'control characters in the file name', upload: genome(GOOD, 'pa\u0001ti\u001bent\u007f.vcf'), expect: { status: 202, name: 'patient.vcf' } },
  // --- form fields
  { kind: 'missing case ID', upload: { ...genome(GOOD), fields: { gender: 'female', symptoms: 'x', hpoTerms: '[]' } }, expect: { status: 400, field: 'caseId', message: /mandatory/ } },
  { kind: 'over-long case ID (101 characters)', upload: withFields({ caseId: 'C'.repeat(101) }), expect: { status: 400, field: 'caseId', message: /^At most 100 characters \(this has 101\)\.$/ } },
  { kind: 'over-long symptoms (10,001 characters)', upload: withFields({ symptoms: 's'.repeat(10_001) }), expect: { status: 400, field: 'symptoms', message: /^At most 10,000 characters \(this has 10,001\)\.$/ } },
  { kind: 'gender not one of male/female', upload: withFields({ gender: 'robot' }), expect: { status: 400, field: 'gender', message: /^Choose male or female\.$/ } },
  { kind: 'assembly not one of the choices', upload: withFields({ assembly: 'hg99' }), expect: { status: 400, field: 'assembly', message: /./ } },
  { kind: 'malformed HPO id', upload: withFields({ hpoTerms: JSON.stringify(['HP:12']) }), expect: { status: 400, field: 'hpoTerms', message: /HPO term id/ } },
  { kind: 'unknown HPO id', upload: withFields({ hpoTerms: JSON.stringify(['HP:9999999']) }), expect: { status: 400, field: 'hpoTerms', message: /Unknown HPO terms: HP:9999999/ } },
  { kind: 'no genome file', upload: { fields: FIELDS }, expect: { status: 400, field: 'genomeFile', message: /mandatory/ } },
  { kind: 'two genome files', upload: { fields: FIELDS, files: [{ field: 'genomeFile', name: 'a.vcf', content: GOOD }, { field: 'genomeFile', name: 'b.vcf', content: GOOD }] }, expect: { status: 400, field: 'genomeFile', message: /one genome file/ } },
  { kind: 'unexpected file field', upload: { fields: FIELDS, files: [{ field: 'genomeFile', name: 'a.vcf', content: GOOD }, { field: 'virus', name: 'x.exe', content: 'MZ' }] }, expect: { status: 400, field: 'virus', message: /Unexpected file field/ } },
  { kind: 'six supporting files', upload: { fields: FIELDS, files: [{ field: 'genomeFile', name: 'a.vcf', content: GOOD }, ...Array.from({ length: 6 }, (_, i) => ({ field: 'additionalFiles', name: `note${i}.txt`, content: 'clinical note' }))] }, expect: { status: 400, message: /./ } },
  { kind: 'executable as a supporting file', upload: { fields: FIELDS, files: [{ field: 'genomeFile', name: 'a.vcf', content: GOOD }, { field: 'additionalFiles', name: 'report.pdf', content: Buffer.concat([Buffer.from('MZ\u0090\u0000'), randomBytes(300)]) }] }, expect: { status: 400, message: /report\.pdf/ } },
  { kind: 'HTML and script in case ID and symptoms', upload: withFields({ caseId: '<script>alert(1)</script>', symptoms: '<img src=x onerror=alert(1)> seizures' }), expect: { status: 202 } },
];

let test: TestApp;
let app: FastifyInstance;
let inbox: SmtpInbox;
let user: { token: string; email: string };
const auth = () => ({ authorization: `Bearer ${user.token}` });

function storedObjects(): string[] {
  const root = test.dataDir;
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(path.relative(root, p));
    }
  };
  walk(path.join(root, 'uploads'));
  return out.sort();
}

async function counts(): Promise<{ cases: number; jobs: number }> {
  return {
    cases: await countOf(app, sql`select count(*)::int as n from products`),
    jobs: await countOf(app, sql.raw(`select count(*)::int as n from ${BOSS_SCHEMA}.job`)),
  };
}

beforeAll(async () => {
  const fixture = createFixtureEngine({ genePhenotypes: {} });
  test = await createTestApp({
    // The KB's ontology checks HPO ids (the analysis itself is the fixture engine).
    env: { UPLOAD_MAX_BYTES: String(64 * 1024 * 1024), ...(process.env.RARELENS_KB === undefined ? {} : { RARELENS_KB: process.env.RARELENS_KB }) },
    cases: { engine: () => Promise.resolve(fixture), jobs: { inProcessWorker: true, pollMs: 100 } },
  });
  inbox = test.inbox;
  app = test.app;
  user = await signUpAndLogIn(app, inbox, uniqueEmail('corpus'));
}, 120_000);

afterAll(async () => {
  await test?.close();
});

describe('malformed-input corpus', () => {
  it('answers every kind clearly and leaves nothing behind for a refused upload', async () => {
    const failures: string[] = [];
    let clear = 0;
    let lost = 0;
    for (const k of CORPUS) {
      const before = { objects: storedObjects(), ...(await counts()) };
      const { body, contentType } = multipartBody(k.upload.fields ?? FIELDS, k.upload.files ?? []);
      const res = await app.inject({ method: 'POST', url: '/api/products', headers: { ...auth(), 'content-type': contentType }, payload: body });
      const fail = (why: string) => failures.push(`${k.kind}: ${why} (HTTP ${res.statusCode}: ${res.body.slice(0, 300)})`);
      if (res.statusCode !== k.expect.status) {
        fail(`expected HTTP ${k.expect.status}`);
        continue;
      }
      if (k.expect.status !== 202) {
        const e = k.expect;
        const answer = res.json<{ message: string; issues?: { path: (string | number)[]; message: string }[] }>();
        const issue = e.field === undefined ? { path: [], message: answer.message } : answer.issues?.find((i) => i.path[0] === e.field);
        if (issue === undefined) fail(`no issue on field ${e.field}`);
        else if (!e.message.test(issue.message)) fail(`message ${JSON.stringify(issue.message)} does not match ${e.message}`);
        // Nothing of a refused upload is kept.
        const after = { objects: storedObjects(), ...(await counts()) };
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          lost += 1;
          fail(`left behind: ${JSON.stringify({ before, after })}`);
        } else if (issue !== undefined && e.message.test(issue.message)) clear += 1;
        continue;
      }
      const id = res.json<{ id: string }>().id;
      const done = await waitForStatus(app, auth(), id, ['Completed', 'Error'], 60_000);
      if (k.expect.error !== undefined) {
        if (done.status !== 'Error' || !k.expect.error.test(done.error?.reason ?? '')) fail(`expected Error ${k.expect.error}, got ${done.status} ${JSON.stringify(done.error)}`);
        else if (/unexpected/i.test(done.error?.reason ?? '')) fail('an input error called unexpected');
        else clear += 1;
      } else if (done.status !== 'Completed') {
        fail(`valid input not analysed: ${done.status} ${JSON.stringify(done.error)}`);
      } else {
        clear += 1;
      }
      if (k.expect.name !== undefined) {
        const detail = await app.inject({ method: 'GET', url: `/api/products/${id}`, headers: auth() });
        const name = detail.json<{ files: { originalName?: string; name?: string }[] }>().files[0];
        const stored = name?.originalName ?? name?.name;
        if (stored !== k.expect.name) fail(`file name stored as ${JSON.stringify(stored)}, expected ${k.expect.name}`);
      }
    }
    process.stdout.write(`malformed-input corpus: ${CORPUS.length} kinds tried, ${clear} answered clearly, ${lost} items left behind\n`);
    expect(failures).toEqual([]);
    expect(lost).toBe(0);
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
  }, 600_000);

  it('refuses oversized and malformed JSON bodies', async () => {
    const big = await app.inject({
      method: 'POST',
      url: '/api/phenome/extract',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    const broken = await app.inject({ method: 'POST', url: '/api/phenome/extract', headers: { ...auth(), 'content-type': 'application/json' }, payload: '{"text": "seizures"' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json<{ message: string }>().message).toMatch(/JSON/i);
  });

  it('stores HTML in text fields as text and answers it only as JSON', async () => {
    const list = await app.inject({ method: 'GET', url: '/api/products', headers: auth() });
    expect(list.headers['content-type']).toMatch(/^application\/json/);
    const item = list.json<{ items: { caseId: string }[] }>().items.find((i) => i.caseId.includes('<script>'));
    expect(item?.caseId).toBe('<script>alert(1)</script>');
    const share = await app.inject({ method: 'POST', url: `/api/products/${(list.json<{ items: { id: string }[] }>().items[0]!).id}/shares`, headers: auth(), payload: { email: '<script>@example.org' } });
    expect(share.statusCode).toBe(400);
  });
});
