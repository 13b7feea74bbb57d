/**
 * The variants of a case: the filtered, paged or clustered list, one variant, and the top
 * variants of given genes (for the gene and phenotype details). `variantFilters` is the one
 * mapping of the list's query to the stored-variant filter, shared with the TSV and the report.
 */
import { ErrorCode, type VariantDetails, type VariantListQuery, type VariantListResponse, type VariantRow } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { hasFilters, type VariantFilters } from '../../db/run-variants.ts';
import type { RunVariantRow } from '../../db/schema/products.ts';
import { AppError } from '../../errors.ts';
import type { CaseAccess, Caller } from '../cases/cases.service.ts';
import { presentVariant, presentVariantDetails, type ReviewerClassifications } from './variants.presenter.ts';
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
}) {
  const db = deps.database.db;
  const reviewsOf = (caseId: string): Promise<ReviewerClassifications> => (deps.reviews ? deps.reviews(caseId) : Promise.resolve(NO_REVIEWS));
  return {
    async list(user: Caller, id: string, q: VariantListQuery): Promise<VariantListResponse> {
      const { caseRow, storedVariants } = await deps.access.check(user, id, 'read');
      const page = { page: q.page, pageSize: q.pageSize };
      const runId = caseRow.currentRunId;
      if (!runId) return { mode: q.mode, items: [], ...page, total: 0, totalIsCapped: false };
      const filters = variantFilters(q);
      const reviews = await reviewsOf(caseRow.id);
      const present = (v: RunVariantRow): VariantRow => presentVariant(v, reviews);
      if (q.mode === 'clustered') {
        const r = await repo.listVariantClusters(db, runId, filters, page, VARIANTS_PER_CLUSTER);
        return {
          mode: 'clustered',
          ...page,
          total: r.total,
          totalIsCapped: false,
          items: r.items.map((c) => ({
            gene: { symbol: c.symbol, rank: c.geneRank, score: c.geneScore },
            variantCount: c.variantCount,
            variants: c.variants.map(present),
          })),
        };
      }
      const knownTotal = !hasFilters(filters) && !filters.candidatesOnly && storedVariants !== null ? storedVariants : undefined;
      const r = await repo.listVariants(db, runId, filters, page, knownTotal);
      return { mode: q.mode, items: r.items.map(present), ...page, total: r.total, totalIsCapped: r.capped };
    },

    async get(user: Caller, id: string, variantId: number): Promise<VariantDetails> {
      const { caseRow } = await deps.access.check(user, id, 'read');
      const runId = caseRow.currentRunId;
      const row = runId ? await repo.findVariant(db, runId, variantId) : null;
      if (!row || !runId) throw new AppError(404, ErrorCode.notFound, 'Variant not found in this case');
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
