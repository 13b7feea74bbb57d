/**
 * Reviewer classifications (issue 17): the owner of a case sets a variant's class (Pathogenic ...
 * Benign) with a mandatory reason, beside the automatic ACMG class; users the case is shared
 * with read it on every variant screen and in the report; anyone else gets 404. Stored per case
 * and GRCh38 allele, so it survives re-ranking and re-analysis.
 */
import { ErrorCode, type ReviewerClassification, type SetVariantClassificationBody } from '@rarelens/contract';
import type { Database, Executor } from '../../db/database.ts';
import { refreshGeneSignificance } from '../../db/gene-significance.ts';
import type { RunVariantRow } from '../../db/schema/products.ts';
import type { UserRow } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';
import type { CaseAccess } from '../cases/cases.service.ts';
import type { ReviewerClassifications } from '../variants/index.ts';
import { presentClassification, presentClassificationMap } from './variant-classifications.presenter.ts';
import * as repo from './variant-classifications.repository.ts';

export interface VariantClassificationsDeps {
  database: Database;
  access: CaseAccess;
  /** A stored variant of a run (variants module). */
  storedVariant: (runId: string, variantId: number) => Promise<RunVariantRow | null>;
}

/** The reviewer classifications of a case by allele key (read by the variant presenters). */
export function createReviewLookup(database: Database): (caseId: string) => Promise<ReviewerClassifications> {
  return async (caseId) => presentClassificationMap(await repo.listForCase(database.db, caseId));
}

/** The significance of the variant's gene and its diseases follows the reviewer's class (db/gene-significance.ts). */
async function refreshSignificance(tx: Executor, caseRow: { currentRunId: string | null }, v: RunVariantRow): Promise<void> {
  if (caseRow.currentRunId && v.gene) await refreshGeneSignificance(tx, caseRow.currentRunId, v.gene);
}

export function createVariantClassificationsService(deps: VariantClassificationsDeps) {
  const db = deps.database.db;

  /** The variant of the case's current run, or 404. */
  async function variantOf(caseRow: { currentRunId: string | null }, variantId: number): Promise<RunVariantRow> {
    const runId = caseRow.currentRunId;
    const row = runId ? await deps.storedVariant(runId, variantId) : null;
    if (!row) throw new AppError(404, ErrorCode.notFound, 'Variant not found in this case');
    return row;
  }

  return {
    async set(user: UserRow, caseId: string, variantId: number, body: SetVariantClassificationBody): Promise<ReviewerClassification> {
      const { caseRow } = await deps.access.check(user, caseId, 'edit');
      const v = await variantOf(caseRow, variantId);
      const name = [user.name, user.surname].filter(Boolean).join(' ').trim();
      const row = await db.transaction(async (tx) => {
        const stored = await repo.upsert(tx, {
          caseId: caseRow.id,
          chrom: v.chrom,
          pos: v.pos,
          ref: v.ref,
          alt: v.alt,
          classification: body.classification,
          reason: body.reason,
          automaticClass: v.acmgClass,
          reviewerId: user.id,
          reviewerName: name || null,
          reviewerEmail: user.email,
        });
        await refreshSignificance(tx, caseRow, v);
        return stored;
      });
      return presentClassification(row);
    },

    async clear(user: UserRow, caseId: string, variantId: number): Promise<{ removed: boolean }> {
      const { caseRow } = await deps.access.check(user, caseId, 'edit');
      const v = await variantOf(caseRow, variantId);
      const removed = await db.transaction(async (tx) => {
        const wasSet = await repo.remove(tx, caseRow.id, v);
        if (wasSet) await refreshSignificance(tx, caseRow, v);
        return wasSet;
      });
      return { removed };
    },
  };
}

export type VariantClassificationsService = ReturnType<typeof createVariantClassificationsService>;
