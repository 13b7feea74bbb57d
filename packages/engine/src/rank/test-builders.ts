/** Test builders for ranking tests (not part of the public entry). */
import type { AnnotatedVariant, Zygosity } from '../types.ts';

/** An annotated variant with sensible defaults; override any field. */
export function buildVariant(o: Partial<AnnotatedVariant> & { zygosity?: Zygosity } = {}): AnnotatedVariant {
  const chrom = o.chrom ?? '1';
  const pos = o.pos ?? 1000;
  const ref = o.ref ?? 'A';
  const alt = o.alt ?? 'G';
  const zyg = o.zygosity ?? 'heterozygous';
  return {
    chrom,
    pos,
    ref,
    alt,
    input: { chrom, pos, ref, alt, line: 1 },
    assembly: 'GRCh38',
    genotype: { gt: zyg === 'homozygous' ? '1/1' : zyg === 'hemizygous' ? '1' : '0/1', zygosity: zyg },
    filter: [],
    qual: null,
    gene: o.gene ?? 'GENE1',
    transcript: null,
    consequences: o.consequences ?? ['missense_variant'],
    impact: 'MODERATE',
    hgvsC: o.hgvsC ?? null,
    hgvsP: null,
    af: null,
    clinvar: o.clinvar ?? null,
    acmg: o.acmg ?? { classification: 'Uncertain significance', points: 0, criteria: [] },
    score: o.score ?? 0.5,
  };
}
