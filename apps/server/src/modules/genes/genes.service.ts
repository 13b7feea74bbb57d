/** The ranked genes of a case: a page of the list, and one gene with its top variants. */
import { ErrorCode, type GeneDetails, type PageQuery } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { CaseAccess, Caller } from '../cases/cases.service.ts';
import type { VariantsService } from '../variants/variants.service.ts';
import { presentGene, presentGeneDetails } from './genes.presenter.ts';
import * as repo from './genes.repository.ts';

/** How a ranked gene is shown (also by GenomeTalks). */
export { presentGeneDetails };

/** Variants listed on a gene's page. */
const GENE_VARIANTS = 100;

export function createGenesService(deps: { database: Database; access: CaseAccess; variants: Pick<VariantsService, 'inGenes'> }) {
  const db = deps.database.db;
  return {
    async list(user: Caller, id: string, page: PageQuery) {
      const { caseRow } = await deps.access.check(user, id, 'read');
      if (!caseRow.currentRunId) return { items: [], ...page, total: 0, totalIsCapped: false };
      const r = await repo.listGenes(db, caseRow.currentRunId, page);
      return { items: r.items.map(presentGene), ...page, total: r.total, totalIsCapped: false };
    },

    async get(user: Caller, id: string, geneId: string): Promise<GeneDetails> {
      const { caseRow } = await deps.access.check(user, id, 'read');
      const runId = caseRow.currentRunId;
      const row = runId ? await repo.findGene(db, runId, geneId) : null;
      if (!row || !runId) throw new AppError(404, ErrorCode.notFound, 'Gene not found in this case');
      return presentGeneDetails(row, await deps.variants.inGenes(caseRow.id, runId, [row.symbol], GENE_VARIANTS));
    },
  };
}

export type GenesService = ReturnType<typeof createGenesService>;
