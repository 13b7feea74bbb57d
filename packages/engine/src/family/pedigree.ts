/**
 * The family of a case: a pedigree checked against the VCF's samples, with the proband chosen.
 * `checkFamily` returns every problem at once (each naming the sample), so an upload can be
 * refused before it is queued with a list the user can fix in one go.
 */
import type { Sex } from '../types.ts';
import type { AffectedStatus, Pedigree, PedigreeMember } from './ped.ts';

export type Relation =
  | 'proband'
  | 'father'
  | 'mother'
  | 'sibling'
  | 'half-sibling'
  | 'child'
  | 'grandparent'
  | 'aunt/uncle'
  | 'relative';

export interface FamilyMember extends PedigreeMember {
  relation: Relation;
  /** Column of the sample in the VCF, -1 when it was not sequenced (not in the VCF). */
  vcfIndex: number;
}

export interface Family {
  proband: string;
  members: FamilyMember[];
  /** Facts worth telling the user that are not errors (extra VCF samples, other families ignored). */
  notes: string[];
}

export type FamilyProblemCode =
  | 'sample_not_in_vcf'
  | 'proband_not_found'
  | 'proband_ambiguous'
  | 'parent_not_in_pedigree'
  | 'parent_sex_conflict'
  | 'parent_in_other_family'
  | 'pedigree_cycle'
  | 'no_samples';

export interface FamilyProblem {
  code: FamilyProblemCode;
  /** The sample the problem is about (null for the whole pedigree). */
  sample: string | null;
  message: string;
}

export interface CheckFamilyOptions {
  /** Sample chosen as the proband; default: the only affected member, or the only sample. */
  proband?: string | null;
}

/** A pedigree of one person, for single-sample VCFs (status affected, parents unknown). */
export function singleSamplePedigree(sample: string, sex: Sex = 'unknown'): Pedigree {
  return { source: 'single sample', members: [{ family: sample, id: sample, father: null, mother: null, sex, status: 'affected' }] };
}

function relationOf(byId: Map<string, PedigreeMember>, proband: PedigreeMember, m: PedigreeMember): Relation {
  if (m.id === proband.id) return 'proband';
  if (m.id === proband.father) return 'father';
  if (m.id === proband.mother) return 'mother';
  if (m.father === proband.id || m.mother === proband.id) return 'child';
  const sameFather = m.father !== null && m.father === proband.father;
  const sameMother = m.mother !== null && m.mother === proband.mother;
  if (sameFather && sameMother) return 'sibling';
  if (sameFather || sameMother) return 'half-sibling';
  const parents = [proband.father, proband.mother].filter((x): x is string => x !== null).map((p) => byId.get(p));
  for (const p of parents) {
    if (!p) continue;
    if (m.id === p.father || m.id === p.mother) return 'grandparent';
    if ((m.father !== null && m.father === p.father) || (m.mother !== null && m.mother === p.mother)) return 'aunt/uncle';
  }
  return 'relative';
}

/**
 * Checks a pedigree against the VCF's samples and chooses the proband. Problems: a PED sample
 * missing from the VCF, no or several candidate probands, a parent not listed in the pedigree or
 * in another family, a father who is female or a mother who is male, and ancestry cycles.
 */
