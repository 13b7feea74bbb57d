/**
 * Cases API over HTTP against a real PostgreSQL, with the in-process worker and the fixture
 * engine (real VCF reader, annotations from INFO fields): upload, queue, status, results,
 * filters, re-ranking, errors, access control. The end-to-end test with the real engine and
 * knowledge base is in cases.engine.int.test.ts.
 */
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ErrorCode, Messages } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ontology, VARIANT_FILTERS } from '@rarelens/engine';
import { caseTermsFromText, createPhenomeService } from '../phenome/phenome.service.ts';
import { createFixtureEngine } from '../../jobs/testing/fixture-engine.ts';
import { CHECKED_RECORDS } from './genome-check.ts';
import { buildFixtureVcf } from '../../jobs/testing/fixture-vcf.ts';
import { bearer, signUpAndLogIn } from '../../testing/helpers.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';
import { testOntology } from '../../testing/test-ontology.ts';

const GENES = { FGFR2: ['HP:0000244', 'HP:0011304', 'HP:0001770'], BRCA1: ['HP:0003002'], TTN: [] as string[] };
const PFEIFFER_TERMS = ['HP:0000244', 'HP:0011304', 'HP:0001770'];

const SYMPTOM_HPO = new Ontology({
  version: 'test',
  terms: [
    ['HP:0000001', 'All', []],
    ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
    ['HP:0011304', 'Broad thumb', ['HP:0000118']],
    ['HP:0001770', 'Toe syndactyly', ['HP:0000118']],
    ['HP:0000518', 'Cataract', ['HP:0000118']],
  ].map(([id, label, parents]) => ({
    id: id as string,
    label: label as string,
    parents: parents as string[],
    synonyms: [],
    obsolete: false,
    altIds: [],
  })),
});

let testApp: TestApp;
let inbox: SmtpInbox;
let app: FastifyInstance;
let dataDir: string;
let alice: { token: string; email: string };
let bob: { token: string; email: string };
/** PUT /api/products/:id/phenotype-terms as `user` (the raw answer). */
const putTerms = (user: { token: string }, caseId: string, payload: { hpoTerms: string[]; excludedTerms?: string[] }) =>
  app.inject({ method: 'PUT', url: `/api/products/${caseId}/phenotype-terms`, headers: bearer(user), payload });

beforeAll(async () => {
  const engine = createFixtureEngine({ genePhenotypes: GENES });
  // PhenomeAI (shipped configuration) on a small HPO: this test runs without a knowledge base.
  const phenome = createPhenomeService({ ontology: () => Promise.resolve(SYMPTOM_HPO) });
  testApp = await createTestApp({
    name: 'cases',
    kb: 'none',
    env: { UPLOAD_MAX_BYTES: String(2 * 1024 * 1024) },
    cases: {
      extractTerms: (symptoms) => caseTermsFromText(phenome, symptoms),
      engine: () => Promise.resolve(engine),
      ontology: testOntology,
      jobs: { inProcessWorker: true, pollMs: 50, heartbeatMs: 200, staleAfterMs: 1000 },
    },
  });
  ({ app, inbox, dataDir } = testApp);
  alice = await signUpAndLogIn(app, inbox);
  bob = await signUpAndLogIn(app, inbox);
});

afterAll(async () => {
  await testApp.close();
});

function upload(
  user: { token: string } | null,
  opts: {
    fields?: Record<string, string | string[]>;
    genome?: { name: string; content: Buffer | string } | null;
    attachments?: { name: string; content: Buffer | string }[];
  },
) {
  const fields = opts.fields ?? {
    caseId: 'CASE-1',
    gender: 'female',
    symptoms: 'Skull shape anomaly, broad thumbs, fused toes',
    hpoTerms: JSON.stringify(PFEIFFER_TERMS),
  };
  const files = [
    ...(opts.genome === null ? [] : [{ field: 'genomeFile', ...(opts.genome ?? { name: 'case.vcf', content: buildFixtureVcf(300, ['TTN', 'BRCA1', 'FGFR2']) }) }]),
    ...(opts.attachments ?? []).map((a) => ({ field: 'additionalFiles', ...a })),
  ];
  const { body, contentType } = multipartBody(fields, files);
  return app.inject({
    method: 'POST',
    url: '/api/products',
    headers: { ...(user ? bearer(user) : {}), 'content-type': contentType },
    payload: body,
  });
}

