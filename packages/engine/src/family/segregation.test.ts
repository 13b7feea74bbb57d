import { describe, expect, it } from 'vitest';
import type { QualifyingVariant } from '../rank/inheritance.ts';
import type { AnnotatedVariant } from '../types.ts';
import { applyFamilyAcmg } from './acmg-family.ts';
import { isMendelianConsistent, trioQc } from './mendelian.ts';
import { createFamilyContext, familyGenotypeFit, inheritanceTags, type FamilyContext } from './segregation.ts';
import { familyFromPed, familyVariant } from './test-family.ts';

// Proband P (affected son) of unaffected F and M; S an unaffected sister.
const TRIO_PED = 'fam P F M 1 2\nfam F 0 0 1 1\nfam M 0 0 2 1\n';
const QUARTET_PED = `${TRIO_PED}fam S F M 2 1\n`;
const GOOD = ':40:99';

const ctxOf = (ped: string, proband?: string, variants: AnnotatedVariant[] = []): FamilyContext => {
  const family = familyFromPed(ped, proband);
  return createFamilyContext(family, trioQc(variants, family));
};
const q = (v: AnnotatedVariant, p = 0.9): QualifyingVariant => ({ variant: v, p });
const tagsOf = (vs: AnnotatedVariant[], ctx: FamilyContext): string[][] => {
  const t = inheritanceTags(vs, ctx);
  return vs.map((v) => t.get(v)?.tags ?? []);
};