export function checkFamily(ped: Pedigree, vcfSamples: readonly string[], opts: CheckFamilyOptions = {}): { family: Family | null; problems: FamilyProblem[] } {
  const problems: FamilyProblem[] = [];
  const notes: string[] = [];
  const byId = new Map(ped.members.map((m) => [m.id, m]));
  const column = new Map(vcfSamples.map((s, i) => [s, i]));
  if (vcfSamples.length === 0) problems.push({ code: 'no_samples', sample: null, message: 'the VCF has no sample columns: a family analysis needs genotypes' });

  // Proband
  let proband: PedigreeMember | undefined;
  if (opts.proband) {
    proband = byId.get(opts.proband);
    if (!proband) problems.push({ code: 'proband_not_found', sample: opts.proband, message: `the proband ${opts.proband} is not in the pedigree (${ped.members.map((m) => m.id).join(', ')})` });
  } else {
    const affected = ped.members.filter((m) => m.status === 'affected');
    if (affected.length === 1) proband = affected[0];
    else if (ped.members.length === 1) proband = ped.members[0];
    else if (affected.length === 0)
      problems.push({ code: 'proband_ambiguous', sample: null, message: `no member is marked affected: choose the proband among ${ped.members.map((m) => m.id).join(', ')}` });
    else problems.push({ code: 'proband_ambiguous', sample: null, message: `${affected.length} members are marked affected (${affected.map((m) => m.id).join(', ')}): choose the proband` });
  }

  // Only the proband's family is analysed; other families in the file are noted.
  const familyId = proband?.family ?? null;
  const members = familyId === null ? ped.members : ped.members.filter((m) => m.family === familyId);
  const others = ped.members.filter((m) => familyId !== null && m.family !== familyId);
  if (others.length) notes.push(`${others.length} pedigree member(s) of other families ignored: ${others.map((m) => `${m.id} (family ${m.family})`).join(', ')}`);

  for (const m of members) {
    if (!column.has(m.id)) problems.push({ code: 'sample_not_in_vcf', sample: m.id, message: `pedigree sample ${m.id} is not in the VCF (samples: ${vcfSamples.join(', ') || 'none'})` });
    for (const [role, pid] of [['father', m.father], ['mother', m.mother]] as const) {
      if (pid === null) continue;
      const p = byId.get(pid);
      if (!p) {
        problems.push({ code: 'parent_not_in_pedigree', sample: m.id, message: `the ${role} of ${m.id}, ${pid}, is not listed in the pedigree` });
        continue;
      }
      if (p.family !== m.family) problems.push({ code: 'parent_in_other_family', sample: m.id, message: `the ${role} of ${m.id}, ${pid}, belongs to family ${p.family}, not ${m.family}` });
      const want: Sex = role === 'father' ? 'male' : 'female';
      if (p.sex !== 'unknown' && p.sex !== want) problems.push({ code: 'parent_sex_conflict', sample: pid, message: `${pid} is the ${role} of ${m.id} but is recorded as ${p.sex}` });
    }
  }
  // A person who is both a father and a mother (of different children) has conflicting sexes.
  const asFather = new Set(members.map((m) => m.father).filter((x): x is string => x !== null));
  for (const m of members) {
    if (m.mother !== null && asFather.has(m.mother) && byId.get(m.mother)?.sex === 'unknown') {
      problems.push({ code: 'parent_sex_conflict', sample: m.mother, message: `${m.mother} is recorded both as a father and as a mother` });
    }
  }
  // Cycles: someone who is their own ancestor.
  const state = new Map<string, 'visiting' | 'done'>();
  const reported = new Set<string>();
  const visit = (id: string, path: string[]): void => {
    const s = state.get(id);
    if (s === 'done') return;
    if (s === 'visiting') {
      const cycle = path.slice(path.indexOf(id));
      const key = [...cycle].sort().join(',');
      if (!reported.has(key)) {
        reported.add(key);
        problems.push({ code: 'pedigree_cycle', sample: id, message: `${id} is its own ancestor: ${[...cycle, id].join(' → ')} (each is a child of the next)` });
      }
      return;
    }
    state.set(id, 'visiting');
    const m = byId.get(id);
    for (const p of [m?.father, m?.mother]) if (p != null && byId.has(p)) visit(p, [...path, id]);
    state.set(id, 'done');
  };
  for (const m of members) visit(m.id, []);

  const extra = vcfSamples.filter((s) => !byId.has(s));
  if (extra.length && ped.members.length > 0) notes.push(`VCF sample(s) not in the pedigree, not analysed: ${extra.join(', ')}`);

  if (problems.length || !proband) return { family: null, problems };
  const p = proband;
  return {
    family: {
      proband: p.id,
      members: members.map((m) => ({ ...m, relation: relationOf(byId, p, m), vcfIndex: column.get(m.id) ?? -1 })),
      notes,
    },
    problems,
  };
}

/** Status helper used in messages. */
export function describeStatus(s: AffectedStatus): string {
  return s === 'unknown' ? 'status unknown' : s;
}
