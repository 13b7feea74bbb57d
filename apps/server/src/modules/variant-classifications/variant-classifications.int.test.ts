/**
 * Issue 17 item 6 on the real Pfeiffer exome (GRCh37, spiked FGFR2 10:123256215 T>G), uploaded
 * through the API and analysed by the real engine: ClinVar's assertion (stars, review status,
 * release, link) beside the ACMG class on every variant screen, PM5 from ClinVar's pathogenic
 * missense at the same codon, and the reviewer's class set by the owner (mandatory reason),
 * read by a user the case is shared with, refused to others, and recorded in the PDF report.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ClinvarAssertion, ReviewerClassification, VariantDetails, VariantRow } from '@rarelens/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/database.ts';
import { engineTestReady, useEngineApp, type EngineApp } from '../../testing/engine-app.ts';
import { uploadPfeifferExome } from '../../testing/pfeiffer-vcf.ts';

const ready = engineTestReady('vcf/Pfeiffer.hg19.vcf.gz');
/** Pfeiffer syndrome (OMIM:101600) features. */
/** The spiked allele on GRCh38 (GRCh37 10:123256215 T>G). */
const FGFR2 = { chrom: '10', pos: 121496701, ref: 'T', alt: 'G' };

let engine: EngineApp;
let app: FastifyInstance;
let owner: Record<string, string>;
let shared: Record<string, string>;
let stranger: Record<string, string>;
let caseId: string;
let variant: VariantDetails;

const url = (variantId: number | string = variant.id) => `/api/products/${caseId}/variants/${variantId}/classification`;

