import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVcf } from '../vcf/reader.ts';
import { mergeSampleVcfs } from './merge.ts';

const dir = mkdtempSync(join(tmpdir(), 'rarelens-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = '##fileformat=VCFv4.2\n##contig=<ID=1,length=248956422>\n##reference=GRCh38\n##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">\n##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Depth">\n';
function vcf(name: string, sample: string, rows: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${HEADER}#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\t${sample}\n${rows.join('\n')}\n`);
  return path;
}

describe('mergeSampleVcfs', () => {
  it('joins per-person VCFs by position and allele, splitting multi-allelic records, and writes absent sites as no-calls with a note', async () => {
    const kid = vcf('kid.vcf', 'KID', ['1\t100\t.\tA\tG\t50\tPASS\t.\tGT:DP\t0/1:30', '1\t200\t.\tC\tT,A\t50\tPASS\t.\tGT:DP\t1/2:25']);
    const dad = vcf('dad.vcf', 'DAD', ['1\t100\t.\tA\tG\t40\tPASS\t.\tGT:DP\t1/1:20', '1\t300\t.\tG\tC\t40\tPASS\t.\tGT:DP\t0/1:22']);
    const mom = vcf('mom.vcf', 'MOM', ['1\t200\t.\tC\tA\t60\tPASS\t.\tGT:DP\t0/1:28']);
    const out = join(dir, 'trio.vcf');
    const r = await mergeSampleVcfs([{ path: kid }, { path: dad }, { path: mom }], out);
    expect(r).toMatchObject({ samples: ['KID', 'DAD', 'MOM'], assembly: 'GRCh38', sites: 4, missing: { KID: 1, DAD: 2, MOM: 3 } });
    expect(r.note).toContain('no-calls, not reference (KID: 1 of 4; DAD: 2 of 4; MOM: 3 of 4)');
    const body = readFileSync(out, 'utf8').split('\n').filter((l) => l && !l.startsWith('##'));
    expect(body).toEqual([
      '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tKID\tDAD\tMOM',
      '1\t100\t.\tA\tG\t50\tPASS\t.\tGT:AD:DP:GQ\t0/1:.:30:.\t1/1:.:20:.\t./.:.:.:.',
      '1\t200\t.\tC\tA\t50\tPASS\t.\tGT:AD:DP:GQ\t0/1:.:25:.\t./.:.:.:.\t0/1:.:28:.',
      '1\t200\t.\tC\tT\t50\tPASS\t.\tGT:AD:DP:GQ\t0/1:.:25:.\t./.:.:.:.\t./.:.:.:.',
      '1\t300\t.\tG\tC\t40\tPASS\t.\tGT:AD:DP:GQ\t./.:.:.:.\t0/1:.:22:.\t./.:.:.:.',
    ]);
    const merged = await (await readVcf(out, { sample: 'DAD' })).toArray();
    expect(merged.map((v) => v.genotype.zygosity)).toEqual(['homozygous', 'no_call', 'no_call', 'heterozygous']);
  });

  it('refuses the same person twice', async () => {
    const a = vcf('a.vcf', 'P', ['1\t100\t.\tA\tG\t50\tPASS\t.\tGT:DP\t0/1:30']);
    await expect(mergeSampleVcfs([{ path: a }, { path: a }], join(dir, 'x.vcf'))).rejects.toThrow(/sample P is already taken/);
  });
});

describe('readVcfSampleNames', () => {
  it('reads the sample columns of the #CHROM line without needing the assembly', async () => {
    const { readVcfSampleNames } = await import('./vcf-samples.ts');
    const path = join(dir, 'noasm.vcf');
    writeFileSync(path, '##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tP\tF\tM\n1\t5\t.\tA\tG\t.\t.\t.\tGT\t0/1\t0/0\t0/1\n');
    expect(await readVcfSampleNames(path)).toEqual(['P', 'F', 'M']);
    writeFileSync(path, '1\t5\t.\tA\tG\t.\t.\t.\n');
    await expect(readVcfSampleNames(path)).rejects.toThrow(/missing #CHROM header line before the data/);
  });
});
