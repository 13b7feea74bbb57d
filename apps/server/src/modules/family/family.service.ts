/**
 * The family of a case (GET /api/products/:id/family): the members, their relations and affected
 * status, and the trio QC stored with the current run. The family is read from the run row the
 * access check already loads, so this module has no SQL of its own (no repository).
 */
import type { FamilyResponse } from '@rarelens/contract';
import { checkFamily } from '@rarelens/engine';
import type { CaseAccess, Caller } from '../cases/cases.service.ts';
import { presentFamily } from './family.presenter.ts';

export function createFamilyService(deps: { access: CaseAccess }) {
  return {
    async get(user: Caller, id: string): Promise<FamilyResponse> {
      const { caseRow } = await deps.access.check(user, id, 'read');
      const run = caseRow.currentRunId ? await deps.access.run(caseRow.currentRunId) : null;
      if (run?.family) return presentFamily(run.family, { sample: null, sex: caseRow.gender });
      // Not analysed yet: the pedigree as checked at upload (every member was in the VCF), no QC yet.
      if (caseRow.pedigree) {
        const p = caseRow.pedigree;
        const { family } = checkFamily({ source: p.source, members: p.members }, p.members.map((m) => m.id), { proband: p.proband });
        if (family) return presentFamily({ family, qc: [] }, { sample: null, sex: caseRow.gender });
      }
      return presentFamily(null, { sample: caseRow.probandSample, sex: caseRow.gender });
    },
  };
}

export type FamilyService = ReturnType<typeof createFamilyService>;
