/**
 * Family analysis over the API with the real engine and KB: the GIAB Ashkenazi trio (joint-called
 * exome VCF, GRCh37) with its PED file. The upload checks the pedigree before queueing; the
 * worker stores every member's genotype, the inheritance patterns and the trio QC; the variants
 * list filters by inheritance and GET /family returns the members and QC. Needs a built KB
 * (RARELENS_KB) and the reference data (RARELENS_SOURCES).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { PhenopacketFamily, type FamilyResponse, type VariantRow } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { engineTestPaths, engineTestReady, useEngineApp } from '../../testing/engine-app.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';

const TRIO_VCF = 'vcf/ashk-trio.GIAB-AJ.exome.b37.head10k.vcf.gz';
const TRIO_PED = 'vcf/ashk-trio.GIAB-AJ.ped';
const trioVcf = path.join(engineTestPaths.sources, TRIO_VCF);
const trioPed = path.join(engineTestPaths.sources, TRIO_PED);
const ready = engineTestReady(TRIO_VCF, TRIO_PED);

const FIELDS = { caseId: 'ASHK-TRIO', gender: 'male', symptoms: 'Seizures and global developmental delay', hpoTerms: JSON.stringify(['HP:0001250', 'HP:0001263']), assembly: 'auto' };

let app: FastifyInstance;
let auth: Record<string, string>;

function upload(fields: Record<string, string>, ped: string | null) {
  const files = [{ field: 'genomeFile', name: 'ashk-trio.vcf.gz', content: readFileSync(trioVcf) }];
  if (ped !== null) files.push({ field: 'pedigreeFile', name: 'ashk-trio.ped', content: Buffer.from(ped) });
  const { body, contentType } = multipartBody(fields, files);
  return app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': contentType }, payload: body });
}

async function variants(id: string, query: string): Promise<{ items: VariantRow[]; total: number }> {
  const res = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?${query}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe.skipIf(!ready)('a trio through the API (GIAB Ashkenazi trio + PED)', () => {
  useEngineApp('family', (engine) => void ({ app, auth } = engine));

  it('refuses, before queueing, a PED whose sample is not in the VCF and an unknown proband, naming the sample', async () => {
    const ped = readFileSync(trioPed, 'utf8');
    const missing = await upload(FIELDS, `${ped}ash\tHG005\tHG003\tHG004\t2\t1\n`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ issues: { path: string[]; message: string }[] }>().issues).toEqual([
      { path: ['pedigreeFile'], message: expect.stringContaining('HG005') as string },
    ]);
    const proband = await upload({ ...FIELDS, probandSample: 'NA12878' }, ped);
    expect(proband.statusCode).toBe(400);
    const issue = proband.json<{ issues: { path: string[]; message: string }[] }>().issues[0]!;
    expect(issue.path).toEqual(['probandSample']);
    expect(issue.message).toContain('NA12878');
    const noPedUnknownSample = await upload({ ...FIELDS, probandSample: 'HG999' }, null);
    expect(noPedUnknownSample.statusCode).toBe(400);
    expect(noPedUnknownSample.json<{ issues: { path: string[]; message: string }[] }>().issues[0]).toEqual({
      path: ['probandSample'],
      message: 'Sample HG999 is not in ashk-trio.vcf.gz (samples: HG002, HG003, HG004)',
    });
    const list = await app.inject({ method: 'GET', url: '/api/products', headers: auth });
    expect(list.json<{ items: unknown[] }>().items).toHaveLength(0);
  });

  let id: string;

  it('analyses the trio with its PED: family, trio QC, genotypes of every member and inheritance filters', async () => {
    const res = await upload(FIELDS, readFileSync(trioPed, 'utf8'));
    expect(res.statusCode).toBe(202);
    id = res.json<{ id: string }>().id;
    const done = await waitForStatus(app, auth, id, ['Completed', 'Error'], 240_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('Completed');

    const fam = await app.inject({ method: 'GET', url: `/api/products/${id}/family`, headers: auth });
    expect(fam.statusCode).toBe(200);
    const family = fam.json<FamilyResponse>();
    expect(family.proband).toBe('HG002');
    expect(family.members.map((m) => [m.sample, m.relation, m.sex, m.status, m.sequenced])).toEqual([
      ['HG002', 'proband', 'male', 'affected', true],
      ['HG003', 'father', 'male', 'unknown', true],
      ['HG004', 'mother', 'female', 'unknown', true],
    ]);
    expect(family.qc).toHaveLength(1);
    const qc = family.qc[0]!;
    expect(qc).toMatchObject({ child: 'HG002', father: 'HG003', mother: 'HG004', warning: null });
    expect(qc.sites).toBeGreaterThan(1000);
    // A real trio: Mendelian errors are rare (GIAB: about 1 % raw, fewer after QC).
    expect(qc.rate).toBeLessThan(0.03);
    expect(qc.qcRate).toBeLessThanOrEqual(qc.rate);

    const ranked = await variants(id, 'mode=filtered&pageSize=50');
    expect(ranked.items.length).toBeGreaterThan(0);
    for (const v of ranked.items) expect(Object.keys(v.genotypes ?? {}).sort()).toEqual(['HG002', 'HG003', 'HG004']);
    const first = ranked.items[0]!;
    expect(first.genotypes!.HG002!.gt).toMatch(/[1-9]/);
    expect(first.genotypes!.HG002!.depth).not.toBeNull();

    for (const tag of ['de_novo', 'compound_het', 'hom_recessive', 'x_linked', 'segregates'] as const) {
      const tagged = await variants(id, `inheritance=${tag}&pageSize=100`);
      for (const v of tagged.items) expect(v.inheritance).toContain(tag);
    }
    const deNovo = await variants(id, 'inheritance=de_novo&pageSize=100');
    for (const v of deNovo.items) {
      expect(v.genotypes!.HG003!.gt).toMatch(/^0[/|]0$/);
      expect(v.genotypes!.HG004!.gt).toMatch(/^0[/|]0$/);
      expect(v.inheritanceRules.join(' ')).toMatch(/de novo/);
    }
    const compound = await variants(id, 'inheritance=compound_het&pageSize=100');
    const byId = new Map(compound.items.map((v) => [v.id, v]));
    for (const v of compound.items) {
      expect(v.compoundHetPartners.length).toBeGreaterThan(0);
      for (const p of v.compoundHetPartners) {
        const partner = byId.get(p);
        if (partner) {
          expect(partner.gene).toBe(v.gene);
          expect(partner.compoundHetPartners).toContain(v.id);
        }
      }
    }
    // The issue's goal for a real trio exome after QC: fewer than 5 de novo candidates.
    expect(deNovo.total).toBeLessThan(5);
    expect(compound.total).toBeGreaterThan(0);
    const tagged = await variants(id, 'inheritance=de_novo,compound_het,hom_recessive,x_linked,segregates&pageSize=1');
    expect(tagged.total).toBeGreaterThan(0);
    expect(tagged.total).toBeLessThan(ranked.total + 1);
  });

  it('downloads the pedigree as a PED file that reads back to the same members', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${id}/family.ped`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="ASHK-TRIO\.ped"/);
    const lines = res.body.trimEnd().split('\n');
    expect(lines[0]).toBe('#family_id\tindividual_id\tpaternal_id\tmaternal_id\tsex\tphenotype');
    // The shipped PED: HG002 son of HG003 and HG004; the upload made HG002 the (affected) proband.
    expect(lines.slice(1).map((l) => l.split('\t').slice(1))).toEqual([
      ['HG002', 'HG003', 'HG004', '1', '2'],
      ['HG003', '0', '0', '1', '0'],
      ['HG004', '0', '0', '2', '0'],
    ]);
    const anon = await app.inject({ method: 'GET', url: `/api/products/${id}/family.ped` });
    expect(anon.statusCode).toBe(401);
  });

  it('answers 400 for an unknown inheritance filter and 401 without a session', async () => {
    const bad = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?inheritance=dominant`, headers: auth });
    expect(bad.statusCode).toBe(400);
    const anon = await app.inject({ method: 'GET', url: `/api/products/${id}/family` });
    expect(anon.statusCode).toBe(401);
  });

  it('keeps the genotypes and inheritance through a re-rank after the terms change', async () => {
    const before = await variants(id, 'mode=filtered&pageSize=20');
    const rankedAt = async () => (await app.inject({ method: 'GET', url: `/api/products/${id}`, headers: auth })).json<{ run: { rankedAt: string | null } | null }>().run?.rankedAt;
    const firstRankedAt = await rankedAt();
    const put = await app.inject({ method: 'PUT', url: `/api/products/${id}/phenotype-terms`, headers: auth, payload: { hpoTerms: ['HP:0001263'], excludedTerms: [] } });
    expect(put.statusCode).toBe(200);
    const deadline = Date.now() + 60_000;
    let after = before;
    while (Date.now() < deadline) {
      if ((await rankedAt()) !== firstRankedAt) {
        after = await variants(id, 'mode=filtered&pageSize=20');
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await rankedAt()).not.toBe(firstRankedAt);
    const tagsOf = (l: { items: VariantRow[] }) => new Map(l.items.map((v) => [v.id, v.inheritance.join(',')]));
    const beforeTags = tagsOf(before);
    for (const v of after.items) {
      expect(Object.keys(v.genotypes ?? {})).toHaveLength(3);
      if (beforeTags.has(v.id)) expect(v.inheritance.join(',')).toBe(beforeTags.get(v.id));
    }
  });
  it('exports a Phenopacket Family message and writes the family, segregation and QC into the PDF report', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/products/${id}/phenopacket`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('ASHK-TRIO-family.phenopacket.json');
    const packet = res.json<PhenopacketFamily>();
    expect(PhenopacketFamily.safeParse(packet).success).toBe(true);
    expect(packet.proband.subject.id).toBe('HG002');
    expect(packet.relatives.map((r) => [r.subject.id, r.subject.sex])).toEqual([
      ['HG003', 'MALE'],
      ['HG004', 'FEMALE'],
    ]);
    expect(packet.pedigree.persons.map((p) => [p.individualId, p.paternalId, p.maternalId, p.affectedStatus])).toEqual([
      ['HG002', 'HG003', 'HG004', 'AFFECTED'],
      ['HG003', '0', '0', 'MISSING'],
      ['HG004', '0', '0', 'MISSING'],
    ]);

    const top = (await variants(id, 'mode=filtered&pageSize=1')).items[0]!;
    const add = await app.inject({ method: 'POST', url: `/api/products/${id}/report-items`, headers: auth, payload: { variantId: top.id } });
    expect(add.statusCode).toBeLessThan(300);
    const report = await app.inject({ method: 'POST', url: `/api/products/${id}/reports`, headers: auth, payload: {} });
    expect(report.statusCode).toBeLessThan(300);
    const dir = mkdtempSync(path.join(tmpdir(), 'rarelens-family-report-'));
    try {
      const file = path.join(dir, 'report.pdf');
      writeFileSync(file, report.rawPayload);
      const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      expect(text).toMatch(/family and segregation/i);
      for (const sample of ['HG002', 'HG003', 'HG004']) expect(text).toContain(sample);
      expect(text).toMatch(/Mendelian error rate \d+\.\d\d %/);
      expect(text).toContain(top.genotypes!.HG003!.gt);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The GIAB trio as three separately called VCFs: each person's file keeps the header and only
 * the records where that person carries an alternate allele (a variant-only VCF, as a caller run
 * on one sample writes it), from the first `records` records.
 */
