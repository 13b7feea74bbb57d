import { describe, expect, it } from 'vitest';
import { addSampleRows } from './pedigree-editor.tsx';
import { checkEditorMembers, editorToPed, readVcfSampleNames, type EditorMember } from './pedigree.ts';

const trio: EditorMember[] = [
  { sample: 'HG002', relation: 'proband', sex: 'male', status: 'affected' },
  { sample: 'HG003', relation: 'father', sex: 'male', status: 'unaffected' },
  { sample: 'HG004', relation: 'mother', sex: 'female', status: 'unaffected' },
  { sample: 'SIS', relation: 'sibling', sex: 'female', status: 'unknown' },
];

describe('pedigree editor model', () => {
  it('writes PED rows with the parents of the proband and siblings', () => {
    expect(editorToPed(trio, 'RL 42')).toBe('RL_42\tHG002\tHG003\tHG004\t1\t2\nRL_42\tHG003\t0\t0\t1\t1\nRL_42\tHG004\t0\t0\t2\t1\nRL_42\tSIS\tHG003\tHG004\t2\t0\n');
  });

  it('names each problem with its sample', () => {
    expect(checkEditorMembers(trio)).toEqual([]);
    expect(
      checkEditorMembers([
        { sample: 'A', relation: 'father', sex: 'female', status: 'unknown' },
        { sample: 'A', relation: 'sibling', sex: 'male', status: 'unknown' },
        { sample: '', relation: 'other', sex: 'male', status: 'unknown' },
      ]),
    ).toEqual(['Mark one sample as the proband', 'A is listed twice', 'Row 3: enter the sample name as in the VCF', 'A is the father but is marked female']);
  });

  it('reads the sample names of a plain VCF header', async () => {
    const vcf = new Blob(['##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tP\tF\tM\n1\t1\t.\tA\tG\t.\t.\t.\tGT\t0/1\t0/0\t0/1\n']);
    expect(await readVcfSampleNames(vcf)).toEqual(['P', 'F', 'M']);
    expect(await readVcfSampleNames(new Blob(['not a vcf']))).toEqual([]);
  });
});

describe('addSampleRows (relatives\' separately called VCFs)', () => {
  it('fills empty rows first, then adds a row per new sample, and keeps samples already listed', () => {
    const rows: EditorMember[] = [
      { sample: 'KID', relation: 'proband', sex: 'male', status: 'affected' },
      { sample: '', relation: 'father', sex: 'male', status: 'unaffected' },
    ];
    expect(addSampleRows(rows, ['DAD', 'KID', 'MOM'])).toEqual([
      { sample: 'KID', relation: 'proband', sex: 'male', status: 'affected' },
      { sample: 'DAD', relation: 'father', sex: 'male', status: 'unaffected' },
      { sample: 'MOM', relation: 'sibling', sex: 'unknown', status: 'unknown' },
    ]);
    expect(rows[1]!.sample).toBe('');
  });
});

