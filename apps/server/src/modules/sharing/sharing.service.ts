/** Sharing a case (read-only) with other users by e-mail; only the owner lists and changes the shares. */
import { ErrorCode } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { CaseAccess, Caller } from '../cases/cases.service.ts';
import * as repo from './sharing.repository.ts';

export function createSharingService(deps: { database: Database; access: CaseAccess }) {
  const db = deps.database.db;
  return {
    /** The e-mails a case is shared with (no access check: for the case details). */
    emailsOf: (caseId: string): Promise<string[]> => repo.listShares(db, caseId),

    async list(user: Caller, id: string) {
      const { caseRow } = await deps.access.check(user, id, 'share');
      return { emails: await repo.listShares(db, caseRow.id) };
    },

    async share(user: Caller, id: string, email: string) {
      const { caseRow } = await deps.access.check(user, id, 'share');
      if (email === user.email) throw new AppError(400, ErrorCode.badRequest, 'You cannot share a case with yourself');
      await repo.addShare(db, caseRow.id, email);
      return { emails: await repo.listShares(db, caseRow.id) };
    },

    async unshare(user: Caller, id: string, email: string) {
      const { caseRow } = await deps.access.check(user, id, 'share');
      if (!(await repo.removeShare(db, caseRow.id, email))) {
        throw new AppError(404, ErrorCode.notFound, 'The case is not shared with this e-mail');
      }
      return { emails: await repo.listShares(db, caseRow.id) };
    },
  };
}

export type SharingService = ReturnType<typeof createSharingService>;
