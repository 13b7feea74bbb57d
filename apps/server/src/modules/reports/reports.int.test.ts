/**
 * Reporting list, clinical report, phenopacket and TSV export over HTTP against a real
 * PostgreSQL. A small VCF cut from the Pfeiffer exome (GRCh37, with the spiked FGFR2 variant) is
 * analysed by the real engine when a KB is built (RARELENS_KB, default ./data/kb), else by the
 * fixture engine; the PDF is checked with pdftotext and rendered with pdftoppm.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, formatGeneScore, formatProbability, Messages, Phenopacket, type GeneDetails } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/database.ts';
import { createFixtureEngine } from '../../jobs/testing/fixture-engine.ts';
import { buildFixtureVcf } from '../../jobs/testing/fixture-vcf.ts';
import { bearer, signUpAndLogIn } from '../../testing/helpers.ts';
import { hasRealEngine, kbDir, smallPfeifferVcf } from '../../testing/pfeiffer-vcf.ts';
import type { SmtpInbox } from '../../testing/smtp-inbox.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';
import { CHECKED_RECORDS } from '../cases/genome-check.ts';
import { cursorAfter, diseasesForGenes, variantsAfter, type VariantCursor } from './reports.repository.ts';
import { testOntology } from '../../testing/test-ontology.ts';

const realEngine = hasRealEngine;

const TERMS = ['HP:0000244', 'HP:0011304', 'HP:0001770'];
const EXCLUDED = ['HP:0001250'];

let testApp: TestApp | undefined;
let inbox: SmtpInbox;
let app: FastifyInstance;
let dataDir: string;
let alice: { token: string; email: string };
let bob: { token: string; email: string };
let carol: { token: string; email: string };
let productId: string;

interface Variant {
  id: number;
  gene: string | null;
  hgvsC: string | null;
  hgvsP: string | null;
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  zygosity: string;
  acmg: string;
}

beforeAll(async () => {
  const fixture = createFixtureEngine({ genePhenotypes: { FGFR2: TERMS, BRCA1: ['HP:0003002'], TTN: [] } });
  testApp = await createTestApp({
    name: 'reports',
    kb: realEngine ? kbDir : 'none',
    cases: {
      ...(realEngine ? {} : { engine: () => Promise.resolve(fixture), ontology: testOntology }),
      jobs: { inProcessWorker: true, pollMs: 100 },
    },
  });
  ({ app, inbox, dataDir } = testApp);
  [alice, bob, carol] = await Promise.all([signUpAndLogIn(app, inbox), signUpAndLogIn(app, inbox), signUpAndLogIn(app, inbox)]);

  const vcf = realEngine ? smallPfeifferVcf() : buildFixtureVcf(400, ['TTN', 'BRCA1', 'FGFR2']);
  const { body, contentType } = multipartBody(
    {
      caseId: 'RPT-001',
      gender: 'male',
      symptoms: 'Tower-shaped skull, broad thumbs and great toes, syndactyly',
      hpoTerms: JSON.stringify(TERMS),
      excludedTerms: JSON.stringify(EXCLUDED),
      assembly: 'auto',
    },
    [{ field: 'genomeFile', name: 'pfeiffer-small.vcf', content: vcf }],
  );
  const res = await app.inject({ method: 'POST', url: '/api/products', headers: { ...bearer(alice), 'content-type': contentType }, payload: body });
  if (res.statusCode !== 202) throw new Error(`upload failed: ${res.body}`);
  productId = res.json<{ id: string }>().id;
  const done = await waitForStatus(app, bearer(alice), productId, ['Completed', 'Error'], 240_000);
  if (done.status !== 'Completed') throw new Error(`analysis ended ${done.status}: ${JSON.stringify(done.error)}`);
}, 300_000);

afterAll(async () => {
  await testApp?.close();
});

async function topVariants(n: number, query = ''): Promise<Variant[]> {
  const res = await app.inject({ method: 'GET', url: `/api/products/${productId}/variants?pageSize=${n}${query}`, headers: bearer(alice) });
  expect(res.statusCode).toBe(200);
  return res.json<{ items: Variant[] }>().items;
}

const base = () => `/api/products/${productId}`;
const someUuid = '00000000-0000-4000-8000-000000000000';

describe('access to the reporting routes', () => {
  const routes = () => [
    { method: 'GET' as const, url: `${base()}/report-items` },
    { method: 'POST' as const, url: `${base()}/report-items`, payload: { variantId: 1 } },
    { method: 'DELETE' as const, url: `${base()}/report-items` },
    { method: 'DELETE' as const, url: `${base()}/report-items/${someUuid}` },
    { method: 'POST' as const, url: `${base()}/reports`, payload: {} },
    { method: 'GET' as const, url: `${base()}/reports` },
    { method: 'GET' as const, url: `${base()}/reports/${someUuid}` },
    { method: 'GET' as const, url: `${base()}/phenopacket` },
    { method: 'GET' as const, url: `${base()}/variants.tsv` },
  ];

  it('answers 401 on every route without a session', async () => {
    for (const r of routes()) {
      const res = await app.inject(r);
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
    }
  });

  it("answers 404 on every route for another user's case, and changes nothing", async () => {
    for (const r of routes()) {
      const res = await app.inject({ ...r, headers: bearer(bob) });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(404);
      expect(res.json<{ code: string }>().code).toBe(ErrorCode.productNotFound);
    }
  });

  it('answers 400 for malformed ids and bodies on every route', async () => {
    const bad = [
      { method: 'GET' as const, url: '/api/products/not-a-uuid/report-items' },
      { method: 'POST' as const, url: `${base()}/report-items`, payload: { variantId: 'first' } },
      { method: 'POST' as const, url: `${base()}/report-items`, payload: {} },
      { method: 'DELETE' as const, url: '/api/products/not-a-uuid/report-items' },
      { method: 'DELETE' as const, url: `${base()}/report-items/42` },
      { method: 'POST' as const, url: `${base()}/reports`, payload: { interpretation: 42 } },
      { method: 'POST' as const, url: `${base()}/reports`, payload: { interpretation: 'x'.repeat(20_001) } },
      { method: 'GET' as const, url: '/api/products/not-a-uuid/reports' },
      { method: 'GET' as const, url: `${base()}/reports/latest` },
      { method: 'GET' as const, url: '/api/products/not-a-uuid/phenopacket' },
      { method: 'GET' as const, url: `${base()}/variants.tsv?maxAf=5` },
      { method: 'GET' as const, url: `${base()}/variants.tsv?acmg=Dubious` },
    ];
    for (const r of bad) {
      const res = await app.inject({ ...r, headers: bearer(alice) });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(400);
      expect(res.json<{ code: string }>().code).toBe(ErrorCode.validationFailed);
    }
  });
});

describe('a case without a completed analysis', () => {
  it('has nothing to add and refuses a report with 409, while the list and exports still answer', async () => {
    // Malformed past the records checked at upload, so the case is queued and ends in Error.
    const records = Array.from({ length: 2 * CHECKED_RECORDS }, (_, i) => `10\t${100_000 + i * 10}\t.\tT\tG\t50\tPASS\t.`);
    const broken = ['##fileformat=VCFv4.2', '##contig=<ID=10,length=133797422>', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO', ...records, '10\tnot-a-position\t.\tT\tG\t50\tPASS\t.', ''].join('\n');
    const { body, contentType } = multipartBody(
      { caseId: 'RPT-ERR', gender: 'female', symptoms: 'Broad thumbs', hpoTerms: JSON.stringify([...TERMS, 'HP:0011463', 'HP:0003593']), assembly: 'GRCh38' },
      [{ field: 'genomeFile', name: 'broken.vcf', content: broken }],
    );
    const res = await app.inject({ method: 'POST', url: '/api/products', headers: { ...bearer(alice), 'content-type': contentType }, payload: body });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json<{ id: string }>().id;
    const done = await waitForStatus(app, bearer(alice), id, ['Completed', 'Error'], 120_000);
    expect(done.status).toBe('Error');

    const add = await app.inject({ method: 'POST', url: `/api/products/${id}/report-items`, headers: bearer(alice), payload: { variantId: 1 } });
    expect(add.statusCode).toBe(404);
    const report = await app.inject({ method: 'POST', url: `/api/products/${id}/reports`, headers: bearer(alice), payload: {} });
    expect(report.statusCode).toBe(409);
    expect(report.json<{ message: string }>().message).toBe('The case has no completed analysis to report on yet');
    const list = await app.inject({ method: 'GET', url: `/api/products/${id}/report-items`, headers: bearer(alice) });
    expect(list.json<{ items: unknown[] }>().items).toEqual([]);
    const tsv = await app.inject({ method: 'GET', url: `/api/products/${id}/variants.tsv`, headers: bearer(alice) });
    expect(tsv.statusCode).toBe(200);
    expect(tsv.body.split('\n').filter(Boolean)).toHaveLength(1);
    const packet = await app.inject({ method: 'GET', url: `/api/products/${id}/phenopacket`, headers: bearer(alice) });
    const parsed = Phenopacket.safeParse(packet.json());
    expect(parsed.error?.issues ?? []).toEqual([]);
    // The stated onsets are not features; the disease's onset is the earliest (Infantile, listed after
    // Childhood onset), the one the ranking scores (engine patientOnset).
    expect(parsed.data!.phenotypicFeatures.filter((f) => !f.excluded).map((f) => f.type.id)).toEqual(TERMS);
    expect(parsed.data!.diseases?.map((d) => d.onset?.ontologyClass.id)).toEqual(['HP:0003593']);
  });
});

describe('the reporting list', () => {
  it('adds a variant ("Item added"), refuses it a second time with 409, and lists it after a reload', async () => {
    const [v] = await topVariants(1);
    const add = await app.inject({ method: 'POST', url: `${base()}/report-items`, headers: bearer(alice), payload: { variantId: v!.id } });
    expect(add.statusCode).toBe(201);
    expect(add.json<{ message: string; item: { variant: { id: number } } }>()).toMatchObject({ message: Messages.itemAdded, item: { variant: { id: v!.id } } });

    const again = await app.inject({ method: 'POST', url: `${base()}/report-items`, headers: bearer(alice), payload: { variantId: v!.id } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: ErrorCode.variantAlreadyInReport, message: Messages.variantAlreadyInList });

    const list = await app.inject({ method: 'GET', url: `${base()}/report-items`, headers: bearer(alice) });
    expect(list.statusCode).toBe(200);
    const body = list.json<{ items: { id: string; addedBy: string; variant: Variant; locus: { pos: number } }[]; draftInterpretation: string }>();
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({ addedBy: alice.email, variant: { id: v!.id, chrom: v!.chrom, pos: v!.pos }, locus: { pos: v!.pos } });
    expect(body.draftInterpretation).toContain(v!.zygosity);
  });

  it('answers 404 for a variant the case does not have', async () => {
    const res = await app.inject({ method: 'POST', url: `${base()}/report-items`, headers: bearer(alice), payload: { variantId: 9_999_999 } });
    expect(res.statusCode).toBe(404);
  });

  it('is shared with the users the case is shared with', async () => {
    const share = await app.inject({ method: 'POST', url: `${base()}/shares`, headers: bearer(alice), payload: { email: carol.email } });
    expect(share.statusCode).toBe(200);
    const list = await app.inject({ method: 'GET', url: `${base()}/report-items`, headers: bearer(carol) });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ items: unknown[] }>().items).toHaveLength(1);
  });

  it('removes an item ("Item removed") and then answers 404 for it', async () => {
    const list = await app.inject({ method: 'GET', url: `${base()}/report-items`, headers: bearer(alice) });
    const [item] = list.json<{ items: { id: string }[] }>().items;
    const del = await app.inject({ method: 'DELETE', url: `${base()}/report-items/${item!.id}`, headers: bearer(alice) });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: Messages.itemRemoved });
    const again = await app.inject({ method: 'DELETE', url: `${base()}/report-items/${item!.id}`, headers: bearer(alice) });
    expect(again.statusCode).toBe(404);
    const after = await app.inject({ method: 'GET', url: `${base()}/report-items`, headers: bearer(alice) });
    expect(after.json<{ items: unknown[] }>().items).toHaveLength(0);
  });

  it('clears the list ("Reporting list cleared")', async () => {
    for (const v of await topVariants(3)) {
      const add = await app.inject({ method: 'POST', url: `${base()}/report-items`, headers: bearer(alice), payload: { variantId: v.id } });
      expect(add.statusCode).toBe(201);
    }
    const before = await app.inject({ method: 'GET', url: `${base()}/report-items`, headers: bearer(alice) });
    expect(before.json<{ items: unknown[] }>().items).toHaveLength(3);
    // A user the case is shared with reads the list but cannot change it.
    const refused = await app.inject({ method: 'DELETE', url: `${base()}/report-items`, headers: bearer(carol) });
    expect(refused.statusCode).toBe(403);
    const still = await app.inject({ method: 'GET', url: `${base()}/report-items`, headers: bearer(carol) });
    expect(still.json<{ items: unknown[] }>().items).toHaveLength(3);
    const clear = await app.inject({ method: 'DELETE', url: `${base()}/report-items`, headers: bearer(alice) });
    expect(clear.statusCode).toBe(200);
    expect(clear.json()).toEqual({ message: Messages.reportingListCleared });
    const after = await app.inject({ method: 'GET', url: `${base()}/report-items`, headers: bearer(alice) });
    expect(after.json<{ items: unknown[] }>().items).toHaveLength(0);
  });
});

describe('the clinical report and exports', () => {
  let selected: Variant[];
  let kbVersions: Record<string, string>;
  let pdf: Buffer;
  let reportId: string;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'rarelens-report-pdf-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  beforeAll(async () => {
    const fgfr2 = await topVariants(1, '&gene=FGFR2&mode=filtered');
    const others = (await topVariants(6)).filter((v) => v.gene && v.gene !== 'FGFR2').slice(0, 2);
    selected = [...fgfr2, ...others];
    for (const v of selected) {
      const add = await app.inject({ method: 'POST', url: `${base()}/report-items`, headers: bearer(alice), payload: { variantId: v.id } });
      expect(add.statusCode).toBe(201);
    }
    const details = await app.inject({ method: 'GET', url: base(), headers: bearer(alice) });
    kbVersions = details.json<{ run: { kbVersions: Record<string, string> } }>().run.kbVersions;
  });

  it('answers the PDF as an attachment and stores it', async () => {
    expect(selected.length).toBeGreaterThanOrEqual(2);
    if (realEngine) expect(selected[0]).toMatchObject({ gene: 'FGFR2' });
    const res = await app.inject({
      method: 'POST',
      url: `${base()}/reports`,
      headers: bearer(alice),
      payload: { interpretation: 'Edited interpretation: the FGFR2 finding explains the craniosynostosis.' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="RareLens-report-RPT-001-\d{8}-\d{4}\.pdf"/);
    pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    reportId = String(res.headers['x-report-id']);

    const list = await app.inject({ method: 'GET', url: `${base()}/reports`, headers: bearer(carol) });
    expect(list.statusCode).toBe(200);
    const items = list.json<{ items: { id: string; createdAt: string; variantCount: number; sizeBytes: number }[] }>().items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: reportId, variantCount: selected.length, sizeBytes: pdf.length });
    expect(Date.now() - Date.parse(items[0]!.createdAt)).toBeLessThan(120_000);

    const again = await app.inject({ method: 'GET', url: `${base()}/reports/${reportId}`, headers: bearer(alice) });
    expect(again.statusCode).toBe(200);
    expect(again.headers['content-type']).toBe('application/pdf');
    expect(createHash('sha256').update(again.rawPayload).digest('hex')).toBe(createHash('sha256').update(pdf).digest('hex'));

    const missing = await app.inject({ method: 'GET', url: `${base()}/reports/${someUuid}`, headers: bearer(alice) });
    expect(missing.statusCode).toBe(404);
  });

  it('lists each selected gene with the rank, post-test probability and score (log10) the gene page shows', async () => {
    const file = path.join(tmp, 'genes-report.pdf');
    writeFileSync(file, pdf);
    const flat = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(flat).toContain('GENES IN THE RANKING');
    let ranked = 0;
    const symbols = [...new Set(selected.flatMap((v) => (v.gene ? [v.gene] : [])))];
    expect(symbols.length).toBeGreaterThan(0);
    for (const symbol of symbols) {
      const res = await app.inject({ method: 'GET', url: `${base()}/genes/${symbol}`, headers: bearer(alice) });
      if (res.statusCode === 404) continue;
      const g = res.json<GeneDetails>();
      const probability = g.probability === null ? 'not computed (ranked before it existed)' : formatProbability(g.probability);
      expect(flat).toContain(`${g.symbol} ${g.rank} ${probability} ${formatGeneScore(g.score)}`);
      ranked++;
    }
    expect(ranked).toBeGreaterThan(0);
  });

  it("holds each selected variant's gene and HGVS, the KB versions and the edited interpretation as text", () => {
    const file = path.join(tmp, 'report.pdf');
    writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    const flat = text.replace(/\s+/g, ' ');
    for (const v of selected) {
      expect(flat).toContain(v.gene!);
      if (v.hgvsC) expect(flat).toContain(v.hgvsC.includes(':') ? v.hgvsC.slice(v.hgvsC.indexOf(':') + 1) : v.hgvsC);
      if (v.hgvsP) expect(flat).toContain(v.hgvsP.includes(':') ? v.hgvsP.slice(v.hgvsP.indexOf(':') + 1) : v.hgvsP);
    }
    if (realEngine) expect(selected.some((v) => v.hgvsC)).toBe(true);
    const hpo = kbVersions.hpo ?? kbVersions['hpo-ontology'];
    expect(hpo).toBeTruthy();
    expect(flat).toContain(`HPO release ${hpo}`);
    const clinvar = Object.entries(kbVersions).filter(([k]) => k.startsWith('clinvar'));
    expect(clinvar.length).toBeGreaterThan(0);
    for (const [, version] of clinvar) expect(flat).toContain(version);
    expect(flat).toContain('Edited interpretation: the FGFR2 finding explains the craniosynostosis.');
    expect(flat).toContain('Case RPT-001');
    expect(flat).toMatch(/Page 1 of (\d+)/);
    const pages = Number(/Page 1 of (\d+)/.exec(flat)![1]);
    expect(flat).toContain(`Page ${pages} of ${pages}`);
    for (const heading of ['PATIENT AND REFERRAL', 'VARIANTS', 'ASSOCIATED DISEASES', 'INTERPRETATION', 'TEST AND METHOD', 'LIMITATIONS', 'REFERENCES', 'SIGN-OFF']) {
      expect(flat).toContain(heading);
    }
    expect(flat).toContain('Reviewing clinical scientist');
    expect(flat).toContain('HP:0011304');
    if (realEngine) expect(flat).toContain('Broad thumb');
  });

  it('renders to PNG with pdftoppm', () => {
    const file = path.join(tmp, 'render.pdf');
    writeFileSync(file, pdf);
    const out = path.join(tmp, 'page');
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', file, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    const png = readFileSync(`${out}-1.png`);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.length).toBeGreaterThan(5_000);
    if (process.env.RARELENS_KEEP_REPORT) writeFileSync(process.env.RARELENS_KEEP_REPORT, pdf);
  });

  it('writes the drafted interpretation, the finding that fits the phenotype first, into the PDF', async () => {
    const list = await app.inject({ method: 'GET', url: `${base()}/report-items`, headers: bearer(alice) });
    const draft = list.json<{ draftInterpretation: string }>().draftInterpretation;
    const findings = draft.split('\n\n').slice(0, -1);
    const closing = draft.split('\n\n').at(-1)!;
    expect(findings).toHaveLength(selected.length);
    // Each finding says whether it explains the clinical presentation; the summary claims no fit for them all.
    for (const f of findings) expect(f).toMatch(/consistent with the clinical presentation|This finding is not known to explain the clinical presentation\./);
    expect(closing).not.toContain('consistent with the clinical presentation');
    const fitting = findings.map((f) => !f.includes('not known to explain'));
    expect(fitting).toEqual([...fitting].sort((a, b) => Number(b) - Number(a)));
    if (realEngine) {
      expect(findings[0]).toMatch(/ was identified in FGFR2\./);
      expect(findings[0]).toContain('FGFR2 is associated with Apert syndrome');
      expect(fitting[0]).toBe(true);
    }
    const res = await app.inject({ method: 'POST', url: `${base()}/reports`, headers: bearer(alice), payload: {} });
    expect(res.statusCode).toBe(201);
    const file = path.join(tmp, 'draft.pdf');
    writeFileSync(file, res.rawPayload);
    const flat = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    const section = flat.slice(flat.indexOf('INTERPRETATION'), flat.indexOf('TEST AND METHOD'));
    const flatDraft = draft.replace(/\s+/g, ' ');
    expect(section).toContain(flatDraft.slice(0, 120));
    expect(section).toContain(closing.replace(/\s+/g, ' ').slice(-80));
    // The variant table and the evidence list the findings in the interpretation's order (the report never leads with one finding in its text and another in its tables).
    const genes = [...new Set(findings.map((f) => / was identified in (\S+?)\./.exec(f)?.[1] ?? ''))];
    const orderIn = (part: string) => [...genes].sort((a, b) => part.indexOf(` ${a} `) - part.indexOf(` ${b} `));
    const table = flat.slice(flat.indexOf('Transcript / HGVS'), flat.indexOf('VARIANT EVIDENCE'));
    const evidence = flat.slice(flat.indexOf('VARIANT EVIDENCE'), flat.indexOf('ASSOCIATED DISEASES'));
    for (const g of genes) expect(table).toContain(` ${g} `);
    expect(orderIn(table)).toEqual(genes);
    expect(orderIn(evidence)).toEqual(genes);
    expect(table).toContain('Variants are listed in the order of the interpretation');
  });

  it("lists the diseases of the selected genes best first, with every gene's best disease beyond the limit", async () => {
    const details = await app.inject({ method: 'GET', url: base(), headers: bearer(alice) });
    const runId = details.json<{ run: { id: string } }>().run.id;
    const genes = [...new Set(selected.map((v) => v.gene!))];
    const database = await createDatabase({ databaseUrl: process.env.DATABASE_URL, pgliteDir: path.join(dataDir, 'unused') });
    try {
      const all = await diseasesForGenes(database.db, runId, genes, 10_000);
      const bestOfEach = genes.flatMap((g) => all.find((d) => d.genes.includes(g)) ?? []);
      const expected = [...new Map([all[0]!, ...bestOfEach].map((d) => [d.diseaseId, d])).values()].sort((a, b) => a.rank - b.rank);
      if (realEngine) expect(expected.length).toBeGreaterThan(1);
      expect((await diseasesForGenes(database.db, runId, genes, 1)).map((d) => d.diseaseId)).toEqual(expected.map((d) => d.diseaseId));
    } finally {
      await database.close();
    }
  });

  it('exports a Phenopacket v2 with observed and excluded HPO terms and the selected variants', async () => {
    const res = await app.inject({ method: 'GET', url: `${base()}/phenopacket`, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="RPT-001\.phenopacket\.json"/);
    const parsed = Phenopacket.safeParse(res.json());
    expect(parsed.error?.issues ?? []).toEqual([]);
    const packet = parsed.data!;
    expect(packet.subject).toEqual({ id: 'RPT-001', sex: 'MALE' });
    expect(packet.phenotypicFeatures.filter((f) => !f.excluded).map((f) => f.type.id)).toEqual(TERMS);
    expect(packet.phenotypicFeatures.filter((f) => f.excluded).map((f) => f.type.id)).toEqual(EXCLUDED);
    const gis = packet.interpretations[0]!.diagnosis.genomicInterpretations;
    expect(gis.map((g) => g.variantInterpretation.variationDescriptor.vcfRecord)).toEqual(
      selected.map((v) => ({ genomeAssembly: 'GRCh38', chrom: v.chrom, pos: String(v.pos), ref: v.ref, alt: v.alt })),
    );
    for (const [i, g] of gis.entries()) {
      const v = selected[i]!;
      const d = g.variantInterpretation.variationDescriptor;
      expect(d.geneContext?.symbol).toBe(v.gene);
      if (v.zygosity === 'heterozygous') expect(d.allelicState).toEqual({ id: 'GENO:0000135', label: 'heterozygous' });
      if (v.hgvsC) expect(d.expressions?.find((e) => e.syntax === 'hgvs.c')?.value).toContain(v.hgvsC.replace(/^.*:/, ''));
    }
    const hp = packet.metaData.resources.find((r) => r.id === 'hp');
    expect(hp?.version).toBe(kbVersions.hpo ?? kbVersions['hpo-ontology']);
    expect(packet.metaData.phenopacketSchemaVersion).toBe('2.0');
  });

  it('exports the variant list as TSV, unfiltered and with the list filters', async () => {
    const all = await app.inject({ method: 'GET', url: `${base()}/variants.tsv`, headers: bearer(alice) });
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toMatch(/^text\/tab-separated-values/);
    const lines = all.body.trimEnd().split('\n');
    const header = lines[0]!.split('\t');
    expect(header.slice(0, 7)).toEqual(['rank', 'variant_id', 'assembly', 'chrom', 'pos', 'ref', 'alt']);
    expect(header).toContain('hgvs_c');
    expect(header).toContain('acmg_class');
    const listed = await app.inject({ method: 'GET', url: `${base()}/variants?pageSize=1`, headers: bearer(alice) });
    expect(lines.length - 1).toBe(listed.json<{ total: number }>().total);
    expect(lines.slice(1).every((l) => l.split('\t').length === header.length)).toBe(true);
    // Same order as the list: the first rows are the list's first page.
    const firstPage = await topVariants(5);
    expect(lines.slice(1, 6).map((l) => Number(l.split('\t')[1]))).toEqual(firstPage.map((v) => v.id));

    const gene = selected[0]!.gene!;
    const filtered = await app.inject({ method: 'GET', url: `${base()}/variants.tsv?gene=${gene}&mode=filtered`, headers: bearer(alice) });
    const rows = filtered.body.trimEnd().split('\n').slice(1);
    const geneCol = header.indexOf('gene');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.split('\t')[geneCol] === gene)).toBe(true);
    const count = await app.inject({ method: 'GET', url: `${base()}/variants?gene=${gene}&mode=filtered&pageSize=1`, headers: bearer(alice) });
    expect(rows.length).toBe(count.json<{ total: number }>().total);
  });

  it('pages the export with a keyset in exactly the list order (ranked candidates, then the rest by score)', async () => {
    const listed: number[] = [];
    for (let page = 1; ; page++) {
      const res = await app.inject({ method: 'GET', url: `${base()}/variants?pageSize=100&page=${page}`, headers: bearer(alice) });
      const items = res.json<{ items: Variant[] }>().items;
      listed.push(...items.map((v) => v.id));
      if (items.length < 100) break;
    }
    const details = await app.inject({ method: 'GET', url: base(), headers: bearer(alice) });
    const runId = details.json<{ run: { id: string } }>().run.id;
    const database = await createDatabase({ databaseUrl: process.env.DATABASE_URL, pgliteDir: path.join(dataDir, 'unused') });
    try {
      const paged: number[] = [];
      let cursor: VariantCursor = null;
      let batches = 0;
      for (;;) {
        const rows = await variantsAfter(database.db, runId, {}, cursor, 7);
        batches++;
        const last = rows[rows.length - 1];
        if (!last) break;
        paged.push(...rows.map((r) => r.id));
        cursor = cursorAfter(last);
      }
      expect(batches).toBeGreaterThan(10);
      expect(paged).toEqual(listed);
      expect(new Set(paged).size).toBe(paged.length);
    } finally {
      await database.close();
    }
  });
});
