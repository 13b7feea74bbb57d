/**
 * Re-ranking a stored run (PUT phenotype terms on a Completed case) gives exactly the ranking of
 * every stored variant of the run ranked from scratch (the re-rank reads only the candidates and
 * the stored per-gene figures). A re-ranked case explains its variants as the upload did: a coding SNV whose codon is not known
 * (no reference FASTA in the test KB, so the codon is enumerated) keeps its expected codon outcome
 * ("probably missense (P = …; codon not known without the reference sequence)") and its
 * pathogenicity when Diagnose re-ranks the stored run with another phenotype. On PostgreSQL and
 * PGlite. Needs a built KB and the reference data (see testing/engine-app.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bestClass } from '../../db/gene-significance.ts';
import { runGenes, runPhenotypes, runVariantRanks, runVariants } from '../../db/schema/products.ts';
import { createEngineAnalysis, type AnalysisEngine } from '../../jobs/analysis-engine.ts';
import { createKnowledgeBase } from '../../kb/knowledge-base.ts';
import { engineTestPaths, engineTestReady, useEngineApp, type EngineApp } from '../../testing/engine-app.ts';
import { multipartBody, waitForStatus } from '../../testing/multipart.ts';
import { decodeCandidateRow, rankedFilterColumns, selectRankedVariants } from '../../db/run-variants.ts';
import { fromVariantRow, geneVariantStats, loadCandidateRows } from '../analysis/analysis.repository.ts';
import { candidateRanks, createCaseAnalysisStore, rankedRows } from '../analysis/analysis.service.ts';

const ready = engineTestReady('vcf/Pfeiffer.hg19.vcf.gz');

/**
 * The exome's header and its records on chromosome 10 in the given GRCh37 ranges (default 3.0 to
 * 5.2 Mb: coding SNVs of PFKP and the AKR1 genes among them).
 */
