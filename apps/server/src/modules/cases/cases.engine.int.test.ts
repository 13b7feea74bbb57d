/**
 * End to end with the real engine and knowledge base: upload the Pfeiffer exome (GRCh37,
 * lifted to GRCh38) with Pfeiffer syndrome features, let the in-process worker analyse it on
 * PostgreSQL, and read ranked genes, phenotypes and variant evidence. Needs a built KB
 * (RARELENS_KB, default ./data/kb: `npx rarelens kb build`) and the reference data
 * (RARELENS_SOURCES, default ../shared/data).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { engineTestPaths, engineTestReady, useEngineApp } from '../../testing/engine-app.ts';
import { PFEIFFER_TERMS, uploadPfeifferExome } from '../../testing/pfeiffer-vcf.ts';

const { repoRoot, kbDir } = engineTestPaths;
const pfeifferVcf = path.join(engineTestPaths.sources, 'vcf/Pfeiffer.hg19.vcf.gz');
const ready = engineTestReady('vcf/Pfeiffer.hg19.vcf.gz');

let app: FastifyInstance;
let dataDir: string;
let auth: Record<string, string>;

describe.skipIf(!ready)('a real exome through the real engine', () => {
  useEngineApp('engine', (engine) => void ({ app, auth, dataDir } = engine));

  let id: string;

  it('analyses the Pfeiffer exome to Completed and ranks FGFR2 near the top', async () => {
    const uploaded = await uploadPfeifferExome(app, auth, 'PFEIFFER', 'Tower-shaped skull, broad thumbs and great toes, syndactyly, proptosis, strabismus');
    id = uploaded.id;
    const done = uploaded.done;
    expect(done.error).toBeNull();
    expect(done.status).toBe('Completed');

    const details = await app.inject({ method: 'GET', url: `/api/products/${id}`, headers: auth });
    const d = details.json<{ assembly: string; run: { assembly: string; inputAssembly: string; kbVersions: Record<string, string>; counts: Record<string, number> } }>();
    expect(d.assembly).toBe('GRCh37');
    expect(d.run).toMatchObject({ assembly: 'GRCh38', inputAssembly: 'GRCh37' });
    expect(d.run.kbVersions.hpo).toMatch(/2025-05-06/);
    expect(d.run.counts.variantsStored).toBeGreaterThan(30_000);

    const genes = await app.inject({ method: 'GET', url: `/api/products/${id}/genes?pageSize=10`, headers: auth });
    const symbols = genes.json<{ items: { symbol: string; rank: number }[] }>().items.map((g) => g.symbol);
    expect(symbols.slice(0, 3)).toContain('FGFR2');
  });

  it('lists Pfeiffer syndrome among the top phenotypes, and FGFR2 variants with ACMG evidence', async () => {
    const phen = await app.inject({ method: 'GET', url: `/api/products/${id}/phenotypes?pageSize=10`, headers: auth });
    const top = phen.json<{ items: { id: string; name: string; genes: string[] }[] }>().items;
    expect(top.some((p) => p.genes.includes('FGFR2'))).toBe(true);

    const vs = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?mode=filtered&gene=FGFR2`, headers: auth });
    const list = vs.json<{ items: { id: number; gene: string; acmg: string }[]; total: number }>();
    expect(list.total).toBeGreaterThan(0);
    const ev = await app.inject({ method: 'GET', url: `/api/products/${id}/variants/${list.items[0]!.id}`, headers: auth });
    expect(ev.statusCode).toBe(200);
    const v = ev.json<{ gene: string; acmgCriteria: { code: string; reason: string }[]; inputAssembly: string; input: { pos: number } }>();
    expect(v.gene).toBe('FGFR2');
    expect(v.inputAssembly).toBe('GRCh37');
    expect(v.acmgCriteria.length).toBeGreaterThan(0);
    expect(v.acmgCriteria.every((c) => c.reason.length > 0)).toBe(true);
  });

  it('ranks the same genes and variants as `rarelens analyze` on the same case (one engine path)', async () => {
    const out = path.join(dataDir, 'cli-result.json');
    execFileSync(process.execPath, [path.join(repoRoot, 'apps/cli/bin/rarelens.js'), 'analyze', '--vcf', pfeifferVcf, '--hpo', PFEIFFER_TERMS.join(','), '--sex', 'male', '--kb', kbDir, '--top', '25', '--out', out], { stdio: 'pipe' });
    const cli = JSON.parse(readFileSync(out, 'utf8')) as { diseases: { id: string; phenotypeSource: string }[]; genes: { symbol: string; score: number; postTestProbability: number; scoreParts: { source: string }; evidence: { phenotype: { diseaseId: string; diseaseName: string } | null } }[]; variants: { chrom: string; pos: number; ref: string; alt: string; gene: string }[] };
    const api = (await app.inject({ method: 'GET', url: `/api/products/${id}/genes?pageSize=25`, headers: auth })).json<{ items: { symbol: string; score: number; probability: number | null }[] }>().items;
    // The gene score is stored as a real (4-byte float): compare both sides at that precision (a double
    // next to a rounding boundary of toFixed(6) rounds the other way, e.g. -0.8148025).
    const round = (x: number): string => Math.fround(x).toFixed(6);
    expect(api.map((g) => [g.symbol, round(g.score)])).toEqual(cli.genes.slice(0, 25).map((g) => [g.symbol, round(g.score)]));
    // The calibrated post-test probability is the engine's, stored per gene (a real column: 4-byte float).
    expect(api.map((g) => (g.probability ?? NaN).toPrecision(5))).toEqual(cli.genes.slice(0, 25).map((g) => Math.fround(g.postTestProbability).toPrecision(5)));
    // Where each gene's phenotype evidence comes from: the engine's scoreParts.source and the disease it names.
    for (const g of cli.genes.slice(0, 25)) {
      const details = (await app.inject({ method: 'GET', url: `/api/products/${id}/genes/${g.symbol}`, headers: auth })).json<{ phenotypeSource: { source: string; disease: { id: string } | null } | null }>();
      expect(details.phenotypeSource, g.symbol).toEqual({ source: g.scoreParts.source, disease: g.scoreParts.source === 'none' ? null : { id: g.evidence.phenotype?.diseaseId, label: g.evidence.phenotype?.diseaseName } });
    }
    expect(new Set(cli.genes.slice(0, 25).map((g) => g.scoreParts.source)).size, cli.genes.slice(0, 25).map((g) => g.scoreParts.source).join()).toBeGreaterThan(1);
    // Where each ranked disease's phenotype comes from: the engine's DiseaseRanking.phenotypeSource.
    for (const d of cli.diseases.slice(0, 25)) {
      const details = (await app.inject({ method: 'GET', url: `/api/products/${id}/phenotypes/${encodeURIComponent(d.id)}`, headers: auth })).json<{ phenotypeSource: string | null }>();
      expect(details.phenotypeSource, d.id).toBe(d.phenotypeSource);
    }
    const vs = (await app.inject({ method: 'GET', url: `/api/products/${id}/variants?mode=filtered&pageSize=10`, headers: auth })).json<{ items: { gene: string; chrom: string; pos: number; ref: string; alt: string }[] }>().items;
    const key = (v: { gene: string; chrom: string; pos: number; ref: string; alt: string }): string => `${v.gene} ${v.chrom}:${v.pos} ${v.ref}>${v.alt}`;
    expect(vs.map(key)).toEqual(cli.variants.slice(0, 10).map(key));
  });

  it('serves genes and ClinVar tracks for the FGFR2 region from the KB', async () => {
    const region = 'chr10:121478000-121598000';
    const genes = await app.inject({ method: 'GET', url: `/api/products/${id}/igv/genes.bed?region=${region}`, headers: auth });
    expect(genes.statusCode).toBe(200);
    expect(genes.body).toMatch(/^chr10\t\d+\t\d+\tFGFR2_NM_/m);
    const clinvar = await app.inject({ method: 'GET', url: `/api/products/${id}/igv/clinvar.bed?region=${region}`, headers: auth });
    expect(clinvar.statusCode).toBe(200);
  });

  it('suggests HPO terms by label and synonym', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/hpo/terms?q=broad%20thumb', headers: auth });
    expect(res.statusCode).toBe(200);
    const items = res.json<{ items: { id: string; label: string }[] }>().items;
    expect(items[0]).toMatchObject({ id: 'HP:0011304', label: 'Broad thumb' });
    const byId = await app.inject({ method: 'GET', url: '/api/hpo/terms?q=HP:0000244', headers: auth });
    expect(byId.json<{ items: { id: string }[] }>().items.map((i) => i.id)).toEqual(['HP:0000244']);
  });
});