describe.skipIf(!ready)('ClinVar evidence and the reviewer classification on the Pfeiffer exome', () => {
  useEngineApp('evidence', async (started) => {
    engine = started;
    ({ app, auth: owner } = engine);
    const s = await engine.signUp();
    shared = s.auth;
    stranger = (await engine.signUp()).auth;
    const uploaded = await uploadPfeifferExome(app, owner, 'PFEIFFER-EVIDENCE', 'Tower-shaped skull, broad thumbs and great toes');
    caseId = uploaded.id;
    expect(uploaded.done.status).toBe('Completed');
    const share = await app.inject({ method: 'POST', url: `/api/products/${caseId}/shares`, headers: owner, payload: { email: s.email } });
    expect(share.statusCode).toBe(200);
    const list = await app.inject({ method: 'GET', url: `/api/products/${caseId}/variants?mode=filtered&gene=FGFR2`, headers: owner });
    const row = list.json<{ items: VariantRow[] }>().items.find((v) => v.pos === FGFR2.pos && v.ref === FGFR2.ref && v.alt === FGFR2.alt);
    expect(row).toBeDefined();
    variant = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/variants/${row!.id}`, headers: owner })).json<VariantDetails>();
  }, { timeoutMs: 300_000 });

  it('shows ClinVar Pathogenic (0 stars, OMIM-era record of the 2016-09 release, VCV 13294) beside the ACMG class of the FGFR2 variant', () => {
    const expected: ClinvarAssertion = {
      significance: 'Pathogenic',
      stars: 0,
      reviewStatus: 'no assertion criteria provided',
      release: '2016-09',
      source: 'ClinVar GRCh37 (lifted to GRCh38)',
      id: '13294',
      idType: 'variation',
      url: 'https://www.ncbi.nlm.nih.gov/clinvar/variation/13294/',
      match: 'exact',
    };
    expect(variant.clinvarAssertion).toEqual(expected);
    expect(variant.hgvsP).toBe('p.(Glu565Ala)');
    // PM5 from the pathogenic p.E566G (legacy numbering) at the same codon; PP2 from FGFR2's missense constraint.
    expect(variant.acmgCriteria.map((c) => c.code)).toEqual(['PM5', 'PP2']);
    // Written with the variant's own codon number (565 on NM_000141), the record's kept beside it.
    expect(variant.acmgCriteria[0]!.reason).toBe("different pathogenic missense p.E565G (p.E566G in the record's numbering) at the same codon (ClinVar AlleleID 361707)");
    expect(variant.acmgPoints).toBe(3);
    expect(variant.acmg).toBe('Uncertain significance');
    // Why it is not higher: no population data in the VCF or the KB (PM2) and no predictor scores (PP3).
    expect(variant.acmgNotAssessed.map((n) => n.code)).toEqual(expect.arrayContaining(['PM2/BA1/BS1', 'PP3/BP4']));
  });

  it('names the genes’ diseases by the ids the disease list uses (OMIM:101200, not its Mondo-equivalent ORPHA:87)', async () => {
    const gene = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/genes/FGFR2`, headers: owner })).json<{ topDisease: { id: string } | null; diseases: { id: string }[] }>();
    const phen = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/phenotypes?pageSize=50`, headers: owner })).json<{ items: { id: string; genes: string[] }[] }>();
    const fgfr2 = phen.items.filter((p) => p.genes.includes('FGFR2'));
    expect(fgfr2.length).toBeGreaterThan(1);
    const merged = new Set<string>();
    for (const p of fgfr2) {
      const details = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/phenotypes/${encodeURIComponent(p.id)}`, headers: owner })).json<{ mergedIds: string[] }>();
      details.mergedIds.forEach((id) => merged.add(id));
    }
    expect(merged.size).toBeGreaterThan(0);
    const ids = gene.diseases.map((d) => d.id);
    expect(ids.filter((id) => merged.has(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(fgfr2.map((p) => p.id)).toContain(gene.topDisease?.id);
    if (fgfr2.some((p) => p.id === 'OMIM:101200')) expect(ids).toContain('OMIM:101200');
    expect(ids).not.toContain('ORPHA:87');
  });

  it('records the ACMG setting (ClinVar-backed criteria off by default) with the run', async () => {
    const d = (await app.inject({ method: 'GET', url: `/api/products/${caseId}`, headers: owner })).json<{ run: { kbVersions: Record<string, string> } }>();
    expect(d.run.kbVersions.acmgClinvarCriteria).toBe('off');
    expect(d.run.kbVersions['clinvar-grch37']).toBe('2016-09');
  });

  it('refuses a classification without a reason (400) or with an unknown class, and to users who are not the owner', async () => {
    const noReason = await app.inject({ method: 'PUT', url: url(), headers: owner, payload: { classification: 'Likely pathogenic', reason: '   ' } });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<{ code: string; issues: { path: string[] }[] }>().issues.some((i) => i.path.includes('reason'))).toBe(true);
    const badClass = await app.inject({ method: 'PUT', url: url(), headers: owner, payload: { classification: 'Probably fine', reason: 'x' } });
    expect(badClass.statusCode).toBe(400);
    const body = { classification: 'Likely pathogenic', reason: 'x' };
    expect((await app.inject({ method: 'PUT', url: url(), headers: shared, payload: body })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: url(), headers: stranger, payload: body })).statusCode).toBe(404);
    expect((await app.inject({ method: 'PUT', url: url(), payload: body })).statusCode).toBe(401);
    expect((await app.inject({ method: 'DELETE', url: url(), headers: shared })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: url(999_999_999), headers: owner, payload: body })).statusCode).toBe(404);
  });

  it('stores the owner’s class with reason, who and when, and shows it on the list, the evidence, the gene and the disease screens for the owner and a shared user', async () => {
    const put = await app.inject({
      method: 'PUT',
      url: url(),
      headers: owner,
      payload: { classification: 'Likely pathogenic', reason: 'Known Pfeiffer allele (ClinVar VCV 13294), phenotype specific' },
    });
    expect(put.statusCode).toBe(200);
    const review = put.json<ReviewerClassification>();
    expect(review).toMatchObject({ classification: 'Likely pathogenic', automaticClass: 'Uncertain significance', reason: 'Known Pfeiffer allele (ClinVar VCV 13294), phenotype specific' });
    expect(review.reviewer.email).toMatch(/@/);
    expect(Date.now() - Date.parse(review.updatedAt)).toBeLessThan(60_000);

    for (const headers of [owner, shared]) {
      const details = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/variants/${variant.id}`, headers })).json<VariantDetails>();
      expect(details.reviewerClassification).toEqual(review);
      expect(details.acmg).toBe('Uncertain significance');
      const list = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/variants?mode=filtered&gene=FGFR2`, headers })).json<{ items: VariantRow[] }>();
      expect(list.items.find((v) => v.id === variant.id)?.reviewerClassification).toEqual(review);
      const gene = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/genes/FGFR2`, headers })).json<{ variants: VariantRow[] }>();
      expect(gene.variants.find((v) => v.id === variant.id)).toMatchObject({ reviewerClassification: review, clinvarAssertion: { significance: 'Pathogenic', stars: 0 } });
    }
    const phen = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/phenotypes?pageSize=20`, headers: owner })).json<{ items: { id: string; genes: string[] }[] }>();
    const disease = phen.items.find((p) => p.genes.includes('FGFR2'))!;
    const pd = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/phenotypes/${encodeURIComponent(disease.id)}`, headers: shared })).json<{ variants: VariantRow[] }>();
    expect(pd.variants.find((v) => v.id === variant.id)?.reviewerClassification?.classification).toBe('Likely pathogenic');
    expect((await app.inject({ method: 'GET', url: `/api/products/${caseId}/variants/${variant.id}`, headers: stranger })).statusCode).toBe(404);
  });

  it('gives the gene and its diseases the reviewer’s class as their significance, on every screen and after a re-ranking', async () => {
    type Ranked = { symbol?: string; id?: string; genes?: string[]; significance: string | null };
    const significances = async (headers: Record<string, string>) => {
      const genes = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/genes?pageSize=5`, headers })).json<{ items: Ranked[] }>();
      const gene = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/genes/FGFR2`, headers })).json<Ranked>();
      const phen = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/phenotypes?pageSize=20`, headers })).json<{ items: Ranked[] }>();
      const diseases = phen.items.filter((p) => p.genes?.length === 1 && p.genes[0] === 'FGFR2');
      expect(diseases.length).toBeGreaterThan(0);
      return {
        list: genes.items.find((g) => g.symbol === 'FGFR2')?.significance,
        details: gene.significance,
        diseases: [...new Set(diseases.map((d) => d.significance))],
      };
    };
    const reviewed = { list: 'Likely pathogenic', details: 'Likely pathogenic', diseases: ['Likely pathogenic'] };
    expect(await significances(owner)).toEqual(reviewed);
    expect(await significances(shared)).toEqual(reviewed);

    // Re-ranked (Diagnose: the terms saved again), the significance still follows the reviewer.
    const before = (await app.inject({ method: 'GET', url: `/api/products/${caseId}`, headers: owner })).json<{ run: { rankedAt: string }; hpoTerms: { id: string }[] }>();
    const put = await app.inject({ method: 'PUT', url: `/api/products/${caseId}/phenotype-terms`, headers: owner, payload: { hpoTerms: [...before.hpoTerms.map((t) => t.id), 'HP:0000520'], excludedTerms: [] } });
    expect(put.statusCode).toBe(200);
    await expect
      .poll(
        async () => {
          const d = (await app.inject({ method: 'GET', url: `/api/products/${caseId}`, headers: owner })).json<{ status: string; run: { rankedAt: string } }>();
          return d.status === 'Completed' && d.run.rankedAt !== before.run.rankedAt;
        },
        { timeout: 120_000, interval: 250 },
      )
      .toBe(true);
    expect(await significances(owner)).toEqual(reviewed);
  });

  it('migration 0029 gives a class set before the significance followed reviewers (8949efe) to its gene and diseases', async () => {
    const db = app.database.db;
    const current = (await app.inject({ method: 'GET', url: `/api/products/${caseId}`, headers: owner })).json<{ run: { id: string } }>().run.id;
    const read = async () => {
      const gene = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/genes/FGFR2`, headers: shared })).json<{ significance: string | null }>();
      const phen = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/phenotypes?pageSize=20`, headers: owner })).json<{ items: { genes: string[]; significance: string | null }[] }>();
      const diseases = phen.items.filter((p) => p.genes.includes('FGFR2'));
      expect(diseases.length).toBeGreaterThan(0);
      return { gene: gene.significance, diseases: [...new Set(diseases.map((d) => d.significance))] };
    };
    const untouched = async () => ({
      genes: rowsOf(await db.execute(sql`select symbol, significance from run_genes where run_id = ${current} and symbol <> 'FGFR2' order by symbol`)),
      diseases: rowsOf(await db.execute(sql`select disease_id, significance from run_phenotypes where run_id = ${current} and not genes @> '["FGFR2"]'::jsonb order by disease_id`)),
    });
    const before = await untouched();
    expect(before.genes.length).toBeGreaterThan(0);
    // The state a class set before 8949efe left: the automatic class on the gene and its diseases.
    await db.execute(sql`update run_genes set significance = 'Uncertain significance' where run_id = ${current} and symbol = 'FGFR2'`);
    await db.execute(sql`update run_phenotypes set significance = 'Uncertain significance' where run_id = ${current} and genes @> '["FGFR2"]'::jsonb`);
    expect(await read()).toEqual({ gene: 'Uncertain significance', diseases: ['Uncertain significance'] });
    const file = path.resolve(import.meta.dirname, '../../../drizzle/0029_reviewed_gene_significance.sql');
    for (const statement of readFileSync(file, 'utf8').split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
    expect(await read()).toEqual({ gene: 'Likely pathogenic', diseases: ['Likely pathogenic'] });
    // Genes and diseases without a reviewed variant are left as ranked.
    expect(await untouched()).toEqual(before);
  });

  it('records the reviewer class, reason, who/when, the automatic class and ClinVar in the PDF report', async () => {
    const add = await app.inject({ method: 'POST', url: `/api/products/${caseId}/report-items`, headers: owner, payload: { variantId: variant.id } });
    expect(add.statusCode).toBe(201);
    const res = await app.inject({ method: 'POST', url: `/api/products/${caseId}/reports`, headers: owner, payload: {} });
    expect(res.statusCode).toBe(201);
    const file = path.join(engine.dataDir, 'evidence-report.pdf');
    writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('Reviewer classification');
    expect(text).toContain('Likely pathogenic — Known Pfeiffer allele (ClinVar VCV 13294), phenotype specific');
    expect(text).toContain('automatic class Uncertain significance');
    expect(text).toContain('Pathogenic (0 stars, no assertion criteria provided) VCV 13294 release 2016-09');
    expect(text).toContain('reviewer: Likely pathogenic; automatic ACMG: Uncertain significance');
    expect(text).not.toContain('none is classified as pathogenic');
    expect(text).toContain('ClinVar-backed ACMG criteria');
  });

  it('removes the classification (owner), after which the screens show the automatic class only', async () => {
    const del = await app.inject({ method: 'DELETE', url: url(), headers: owner });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ removed: true });
    const details = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/variants/${variant.id}`, headers: shared })).json<VariantDetails>();
    expect(details.reviewerClassification).toBeNull();
    const gene = (await app.inject({ method: 'GET', url: `/api/products/${caseId}/genes/FGFR2`, headers: shared })).json<{ significance: string | null }>();
    expect(gene.significance).toBe('Uncertain significance');
    expect((await app.inject({ method: 'DELETE', url: url(), headers: owner })).json()).toEqual({ removed: false });
  });
});
