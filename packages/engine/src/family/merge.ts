/**
 * Merges separately called per-person VCFs (a trio called sample by sample) into one
 * multi-sample VCF by position and allele (after multi-allelic splitting and trimming, as the
 * reader yields them), so the family analysis reads it like a joint call.
 *
 * A site a person's VCF does not list is written as a no-call ('./.'), never as the reference:
 * a variant-only VCF says nothing about the positions it leaves out (no coverage looks the same
 * as reference). The merge reports those per sample, because they make de novo and segregation
 * calls impossible at those sites; a joint call (or gVCFs) is needed to tell. All inputs must be
 * on one assembly; every record keeps the first input's contig spelling and FILTER/QUAL of the
 * first input that has it.
 */
import { writeFileSync } from 'node:fs';
import type { Assembly } from '../types.ts';
import { VcfParseError } from '../vcf/errors.ts';
import { readVcf } from '../vcf/reader.ts';
import { sampleGenotypesOf } from './genotypes.ts';

export interface MergeInput {
  path: string;
  /** Sample column to take (default: the only or first one); the merged column is named after it. */
  sample?: string;
}

export interface MergeResult {
  samples: string[];
  assembly: Assembly;
  sites: number;
  /** Per sample: sites absent from its VCF, written as no-calls. */
  missing: Record<string, number>;
  /** One sentence a user can read. */
  note: string;
}

interface Site {
  contigOrder: number;
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  qual: string;
  filter: string;
  calls: (string | undefined)[];
}

const genotypeField = (gt: string, ad: [number, number] | undefined, dp: number | undefined, gq: number | undefined, dose: 0 | 1 | 2 | null, haploid: boolean): string => {
  const g = dose === null ? (haploid ? '.' : './.') : haploid ? (dose > 0 ? '1' : '0') : dose === 2 ? '1/1' : dose === 1 ? '0/1' : '0/0';
  return `${gt.includes('|') && !haploid && dose === 1 ? g.replace('/', '|') : g}:${ad ? ad.join(',') : '.'}:${dp ?? '.'}:${gq ?? '.'}`;
};

/** Merges per-person VCFs into `out` (plain text VCF). Throws VcfParseError on mixed assemblies or a duplicate sample. */
export async function mergeSampleVcfs(inputs: readonly MergeInput[], out: string, opts: { assembly?: Assembly; signal?: AbortSignal } = {}): Promise<MergeResult> {
  if (inputs.length < 2) throw new RangeError('merging needs at least two VCFs');
  const sites = new Map<string, Site>();
  const samples: string[] = [];
  const contigs: string[] = [];
  const contigLines: string[] = [];
  let assembly: Assembly | null = null;
  for (let k = 0; k < inputs.length; k++) {
    const input = inputs[k]!;
    const reader = await readVcf(input.path, { sample: input.sample, assembly: opts.assembly ?? assembly ?? undefined, signal: opts.signal });
    if (assembly && reader.assembly !== assembly) {
      reader.close();
      throw new VcfParseError(input.path, 0, `is ${reader.assembly} but ${inputs[0]!.path} is ${assembly}: merge VCFs of one assembly`);
    }
    assembly = reader.assembly;
    const sample = reader.sample ?? input.path;
    if (samples.includes(sample)) {
      reader.close();
      throw new VcfParseError(input.path, 0, `sample ${sample} is already taken from another input: each person once`);
    }
    samples.push(sample);
    if (k === 0) for (const line of reader.header.meta) if (line.startsWith('##contig=')) contigLines.push(line);
    for await (const v of reader) {
      const key = `${v.chrom}:${v.pos}:${v.ref}:${v.alt}`;
      let site = sites.get(key);
      if (!site) {
        let order = contigs.indexOf(v.chrom);
        if (order < 0) order = contigs.push(v.chrom) - 1;
        site = { contigOrder: order, chrom: v.record.chrom, pos: v.pos, ref: v.ref, alt: v.alt, qual: v.record.qualRaw, filter: v.record.filterRaw, calls: [] };
        sites.set(key, site);
      }
      const g = sampleGenotypesOf(v)[reader.sampleIndex];
      if (!g) continue;
      const dose = g.zygosity === 'reference' ? 0 : g.zygosity === 'heterozygous' ? 1 : g.zygosity === 'homozygous' || g.zygosity === 'hemizygous' ? 2 : null;
      site.calls[k] = genotypeField(g.gt, g.alleleDepths, g.depth, g.genotypeQuality, dose, g.zygosity === 'hemizygous');
    }
  }
  const ordered = [...sites.values()].sort((a, b) => a.contigOrder - b.contigOrder || a.pos - b.pos || a.ref.localeCompare(b.ref) || a.alt.localeCompare(b.alt));
  const missing: Record<string, number> = Object.fromEntries(samples.map((s) => [s, 0]));
  const lines = [
    '##fileformat=VCFv4.2',
    `##reference=${assembly ?? 'unknown'}`,
    `##rarelens_merge=<Inputs="${inputs.map((i) => i.path.split('/').pop()).join(',')}",Missing="not in a person's VCF: no-call">`,
    ...contigLines,
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '##FORMAT=<ID=AD,Number=R,Type=Integer,Description="Allelic depths for the ref and alt alleles">',
    '##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Read depth">',
    '##FORMAT=<ID=GQ,Number=1,Type=Integer,Description="Genotype quality">',
    `#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\t${samples.join('\t')}`,
  ];
  for (const s of ordered) {
    const cols = samples.map((name, k) => {
      const c = s.calls[k];
      if (c === undefined) missing[name] = (missing[name] ?? 0) + 1;
      return c ?? './.:.:.:.';
    });
    lines.push(`${s.chrom}\t${s.pos}\t.\t${s.ref}\t${s.alt}\t${s.qual}\t${s.filter}\t.\tGT:AD:DP:GQ\t${cols.join('\t')}`);
  }
  writeFileSync(out, lines.join('\n') + '\n');
  const parts = samples.filter((s) => (missing[s] ?? 0) > 0).map((s) => `${s}: ${missing[s]} of ${ordered.length}`);
  const note = parts.length
    ? `Merged ${samples.length} separately called VCFs by position and allele. Sites a person's VCF does not list are no-calls, not reference (${parts.join('; ')}): de novo and segregation cannot be judged there; a joint call or gVCFs would tell.`
    : `Merged ${samples.length} separately called VCFs by position and allele; every site is called in every person.`;
  return { samples, assembly: assembly ?? 'GRCh38', sites: ordered.length, missing, note };
}
