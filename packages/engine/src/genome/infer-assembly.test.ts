import { describe, expect, it } from 'vitest';
import { inferAssemblyFromRecords, type AssemblyProbeKb } from './infer-assembly.ts';
import type { LiftoverChain } from '../liftover/chain.ts';

/** A GRCh38 "KB" that knows a few bases and ClinVar alleles, and a chain that shifts GRCh37 by +1000. */
const known = new Map<string, string>(); // `${chrom}:${pos0}` -> base
const clinvar = new Set<string>();
for (let i = 0; i < 8; i++) {
  const pos = 1_000_000 + i * 10_000;
  known.set(`7:${pos - 1}`, 'ACGT'[i % 4]!);
  clinvar.add(`7:${pos}:${'ACGT'[i % 4]}>${'CGTA'[i % 4]}`);
}
const kb: AssemblyProbeKb = {
  refBases: { base: (c, p0) => known.get(`${c}:${p0}`) ?? null },
  clinvar: { exact: (c, p, r, a) => (clinvar.has(`${c}:${p}:${r}>${a}`) ? {} : null) },
};
const chain = {
  liftVariant: (v: { chrom: string; pos: number; ref: string; alt: string }) => ({ ...v, pos: v.pos + 1000, strand: '+' }),
} as unknown as LiftoverChain;

const grch38Records = [...clinvar].map((k) => {
  const [chrom, pos, alleles] = k.split(':');
  const [ref, alt] = alleles!.split('>');
  return { chrom: chrom!, pos: Number(pos), ref: ref!, alt: alt! };
});
const grch37Records = grch38Records.map((r) => ({ ...r, pos: r.pos - 1000 }));

describe('inferAssemblyFromRecords', () => {
  it('recognises GRCh38 records by their reference bases and ClinVar alleles', () => {
    const r = inferAssemblyFromRecords(grch38Records, kb, chain);
    expect(r.assembly).toBe('GRCh38');
    expect(r.tally.GRCh38).toMatchObject({ known: 8, agree: 8, clinvar: 8 });
    expect(r.reason).toContain('inferred GRCh38 from the records');
  });

  it('recognises GRCh37 records through the liftover', () => {
    const r = inferAssemblyFromRecords(grch37Records, kb, chain);
    expect(r.assembly).toBe('GRCh37');
    expect(r.tally.GRCh37).toMatchObject({ known: 8, agree: 8, clinvar: 8 });
    expect(r.tally.GRCh38.clinvar).toBe(0);
  });

  it('refuses to guess from too few known positions, and says what it needed', () => {
    const r = inferAssemblyFromRecords(grch38Records.slice(0, 2), kb, chain);
    expect(r.assembly).toBeNull();
    expect(r.reason).toMatch(/^too few of the records match ClinVar alleles or known reference bases under one assembly \(needed: 3 ClinVar alleles/);
  });

  it('does not decide when the REF alleles contradict the reference (a wrong or mixed file)', () => {
    const wrongRef = grch38Records.map((r) => ({ ...r, ref: r.ref === 'A' ? 'C' : 'A' }));
    expect(inferAssemblyFromRecords(wrongRef, kb, chain).assembly).toBeNull();
  });

  it('uses chromosome lengths: a position past the end of GRCh38 chr1 can only be GRCh37', () => {
    // chr1 is 249,250,621 bp in GRCh37 and 248,956,422 bp in GRCh38.
    const r = inferAssemblyFromRecords([{ chrom: 'chr1', pos: 249_000_000, ref: 'A', alt: 'G' }], kb, chain);
    expect(r.assembly).toBe('GRCh37');
    expect(r.tally.GRCh38.outOfRange).toBe(1);
  });
});
