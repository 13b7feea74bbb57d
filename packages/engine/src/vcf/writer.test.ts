import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readVcf } from './reader.ts';
import { writeVcf, type VcfWriteRecord } from './writer.ts';

const FIX = resolve(import.meta.dirname, '../../test/fixtures/vcf');
const hasBcftools = ((): boolean => {
  try {
    execFileSync('bcftools', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

async function roundTrip(path: string): Promise<{ records: VcfWriteRecord[]; back: Awaited<ReturnType<typeof readVcf>> }> {
  const src = await readVcf(resolve(FIX, 'multiallelic.vcf'));
  const records: VcfWriteRecord[] = (await src.toArray()).map((v) => ({
    chrom: v.chrom, pos: v.pos, ref: v.ref, alt: v.alt, qual: v.qual, filter: v.filter, genotype: v.genotype,
    info: { GENE: 'ABC;1=x', SCORE: 0.125, FLAG: v.alt === 'T', LIST: [1, 2] },
  }));
  await writeVcf(path, records, {
    assembly: 'GRCh37',
    sample: 'S1',
    source: 'rarelens-test',
    info: [
      { id: 'GENE', number: 1, type: 'String', description: 'Gene "symbol"' },
      { id: 'SCORE', number: 1, type: 'Float', description: 'Score' },
      { id: 'FLAG', number: 0, type: 'Flag', description: 'A flag' },
      { id: 'LIST', number: '.', type: 'Integer', description: 'List' },
    ],
  });
  return { records, back: await readVcf(path) };
}

describe('writeVcf', () => {
  it('writes a VCF that reads back to the same variants, genotypes and INFO values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vcfw-'));
    const { records, back } = await roundTrip(join(dir, 'out.vcf'));
    const vs = await back.toArray();
    expect(back.assembly).toBe('GRCh37');
    expect(vs.map((v) => [v.chrom, v.pos, v.ref, v.alt])).toEqual(records.map((r) => [r.chrom, r.pos, r.ref, r.alt]));
    expect(vs.map((v) => v.genotype.gt)).toEqual(records.map((r) => r.genotype?.gt));
    expect(vs[0]!.info('GENE')).toBe('ABC;1=x');
    expect(vs[0]!.info('SCORE')).toBe(0.125);
    expect(vs.map((v) => v.info('FLAG') === true)).toEqual(records.map((r) => r.info?.FLAG === true));
    expect(vs[0]!.info('LIST')).toEqual([1, 2]);
  });

  it('writes BGZF for .gz paths: gunzip-readable, with the BGZF EOF block', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vcfw-'));
    const path = join(dir, 'out.vcf.gz');
    const { back } = await roundTrip(path);
    expect(back.compression).toBe('bgzf');
    const bytes = readFileSync(path);
    expect(bytes.subarray(-28).toString('hex')).toBe('1f8b08040000000000ff0600424302001b0003000000000000000000');
    expect(gunzipSync(bytes).toString('utf8')).toMatch(/^##fileformat=VCFv4\.3\n/);
  });

  it.runIf(hasBcftools)('is accepted by bcftools, including tabix indexing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vcfw-'));
    const path = join(dir, 'out.vcf.gz');
    await roundTrip(path);
    const out = execFileSync('bcftools', ['view', '-H', path], { encoding: 'utf8' });
    expect(out.trim().split('\n')).toHaveLength(6);
    execFileSync('tabix', ['-p', 'vcf', path]);
    expect(execFileSync('tabix', [path, '1:2000-2000'], { encoding: 'utf8' }).trim().split('\n')).toHaveLength(2);
  });
});
