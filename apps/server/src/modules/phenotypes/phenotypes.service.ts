/** The ranked phenotypes (diseases) of a case: a page of the list, and one disease with the top variants of its genes. */
import { ErrorCode, type PageQuery, type PhenotypeDetails } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { CaseAccess, Caller } from '../cases/cases.service.ts';
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
    async list(user: Caller, id: string, page: PageQuery) {
      const { caseRow } = await deps.access.check(user, id, 'read');
      if (!caseRow.currentRunId) return { items: [], ...page, total: 0, totalIsCapped: false };
      const r = await repo.listPhenotypes(db, caseRow.currentRunId, page);
      return { items: r.items.map(presentPhenotype), ...page, total: r.total, totalIsCapped: false };
    },

    /** The `limit` best-ranked phenotypes of a run, without an access check (a share link was checked). */
    async topOfRun(runId: string, limit: number) {
      const r = await repo.listPhenotypes(db, runId, { page: 1, pageSize: limit });
      return r.items.map(presentPhenotype);
    },

    async get(user: Caller, id: string, diseaseId: string): Promise<PhenotypeDetails> {
      const { caseRow } = await deps.access.check(user, id, 'read');
      const runId = caseRow.currentRunId;
      const row = runId ? await repo.findPhenotype(db, runId, diseaseId) : null;
      if (!row || !runId) throw new AppError(404, ErrorCode.notFound, 'Phenotype not found in this case');
      const [variants, proteinIds] = await Promise.all([
        deps.variants.inGenes(caseRow.id, runId, row.genes, PHENOTYPE_VARIANTS),
        deps.proteinIds ? deps.proteinIds().catch(() => noProteinIds) : noProteinIds,
      ]);
      return presentPhenotypeDetails(row, variants, proteinIds);
    },
  };
}

export type PhenotypesService = ReturnType<typeof createPhenotypesService>;