function smallVcf(ranges: [number, number][] = [[3_000_000, 5_200_000]]): string {
  const lines = gunzipSync(readFileSync(path.join(engineTestPaths.sources, 'vcf/Pfeiffer.hg19.vcf.gz'))).toString('utf8').split('\n');
  const records = lines.filter((l) => {
    if (l === '' || l.startsWith('#')) return false;
    const [chrom, pos] = l.split('\t');
    return chrom === '10' && ranges.some(([from, to]) => Number(pos) >= from && Number(pos) <= to);
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
    /** The production engine in this process: the reference the stored re-ranking is compared with. */
    let reference: AnalysisEngine;
    beforeAll(async () => {
      reference = await createEngineAnalysis(createKnowledgeBase(engineTestPaths.kbDir))();
    }, 120_000);

    it('re-ranks to exactly what ranking every stored variant of the run gives (Pfeiffer exome excerpt with its spiked FGFR2 variant)', async () => {
      const { app, auth } = engine;
      // Chromosome 10 from 3.0 to 5.2 Mb and 121 to 124 Mb: FGFR2 and the exome's spiked Pfeiffer variant among many others.
      const { body, contentType } = multipartBody(
        { caseId: 'EQUIV', gender: 'male', symptoms: 'craniosynostosis', hpoTerms: JSON.stringify(['HP:0000244', 'HP:0011304', 'HP:0001770']), assembly: 'auto' },
        [{ field: 'genomeFile', name: 'equiv.vcf', content: Buffer.from(smallVcf([[3_000_000, 5_200_000], [121_000_000, 124_000_000]])) }],
      );
      const res = await app.inject({ method: 'POST', url: '/api/products', headers: { ...auth, 'content-type': contentType }, payload: body });
      expect(res.statusCode).toBe(202);
      const id = res.json<{ id: string }>().id;
      const done = await waitForStatus(app, auth, id, ['Completed', 'Error'], 120_000);
      expect(done.error).toBeNull();
      const caseOf = async () => (await app.inject({ method: 'GET', url: `/api/products/${id}`, headers: auth })).json<{ run: { id: string; rankedAt: string | null } }>().run;
      const first = await caseOf();
      const topGenes = async () =>
        (await app.inject({ method: 'GET', url: `/api/products/${id}/genes?pageSize=10`, headers: auth })).json<{ items: { symbol: string; score: number }[] }>().items.map((g) => [g.symbol, g.score]);
      // The upload's ranking, with the craniosynostosis terms, puts the spiked variant's gene first.
      const before = await topGenes();
      expect(before[0]?.[0]).toBe('FGFR2');

      // A reviewer's classes: FGFR2's most pathogenic variants set Benign (below its gene's automatic class)
      // and a variant of another gene set Pathogenic (above it). The re-ranking's per-gene figures
      // must follow them, not the automatic classes stored with the run.
      const db = app.database.db;
      const runId = first.id;
      const storedRows = () => selectRankedVariants(db).where(eq(runVariants.runId, runId)).orderBy(asc(runVariants.id));
      const rows0 = await storedRows();
      const fgfr2 = rows0.filter((r) => r.gene === 'FGFR2');
      const fgfr2Automatic = bestClass(fgfr2.map((o) => o.acmgClass));
      const lowered = fgfr2.filter((r) => r.acmgClass === fgfr2Automatic);
      // With its most pathogenic variants set Benign, FGFR2's class is another one than its automatic class.
      const fgfr2Reviewed = bestClass(fgfr2.map((o) => (lowered.includes(o) ? 'Benign' : o.acmgClass)));
      expect(fgfr2Reviewed).not.toBe(fgfr2Automatic);
      const raised = rows0.find((r) => r.isCandidate && r.gene !== null && r.gene !== 'FGFR2' && rows0.every((o) => o.gene !== r.gene || o.acmgClass !== 'Pathogenic'));
      expect(raised).toBeDefined();
      for (const [v, classification] of [...lowered.map((r) => [r, 'Benign'] as const), [raised!, 'Pathogenic'] as const]) {
        const set = await app.inject({ method: 'PUT', url: `/api/products/${id}/variants/${v.id}/classification`, headers: auth, payload: { classification, reason: 'test' } });
        expect(set.statusCode).toBe(200);
      }

      const terms = { hpoTerms: ['HP:0001263', 'HP:0001250', 'HP:0001252'], excludedTerms: ['HP:0000244'] };
      const put = await app.inject({ method: 'PUT', url: `/api/products/${id}/phenotype-terms`, headers: auth, payload: terms });
      expect(put.statusCode).toBe(200);
      for (const deadline = Date.now() + 60_000; Date.now() < deadline && (await caseOf()).rankedAt === first.rankedAt; ) await new Promise((r) => setTimeout(r, 200));
      expect((await caseOf()).rankedAt).not.toBe(first.rankedAt);
      // Other terms, other gene scores.
      expect(await topGenes()).not.toEqual(before);

      // The reference: every stored variant of the run, the engine's own candidate selection, a ranking from scratch.
      const all = (await storedRows()).map((r) => ({ id: r.id, variant: fromVariantRow(r), rank: r.rank, isCandidate: r.isCandidate }));
      const candidates = all.filter((v) => reference.isRankCandidate(v.variant));
      expect(candidates.length).toBeGreaterThan(10);
      expect(candidates.length).toBeLessThan(all.length);
      // The rows flagged at analysis time are the engine's candidates.
      expect(all.filter((v) => v.isCandidate).map((v) => v.id)).toEqual(candidates.map((v) => v.id));
      // The stored-row texts the re-ranking sends to the analysis thread decode to these very variants.
      const sent = await loadCandidateRows(db, runId);
      expect(sent.ids).toEqual(candidates.map((c) => c.id));
      expect(sent.genes).toEqual(candidates.map((c) => c.variant.gene));
      expect(sent.scores).toEqual(candidates.map((c) => c.variant.score));
      expect(sent.rows.map(decodeCandidateRow)).toEqual(candidates.map((c) => c.variant));
      const ranking = await reference.rank(candidates.map((c) => c.variant), { ...terms, sex: 'male' }, null);
      const expectedRanks = candidateRanks(candidates.map((c) => c.variant), candidates.map((c) => c.id), ranking);
      const rankOf = new Map(candidates.map((c, i) => [c.id, expectedRanks[i]]));
      expect(all.map((v) => [v.id, v.rank])).toEqual(all.map((v) => [v.id, rankOf.get(v.id) ?? null]));
      // Each candidate's rank row copies its stored row's filter columns (written from loadCandidateRows' columns), in rank order.
      const rankRowsStored = await db.select().from(runVariantRanks).where(eq(runVariantRanks.runId, runId)).orderBy(asc(runVariantRanks.rank));
      const rowById = new Map((await storedRows()).map((r) => [r.id, r]));
      expect(rankRowsStored.map((r) => r.rank)).toEqual(candidates.map((_, i) => i + 1));
      expect(rankRowsStored.map((r) => ({ id: r.id, ...rankedFilterColumns(r) }))).toEqual(rankRowsStored.map((r) => ({ id: r.id, ...rankedFilterColumns(rowById.get(r.id)!) })));

      const expected = rankedRows(runId, ranking, (s) => reference.geneFacts(s), await geneVariantStats(db, runId));
      const genes = await db.select().from(runGenes).where(eq(runGenes.runId, runId)).orderBy(asc(runGenes.rank));
      const geneView = (g: { symbol: string; rank: number; score: number; significance: string | null; variantCount: number; explanation: string[] }) =>
        [g.symbol, g.rank, Math.fround(g.score), g.significance, g.variantCount, g.explanation] as const;
      expect(genes.length).toBe(expected.genes.length);
      expect(genes.map(geneView)).toEqual(expected.genes.map((g) => geneView({ ...g, significance: g.significance ?? null, variantCount: g.variantCount ?? 0 })));
      // Significance and counts come from every stored variant, not only the candidates, with the reviewer's classes.
      expect(genes.some((g) => g.variantCount > candidates.filter((c) => c.variant.gene === g.symbol).length)).toBe(true);
      expect(genes.find((g) => g.symbol === 'FGFR2')?.significance).toBe(fgfr2Reviewed);
      expect(genes.find((g) => g.symbol === raised!.gene)?.significance ?? 'Pathogenic').toBe('Pathogenic');
      const phenotypes = await db.select().from(runPhenotypes).where(eq(runPhenotypes.runId, runId)).orderBy(asc(runPhenotypes.rank));
      expect(phenotypes.map((p) => [p.diseaseId, p.rank, p.significance])).toEqual(expected.phenotypes.map((p) => [p.diseaseId, p.rank, p.significance ?? null]));

      // A re-rank that fails after writing (COPY of the genes and the candidates' ranks included)
      // leaves the ranking it was replacing, and the variant list as it was.
      const ranksBefore = (await storedRows()).map((r) => [r.id, r.rank]);
      const listPages = async () => {
        const pages: unknown[] = [];
        for (const q of ['mode=non-clustered&pageSize=20', 'mode=filtered&pageSize=20', 'mode=clustered&pageSize=5']) {
          const r = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?${q}`, headers: auth });
          expect(r.statusCode).toBe(200);
          const body = r.json<{ items: unknown[]; nextCursor?: string | null }>();
          pages.push(body);
          if (body.nextCursor) {
            const next = await app.inject({ method: 'GET', url: `/api/products/${id}/variants?${q}&after=${body.nextCursor}`, headers: auth });
            expect(next.statusCode).toBe(200);
            pages.push(next.json());
          }
        }
        return pages;
      };
      const listBefore = await listPages();
      const other = { diseases: ranking.diseases.slice(0, 1), genes: [...ranking.genes].reverse() };
      await expect(
        createCaseAnalysisStore(app.database).rankingTransaction(async (tx, writer) => {
          await writer.replaceRanking(runId, other, (s) => reference.geneFacts(s), { ...sent, variantRanks: sent.ids.map(() => null) });
          const written = await tx.select().from(runGenes).where(eq(runGenes.runId, runId)).orderBy(asc(runGenes.rank));
          expect(written.map((g) => g.symbol)).toEqual(other.genes.map((g) => g.symbol));
          expect((await tx.select().from(runPhenotypes).where(eq(runPhenotypes.runId, runId))).length).toBe(1);
          // The new ranks are written (in this transaction): the genes' order reversed moves the candidates.
          const ranksWritten = await selectRankedVariants(tx).where(eq(runVariants.runId, runId)).orderBy(asc(runVariants.id));
          expect(ranksWritten.filter((r) => r.rank !== null).length).toBe(candidates.length);
          expect(ranksWritten.map((r) => [r.id, r.rank])).not.toEqual(ranksBefore);
          throw new Error('failed after writing');
        }),
      ).rejects.toThrow('failed after writing');
      expect((await db.select().from(runGenes).where(eq(runGenes.runId, runId)).orderBy(asc(runGenes.rank))).map(geneView)).toEqual(genes.map(geneView));
      expect((await db.select().from(runPhenotypes).where(eq(runPhenotypes.runId, runId))).length).toBe(phenotypes.length);
      expect((await storedRows()).map((r) => [r.id, r.rank])).toEqual(ranksBefore);
      expect(await listPages()).toEqual(listBefore);
    }, 300_000);

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
