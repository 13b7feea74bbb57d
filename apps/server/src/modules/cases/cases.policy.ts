/**
 * Who may do what with a case. Owners do everything; users the case is shared with (by their
 * e-mail) may read it. Anyone else is told the case does not exist (404, never 403), so case
 * ids cannot be probed.
 */
import { ErrorCode } from '@rarelens/contract';
import { AppError } from '../../errors.ts';

export type CaseAccessLevel = 'owner' | 'shared';
export type CaseAction = 'read' | 'edit' | 'share';

export function caseNotFound(): AppError {
  return new AppError(404, ErrorCode.productNotFound, 'Case not found');
}

/** Throws unless `access` allows `action`. */
export function assertCan(access: CaseAccessLevel | null, action: CaseAction): asserts access is CaseAccessLevel {
  if (access === null) throw caseNotFound();
  switch (action) {
    case 'read':
      return;
    case 'edit':
    case 'share':
      if (access !== 'owner') throw new AppError(403, ErrorCode.forbidden, 'Only the owner of the case can do this');
      return;
  }
}