describe('Mendelian consistency', () => {
  it('accepts only child doses the parents can transmit', () => {
    expect(isMendelianConsistent(1, 0, 1)).toBe(true);
    expect(isMendelianConsistent(2, 1, 1)).toBe(true);
    expect(isMendelianConsistent(1, 0, 0)).toBe(false);
    expect(isMendelianConsistent(2, 0, 1)).toBe(false);
    expect(isMendelianConsistent(0, 2, 0)).toBe(false);
    expect(isMendelianConsistent(1, 2, 2)).toBe(false);
  });

  it('reports the error rate of a well-behaved trio and passes it', () => {
    const vs = [
      ...Array.from({ length: 98 }, (_, i) => familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 1000 + i })),
      ...Array.from({ length: 20 }, (_, i) => familyVariant('P', { P: `1/1${GOOD}`, F: `0/1${GOOD}`, M: `1/1${GOOD}` }, { pos: 5000 + i })),
      familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/0${GOOD}` }, { pos: 9000 }),
      familyVariant('P', { P: `0/1:5:10`, F: `0/0${GOOD}`, M: `0/0${GOOD}` }, { pos: 9001 }),
      familyVariant('P', { P: `0/1${GOOD}`, F: './.', M: `0/0${GOOD}` }, { pos: 9002 }),
    ];
    const [qc] = trioQc(vs, familyFromPed(TRIO_PED));
    expect(qc).toMatchObject({ child: 'P', father: 'F', mother: 'M', sites: 120, errors: 2, qcSites: 119, qcErrors: 1, warning: null });
    expect(qc?.qcRate).toBeCloseTo(1 / 119, 6);
  });

  it('flags a father who looks like a non-parent from opposite homozygotes', () => {
    const vs = [
      ...Array.from({ length: 30 }, (_, i) => familyVariant('P', { P: `1/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}` }, { pos: 100 + i })),
      ...Array.from({ length: 70 }, (_, i) => familyVariant('P', { P: `1/1${GOOD}`, F: `1/1${GOOD}`, M: `1/1${GOOD}` }, { pos: 1000 + i })),
    ];
    const [qc] = trioQc(vs, familyFromPed(TRIO_PED));
    expect(qc?.fatherCheck).toEqual({ parent: 'F', homozygousSites: 100, oppositeHomozygotes: 30, rate: 0.3 });
    expect(qc?.motherCheck.oppositeHomozygotes).toBe(0);
    expect(qc?.warning).toMatch(/^F may not be the biological father of P \(30\.0 % opposite homozygotes over 100 sites; a sample swap or non-paternity\); Mendelian error rate 30\.0 %/);
    const ctx = createFamilyContext(familyFromPed(TRIO_PED), trioQc(vs, familyFromPed(TRIO_PED)));
    expect(ctx.parentageConfirmed).toBe(false);
  });
});

describe('dominant fit over a trio', () => {
  const ctx = ctxOf(TRIO_PED);

  it('keeps a confirmed de novo at full fit and names the rule', () => {
    const v = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/0:35:90` }, { hgvsC: 'c.100A>G' });
    const fit = familyGenotypeFit([q(v)], 'AD', 'male', ctx);
    expect(fit.score).toBeCloseTo(0.9, 9);
    expect(fit.reason).toContain('(de novo)');
    expect(fit.reason).toContain('c.100A>G de novo: absent from both parents with adequate coverage (P 0/1 (DP 40, GQ 99, AD 20,20), F 0/0 (DP 40, GQ 99, AD 40,0), M 0/0 (DP 35, GQ 90, AD 35,0))');
    expect(tagsOf([v], ctx)).toEqual([['de_novo', 'segregates']]);
  });

  it('lowers a variant inherited from an unaffected parent by the assumed penetrance', () => {
    const v = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { hgvsC: 'c.7C>T' });
    const fit = familyGenotypeFit([q(v)], 'AD', 'male', ctx);
    expect(fit.score).toBeCloseTo(0.9 * (1 - 0.95), 9);
    expect(fit.reason).toContain('inherited from the father');
    expect(fit.reason).toContain('unaffected father F 0/1 (DP 40, GQ 99, AD 20,20) has c.7C>T (penetrance 95 % assumed)');
    // The penetrance is a weight of the analysis: a lower one keeps more of the fit.
    const lenient = createFamilyContext(ctx.family, [], { dominantPenetrance: 0.8 });
    expect(familyGenotypeFit([q(v)], 'AD', 'male', lenient).score).toBeCloseTo(0.9 * 0.2, 9);
    expect(() => createFamilyContext(ctx.family, [], { dominantPenetrance: 1 })).toThrow(/dominantPenetrance = 1 is outside \[0, 1\)/);
    expect(tagsOf([v], ctx)).toEqual([[]]);
  });

  it('treats an apparent de novo with a shallow parent as low quality', () => {
    const v = familyVariant('P', { P: `0/1${GOOD}`, F: '0/0:4:12', M: `0/0${GOOD}` });
    const fit = familyGenotypeFit([q(v)], 'AD', 'male', ctx);
    expect(fit.score).toBeCloseTo(0.45, 9);
    expect(fit.reason).toContain('apparent de novo of low quality (F 0/0 (DP 4, GQ 12, AD 4,0) below depth 10 / GQ 20)');
    expect(tagsOf([v], ctx)).toEqual([[]]);
  });

  it('draws no conclusion from no-call parents', () => {
    const v = familyVariant('P', { P: `0/1${GOOD}`, F: './.', M: './.' });
    const fit = familyGenotypeFit([q(v)], 'AD', 'male', ctx);
    expect(fit.score).toBeCloseTo(0.9, 9);
    expect(fit.reason).toContain('(de novo or inherited)');
    expect(tagsOf([v], ctx)).toEqual([[]]);
  });

  it('calls a de novo unchecked (not confirmed) when the VCF has no depth or quality', () => {
    const v = familyVariant('P', { P: '0/1', F: '0/0', M: '0/0' });
    expect(familyGenotypeFit([q(v)], 'AD', 'male', ctx).score).toBeCloseTo(0.9 * 0.9, 9);
    expect(tagsOf([v], ctx)).toEqual([['de_novo', 'segregates']]);
  });

  it('prefers the de novo variant of a gene to a more pathogenic inherited one', () => {
    const inherited = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}` }, { pos: 10 });
    const deNovo = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/0${GOOD}` }, { pos: 20 });
    const fit = familyGenotypeFit([q(inherited, 0.95), q(deNovo, 0.8)], 'AD', 'male', ctx);
    expect(fit.used).toEqual([1]);
    expect(fit.score).toBeCloseTo(0.8, 9);
  });

  it('is lowered by an unaffected sibling with the same genotype and by an affected one without it', () => {
    const quartet = ctxOf(QUARTET_PED);
    const shared = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}`, S: `0/1${GOOD}` });
    expect(familyGenotypeFit([q(shared)], 'AD', 'male', quartet).score).toBeCloseTo(0.9 * 0.05 * 0.05, 9);
    const affectedSib = ctxOf(`${TRIO_PED}fam S F M 2 2\n`, 'P');
    const notShared = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/0${GOOD}`, S: `0/0${GOOD}` });
    const fit = familyGenotypeFit([q(notShared)], 'AD', 'male', affectedSib);
    expect(fit.score).toBeCloseTo(0.9 * 0.05, 9);
    expect(fit.reason).toContain('affected sibling S 0/0 (DP 40, GQ 99, AD 40,0) does not have');
  });
});