function personVcf(sample: string, records: number): Buffer {
  const lines = gunzipSync(readFileSync(trioVcf)).toString('utf8').split('\n');
  const chrom = lines.find((l) => l.startsWith('#CHROM'))!.split('\t');
  const col = chrom.indexOf(sample);
  const out: string[] = [];
  let n = 0;
  for (const l of lines) {
    if (l.startsWith('##')) out.push(l);
    else if (l.startsWith('#CHROM')) out.push([...chrom.slice(0, 9), sample].join('\t'));
    else if (l !== '' && n++ < records) {
      const cols = l.split('\t');
      if (/[1-9]/.test(cols[col]!.split(':')[0]!)) out.push([...cols.slice(0, 9), cols[col]!].join('\t'));
    }
  }
  return Buffer.from(out.join('\n') + '\n');
}

describe.skipIf(!ready)('a trio of separately called VCFs through the API (merged by position and allele)', () => {
  useEngineApp('family-merge', (engine) => void ({ app, auth } = engine));

  const RECORDS = 3000;
  const files = (relatives: { name: string; sample: string }[]) => [
    { field: 'genomeFile', name: 'HG002.vcf', content: personVcf('HG002', RECORDS) },
    ...relatives.map((r) => ({ field: 'relativeGenomeFiles', name: r.name, content: personVcf(r.sample, RECORDS) })),
  ];
  const send = (parts: { field: string; name: string; content: Buffer }[]) => {
    const { body, contentType } = multipartBody(FIELDS, parts);
    return app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': contentType }, payload: body });
  };
  const issuesOf = (res: { json: <T>() => T }) => res.json<{ issues: { path: string[]; message: string }[] }>().issues;
  const parents = [
    { name: 'HG003.vcf', sample: 'HG003' },
    { name: 'HG004.vcf', sample: 'HG004' },
  ];

  it('refuses relatives without a pedigree, a joint VCF as a relative and the same person twice, naming the file', async () => {
    const noPed = await send(files(parents));
    expect(noPed.statusCode).toBe(400);
    expect(issuesOf(noPed)).toEqual([{ path: ['relativeGenomeFiles'], message: expect.stringContaining('need a pedigree') as string }]);

    const ped = { field: 'pedigreeFile', name: 'ashk-trio.ped', content: readFileSync(trioPed) };
    const joint = await send([...files([parents[0]!]), { field: 'relativeGenomeFiles', name: 'joint.vcf.gz', content: readFileSync(trioVcf) }, ped]);
    expect(joint.statusCode).toBe(400);
    expect(issuesOf(joint)).toEqual([{ path: ['relativeGenomeFiles'], message: expect.stringMatching(/^joint\.vcf\.gz holds 3 samples \(HG002, HG003, HG004\)/) as string }]);

    const twice = await send([...files([parents[0]!, { name: 'again.vcf', sample: 'HG003' }]), ped]);
    expect(twice.statusCode).toBe(400);
    expect(issuesOf(twice)).toEqual([{ path: ['relativeGenomeFiles'], message: 'again.vcf: sample HG003 is also the sample of HG003.vcf; each person once' }]);

    const list = await app.inject({ method: 'GET', url: '/api/products', headers: auth });
    expect(list.json<{ items: unknown[] }>().items).toHaveLength(0);
  });

  it('merges the three VCFs, notes the sites each person\'s VCF is silent on and shows them as no-calls', async () => {
    const res = await send([...files(parents), { field: 'pedigreeFile', name: 'ashk-trio.ped', content: readFileSync(trioPed) }]);
    expect(res.statusCode).toBe(202);
    const id = res.json<{ id: string }>().id;
    const done = await waitForStatus(app, auth, id, ['Completed', 'Error'], 240_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('Completed');

    const family = (await app.inject({ method: 'GET', url: `/api/products/${id}/family`, headers: auth })).json<FamilyResponse>();
    expect(family.proband).toBe('HG002');
    expect(family.members.map((m) => [m.sample, m.relation, m.sequenced])).toEqual([
      ['HG002', 'proband', true],
      ['HG003', 'father', true],
      ['HG004', 'mother', true],
    ]);
    const note = family.notes.find((n) => n.startsWith('Merged 3 separately called VCFs'));
    expect(note).toBeDefined();
    expect(note).toMatch(/no-calls, not reference \(HG002: \d+ of \d+; HG003: \d+ of \d+; HG004: \d+ of \d+\)/);
    expect(note).toContain('Files: HG002.vcf (HG002), HG003.vcf (HG003), HG004.vcf (HG004).');

    const ranked = (await app.inject({ method: 'GET', url: `/api/products/${id}/variants?mode=filtered&pageSize=100`, headers: auth })).json<{ items: VariantRow[] }>();
    expect(ranked.items.length).toBeGreaterThan(0);
    let parentNoCalls = 0;
    for (const v of ranked.items) {
      expect(Object.keys(v.genotypes ?? {}).sort()).toEqual(['HG002', 'HG003', 'HG004']);
      expect(v.genotypes!.HG002!.gt).toMatch(/[1-9]/);
      for (const p of ['HG003', 'HG004']) {
        const gt = v.genotypes![p]!.gt;
        // A parent's call is either from their own VCF (an alt allele) or a no-call, never an invented reference.
        expect(gt).toMatch(/[1-9]|^\.[/|]\.$|^\.$/);
        if (!/[1-9]/.test(gt)) parentNoCalls++;
      }
    }
    expect(parentNoCalls).toBeGreaterThan(0);
    // Absent from a parent's VCF is not "absent from the parent": no de novo call without 0/0 calls.
    const deNovo = (await app.inject({ method: 'GET', url: `/api/products/${id}/variants?inheritance=de_novo`, headers: auth })).json<{ total: number }>();
    expect(deNovo.total).toBe(0);
  });
});
