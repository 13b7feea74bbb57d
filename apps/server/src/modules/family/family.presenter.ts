/** GET /api/products/:id/family: the stored family of the case's run, whitelisted. */
import type { FamilyResponse, MemberGenotype } from '@rarelens/contract';
import type { Family, Genotype, TrioQc } from '@rarelens/engine';

/** What a run stores for a family case (the engine's checked family and its trio QC). */
export interface StoredFamily {
  family: Family;
  qc: TrioQc[];
}

/** The family of a case; a single-sample case is its proband alone (no QC). */
export function presentFamily(stored: StoredFamily | null, single: { sample: string | null; sex: 'male' | 'female' }): FamilyResponse {
  if (!stored) {
    return {
      proband: single.sample,
      members: single.sample ? [{ sample: single.sample, relation: 'proband', sex: single.sex, status: 'affected', father: null, mother: null, sequenced: true }] : [],
      qc: [],
      notes: [],
    };
  }
  const { family, qc } = stored;
  return {
    proband: family.proband,
    members: family.members.map((m) => ({ sample: m.id, relation: m.relation, sex: m.sex, status: m.status, father: m.father, mother: m.mother, sequenced: m.vcfIndex >= 0 })),
    qc: qc.map((q) => ({
      child: q.child,
      father: q.father,
      mother: q.mother,
      sites: q.sites,
      errors: q.errors,
      rate: q.rate,
      qcSites: q.qcSites,
      qcErrors: q.qcErrors,
      qcRate: q.qcRate,
      fatherCheck: { ...q.fatherCheck },
      motherCheck: { ...q.motherCheck },
      warning: q.warning,
    })),
    notes: [...family.notes],
  };
}

/** A member's stored genotype as the API shows it. */
export function presentGenotype(g: Genotype): MemberGenotype {
  return { gt: g.gt, zygosity: g.zygosity, depth: g.depth ?? null, genotypeQuality: g.genotypeQuality ?? null, alleleDepths: g.alleleDepths ?? null };
}