describe('recessive fit over a trio', () => {
  const ctx = ctxOf(TRIO_PED);

  it('fits a homozygous variant with two carrier parents', () => {
    const v = familyVariant('P', { P: `1/1${GOOD}`, F: `0/1${GOOD}`, M: `0/1${GOOD}` });
    const fit = familyGenotypeFit([q(v)], 'AR', 'male', ctx);
    expect(fit.score).toBeCloseTo(0.9, 9);
    expect(fit.reason).toContain('homozygous, fits autosomal recessive disease (both parents carriers)');
    expect(tagsOf([v], ctx)).toEqual([['hom_recessive', 'segregates']]);
  });

  it('does not call homozygous parents carriers, nor claim segregation when their status is unknown (GIAB trio)', () => {
    // The GIAB Ashkenazi trio: parents of unknown status, many common variants homozygous in all three.
    const unknownParents = ctxOf('fam P F M 1 2\nfam F 0 0 1 0\nfam M 0 0 2 0\n');
    const v = familyVariant('P', { P: `1/1${GOOD}`, F: `1/1${GOOD}`, M: `1/1${GOOD}` });
    const fit = familyGenotypeFit([q(v)], 'AR', 'male', unknownParents);
    expect(fit.reason).toContain('homozygous, fits autosomal recessive disease (both parents carry it: father homozygous, mother homozygous)');
    expect(fit.reason).not.toContain('carriers');
    expect(tagsOf([v], unknownParents)).toEqual([['hom_recessive']]);
    // One homozygous parent of unknown status, the other a carrier: still no segregation claim.
    const mixed = familyVariant('P', { P: `1/1${GOOD}`, F: `1/1${GOOD}`, M: `0/1${GOOD}` });
    expect(familyGenotypeFit([q(mixed)], 'AR', 'male', unknownParents).reason).toContain('(both parents carry it: father homozygous, mother heterozygous)');
    expect(tagsOf([mixed], unknownParents)).toEqual([['hom_recessive']]);
    // Heterozygous parents of unknown status are carriers: it segregates as recessive.
    const carriers = familyVariant('P', { P: `1/1${GOOD}`, F: `0/1${GOOD}`, M: `0/1${GOOD}` });
    expect(tagsOf([carriers], unknownParents)).toEqual([['hom_recessive', 'segregates']]);
  });

  it('doubts a homozygous variant one parent does not carry (UPD or deletion)', () => {
    const v = familyVariant('P', { P: `1/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` });
    const fit = familyGenotypeFit([q(v)], 'AR', 'male', ctx);
    expect(fit.score).toBeCloseTo(0.9 * 0.2, 9);
    expect(fit.reason).toContain('uniparental disomy or a deletion');
    expect(tagsOf([v], ctx)).toEqual([[]]);
  });

  it('pairs two heterozygous variants from different parents as compound heterozygous in trans', () => {
    const a = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 10, hgvsC: 'c.10A>G' });
    const b = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}` }, { pos: 20, hgvsC: 'c.20del' });
    const fit = familyGenotypeFit([q(a), q(b, 0.8)], 'AR', 'male', ctx);
    expect(fit.used).toEqual([0, 1]);
    expect(fit.score).toBeCloseTo(0.72, 9);
    expect(fit.reason).toContain('compound heterozygous in trans: c.10A>G from the father F, c.20del from the mother M');
    const tags = inheritanceTags([a, b], ctx);
    expect(tags.get(a)?.tags).toEqual(['compound_het', 'segregates']);
    expect(tags.get(a)?.partners).toEqual([b]);
  });

  it('rejects two variants inherited together from one parent (in cis)', () => {
    const a = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 10 });
    const b = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 20 });
    const fit = familyGenotypeFit([q(a), q(b, 0.8)], 'AR', 'male', ctx);
    // The pair in cis (0.72 x 0.02) loses to a single heterozygous hit (0.9 x 0.1).
    expect(fit.used).toEqual([0]);
    expect(fit.score).toBeCloseTo(0.09, 9);
    expect(tagsOf([a, b], ctx)).toEqual([[], []]);
  });

  it('reads two variants a parent who is not affected carries both of as probably in cis', () => {
    // Father carries both, mother one of them: the son's copy of b can only come from the father,
    // on the haplotype that also carries a.
    const a = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/1${GOOD}` }, { pos: 10, hgvsC: 'c.10A>G' });
    const b = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 20, hgvsC: 'c.20del' });
    const fit = familyGenotypeFit([q(a), q(b, 0.8)], 'AR', 'male', ctx);
    expect(fit.used).toEqual([0]); // the pair (0.72 x 0.1) falls below one hit (0.9 x 0.1)
    expect(tagsOf([a, b], ctx)).toEqual([[], []]);
    // Both parents carry both, phenotype unknown: still one haplotype each.
    const unknownStatus = ctxOf('fam P F M 1 2\nfam F 0 0 1 0\nfam M 0 0 2 0\n');
    const c = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/1${GOOD}` }, { pos: 10, hgvsC: 'c.10A>G' });
    const d = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/1${GOOD}` }, { pos: 20, hgvsC: 'c.20del' });
    const pair = familyGenotypeFit([q(c), q(d, 0.8)], 'AR', 'male', unknownStatus);
    expect(pair.used).toEqual([0]);
    expect(tagsOf([c, d], unknownStatus)).toEqual([[], []]);
    // An affected father may carry them in trans himself: phase unknown.
    const affectedFather = ctxOf('fam P F M 1 2\nfam F 0 0 1 2\nfam M 0 0 2 1\n', 'P');
    const unknown = familyGenotypeFit([q(a), q(b, 0.8)], 'AR', 'male', affectedFather);
    expect(unknown.reason).toContain('an affected parent carries both, phase unknown');
    expect(tagsOf([a, b], affectedFather).map((t) => t.includes('compound_het'))).toEqual([true, true]);
  });

  it('says phase unknown without parents and probably in trans with one parent', () => {
    const noParents = ctxOf('fam P 0 0 1 2\nfam S 0 0 2 1\n', 'P');
    const a = familyVariant('P', { P: `0/1${GOOD}`, S: `0/0${GOOD}` }, { pos: 10 });
    const b = familyVariant('P', { P: `0/1${GOOD}`, S: `0/1${GOOD}` }, { pos: 20 });
    const unknown = familyGenotypeFit([q(a), q(b, 0.8)], 'AR', 'male', noParents);
    expect(unknown.score).toBeCloseTo(0.72 * 0.5, 9);
    expect(unknown.reason).toContain('phase unknown (parents not sequenced or not called)');
    expect(tagsOf([a, b], noParents)).toEqual([['compound_het'], ['compound_het']]);

    const fatherOnly = ctxOf('fam P F 0 1 2\nfam F 0 0 1 1\n', 'P');
    const c = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}` }, { pos: 10 });
    const d = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}` }, { pos: 20 });
    const likely = familyGenotypeFit([q(c), q(d, 0.8)], 'AR', 'male', fatherOnly);
    expect(likely.score).toBeCloseTo(0.72 * 0.8, 9);
    expect(likely.reason).toContain('probably in trans');
  });

  it('is lowered when an unaffected sibling carries both variants', () => {
    const quartet = ctxOf(QUARTET_PED);
    const a = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}`, S: `0/1${GOOD}` }, { pos: 10 });
    const b = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}`, S: `0/1${GOOD}` }, { pos: 20 });
    const fit = familyGenotypeFit([q(a), q(b, 0.8)], 'AR', 'male', quartet);
    expect(fit.score).toBeCloseTo(0.09, 9); // the pair (0.72 x 0.05) falls below one hit
    expect(tagsOf([a, b], quartet)).toEqual([['compound_het'], ['compound_het']]);
  });
});

