/**
 * A re-ranked case explains its variants as the upload did: a coding SNV whose codon is not known
 * (no reference FASTA in the test KB, so the codon is enumerated) keeps its expected codon outcome
 * ("probably missense (P = …; codon not known without the reference sequence)") and its
 * pathogenicity when Diagnose re-ranks the stored run with another phenotype. On PostgreSQL and
 * PGlite. Needs a built KB and the reference data (see testing/engine-app.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { engineTestPaths, engineTestReady, useEngineApp, type EngineApp } from '../../testing/engine-app.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';

const ready = engineTestReady('vcf/Pfeiffer.hg19.vcf.gz');

/** The exome's header and its records on chromosome 10 from 3.0 to 5.2 Mb (GRCh37): coding SNVs of PFKP and the AKR1 genes among them. */
function smallVcf(): string {
  const lines = gunzipSync(readFileSync(path.join(engineTestPaths.sources, 'vcf/Pfeiffer.hg19.vcf.gz'))).toString('utf8').split('\n');
  const records = lines.filter((l) => {
    if (l === '' || l.startsWith('#')) return false;
    const [chrom, pos] = l.split('\t');
    return chrom === '10' && Number(pos) >= 3_000_000 && Number(pos) <= 5_200_000;
  });
  return [...lines.filter((l) => l.startsWith('#')), ...records].join('\n') + '\n';
}

interface VariantItem {
  id: number;
  gene: string | null;
  hgvsC: string | null;
  consequence: string | null;
  score: number;
}

for (const pglite of [false, true]) {
  describe.skipIf(!ready)(`re-ranking a stored run (${pglite ? 'PGlite' : 'PostgreSQL'})`, () => {
    let engine: EngineApp;
    useEngineApp(pglite ? 'rerank-pglite' : 'rerank', (started) => void (engine = started), { pglite });

    it('explains a codon-unknown coding variant with its expected outcome, as the upload did', async () => {
      const { app, auth } = engine;
      const { body, contentType } = multipartBody(
        { caseId: 'CODON', gender: 'male', symptoms: 'craniosynostosis', hpoTerms: JSON.stringify(['HP:0000244', 'HP:0011304', 'HP:0001770']), assembly: 'auto' },
        [{ field: 'genomeFile', name: 'codon.vcf', content: Buffer.from(smallVcf()) }],
      );
      const res = await app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': contentType }, payload: body });
      expect(res.statusCode).toBe(202);
      const id = res.json<{ id: string }>().id;
      const done = await waitForStatus(app, auth, id, ['Completed', 'Error'], 120_000);
      expect(done.error).toBeNull();

      const codingUnknown = async (): Promise<VariantItem[]> => {
        const r = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?mode=filtered&consequence=coding_sequence_variant&pageSize=100`, headers: auth });
        expect(r.statusCode).toBe(200);
        return r.json<{ items: VariantItem[] }>().items;
      };
      /** The lines of a gene's explanation that describe one of its variants (by HGVS c.), e.g. "Variant: AKR1E2 NM_…:c.901C>T; heterozygous; coding_sequence_variant, probably missense (P = 0.60; …); pathogenicity 0.34; …". */
      const variantLines = async (gene: string, hgvsC: string): Promise<string[]> => {
        const r = await app.inject({ method: 'GET', url: `/api/products/${id}/genes/${encodeURIComponent(gene)}`, headers: auth });
        expect(r.statusCode).toBe(200);
        return r.json<{ explanation: string[] }>().explanation.filter((l) => l.startsWith('Variant: ') && l.includes(hgvsC));
      };

      const outcomeOf = async (variantId: number) => {
        const r = await app.inject({ method: 'GET', url: `/api/products/${id}/variants/${variantId}`, headers: auth });
        expect(r.statusCode).toBe(200);
        return r.json<{ codingOutcome: { term: string; p: number }[] }>().codingOutcome;
      };

      const before = await codingUnknown();
      const explained: { v: VariantItem; lines: string[] }[] = [];
      for (const v of before.filter((x) => x.gene && x.hgvsC).slice(0, 5)) {
        const lines = await variantLines(v.gene!, v.hgvsC!);
        if (lines.length) explained.push({ v, lines });
      }
      // The upload explains them with the expected outcome (the test KB has no FASTA).
      expect(explained.length).toBeGreaterThan(0);
      const outcomes = new Map<number, { term: string; p: number }[]>();
      for (const { v, lines } of explained) {
        outcomes.set(v.id, await outcomeOf(v.id));
        // The variant evidence gives the same outcomes, most probable first, summing to 1.
        expect(outcomes.get(v.id)!.length).toBeGreaterThan(1);
        expect(outcomes.get(v.id)!.reduce((a, o) => a + o.p, 0)).toBeCloseTo(1, 6);
        for (const l of lines) expect(l).toMatch(/coding_sequence_variant, (probably )?[a-z -]+ \(P = 0\.\d\d; .*codon not known without the reference sequence\)/);
      }

      const rankedAt = async () => (await app.inject({ method: 'GET', url: `/api/products/${id}`, headers: auth })).json<{ run: { rankedAt: string | null } | null }>().run?.rankedAt;
      const firstRankedAt = await rankedAt();
      const put = await app.inject({ method: 'PUT', url: `/api/products/${id}/phenotype-terms`, headers: auth, payload: { hpoTerms: ['HP:0001263', 'HP:0001250'], excludedTerms: [] } });
      expect(put.statusCode).toBe(200);
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && (await rankedAt()) === firstRankedAt) await new Promise((r) => setTimeout(r, 200));
      expect(await rankedAt()).not.toBe(firstRankedAt);

      // Same variants, same pathogenicity, and the same words for each of them after the re-rank.
      const after = await codingUnknown();
      const scoreOf = new Map(after.map((v) => [v.id, v.score]));
      for (const { v, lines } of explained) {
        expect(scoreOf.get(v.id)).toBe(v.score);
        expect(await variantLines(v.gene!, v.hgvsC!)).toEqual(lines);
        expect(await outcomeOf(v.id)).toEqual(outcomes.get(v.id));
      }
    }, 300_000);
  });
}
