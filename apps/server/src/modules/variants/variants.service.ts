/**
 * The variants of a case: the filtered, paged or clustered list, one variant, and the top
 * variants of given genes (for the gene and phenotype details). `variantFilters` is the one
 * mapping of the list's query to the stored-variant filter, shared with the TSV and the report.
 */
import { type VariantDetails, type VariantListQuery, type VariantListResponse, type VariantRow } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { hasFilters, planFitsAnyValues, type ListedVariantRow, type VariantFilters } from '../../db/run-variants.ts';
import type { RunVariantRow } from '../../db/schema/products.ts';
import type { VariantClassificationRow } from '../../db/schema/variant-classifications.ts';
import { Errors } from '../../errors.ts';
import { itemOfCurrentRun, type CaseAccess, type Caller } from '../cases/cases.service.ts';
import { presentVariant, presentVariantDetails, type ReviewerClassifications } from './variants.presenter.ts';
import { ResultsCache } from '../../http/results-cache.ts';
import { countKey } from './count-cache.ts';
import * as repo from './variants.repository.ts';

/** How a stored variant is shown (also in the reporting list and by GenomeTalks). */
export { presentVariant, presentVariantDetails };

/** Genes per page of the clustered view list this many variants each. */
const VARIANTS_PER_CLUSTER = 20;

/**
 * The stored-variant filter of a list query: the query's filters; in 'filtered' mode without
 * any filter, the ranking's candidates.
 */
export function variantFilters(q: Omit<VariantListQuery, 'page' | 'pageSize'>): VariantFilters {
  const filters: VariantFilters = {
    consequence: q.consequence,
    maxAf: q.maxAf,
    clinvar: q.clinvar,
    acmg: q.acmg,
    zygosity: q.zygosity,
    gene: q.gene,
    inheritance: q.inheritance,
  };
  if (q.mode === 'filtered' && !hasFilters(filters)) filters.candidatesOnly = true;
  return filters;
}

const NO_REVIEWS: ReviewerClassifications = new Map();

export function createVariantsService(deps: {
  database: Database;
  access: CaseAccess;
  /** Reviewer classifications of a case by allele key (variant-classifications module); none when absent. */
  reviews?: (caseId: string) => Promise<ReviewerClassifications>;
  /**
   * Stored classifications by allele key, as `reviews` presents them: the list reads the
   * classifications of its page's variants in the page's own statement and presents them here.
   * None when absent.
   */
  presentReviews?: (rows: VariantClassificationRow[]) => ReviewerClassifications;
}) {
  const db = deps.database.db;
  // The list pages' prepared statements: planned once where one plan fits every value of their
  // filters (planFitsAnyValues), else for each request's values.
  const pageDb = (f: VariantFilters) => (planFitsAnyValues(f) ? deps.database.genericPlanDb : db);
  // Totals of filtered lists, per run, ranking and filter (count-cache.ts): not recounted per page.
  const listTotals = new ResultsCache<{ total: number; capped: boolean }>();
  // The clustered view's ordered gene list (one aggregate over the matching variants) likewise:
  // its pages are slices. Fewer entries: a genome's list holds thousands of genes.
  const clusterLists = new ResultsCache<repo.GeneCluster[]>(200);
  const reviewsOf = (caseId: string): Promise<ReviewerClassifications> => (deps.reviews ? deps.reviews(caseId) : Promise.resolve(NO_REVIEWS));
  const presentReviews = (rows: VariantClassificationRow[]): ReviewerClassifications => (deps.presentReviews && rows.length > 0 ? deps.presentReviews(rows) : NO_REVIEWS);
  return {
    async list(user: Caller, id: string, q: VariantListQuery): Promise<VariantListResponse> {
      const { caseRow, storedVariants, runRankedAt } = await deps.access.check(user, id, 'read');
      const page = { page: q.page, pageSize: q.pageSize };
      const runId = caseRow.currentRunId;
      if (!runId) return q.mode === 'clustered' ? { mode: q.mode, items: [], ...page, total: 0, totalIsCapped: false } : { mode: q.mode, items: [], ...page, total: 0, totalIsCapped: false, nextCursor: null };
      const after = q.after === undefined || q.mode === 'clustered' ? undefined : (repo.decodeCursor(q.after) ?? undefined);
      if (q.after !== undefined && q.mode !== 'clustered' && after === undefined) {
        throw Errors.validation([{ path: ['after'], message: 'Not a cursor of this list: pass the nextCursor of the previous page' }]);
      }
      const filters = variantFilters(q);
      const present = (v: ListedVariantRow, reviews: ReviewerClassifications): VariantRow => presentVariant(v, reviews);
      if (q.mode === 'clustered') {
        const genes = await clusterLists.get(countKey(runId, runRankedAt, 'clusters', filters), () => repo.clusterGenes(db, runId, filters));
        const slice = genes.slice((page.page - 1) * page.pageSize, page.page * page.pageSize);
        const clustered = await repo.clusterVariants(pageDb(filters), caseRow.id, runId, filters, slice.map((g) => g.symbol), VARIANTS_PER_CLUSTER);
        const variants = clustered.byGene;
        const reviews = presentReviews(clustered.reviews);
        return {
          mode: 'clustered',
          ...page,
          total: genes.length,
          totalIsCapped: false,
          items: slice.map((c) => ({
            gene: { symbol: c.symbol, rank: c.geneRank, score: c.geneScore },
            variantCount: c.variantCount,
            variants: (variants.get(c.symbol) ?? []).map((v) => present(v, reviews)),
          })),
        };
      }
      const knownTotal = !hasFilters(filters) && !filters.candidatesOnly && storedVariants !== null ? { total: storedVariants, capped: false } : null;
      const [{ rows, reviews: reviewRows }, count] = await Promise.all([
        repo.listVariants(pageDb(filters), caseRow.id, runId, filters, page, after),
        knownTotal ?? listTotals.get(countKey(runId, runRankedAt, 'variants', filters), () => repo.cappedCount(db, runId, filters)),
      ]);
      const reviews = presentReviews(reviewRows);
      const last = rows.length === page.pageSize ? rows[rows.length - 1] : undefined;
      const nextCursor = last ? repo.encodeCursor({ rank: last.rank, score: last.score, id: last.id }) : null;
      return { mode: q.mode, items: rows.map((v) => present(v, reviews)), ...page, total: count.total, totalIsCapped: count.capped, nextCursor };
    },

    async get(user: Caller, id: string, variantId: number): Promise<VariantDetails> {
      const { caseRow, runId, row } = await itemOfCurrentRun(deps.access, user, id, (run) => repo.findVariant(db, run, variantId), 'Variant not found in this case');
      const run = await deps.access.run(runId);
      return presentVariantDetails(row, run?.inputAssembly ?? 'unknown', await reviewsOf(caseRow.id));
    },

    /** A stored variant of a run as the database holds it (reports, exports). */
    stored: (runId: string, variantId: number): Promise<RunVariantRow | null> => repo.findVariant(db, runId, variantId),

    /** Top variants (list order) of a case's run in the given genes, with the case's reviewer classifications. */
    async inGenes(caseId: string, runId: string, genes: string[], limit: number): Promise<VariantRow[]> {
      const [rows, reviews] = await Promise.all([repo.variantsInGenes(db, runId, genes, limit), reviewsOf(caseId)]);
      return rows.map((v) => presentVariant(v, reviews));
    },

    /** Reviewer classifications of a case by allele key (reports). */
    reviews: reviewsOf,
  };
}

export type VariantsService = ReturnType<typeof createVariantsService>;
