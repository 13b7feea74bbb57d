/**
 * rerank-case: after the patient's HPO terms changed, ranks the stored candidate variants of
 * the current run again (no re-reading, no re-annotation) and replaces the ranked phenotypes,
 * genes and variant order in one transaction. Idempotent by construction.
 */
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import type { AnalysisEngine, RankingValue } from './analysis-engine.ts';
import { defineJob, type JobDefinition } from './job.registry.ts';
import type { CaseAnalysisStore, RerankedStoredCandidates, RunVariant } from './ports.ts';

export const RerankCasePayload = z.object({ productId: z.uuid() });
export type RerankCasePayload = z.infer<typeof RerankCasePayload>;

export function createRerankCaseJob(deps: {
  db: Db;
  store: CaseAnalysisStore;
  engine: () => Promise<AnalysisEngine>;
}): JobDefinition<RerankCasePayload> {
  return defineJob({
    name: 'rerank-case',
    payload: RerankCasePayload,
    retry: { maxAttempts: 3, delaySeconds: 2, backoff: true },
    async perform({ productId: caseId }, ctx) {
      const { db, store } = deps;
      const engine = await deps.engine();
      // Terms may change again while ranking; rank until the terms used are the current ones.
      for (let round = 0; round < 5; round++) {
        const tRead = performance.now();
        const caseRow = await store.findCase(db, caseId);
        // Not analysed yet: the running analysis ranks with the terms it reads at the end.
        if (!caseRow?.currentRunId) return;
        const runId = caseRow.currentRunId;
        const terms = { hpoTerms: caseRow.hpoTerms, excludedTerms: caseRow.excludedTerms };
        const patient = { ...terms, sex: caseRow.gender };
        let ranking: RankingValue;
        let candidates: RunVariant[] | RerankedStoredCandidates;
        let tRank: number;
        if (engine.rankStored && store.loadCandidateRows) {
          // The rows cross to the engine as texts, decoded where the ranking runs.
          const [stored, run] = await Promise.all([store.loadCandidateRows(db, runId), store.findRun(db, runId)]);
          tRank = performance.now();
          // A family case ranks with the family stored with the run (the genotypes are on the rows).
          const ranked = await engine.rankStored(stored.rows, patient, run?.family ?? null);
          ranking = { diseases: ranked.diseases, genes: ranked.genes };
          candidates = { ids: stored.ids, genes: stored.genes, scores: stored.scores, filterColumns: stored.filterColumns, variantRanks: ranked.variantRanks };
        } else {
          const [loaded, run] = await Promise.all([store.loadCandidates(db, runId), store.findRun(db, runId)]);
          tRank = performance.now();
          ranking = await engine.rank(loaded.map((c) => c.variant), patient, run?.family ?? null);
          candidates = loaded;
        }
        const candidateCount = Array.isArray(candidates) ? candidates.length : candidates.ids.length;
        ctx.signal.throwIfAborted();
        const tWrite = performance.now();
        const outcome = await store.rankingTransaction(async (tx, writer) => {
          await ctx.assertOwnership(tx);
          const locked = await store.lockCase(tx, caseId);
          if (locked?.currentRunId !== runId) return 'superseded' as const;
          if (JSON.stringify([locked.hpoTerms, locked.excludedTerms]) !== JSON.stringify([terms.hpoTerms, terms.excludedTerms])) {
            return 'terms-changed' as const;
          }
          await writer.replaceRanking(runId, ranking, (s) => engine.geneFacts(s), candidates);
          // The job's split (shown with the run's counts; bench:cases reports it).
          await store.markRanked(tx, runId, terms, {
            rerankCandidates: candidateCount,
            msRerankRead: Math.round(tRank - tRead),
            msRerankRank: Math.round(tWrite - tRank),
            msRerankWrite: Math.round(performance.now() - tWrite),
          });
          return 'done' as const;
        });
        if (outcome === 'done') await store.refreshVariantStats(db, 0);
        if (outcome !== 'terms-changed') return;
      }
      throw new Error('the HPO terms kept changing while re-ranking; will retry');
    },
  });
}