describe('X-linked and mitochondrial fit', () => {
  it('reads a diploid het call on the X of a male as hemizygous from a carrier mother', () => {
    const ctx = ctxOf(TRIO_PED);
    const v = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}` }, { chrom: 'X', pos: 40_000_000 });
    const fit = familyGenotypeFit([q(v)], 'XLR', 'male', ctx);
    expect(fit.score).toBeCloseTo(0.9, 9);
    expect(fit.reason).toContain('hemizygous in a male, fits X-linked recessive disease (from a carrier mother)');
    expect(tagsOf([v], ctx)).toEqual([['x_linked', 'segregates']]);
  });

  it('does not treat the pseudo-autosomal region as haploid', () => {
    const ctx = ctxOf(TRIO_PED);
    const v = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}` }, { chrom: 'X', pos: 500_000 });
    expect(tagsOf([v], ctx)).toEqual([[]]);
  });

  it('is lowered by an unaffected hemizygous brother', () => {
    const ctx = ctxOf(`${TRIO_PED}fam B F M 1 1\n`, 'P');
    const v = familyVariant('P', { P: `1/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}`, B: `1/1${GOOD}` }, { chrom: 'X', pos: 40_000_000 });
    const fit = familyGenotypeFit([q(v)], 'XLR', 'male', ctx);
    expect(fit.score).toBeCloseTo(0.9 * 0.05, 9);
    expect(fit.reason).toContain('unaffected sibling B 1/1');
  });

  it('fits a mitochondrial variant from the mother and doubts one only the father carries', () => {
    const ctx = ctxOf(TRIO_PED);
    const maternal = familyVariant('P', { P: '1/1', F: '0/0', M: '1/1' }, { chrom: 'MT', pos: 3243 });
    const paternal = familyVariant('P', { P: '1/1', F: '1/1', M: '0/0' }, { chrom: 'MT', pos: 8344 });
    expect(familyGenotypeFit([q(maternal)], 'MT', 'male', ctx).score).toBeCloseTo(0.9 * 0.5, 9); // unaffected carrier mother, heteroplasmy
    expect(familyGenotypeFit([q(paternal)], 'MT', 'male', ctx).score).toBeCloseTo(0.9 * 0.05, 9);
  });
});

