/**
 * The family of a case (GET /api/products/:id/family): the members, their relations and affected
 * status, and the trio QC stored with the current run. The family is read from the run row the
 * access check already loads, so this module has no SQL of its own (no repository).
 */
import type { FamilyResponse } from '@rarelens/contract';
import { ErrorCode } from '@rarelens/contract';
import { checkFamily, formatPed, type Family } from '@rarelens/engine';
import { AppError } from '../../errors.ts';
import type { CaseAccess, Caller } from '../cases/cases.service.ts';
import { presentFamily } from './family.presenter.ts';

export function createFamilyService(deps: { access: CaseAccess }) {
  /** The case's family: the run's (with its trio QC) or, before analysis, the pedigree checked at upload. */
  async function stored(user: Caller, id: string) {
    const { caseRow } = await deps.access.check(user, id, 'read');
    const run = caseRow.currentRunId ? await deps.access.run(caseRow.currentRunId) : null;
    if (run?.family) return { caseRow, stored: run.family };
    // Not analysed yet: the pedigree as checked at upload (every member was in the VCF), no QC yet.
    if (caseRow.pedigree) {
      const p = caseRow.pedigree;
      const { family } = checkFamily({ source: p.source, members: p.members }, p.members.map((m) => m.id), { proband: p.proband });
      if (family) return { caseRow, stored: { family, qc: [] } };
    }
    return { caseRow, stored: null };
  }
  return {
    async get(user: Caller, id: string): Promise<FamilyResponse> {
      const { caseRow, stored: family } = await stored(user, id);
      return presentFamily(family, { sample: caseRow.probandSample, sex: caseRow.gender });
    },

    /** The pedigree as a PED file (GET /api/products/:id/family.ped); 409 for a case uploaded without one. */
    async ped(user: Caller, id: string): Promise<{ fileName: string; text: string }> {
      const { caseRow, stored: family } = await stored(user, id);
      if (!family) throw new AppError(409, ErrorCode.noPedigree, `Case ${caseRow.caseId} was uploaded without a pedigree: there is no PED file to download`);
      return { fileName: `${caseRow.caseId}.ped`, text: pedOf(family.family) };
    },
  };
}

/** PED text of a checked family (members in pedigree order; the header names the columns). */
function pedOf(family: Family): string {
  return `#family_id\tindividual_id\tpaternal_id\tmaternal_id\tsex\tphenotype\n${formatPed({ source: 'RareLens', members: family.members })}`;
}

export type FamilyService = ReturnType<typeof createFamilyService>;
