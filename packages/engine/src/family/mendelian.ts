/**
 * Mendelian consistency of each trio (a sequenced child with both parents sequenced): the QC
 * figure that tells whether the family is what the pedigree says. Autosomal alleles only (X, Y
 * and MT follow other rules). A site counts when all three are called and at least one carries
 * the alt allele; it is an error when the child's dose cannot come from the parents' doses.
 * Opposite homozygotes (child 1/1 with a parent 0/0, or 0/0 with 1/1) per parent point at a
 * sample swap or non-paternity/non-maternity, which a sequencing error rate does not explain.
 */
import type { AnnotatedVariant } from '../types.ts';
import { memberCall } from './genotypes.ts';
import type { Family, FamilyMember } from './pedigree.ts';

/** Above this QC'd Mendelian error rate a trio's relationships are doubtful (well-called exome trios sit near 1 %). */
export const MAX_MENDELIAN_ERROR_RATE = 0.05;
/** Above this rate of opposite homozygotes a parent is probably not the biological parent. */
export const MAX_OPPOSITE_HOMOZYGOTE_RATE = 0.05;

export interface ParentConsistency {
  parent: string;
  /** Sites where child and parent are both homozygous (QC-passing). */
  homozygousSites: number;
  oppositeHomozygotes: number;
  rate: number;
}

export interface TrioQc {
  child: string;
  father: string;
  mother: string;
  /** Autosomal alleles called in all three with at least one alt carrier. */
  sites: number;
  errors: number;
  rate: number;
  /** The same over sites passing FILTER with depth >= 10 and GQ >= 20 in all three. */
  qcSites: number;
  qcErrors: number;
  qcRate: number;
  fatherCheck: ParentConsistency;
  motherCheck: ParentConsistency;
  /** Why the trio looks wrong, or null when it passes. */
  warning: string | null;
}

const AUTOSOME = /^(?:[1-9]|1\d|2[0-2])$/;

/** Can a child with `c` alt copies come from parents with `f` and `m` copies? */
export function isMendelianConsistent(c: number, f: number, m: number): boolean {
  const from = (d: number): number[] => (d === 0 ? [0] : d === 2 ? [1] : [0, 1]);
  return from(f).some((a) => from(m).some((b) => a + b === c));
}

/** The trios of a family: sequenced members whose father and mother are both sequenced. */
export function triosOf(
  family: Family,
): { child: FamilyMember; father: FamilyMember; mother: FamilyMember }[] {
  const byId = new Map(family.members.map((m) => [m.id, m]));
  const out: { child: FamilyMember; father: FamilyMember; mother: FamilyMember }[] = [];
  for (const child of family.members) {
    const father = child.father ? byId.get(child.father) : undefined;
    const mother = child.mother ? byId.get(child.mother) : undefined;
    if (child.vcfIndex >= 0 && father && father.vcfIndex >= 0 && mother && mother.vcfIndex >= 0)
      out.push({ child, father, mother });
  }
  return out;
}

/** Mendelian error rate and parentage checks of every trio, over all alleles read (before filters). */
export function trioQc(variants: Iterable<AnnotatedVariant>, family: Family): TrioQc[] {
  const acc = new TrioQcAccumulator(family);
  for (const v of variants) acc.add(v);
  return acc.result();
}

/** The trio QC counted one allele at a time (for a worker that streams the variants). */
export class TrioQcAccumulator {
  private readonly trios: ReturnType<typeof triosOf>;
  private readonly acc: {
    sites: number;
    errors: number;
    qcSites: number;
    qcErrors: number;
    fHom: number;
    fOpp: number;
    mHom: number;
    mOpp: number;
  }[];

  constructor(family: Family) {
    this.trios = triosOf(family);
    this.acc = this.trios.map(() => ({
      sites: 0,
      errors: 0,
      qcSites: 0,
      qcErrors: 0,
      fHom: 0,
      fOpp: 0,
      mHom: 0,
      mOpp: 0,
    }));
  }

  add(v: AnnotatedVariant): void {
    if (!AUTOSOME.test(v.chrom) || !v.familyGenotypes) return;
    const pass = v.filter.length === 0 || v.filter.includes('PASS');
    for (let t = 0; t < this.trios.length; t++) {
      const trio = this.trios[t]!;
      const a = this.acc[t]!;
      const c = memberCall(v, trio.child.id, trio.child.sex);
      const f = memberCall(v, trio.father.id, trio.father.sex);
      const m = memberCall(v, trio.mother.id, trio.mother.sex);
      if (c.dose === null || f.dose === null || m.dose === null) continue;
      if (c.dose + f.dose + m.dose === 0) continue;
      const ok = isMendelianConsistent(c.dose, f.dose, m.dose);
      a.sites++;
      if (!ok) a.errors++;
      if (!pass || c.adequate === false || f.adequate === false || m.adequate === false) continue;
      a.qcSites++;
      if (!ok) a.qcErrors++;
      if (c.dose !== 1 && f.dose !== 1) {
        a.fHom++;
        if (c.dose !== f.dose) a.fOpp++;
      }
      if (c.dose !== 1 && m.dose !== 1) {
        a.mHom++;
        if (c.dose !== m.dose) a.mOpp++;
      }
    }
  }

  result(): TrioQc[] {
    const trios = this.trios;
    const acc = this.acc;
    return trios.map((trio, t) => {
      const a = acc[t]!;
      const rate = a.sites ? a.errors / a.sites : 0;
      const qcRate = a.qcSites ? a.qcErrors / a.qcSites : 0;
      const fatherCheck: ParentConsistency = {
        parent: trio.father.id,
        homozygousSites: a.fHom,
        oppositeHomozygotes: a.fOpp,
        rate: a.fHom ? a.fOpp / a.fHom : 0,
      };
      const motherCheck: ParentConsistency = {
        parent: trio.mother.id,
        homozygousSites: a.mHom,
        oppositeHomozygotes: a.mOpp,
        rate: a.mHom ? a.mOpp / a.mHom : 0,
      };
      const problems: string[] = [];
      const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
      for (const [role, chk] of [
        ['father', fatherCheck],
        ['mother', motherCheck],
      ] as const) {
        if (chk.rate > MAX_OPPOSITE_HOMOZYGOTE_RATE)
          problems.push(
            `${chk.parent} may not be the biological ${role} of ${trio.child.id} (${pct(chk.rate)} opposite homozygotes over ${chk.homozygousSites} sites; a sample swap or non-${role === 'father' ? 'paternity' : 'maternity'})`,
          );
      }
      if (qcRate > MAX_MENDELIAN_ERROR_RATE)
        problems.push(
          `Mendelian error rate ${pct(qcRate)} over ${a.qcSites} quality-passing sites is above ${pct(MAX_MENDELIAN_ERROR_RATE)}`,
        );
      if (a.qcSites === 0)
        problems.push('no quality-passing site called in all three: the trio cannot be checked');
      return {
        child: trio.child.id,
        father: trio.father.id,
        mother: trio.mother.id,
        sites: a.sites,
        errors: a.errors,
        rate,
        qcSites: a.qcSites,
        qcErrors: a.qcErrors,
        qcRate,
        fatherCheck,
        motherCheck,
        warning: problems.length ? problems.join('; ') : null,
      };
    });
  }
}