describe('family ACMG criteria', () => {
  const goodTrio = Array.from({ length: 50 }, (_, i) => familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 100 + i }));

  it('adds PS2 to a de novo with parentage confirmed, PM6 without the trio check', () => {
    const v = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/0${GOOD}` }, { acmg: { classification: 'Uncertain significance', points: 3, criteria: [] } });
    const [confirmed] = applyFamilyAcmg([v], ctxOf(TRIO_PED, undefined, goodTrio));
    expect(confirmed?.acmg.criteria.map((c) => c.code)).toEqual(['PS2']);
    expect(confirmed?.acmg).toMatchObject({ points: 7, classification: 'Likely pathogenic' });
    expect(confirmed?.score).toBeGreaterThan(v.score);
    expect(v.acmg.criteria).toEqual([]); // the input is not modified
    const [assumed] = applyFamilyAcmg([v], ctxOf(TRIO_PED));
    expect(assumed?.acmg.criteria.map((c) => [c.code, c.points])).toEqual([['PM6', 2]]);
  });

  it('adds PM3 to a variant in trans with a likely pathogenic one, Supporting when the phase is unknown', () => {
    const lp = { classification: 'Likely pathogenic' as const, points: 6, criteria: [] };
    const a = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 10 });
    const b = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}` }, { pos: 20, acmg: lp, hgvsC: 'c.20del' });
    const [a2, b2] = applyFamilyAcmg([a, b], ctxOf(TRIO_PED));
    expect(a2?.acmg.criteria.map((c) => [c.code, c.strength])).toEqual([['PM3', 'Moderate']]);
    expect(a2?.acmg.criteria[0]?.reason).toContain('in trans with likely pathogenic c.20del');
    expect(b2).toBe(b); // its partner is a VUS: nothing added
    const single = ctxOf('fam P 0 0 1 2\n');
    const [a3] = applyFamilyAcmg([a, b], single);
    expect(a3?.acmg.criteria.map((c) => c.code)).toEqual(['PM3_Supporting']);
    const [a4] = applyFamilyAcmg([a, b], ctxOf(TRIO_PED), { isRecessiveGene: () => false });
    expect(a4).toBe(a);
  });
});

