/**
 * The analysis of a case as the jobs drive it (the CaseAnalysisStore port of jobs/ports.ts):
 * status and progress, runs, stored variants and the ranked phenotypes and genes built from
 * the engine's ranking.
 */
import type { AnnotatedVariant } from '@rarelens/engine';
import type { GeneFacts, RankingValue } from '../../jobs/analysis-engine.ts';
import type { CaseAnalysisStore } from '../../jobs/ports.ts';
import { withBulkLoad } from '../../db/bulk-copy.ts';
import type { Database } from '../../db/database.ts';
import { bestClass } from '../../db/gene-significance.ts';
import { rankedFilterColumns, rankRows } from '../../db/run-variants.ts';
import * as repo from './analysis.repository.ts';

/**
 * Ranks of candidate variants (same order as `candidates`): the engine's variant rank when it
 * gives one; then by gene rank (genes the ranking left out last), variant score (higher
 * first) and input order.
 */
export function candidateRanks(candidates: AnnotatedVariant[], ids: number[], ranking: RankingValue): number[] {
  return orderedRanks(
    candidates.map((v) => ranking.variantRank?.(v) ?? null),
    candidates.map((v) => v.gene),
    candidates.map((v) => v.score),
    ids,
    ranking.genes,
  );
}

/** candidateRanks from each candidate's engine rank (or null), gene and score, aligned with `ids`. */
export function orderedRanks(
  variantRanks: readonly (number | null)[],
  genes: readonly (string | null)[],
  scores: readonly number[],
  ids: readonly number[],
  rankedGenes: readonly { symbol: string }[],
): number[] {
  const geneRank = new Map(rankedGenes.map((g, i) => [g.symbol, i + 1]));
  const engineRank = variantRanks.map((r) => r ?? Number.MAX_SAFE_INTEGER);
  const order = ids.map((_, i) => i);
  const gr = (i: number) => geneRank.get(genes[i] ?? '') ?? Number.MAX_SAFE_INTEGER;
  // Scores are compared as stored (float4), so this order matches the database's.
  const sc = (i: number) => Math.fround(scores[i] ?? 0);
  order.sort(
    (a, b) =>
      (engineRank[a] ?? 0) - (engineRank[b] ?? 0) || gr(a) - gr(b) || sc(b) - sc(a) || (ids[a] ?? 0) - (ids[b] ?? 0),
  );
  const ranks = new Array<number>(ids.length);
  order.forEach((idx, r) => (ranks[idx] = r + 1));
  return ranks;
}

/** The rows of the ranked genes and phenotypes of a run. */
export function rankedRows(
  runId: string,
  ranking: RankingValue,
  geneFacts: (symbol: string) => GeneFacts | null,
  stats: Map<string, repo.GeneVariantStats>,
): { genes: repo.NewRunGene[]; phenotypes: repo.NewRunPhenotype[] } {
  const genes = ranking.genes.map((g, i) => {
    const facts = geneFacts(g.symbol);
    const s = stats.get(g.symbol);
    return {
      runId,
      symbol: g.symbol,
      rank: i + 1,
      hgncId: g.hgncId ?? facts?.hgncId ?? null,
      name: facts?.name ?? null,
      chromosome: facts?.chromosome ?? null,
      locusType: facts?.locusType ?? null,
      description: facts?.description ?? null,
      synonyms: facts?.synonyms ?? [],
      score: g.score,
      phenotypeScore: g.phenotypeScore,
      variantScore: g.variantScore,
      probability: g.probability,
      significance: s?.best ?? null,
      inheritance: g.inheritance,
      onset: facts?.onset ?? [],
      explanation: g.explanation,
      phenotypeSource: g.phenotypeSource,
      diseases: g.diseases,
      variantCount: s?.count ?? 0,
    };
  });
  const phenotypes = ranking.diseases.map((d, i) => ({
    runId,
    diseaseId: d.id,
    rank: i + 1,
    name: d.name,
    score: d.score,
    probability: d.probability,
    significance: bestClass(d.genes.map((g) => stats.get(g)?.best)),
    inheritance: d.inheritance,
    onset: d.onset,
    genes: d.genes,
    matchedTerms: d.matchedTerms,
    explanation: d.explanation,
    mergedIds: d.mergedIds,
    phenotypeSource: d.phenotypeSource,
  }));
  return { genes, phenotypes };
}

