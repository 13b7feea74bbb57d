import { describe, expect, it } from 'vitest';
import { formatPed, parsePed, PedParseError } from './ped.ts';
import { checkFamily } from './pedigree.ts';

const TRIO = 'ash\tHG002\tHG003\tHG004\t1\t2\nash\tHG003\t0\t0\t1\t0\nash\tHG004\t0\t0\t2\t0\n';

describe('parsePed', () => {
  it('reads the six PED columns, comments, a header line and extra columns', () => {
    const p = parsePed(`#family_id\tid\tpaternal\tmaternal\tsex\tphenotype\n${TRIO}fam2 S1 0 0 2 -9 extra\n`, 'x.ped');
    expect(p.members).toEqual([
      { family: 'ash', id: 'HG002', father: 'HG003', mother: 'HG004', sex: 'male', status: 'affected' },
      { family: 'ash', id: 'HG003', father: null, mother: null, sex: 'male', status: 'unknown' },
      { family: 'ash', id: 'HG004', father: null, mother: null, sex: 'female', status: 'unknown' },
      { family: 'fam2', id: 'S1', father: null, mother: null, sex: 'female', status: 'unknown' },
    ]);
    expect(parsePed(formatPed(p)).members).toEqual(p.members);
  });

  it('names the file, line and field of a malformed line', () => {
    const bad = (text: string): PedParseError => {
      try {
        parsePed(text, 'fam.ped');
      } catch (e) {
        if (e instanceof PedParseError) return e;
      }
      throw new Error('expected a PedParseError');
    };
    expect(bad('f A 0 0 1\n')).toMatchObject({ line: 1, field: 'phenotype', message: expect.stringContaining('fam.ped:1: phenotype: 5 columns') as string });
    expect(bad('f A 0 0 1 2\nf B 0 0 3 1\n')).toMatchObject({ line: 2, field: 'sex', message: expect.stringContaining('"3" for B') as string });
    expect(bad('f A 0 0 1 7.5\n')).toMatchObject({ line: 1, field: 'phenotype' });
    expect(bad('f A 0 0 1 2\n\nf A 0 0 1 2\n')).toMatchObject({ line: 3, field: 'individual', message: expect.stringContaining('listed twice (first on line 1)') as string });
    expect(bad('f A A 0 1 2\n')).toMatchObject({ field: 'father', message: expect.stringContaining('its own father') as string });
    expect(bad('# nothing\n')).toMatchObject({ field: null, message: expect.stringContaining('no individuals') as string });
  });
});

describe('checkFamily', () => {
  it('chooses the only affected member as proband and names each relation', () => {
    const ped = parsePed(`${TRIO}ash\tSIB\tHG003\tHG004\t2\t1\n`);
    const { family, problems } = checkFamily(ped, ['HG004', 'HG003', 'HG002', 'SIB']);
    expect(problems).toEqual([]);
    expect(family?.proband).toBe('HG002');
    expect(family?.members.map((m) => [m.id, m.relation, m.vcfIndex])).toEqual([
      ['HG002', 'proband', 2],
      ['HG003', 'father', 1],
      ['HG004', 'mother', 0],
      ['SIB', 'sibling', 3],
    ]);
  });

  it('takes a single sample as the proband and notes VCF samples outside the pedigree', () => {
    const { family } = checkFamily(parsePed('f P 0 0 0 0\n'), ['P', 'OTHER']);
    expect(family?.proband).toBe('P');
    expect(family?.notes).toEqual(['VCF sample(s) not in the pedigree, not analysed: OTHER']);
  });

  it('lists every problem, each naming its sample', () => {
    const ped = parsePed('f C F M 1 2\nf F 0 0 2 1\nf M 0 0 2 1\nf D 0 0 1 2\n');
    const { family, problems } = checkFamily(ped, ['C', 'F']);
    expect(family).toBeNull();
    expect(problems.map((p) => [p.code, p.sample])).toEqual([
      ['proband_ambiguous', null],
      ['parent_sex_conflict', 'F'],
      ['sample_not_in_vcf', 'M'],
      ['sample_not_in_vcf', 'D'],
    ]);
    expect(problems[1]?.message).toBe('F is the father of C but is recorded as female');
  });

  it('finds ancestry cycles and parents missing from the pedigree', () => {
    const ped = parsePed('f A B 0 1 2\nf B A 0 1 1\nf C X 0 1 1\n');
    const { problems } = checkFamily(ped, ['A', 'B', 'C'], { proband: 'A' });
    expect(problems.map((p) => p.code)).toEqual(['parent_not_in_pedigree', 'pedigree_cycle']);
    expect(problems[0]?.message).toBe('the father of C, X, is not listed in the pedigree');
    expect(problems[1]?.message).toMatch(/A is its own ancestor: A → B → A/);
  });

  it('refuses a proband that is not in the pedigree', () => {
    const { problems } = checkFamily(parsePed(TRIO), ['HG002', 'HG003', 'HG004'], { proband: 'NA12878' });
    expect(problems).toEqual([{ code: 'proband_not_found', sample: 'NA12878', message: 'the proband NA12878 is not in the pedigree (HG002, HG003, HG004)' }]);
  });
});
