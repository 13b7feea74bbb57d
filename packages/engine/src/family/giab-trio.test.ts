// The real GIAB Ashkenazi trio (HG002 son, HG003 father, HG004 mother; first 9,940 records of a
// GATK joint exome call set) with its PED, from ../shared/data (RARELENS_SOURCES).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildVariant } from '../rank/test-builders.ts';
import type { AnnotatedVariant } from '../types.ts';
import { readVcf } from '../vcf/reader.ts';
import { familyGenotypesOf } from './genotypes.ts';
import { trioQc } from './mendelian.ts';
import { parsePed } from './ped.ts';
import { checkFamily } from './pedigree.ts';
import { createFamilyContext, variantFamilyEvidence } from './segregation.ts';

const SOURCES = process.env.RARELENS_SOURCES ?? resolve(import.meta.dirname, '../../../../../shared/data');
const VCF = join(SOURCES, 'vcf/ashk-trio.GIAB-AJ.exome.b37.head10k.vcf.gz');
const PED = join(SOURCES, 'vcf/ashk-trio.GIAB-AJ.ped');

/** Autosomal Mendelian errors counted from the text, by transmitting one allele from each parent. */
function countErrors(): { sites: number; errors: number } {
  let sites = 0;
  let errors = 0;
  for (const line of gunzipSync(readFileSync(VCF)).toString('utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cols = line.split('\t');
    if (!/^([1-9]|1\d|2[0-2])$/.test(cols[0]!)) continue;
    const alleles = cols.slice(9, 12).map((c) => c.split(':')[0]!.split(/[/|]/));
    if (alleles.some((a) => a.includes('.'))) continue;
    const [kid, dad, mom] = alleles as [string[], string[], string[]];
    cols[4]!.split(',').forEach((alt, i) => {
      if (alt === '*') return;
      const k = String(i + 1);
      const dose = (a: string[]): number => a.filter((x) => x === k).length;
      if (dose(kid) + dose(dad) + dose(mom) === 0) return;
      sites++;
      const ok = dad.some((d) => mom.some((m) => (d === k ? 1 : 0) + (m === k ? 1 : 0) === dose(kid)));
      if (!ok) errors++;
    });
  }
  return { sites, errors };
}

describe.runIf(existsSync(VCF))('GIAB Ashkenazi trio', () => {
  it('checks the PED against the VCF, counts Mendelian errors as the text does and finds few QC-passing de novo calls', async () => {
    const ped = parsePed(readFileSync(PED, 'utf8'), 'ashk-trio.GIAB-AJ.ped');
    const reader = await readVcf(VCF, { sample: 'HG002' });
    const { family, problems } = checkFamily(ped, reader.header.samples);
    expect(problems).toEqual([]);
    expect(family?.members.map((m) => [m.id, m.relation, m.vcfIndex])).toEqual([
      ['HG002', 'proband', 0],
      ['HG003', 'father', 1],
      ['HG004', 'mother', 2],
    ]);
    const variants: AnnotatedVariant[] = [];
    for await (const v of reader) {
      variants.push({ ...buildVariant({ chrom: v.chrom, pos: v.pos, ref: v.ref, alt: v.alt }), filter: v.filter, genotype: v.genotype, familyGenotypes: familyGenotypesOf(v, family!.members) });
    }
    const [qc] = trioQc(variants, family!);
    const independent = countErrors();
    expect(qc).toMatchObject({ child: 'HG002', sites: independent.sites, errors: independent.errors, warning: null });
    expect(qc!.rate).toBeLessThan(0.01);
    expect(qc!.qcRate).toBeLessThan(qc!.rate);
    expect(qc!.fatherCheck.rate).toBeLessThan(0.005);
    expect(qc!.motherCheck.rate).toBeLessThan(0.005);

    const ctx = createFamilyContext(family!, [qc!]);
    expect(ctx.parentageConfirmed).toBe(true);
    const deNovo = variants.filter((v) => (v.filter.includes('PASS') || v.filter.length === 0) && variantFamilyEvidence(v, ctx).deNovo?.level === 'confirmed');
    const apparent = variants.filter((v) => variantFamilyEvidence(v, ctx).deNovo !== null);
    expect(deNovo.length).toBeLessThan(5);
    expect(apparent.length).toBeGreaterThan(deNovo.length * 5);
  });
});
