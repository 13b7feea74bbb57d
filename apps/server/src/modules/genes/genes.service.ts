/** The ranked genes of a case: a page of the list, and one gene with its top variants. */
import type { GeneDetails, PageQuery } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { itemOfCurrentRun, pageOfCurrentRun, type CaseAccess, type Caller } from '../cases/cases.service.ts';
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
    list: (user: Caller, id: string, page: PageQuery) =>
      pageOfCurrentRun(deps.access, user, id, page, (runId) => repo.listGenes(db, runId, page), presentGene),

    async get(user: Caller, id: string, geneId: string): Promise<GeneDetails> {
      const { caseRow, runId, row } = await itemOfCurrentRun(deps.access, user, id, (run) => repo.findGene(db, run, geneId), 'Gene not found in this case');
      return presentGeneDetails(row, await deps.variants.inGenes(caseRow.id, runId, [row.symbol], GENE_VARIANTS));
    },
  };
}

export type GenesService = ReturnType<typeof createGenesService>;
