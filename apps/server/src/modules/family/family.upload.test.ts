import { describe, expect, it } from 'vitest';
import { checkPedigreeUpload, checkSeparateVcfs } from './family.upload.ts';

const TRIO = 'ash\tHG002\tHG003\tHG004\t1\t2\nash\tHG003\t0\t0\t1\t0\nash\tHG004\t0\t0\t2\t0\n';

describe('checkPedigreeUpload', () => {
  it('accepts the GIAB trio PED with its VCF samples and defaults the proband to the affected son', () => {
    const r = checkPedigreeUpload(TRIO, 'ashk-trio.ped', ['HG002', 'HG003', 'HG004'], null);
    expect(r).toMatchObject({ ok: true, proband: 'HG002', notes: [] });
    expect(r.ok && r.members.map((m) => m.id)).toEqual(['HG002', 'HG003', 'HG004']);
  });

  it('puts each problem on its field, naming the sample', () => {
    expect(checkPedigreeUpload(TRIO, 'ashk-trio.ped', ['HG002', 'HG003'], null)).toEqual({
      ok: false,
      issues: [{ path: ['pedigreeFile'], message: 'pedigree sample HG004 is not in the VCF (samples: HG002, HG003)' }],
    });
    expect(checkPedigreeUpload(TRIO, 'ashk-trio.ped', ['HG002', 'HG003', 'HG004'], 'NA12878')).toMatchObject({ ok: false, issues: [{ path: ['probandSample'] }] });
    expect(checkPedigreeUpload('ash HG002 HG003\n', 'bad.ped', ['HG002'], null)).toEqual({
      ok: false,
      issues: [{ path: ['pedigreeFile'], message: 'bad.ped:1: mother: 3 columns, expected 6 (family, individual, father, mother, sex, phenotype)' }],
    });
  });
});

describe('checkSeparateVcfs', () => {
  const file = (name: string, samples: string[], field = 'relativeGenomeFiles') => ({ field, name, samples });
  it('takes one person per file, in file order', () => {
    expect(checkSeparateVcfs([file('kid.vcf', ['KID'], 'genomeFile'), file('dad.vcf', ['DAD']), file('mom.vcf', ['MOM'])])).toEqual({ ok: true, samples: ['KID', 'DAD', 'MOM'] });
  });
  it('names the file of a joint VCF, of a file without samples and of a person sent twice', () => {
    const r = checkSeparateVcfs([file('kid.vcf', ['KID', 'DAD'], 'genomeFile'), file('sites.vcf', []), file('a.vcf', ['MOM']), file('b.vcf', ['MOM'])]);
    expect(r).toEqual({
      ok: false,
      issues: [
        { path: ['genomeFile'], message: expect.stringMatching(/^kid\.vcf holds 2 samples \(KID, DAD\): separately called VCFs are merged one person per file/) as string },
        { path: ['relativeGenomeFiles'], message: 'sites.vcf has no sample column: a person\'s VCF needs one genotype column' },
        { path: ['relativeGenomeFiles'], message: 'b.vcf: sample MOM is also the sample of a.vcf; each person once' },
      ],
    });
  });
});