describe('uploading a case', () => {
  let productId: string;

  it('accepts a VCF with symptoms and an image, answers 202 In queue, and reaches Completed', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const res = await upload(alice, {
      genome: { name: 'case.vcf.gz', content: gzipSync(buildFixtureVcf(2500, ['TTN', 'BRCA1', 'FGFR2'])) },
      attachments: [{ name: 'el_şğı_患者_🧬.png', content: png }],
    });
    expect(res.statusCode).toBe(202);
    const created = res.json<{ id: string; status: string }>();
    expect(created.status).toBe('In queue');
    productId = created.id;

    const done = await waitForStatus(app, bearer(alice), productId, ['Completed', 'Error'], 60_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('Completed');
    expect(done.progress).toBe(100);
  });

  it('extracts the terms from the symptoms when none are sent, and records that it did', async () => {
    const res = await upload(alice, {
      fields: { caseId: 'CASE-NO-TERMS', gender: 'male', symptoms: 'Broad thumbs and toe syndactyly, no cataract.' },
    });
    expect(res.statusCode).toBe(202);
    const id = res.json<{ id: string }>().id;
    const d = await app.inject({ method: 'GET', url: `/api/products/${id}`, headers: bearer(alice) });
    expect(d.json()).toMatchObject({
      hpoTermsSource: 'phenome',
      hpoTermCount: 2,
      hpoTerms: [{ id: 'HP:0011304' }, { id: 'HP:0001770' }],
      excludedTerms: [{ id: 'HP:0000518' }],
    });
    // Terms saved later from Diagnose are the user's.
    const put = await putTerms(alice, id, { hpoTerms: [], excludedTerms: [] });
    expect(put.statusCode).toBeLessThan(300);
    const after = await app.inject({ method: 'GET', url: `/api/products/${id}`, headers: bearer(alice) });
    expect(after.json()).toMatchObject({ hpoTermsSource: 'given', hpoTermCount: 0, hpoTerms: [] });
  });

  it('keeps a case whose symptoms name no term at 0 terms, given, and says so in the list', async () => {
    const res = await upload(alice, { fields: { caseId: 'CASE-NOTHING', gender: 'male', symptoms: 'Referred for testing.' } });
    expect(res.statusCode).toBe(202);
    const list = await app.inject({ method: 'GET', url: '/api/products', headers: bearer(alice) });
    const item = list.json<{ items: { caseId: string }[] }>().items.find((i) => i.caseId === 'CASE-NOTHING');
    expect(item).toMatchObject({ hpoTermCount: 0, hpoTermsSource: 'given' });
  });

  it('lists the case for its owner with status and progress', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/products', headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    const item = res.json<{ items: { id: string; caseId: string; status: string; isShared: boolean }[] }>().items.find((i) => i.id === productId);
    expect(item).toMatchObject({ caseId: 'CASE-1', name: 'CASE-1', status: 'Completed', isShared: false, isOwner: true });
  });

  it('shows details: files with detected formats, assembly, terms, run versions', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${productId}`, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    const d = res.json<{
      assembly: string;
      hpoTerms: { id: string }[];
      files: { role: string; format: string; compression: string | null; name: string }[];
      run: { softwareVersion: string; kbVersions: Record<string, string>; counts: Record<string, number> };
    }>();
    expect(d.assembly).toBe('GRCh38');
    expect(d.hpoTerms.map((t) => t.id)).toEqual(PFEIFFER_TERMS);
    expect(d.files).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ role: 'genome', format: 'vcf', compression: 'gzip', name: 'case.vcf.gz' }),
        expect.objectContaining({ role: 'attachment', format: 'png', compression: null, name: 'el_şğı_患者_🧬.png' }),
      ]),
    );
    expect(d.run.softwareVersion).toBe('fixture-1');
    expect(d.run.counts.variantsStored).toBe(2500);
  });

  it('ranks the gene matching the symptoms first, with symbol and rank on each row', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${productId}/genes`, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    const page = res.json<{ items: { symbol: string; rank: number; variantCount: number }[]; total: number; pageSize: number }>();
    expect(page.pageSize).toBe(10);
    expect(page.items[0]).toMatchObject({ symbol: 'FGFR2', rank: 1 });
    expect(page.items.map((g) => g.rank)).toEqual([1, 2, 3]);
    expect(page.items.find((g) => g.symbol === 'TTN')?.variantCount).toBeGreaterThan(800);
  });

  it('opens a gene by symbol with its variants', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${productId}/genes/fgfr2`, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    const g = res.json<{ symbol: string; name: string; phenotypeSource: unknown; variants: { gene: string }[] }>();
    expect(g.symbol).toBe('FGFR2');
    expect(g.phenotypeSource).toEqual({ source: 'annotations', disease: { id: 'FIXTURE:FGFR2', label: 'FGFR2 syndrome' } });
    expect(g.variants.length).toBeGreaterThan(0);
    expect(g.variants.every((v) => v.gene === 'FGFR2')).toBe(true);
    const missing = await app.inject({ method: 'GET', url: `/api/products/${productId}/genes/NOPE1`, headers: bearer(alice) });
    expect(missing.statusCode).toBe(404);
  });

  it('lists phenotypes and opens one', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${productId}/phenotypes?page=1&pageSize=5`, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    const page = res.json<{ items: { id: string; rank: number; genes: string[] }[] }>();
    expect(page.items[0]).toMatchObject({ id: 'FIXTURE:FGFR2', rank: 1, genes: ['FGFR2'], phenotypeSource: 'annotations' });
    const one = await app.inject({
      method: 'GET',
      url: `/api/products/${productId}/phenotypes/${encodeURIComponent('FIXTURE:FGFR2')}`,
      headers: bearer(alice),
    });
    expect(one.statusCode).toBe(200);
    expect(one.json<{ variants: { gene: string }[] }>().variants.every((v) => v.gene === 'FGFR2')).toBe(true);
    // Where its phenotype comes from, stored with the run (its HPO annotations here).
    expect(one.json<{ phenotypeSource: string | null }>().phenotypeSource).toBe('annotations');
  });

  it('pages variants in rank order (non-clustered) with the stored total', async () => {
    const p1 = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants?mode=non-clustered`, headers: bearer(alice) });
    const p2 = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants?mode=non-clustered&page=2`, headers: bearer(alice) });
    const a = p1.json<{ items: { rank: number; gene: string }[]; total: number }>();
    const b = p2.json<{ items: { rank: number }[] }>();
    expect(a.total).toBe(2500);
    expect(a.items.map((v) => v.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(b.items.map((v) => v.rank)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(a.items[0]?.gene).toBe('FGFR2');
  });

  it('pages by keyset: the nextCursor of a page, passed as after, gives the next offset page; null at the end', async () => {
    for (const q of ['mode=non-clustered', 'mode=filtered', 'mode=filtered&consequence=missense_variant,stop_gained']) {
      const url = (extra: string) => `/api/products/${productId}/variants?${q}&pageSize=100${extra}`;
      type Page = { items: { id: number }[]; total: number; nextCursor: string | null };
      let res = await app.inject({ method: 'GET', url: url('&page=1'), headers: bearer(alice) });
      let body = res.json<Page>();
      const seen = body.items.map((v) => v.id);
      for (let page = 2; body.nextCursor; page++) {
        const byOffset = await app.inject({ method: 'GET', url: url(`&page=${page}`), headers: bearer(alice) });
        res = await app.inject({ method: 'GET', url: url(`&page=${page}&after=${body.nextCursor}`), headers: bearer(alice) });
        expect(res.statusCode).toBe(200);
        body = res.json<Page>();
        expect(body.items.map((v) => v.id)).toEqual(byOffset.json<Page>().items.map((v) => v.id));
        seen.push(...body.items.map((v) => v.id));
      }
      expect(seen.length).toBe(body.total);
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it('refuses an after that is not a cursor of the list, naming the field', async () => {
    for (const after of ['nonsense', Buffer.from('[1,"x",2]').toString('base64url')]) {
      const res = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants?page=2&after=${after}`, headers: bearer(alice) });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ code: string; issues: { path: string[] }[] }>()).toMatchObject({ code: 'validation_failed', issues: [{ path: ['after'] }] });
    }
  });

  it('filters variants by consequence, frequency, ACMG class, zygosity and gene', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/products/${productId}/variants?mode=filtered&consequence=missense_variant&maxAf=0.01&acmg=Uncertain%20significance&zygosity=homozygous&gene=TTN,BRCA1&pageSize=100`,
      headers: bearer(alice),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ items: { consequence: string; af: number; acmg: string; zygosity: string; gene: string; rank: number }[]; total: number }>();
    expect(body.total).toBeGreaterThan(0);
    expect(body.items.length).toBe(Math.min(100, body.total));
    for (const v of body.items) {
      expect(v.consequence).toBe('missense_variant');
      expect(v.af).toBeLessThanOrEqual(0.01);
      expect(v.acmg).toBe('Uncertain significance');
      expect(v.zygosity).toBe('homozygous');
      expect(['TTN', 'BRCA1']).toContain(v.gene);
    }
    const ranks = body.items.map((v) => v.rank);
    expect([...ranks].sort((x, y) => x - y)).toEqual(ranks);
  });

  it('groups variants by gene in clustered mode, genes in rank order', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants?mode=clustered`, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ mode: string; total: number; items: { gene: { symbol: string; rank: number }; variantCount: number; variants: { gene: string }[] }[] }>();
    expect(body.mode).toBe('clustered');
    expect(body.total).toBe(3);
    expect(body.items[0]?.gene).toMatchObject({ symbol: 'FGFR2', rank: 1 });
    for (const c of body.items) {
      expect(c.variants.length).toBeLessThanOrEqual(20);
      expect(c.variants.every((v) => v.gene === c.gene.symbol)).toBe(true);
    }
  });

  it('rejects an invalid filter value with 400', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants?maxAf=3`, headers: bearer(alice) });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: string }>().code).toBe('validation_failed');
  });

  it('opens a variant with its evidence and input record', async () => {
    const list = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants`, headers: bearer(alice) });
    const first = list.json<{ items: { id: number }[] }>().items[0]!;
    const res = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants/${first.id}`, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    const v = res.json<{ input: { chrom: string; line: number }; acmgCriteria: { code: string; reason: string }[]; genotype: { gt: string } }>();
    expect(v.input.chrom).toBe('chr1');
    expect(v.input.line).toBeGreaterThan(9);
    expect(v.acmgCriteria[0]).toMatchObject({ code: 'PM2', reason: 'fixture criterion' });
    expect(['0/1', '1/1']).toContain(v.genotype.gt);
    // The engine's ranking filters, each step with its outcome and reason.
    const filters = res.json<{ rankingFilters: { id: string; passed: boolean; reason: string }[] }>().rankingFilters;
    expect(filters.map((f) => f.id)).toEqual(VARIANT_FILTERS.map((f) => f.id));
    expect(filters.every((f) => typeof f.passed === 'boolean' && f.reason.length > 0)).toBe(true);
    const missing = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants/999999`, headers: bearer(alice) });
    expect(missing.statusCode).toBe(404);
  });

  it('shows mitochondrial calls as homoplasmic or heteroplasmic with the read fraction, or level unknown; never hemizygous', async () => {
    const base = buildFixtureVcf(20, ['TTN', 'BRCA1', 'FGFR2']).trimEnd().split('\n');
    const header = base.filter((l) => l.startsWith('##'));
    const records = base.filter((l) => !l.startsWith('#'));
    const info = 'GENE=MT-TL1;CSQ=non_coding_transcript_exon_variant;AF=0.0005;ACMG=Uncertain_significance';
    const vcf = [
      ...header,
      '##contig=<ID=chrM,length=16569>',
      '##FORMAT=<ID=AD,Number=R,Type=Integer,Description="Allele depths">',
      '##FORMAT=<ID=AF,Number=A,Type=Float,Description="Allele fraction">',
      '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tPATIENT',
      ...records,
      `chrM\t3243\t.\tA\tG\t50\tPASS\t${info}\tGT:AF\t0/1:0.34`,
      `chrM\t3460\t.\tG\tA\t50\tPASS\t${info}\tGT:AD\t1:1,199`,
      `chrM\t8344\t.\tA\tG\t50\tPASS\t${info}\tGT\t1`,
    ].join('\n');
    const res = await upload(alice, { genome: { name: 'mito.vcf', content: `${vcf}\n` }, fields: { caseId: 'CASE-MT', gender: 'female', symptoms: 'Stroke-like episodes', hpoTerms: JSON.stringify(PFEIFFER_TERMS) } });
    expect(res.statusCode).toBe(202);
    const id = res.json<{ id: string }>().id;
    expect((await waitForStatus(app, bearer(alice), id, ['Completed', 'Error'], 60_000)).status).toBe('Completed');
    const list = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?gene=MT-TL1&pageSize=100`, headers: bearer(alice) });
    const items = list.json<{ items: { id: number; chrom: string; pos: number; zygosity: string }[] }>().items;
    expect([...items].sort((a, b) => a.pos - b.pos).map((v) => [v.chrom, v.pos, v.zygosity])).toEqual([['MT', 3243, 'heteroplasmic'], ['MT', 3460, 'homoplasmic'], ['MT', 8344, 'mitochondrial']]);
    const filtered = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?zygosity=heteroplasmic,homoplasmic&pageSize=100`, headers: bearer(alice) });
    expect(filtered.json<{ items: { pos: number }[] }>().items.map((v) => v.pos).sort((a, b) => a - b)).toEqual([3243, 3460]);
    const details = async (pos: number) =>
      (await app.inject({ method: 'GET', url: `/api/products/${id}/variants/${items.find((v) => v.pos === pos)!.id}`, headers: bearer(alice) })).json<{ genotype: { zygosity: string; heteroplasmy: number | null } }>().genotype;
    expect(await details(3243)).toMatchObject({ zygosity: 'heteroplasmic', heteroplasmy: 0.34 });
    expect(await details(3460)).toMatchObject({ zygosity: 'homoplasmic', heteroplasmy: 0.995 });
    expect(await details(8344)).toMatchObject({ zygosity: 'mitochondrial', heteroplasmy: null });
    await app.inject({ method: 'DELETE', url: `/api/products/${id}`, headers: bearer(alice) });
  });

  it('serves the case variants of a region as VCF for igv.js', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/products/${productId}/igv/variants.vcf?region=chr1:1000000-1000095`,
      headers: bearer(alice),
    });
    expect(res.statusCode).toBe(200);
    const records = res.body.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(res.body.startsWith('##fileformat=VCFv4.2')).toBe(true);
    expect(records).toHaveLength(10);
    expect(records[0]?.split('\t').slice(0, 2)).toEqual(['chr1', '1000000']);
    const tooBig = await app.inject({ method: 'GET', url: `/api/products/${productId}/igv/variants.vcf?region=1:1-9000000`, headers: bearer(alice) });
    expect(tooBig.statusCode).toBe(400);
  });

  it('downloads an additional file', async () => {
    const d = await app.inject({ method: 'GET', url: `/api/products/${productId}`, headers: bearer(alice) });
    const file = d.json<{ files: { id: string; role: string; sizeBytes: number }[] }>().files.find((f) => f.role === 'attachment')!;
    const res = await app.inject({ method: 'GET', url: `/api/products/${productId}/files/${file.id}`, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.length).toBe(file.sizeBytes);
    // Turkish, CJK and emoji names: an ASCII fallback and the exact name (RFC 6266 / 8187).
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toContain('attachment; filename="el_sgi_____.png"');
    expect(decodeURIComponent(/filename\*=UTF-8''(\S+)$/.exec(disposition)![1]!)).toBe('el_şğı_患者_🧬.png');
  });

  it('re-ranks from stored variants when the HPO terms change', async () => {
    const res = await putTerms(alice, productId, { hpoTerms: ['HP:0003002'], excludedTerms: [] });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ rerankQueued: boolean }>().rerankQueued).toBe(true);
    const deadline = Date.now() + 30_000;
    let top = '';
    while (Date.now() < deadline) {
      const genes = await app.inject({ method: 'GET', url: `/api/products/${productId}/genes`, headers: bearer(alice) });
      top = genes.json<{ items: { symbol: string }[] }>().items[0]?.symbol ?? '';
      if (top === 'BRCA1') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(top).toBe('BRCA1');
    const variants = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants?pageSize=1`, headers: bearer(alice) });
    expect(variants.json<{ items: { gene: string; rank: number }[]; total: number }>()).toMatchObject({
      total: 2500,
      items: [{ gene: 'BRCA1', rank: 1 }],
    });
    const run = await app.inject({ method: 'GET', url: `/api/products/${productId}`, headers: bearer(alice) });
    expect(run.json<{ run: { counts: Record<string, number> } }>().run.counts.variantsStored).toBe(2500);
  });

  it("keeps an age-of-onset term typed on the case and shows it as the case's onset", async () => {
    const rankedAt = async () => (await app.inject({ method: 'GET', url: `/api/products/${productId}`, headers: bearer(alice) })).json<{ run: { rankedAt: string | null } }>().run.rankedAt;
    const before = await rankedAt();
    const res = await putTerms(alice, productId, { hpoTerms: ['HP:0003002', 'HP:0003593'], excludedTerms: [] });
    expect(res.statusCode).toBe(200);
    const got = await app.inject({ method: 'GET', url: `/api/products/${productId}`, headers: bearer(alice) });
    expect(got.json<{ hpoTerms: unknown[] }>().hpoTerms).toEqual([
      { id: 'HP:0003002', label: 'Breast carcinoma' },
      { id: 'HP:0003593', label: 'Infantile onset', onset: true },
    ]);
    // the re-ranking it queued finishes before the next test
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await rankedAt()) === before) await new Promise((r) => setTimeout(r, 100));
    expect(await rankedAt()).not.toBe(before);
  });

  it('lets the owner share the case; the recipient sees it as shared but cannot edit it', async () => {
    const share = await app.inject({
      method: 'POST',
      url: `/api/products/${productId}/shares`,
      headers: bearer(alice),
      payload: { email: bob.email.toUpperCase() },
    });
    expect(share.statusCode).toBe(200);
    expect(share.json<{ emails: string[] }>().emails).toEqual([bob.email]);
    const list = await app.inject({ method: 'GET', url: '/api/products', headers: bearer(bob) });
    expect(list.json<{ items: { id: string; isShared: boolean; sharedBy: string }[] }>().items).toEqual([
      expect.objectContaining({ id: productId, isShared: true, isOwner: false, sharedBy: alice.email }),
    ]);
    const genes = await app.inject({ method: 'GET', url: `/api/products/${productId}/genes`, headers: bearer(bob) });
    expect(genes.statusCode).toBe(200);
    const edit = await putTerms(bob, productId, { hpoTerms: ['HP:0000001'] });
    expect(edit.statusCode).toBe(403);
    const ownerList = await app.inject({ method: 'GET', url: '/api/products', headers: bearer(alice) });
    expect(ownerList.json<{ items: { id: string; isShared: boolean }[] }>().items.find((i) => i.id === productId)?.isShared).toBe(true);
    const unshare = await app.inject({
      method: 'DELETE',
      url: `/api/products/${productId}/shares/${encodeURIComponent(bob.email)}`,
      headers: bearer(alice),
    });
    expect(unshare.statusCode).toBe(200);
    const after = await app.inject({ method: 'GET', url: `/api/products/${productId}`, headers: bearer(bob) });
    expect(after.statusCode).toBe(404);
  });

  it("answers 404 on every product route for another user's case", async () => {
    const urls = [
      ['GET', ''],
      ['GET', '/phenotypes'],
      ['GET', '/phenotypes/FIXTURE%3AFGFR2'],
      ['GET', '/genes'],
      ['GET', '/genes/FGFR2'],
      ['GET', '/variants'],
      ['GET', '/variants/1'],
      ['GET', '/igv/variants.vcf?region=1:1-100'],
      ['GET', '/igv/genes.bed?region=1:1-100'],
      ['GET', '/igv/clinvar.bed?region=1:1-100'],
      ['GET', '/files/00000000-0000-0000-0000-000000000000'],
      ['GET', '/shares'],
      ['PUT', '/phenotype-terms'],
      ['POST', '/shares'],
      ['DELETE', `/shares/${encodeURIComponent(alice.email)}`],
    ] as const;
    for (const [method, suffix] of urls) {
      const payload = method === 'PUT' ? { hpoTerms: ['HP:0000001'] } : method === 'POST' ? { email: bob.email } : undefined;
      const res = await app.inject({ method, url: `/api/products/${productId}${suffix}`, headers: bearer(bob), ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
    }
  });

  it('answers 401 on every route without a session', async () => {
    const urls = [
      ['POST', ''],
      ['GET', ''],
      ['GET', `/${productId}`],
      ['GET', `/${productId}/phenotypes`],
      ['GET', `/${productId}/phenotypes/X`],
      ['GET', `/${productId}/genes`],
      ['GET', `/${productId}/genes/FGFR2`],
      ['GET', `/${productId}/variants`],
      ['GET', `/${productId}/variants/1`],
      ['GET', `/${productId}/igv/variants.vcf?region=1:1-100`],
      ['GET', `/${productId}/files/x`],
      ['PUT', `/${productId}/phenotype-terms`],
      ['GET', `/${productId}/shares`],
      ['POST', `/${productId}/shares`],
      ['DELETE', `/${productId}/shares/a@b.c`],
    ] as const;
    for (const [method, suffix] of urls) {
      const res = await app.inject({ method, url: `/api/products${suffix}` });
      expect(res.statusCode, `${method} ${suffix}`).toBe(401);
    }
    const hpo = await app.inject({ method: 'GET', url: '/api/hpo/terms?q=thumb' });
    expect(hpo.statusCode).toBe(401);
  });

  it('answers 400 on malformed route input', async () => {
    const cases = [
      ['GET', `/${productId}/phenotypes?page=0`],
      ['GET', `/${productId}/genes?pageSize=1000`],
      ['GET', `/${productId}/variants?mode=sideways`],
      ['GET', `/${productId}/variants/abc`],
      ['GET', `/${productId}/igv/variants.vcf?region=nonsense`],
      ['GET', `/${productId}/igv/genes.bed`],
    ] as const;
    for (const [method, suffix] of cases) {
      const res = await app.inject({ method, url: `/api/products${suffix}`, headers: bearer(alice) });
      expect(res.statusCode, suffix).toBe(400);
    }
    const put = await putTerms(alice, productId, { hpoTerms: ['thumbs'] });
    expect(put.statusCode).toBe(400);
    const share = await app.inject({ method: 'POST', url: `/api/products/${productId}/shares`, headers: bearer(alice), payload: { email: 'nope' } });
    expect(share.statusCode).toBe(400);
    expect(share.json<{ message: string }>().message).toBe(Messages.invalidEmail);
    const hpo = await app.inject({ method: 'GET', url: '/api/hpo/terms?q=', headers: bearer(alice) });
    expect(hpo.statusCode).toBe(400);
  });
});

describe('upload validation', () => {
  function uploadsLeft(): string[] {
    const root = path.join(dataDir, 'uploads', 'products');
    if (!existsSync(root)) return [];
    return readdirSync(root).flatMap((d) => readdirSync(path.join(root, d)).map((f) => `${d}/${f}`));
  }

  it('says "This field is mandatory" for each missing required field, and stores nothing', async () => {
    const before = uploadsLeft();
    const res = await upload(alice, { fields: { caseId: '', symptoms: 'x' }, genome: null });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: string; issues: { path: string[]; message: string }[] }>();
    expect(body.code).toBe('validation_failed');
    const byField: Record<string, string> = Object.fromEntries(body.issues.map((i) => [String(i.path[0]), i.message]));
    expect(byField).toMatchObject({ caseId: Messages.mandatory, gender: Messages.mandatory, genomeFile: Messages.mandatory });
    expect(uploadsLeft()).toEqual(before);
  });

  it('refuses a sixth additional file with the spec message and keeps none of the files', async () => {
    const before = uploadsLeft();
    const pdf = { name: 'r.pdf', content: '%PDF-1.4\n' };
    const res = await upload(alice, { attachments: [pdf, pdf, pdf, pdf, pdf, pdf] });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(Messages.maxFiles);
    expect(uploadsLeft()).toEqual(before);
  });

  it('rejects a genome file that is not VCF or FASTQ, naming the problem', async () => {
    const res = await upload(alice, { genome: { name: 'notes.txt', content: 'hello world\n' } });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: string; message: string }>();
    expect(body.code).toBe('invalid_upload');
    expect(body.message).toMatch(/notes\.txt: not a VCF or FASTQ file.*"hello world"/);
  });

  it('rejects an unsupported additional file type', async () => {
    const res = await upload(alice, { attachments: [{ name: 'run.exe', content: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0, 0, 0]) }] });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/run\.exe: unsupported file type/);
  });

  it('answers 413 for a file over UPLOAD_MAX_BYTES and leaves nothing behind', async () => {
    const before = uploadsLeft();
    const big = buildFixtureVcf(60_000, ['TTN']);
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await upload(alice, { genome: { name: 'big.vcf', content: big } });
    expect(res.statusCode).toBe(413);
    expect(uploadsLeft()).toEqual(before);
  });

  it('answers 415 when the body is not multipart', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/products', headers: bearer(alice), payload: { caseId: 'x' } });
    expect(res.statusCode).toBe(415);
  });

  it('refuses a VCF whose first records are malformed at upload, naming the file and line, and keeps nothing', async () => {
    const before = await app.inject({ method: 'GET', url: '/api/products', headers: bearer(alice) });
    const good = buildFixtureVcf(20, ['TTN']);
    const lines = good.trimEnd().split('\n');
    lines.splice(15, 0, 'chr1\tnot-a-position\t.\tA\tG\t50\tPASS\t.\tGT\t0/1');
    const res = await upload(alice, { genome: { name: 'broken.vcf', content: `${lines.join('\n')}\n` } });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: string; issues: { path: string[]; message: string }[] }>();
    expect(body.code).toBe(ErrorCode.validationFailed);
    expect(body.issues[0]!.path).toEqual(['genomeFile']);
    expect(body.issues[0]!.message).toMatch(/^broken\.vcf:16: /);
    const after = await app.inject({ method: 'GET', url: '/api/products', headers: bearer(alice) });
    expect(after.json<{ items: unknown[] }>().items).toHaveLength(before.json<{ items: unknown[] }>().items.length);
  });

  it('takes a VCF malformed past the checked records to Error at once, naming the line, never "unexpected"', async () => {
    const good = buildFixtureVcf(2 * CHECKED_RECORDS, ['TTN']);
    const lines = good.trimEnd().split('\n');
    const at = lines.length - 20;
    lines.splice(at, 0, 'chr1\tnot-a-position\t.\tA\tG\t50\tPASS\t.\tGT\t0/1');
    const res = await upload(alice, { genome: { name: 'late.vcf', content: `${lines.join('\n')}\n` } });
    expect(res.statusCode).toBe(202);
    const started = Date.now();
    const done = await waitForStatus(app, bearer(alice), res.json<{ id: string }>().id, ['Completed', 'Error'], 60_000);
    expect(done.status).toBe('Error');
    expect(done.error?.message).toBe('An error occurred');
    expect(done.error?.reason).toMatch(new RegExp(`^late\\.vcf:${at + 1}: `));
    expect(done.error?.reason).not.toMatch(/unexpected/i);
    // An input error is not retried (retries back off for seconds).
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('accepts a FASTQ upload and, with no reference configured, ends it in Error naming the variables', async () => {
    const fastq = gzipSync('@r1\nACGT\n+\nIIII\n@r2\nTTTT\n+\nIIII\n');
    const res = await upload(alice, { genome: { name: 'reads.fastq.gz', content: fastq } });
    expect(res.statusCode).toBe(202);
    const done = await waitForStatus(app, bearer(alice), res.json<{ id: string }>().id, ['Completed', 'Error'], 30_000);
    expect(done.status).toBe('Error');
    expect(done.error?.reason).toMatch(/^No reference genome to align the reads to: set RARELENS_REFERENCE .*RARELENS_SOURCES/);
    const d = await app.inject({ method: 'GET', url: `/api/products/${res.json<{ id: string }>().id}`, headers: bearer(alice) });
    expect(d.json<{ genomeFormat: string; files: { format: string }[] }>()).toMatchObject({ genomeFormat: 'fastq', files: [{ format: 'fastq' }] });
  });
});