describe('de novo prior (inheritedInTrio)', () => {
  const family = familyFromPed(TRIO_PED);
  const goodTrio = Array.from({ length: 50 }, (_, i) => familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 100 + i }));
  const confirmed = createFamilyContext(family, trioQc(goodTrio, family), { inheritedInTrio: 0.25 });
  const carrierParents = { P: `1/1${GOOD}`, F: `0/1${GOOD}`, M: `0/1${GOOD}` };

  it('keeps a de novo at full fit and lowers inherited genotypes by the prior, once per genotype, in a confirmed trio', () => {
    expect(confirmed.parentageConfirmed).toBe(true);
    const deNovo = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/0${GOOD}` }, { hgvsC: 'c.1A>G' });
    expect(familyGenotypeFit([q(deNovo)], 'AD', 'male', confirmed).score).toBeCloseTo(0.9, 9);

    const hom = familyVariant('P', carrierParents, { hgvsC: 'c.2C>T' });
    const homFit = familyGenotypeFit([q(hom)], 'AR', 'male', confirmed);
    expect(homFit.score).toBeCloseTo(0.9 * 0.25, 9);
    expect(homFit.reason).toContain('c.2C>T inherited (F 0/1 (DP 40, GQ 99, AD 20,20), M 0/1 (DP 40, GQ 99, AD 20,20)), not de novo');
    // The prior is not segregation evidence: the tags stay those of a clean fit.
    expect(tagsOf([hom], confirmed)).toEqual([['hom_recessive', 'segregates']]);

    const a = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 10, hgvsC: 'c.10A>G' });
    const b = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/1${GOOD}` }, { pos: 20, hgvsC: 'c.20del' });
    const pair = familyGenotypeFit([q(a), q(b, 0.8)], 'AR', 'male', confirmed);
    expect(pair.used).toEqual([0, 1]);
    expect(pair.score).toBeCloseTo(0.72 * 0.25, 9);
    expect(pair.reason).toContain('c.10A>G and c.20del both inherited, not de novo');
  });

  it('lets a less pathogenic de novo outrank an inherited variant of the same gene', () => {
    const inherited = familyVariant('P', { P: `0/1${GOOD}`, F: `0/1${GOOD}`, M: `0/0${GOOD}` }, { pos: 1 });
    const deNovo = familyVariant('P', { P: `0/1${GOOD}`, F: `0/0${GOOD}`, M: `0/0${GOOD}` }, { pos: 2 });
    const fit = familyGenotypeFit([q(inherited, 0.95), q(deNovo, 0.3)], 'AD', 'male', confirmed);
    expect(fit.used).toEqual([1]);
    expect(fit.score).toBeCloseTo(0.3, 9);
  });

  it('applies neither to no-call parents (origin unknown) nor to a trio whose parentage is not confirmed', () => {
    const noCalls = familyVariant('P', { P: `1/1${GOOD}`, F: './.', M: './.' });
    expect(familyGenotypeFit([q(noCalls)], 'AR', 'male', confirmed).score).toBeCloseTo(0.9, 9);
    const unchecked = createFamilyContext(family, [], { inheritedInTrio: 0.25 });
    expect(unchecked.parentageConfirmed).toBe(false);
    expect(familyGenotypeFit([q(familyVariant('P', carrierParents))], 'AR', 'male', unchecked).score).toBeCloseTo(0.9, 9);
    const fatherOnly = createFamilyContext(familyFromPed('fam P F 0 1 2\nfam F 0 0 1 1\n'), [], { inheritedInTrio: 0.25 });
    expect(familyGenotypeFit([q(familyVariant('P', { P: `1/1${GOOD}`, F: `0/1${GOOD}` }))], 'AR', 'male', fatherOnly).score).toBeCloseTo(0.9, 9);
  });
});