/** The store over `database` (bulk writes need the driver: COPY differs between PostgreSQL and PGlite). */
export function createCaseAnalysisStore(database: Database): CaseAnalysisStore {
  return {
    findCase: repo.findCase,
    lockCase: repo.lockCase,
    setStatus: repo.setStatus,
    setProgress: repo.setProgress,
    findGenomeFile: repo.findGenomeFile,
    findGenomeFiles: (db, caseId, role) => repo.findGenomeFiles(db, caseId, role),
    insertReadAlignment: repo.insertReadAlignment,
    findRun: repo.findRun,
    storeFamily: repo.storeFamily,
    insertRun: (db, { caseId, ...run }) => repo.insertRun(db, { productId: caseId, ...run }),
    deleteUnfinishedRuns: repo.deleteUnfinishedRuns,
    deleteOtherRuns: repo.deleteOtherRuns,
    takesEncodedRows: database.kind === 'postgres',
    loadRun: (fn) =>
      withBulkLoad(database, (load) => {
        const kind = database.kind;
        return fn({
          executor: () => load.query(),
          insertRun: async ({ caseId, ...run }) => repo.insertRun(await load.query(), { productId: caseId, ...run }),
          insertVariants: (runId, variants) =>
            repo.copyVariants(load, kind, variants.map((v) => repo.toVariantRow(runId, v.id, v.variant, false))),
          insertEncodedVariants: (runId, rows) => repo.copyEncodedVariants(load, runId, rows),
          publish: (f) =>
            load.transaction((tx) =>
              f(tx.db, {
                async insertCandidates(runId, candidates, ranking) {
                  const ids = candidates.map((c) => c.id);
                  const ranks = candidateRanks(candidates.map((c) => c.variant), ids, ranking);
                  const rows = candidates.map((c) => repo.toVariantRow(runId, c.id, c.variant, true, c.inheritance ?? null));
                  await repo.copyVariants(tx, kind, rows);
                  await repo.copyVariantRanks(tx, kind, rankRows(runId, ids, ranks, rows.map(rankedFilterColumns)));
                },
                async insertRanking(runId, ranking, geneFacts) {
                  const stats = await repo.geneVariantStats(tx.db, runId);
                  const rows = rankedRows(runId, ranking, geneFacts, stats);
                  await repo.copyRanked(tx, kind, rows.genes, rows.phenotypes);
                  await repo.copyVariantGenes(tx, kind, runId, stats);
                },
              }),
            ),
        });
      }),
    loadCandidates: repo.loadCandidates,
    loadCandidateRows: repo.loadCandidateRows,
    rankingTransaction: (fn) =>
      withBulkLoad(database, (load) =>
        load.transaction((tx) =>
          fn(tx.db, {
            async replaceRanking(runId, ranking, geneFacts, rerankedCandidates) {
              // The per-gene figures of the run's variants, stored with its first ranking.
              const stats = (await repo.storedGeneVariantStats(tx.db, runId)) ?? (await repo.geneVariantStats(tx.db, runId));
              const rows = rankedRows(runId, ranking, geneFacts, stats);
              await repo.deleteRanked(tx.db, runId);
              await repo.copyRanked(tx, database.kind, rows.genes, rows.phenotypes);
              if (rerankedCandidates && !Array.isArray(rerankedCandidates)) {
                const c = rerankedCandidates;
                const ranks = orderedRanks(c.variantRanks, c.genes, c.scores, c.ids, ranking.genes);
                await repo.copyVariantRanks(tx, database.kind, rankRows(runId, c.ids, ranks, c.filterColumns));
              } else if (rerankedCandidates) {
                const ids = rerankedCandidates.map((c) => c.id);
                const ranks = candidateRanks(rerankedCandidates.map((c) => c.variant), ids, ranking);
                const columns = rerankedCandidates.map((c) => rankedFilterColumns(repo.toVariantRow(runId, c.id, c.variant, true, c.inheritance ?? null)));
                await repo.copyVariantRanks(tx, database.kind, rankRows(runId, ids, ranks, columns));
              }
            },
          }),
        ),
      ),
    markRanked: repo.markRanked,
    completeRun: repo.completeRun,
    refreshVariantStats: repo.refreshVariantStats,
  };
}
