/** The ranked phenotypes (diseases) of a case: a page of the list, and one disease with the top variants of its genes. */
import type { PageQuery, PhenotypeDetails } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { itemOfCurrentRun, pageOfCurrentRun, type CaseAccess, type Caller } from '../cases/cases.service.ts';
import type { VariantsService } from '../variants/variants.service.ts';
import { presentPhenotype, presentPhenotypeDetails } from './phenotypes.presenter.ts';
import * as repo from './phenotypes.repository.ts';
import type { ProteinIds } from '../../kb/protein-ids.ts';

/** How a ranked phenotype is shown (also by GenomeTalks). */
export { presentPhenotype };

const noProteinIds: ProteinIds = () => [];

/** Variants (of the disease's genes) listed on a phenotype's page. */
const PHENOTYPE_VARIANTS = 50;

export function createPhenotypesService(deps: {
  database: Database;
  access: CaseAccess;
  variants: Pick<VariantsService, 'inGenes'>;
  /** UniProt accessions of a gene (kb/protein-ids.ts); absent = none. */
  proteinIds?: () => Promise<ProteinIds>;
}) {
  const db = deps.database.db;
  return {
    list: (user: Caller, id: string, page: PageQuery) =>
      pageOfCurrentRun(deps.access, user, id, page, (runId) => repo.listPhenotypes(db, runId, page), presentPhenotype),

    /** The `limit` best-ranked phenotypes of a run, without an access check (a share link was checked). */
    async topOfRun(runId: string, limit: number) {
      const r = await repo.listPhenotypes(db, runId, { page: 1, pageSize: limit });
      return r.items.map(presentPhenotype);
    },

    async get(user: Caller, id: string, diseaseId: string): Promise<PhenotypeDetails> {
      const { caseRow, runId, row } = await itemOfCurrentRun(deps.access, user, id, (run) => repo.findPhenotype(db, run, diseaseId), 'Phenotype not found in this case');
      const [variants, proteinIds] = await Promise.all([
        deps.variants.inGenes(caseRow.id, runId, row.genes, PHENOTYPE_VARIANTS),
        deps.proteinIds ? deps.proteinIds().catch(() => noProteinIds) : noProteinIds,
      ]);
      return presentPhenotypeDetails(row, variants, proteinIds);
    },
  };
}

export type PhenotypesService = ReturnType<typeof createPhenotypesService>;
