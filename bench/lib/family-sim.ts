/**
 * Simulated trios for the family benchmarks (bench/family.bench.ts, bench/family-cv.ts): a dev
 * case's causal variant(s) spiked into Exomiser's Pfeiffer exome (the proband), with parents whose
 * genotypes are real GIAB HG002/HG003/HG004 triples at background sites and consistent with the
 * case's inheritance at the causal ones (one heterozygous -> de novo; two heterozygous -> one from
 * each parent; homozygous -> carrier parents; hemizygous / X in a male -> carrier mother).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadGenomeKb, loadHpoKb, openAnnotationSession, parsePed, type HpoKb, type Pedigree, type Sex, type VcfAnnotationSession } from '../../packages/engine/src/index.ts';
import { bare, buildBackground, cmp, type Rec, type SpikeCase } from '../rank-spiked.ts';
import { benchInputs } from './inputs.ts';
import { rng } from './rng.ts';

/** Inputs of the family benchmarks (env RARELENS_SOURCES, RARELENS_BENCH, RARELENS_KB; defaults beside the checkout). */
export function familyBenchPaths(root: string) {
  const inputs = benchInputs(root);
  return {
    ...inputs,
    giabVcf: join(inputs.sources, 'vcf/ashk-trio.GIAB-AJ.exome.b37.head10k.vcf.gz'),
    giabPed: join(inputs.sources, 'vcf/ashk-trio.GIAB-AJ.ped'),
  };
}

export { arg } from './inputs.ts';

export interface Triple {
  child: string;
  father: string;
  mother: string;
}

/** Real genotype triples (GT:AD:DP:GQ) of the GIAB trio at PASS biallelic autosomal sites, by the son's dose. */
export function giabTriples(giabVcf: string): { byDose: Map<number, Triple[]>; parentRef: string[]; childHet: string[]; deNovoLike: number; het: number } {
  const byDose = new Map<number, Triple[]>([
    [1, []],
    [2, []],
  ]);
  const parentRef: string[] = [];
  const childHet: string[] = [];
  let deNovoLike = 0;
  for (const line of gunzipSync(readFileSync(giabVcf)).toString('utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const c = line.split('\t');
    if (c[6] !== 'PASS' || c[4].includes(',') || c[8] !== 'GT:AD:DP:GQ:PL') continue;
    const s = c.slice(9, 12).map((x) => x.split(':').slice(0, 4).join(':'));
    const gts = s.map((x) => x.split(':')[0]);
    if (gts.some((g) => g.includes('.'))) continue;
    const dose = (g: string): number => (g.match(/1/g) ?? []).length;
    const d = dose(gts[0]);
    if (d === 0) continue;
    byDose.get(d).push({ child: s[0], father: s[1], mother: s[2] });
    if (d === 1) {
      childHet.push(s[0]);
      if (dose(gts[1]) === 0 && dose(gts[2]) === 0) deNovoLike++;
    }
    for (const k of [1, 2]) if (dose(gts[k]) === 0 && Number(s[k].split(':')[2]) >= 10) parentRef.push(s[k]);
  }
  return { byDose, parentRef, childHet, deNovoLike, het: byDose.get(1).length };
}

export interface TrioRec {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  child: string;
  father: string;
  mother: string;
}

export function writeTrioVcf(path: string, recs: TrioRec[]): void {
  const lines = [
    '##fileformat=VCFv4.2',
    '##reference=GRCh38',
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '##FORMAT=<ID=AD,Number=R,Type=Integer,Description="Allelic depths">',
    '##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Read depth">',
    '##FORMAT=<ID=GQ,Number=1,Type=Integer,Description="Genotype quality">',
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tPROBAND\tFATHER\tMOTHER',
  ];
  for (const r of recs) lines.push(`chr${r.chrom}\t${r.pos}\t.\t${r.ref}\t${r.alt}\t.\tPASS\t.\tGT:AD:DP:GQ\t${r.child}\t${r.father}\t${r.mother}`);
  writeFileSync(path, lines.join('\n') + '\n');
}

export type Pattern = 'de_novo' | 'compound_het' | 'hom_recessive' | 'x_linked' | 'other';
export type TrioCase = SpikeCase & { cohort: string };

/** The dev cases whose causal variants all have coordinates, and every step-th of them (file order). */
export function chooseTrioCases(benchDir: string, sample: number): { chosen: TrioCase[]; eligible: number; step: number } {
  const lines = gunzipSync(readFileSync(join(benchDir, 'phenopackets-dev.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean);
  const cases = lines.map((l) => JSON.parse(l) as TrioCase);
  const eligible = cases.filter((c) => c.genes.length && c.variants.length && c.variants.every((v) => v.chrom && v.pos && v.ref && v.alt));
  const step = sample < eligible.length ? eligible.length / sample : 1;
  const chosen = step > 1 ? Array.from({ length: Math.floor(eligible.length / step) }, (_, i) => eligible[Math.floor(i * step)]) : eligible;
  return { chosen, eligible: eligible.length, step };
}

export interface SimulatedTrio {
  sex: Sex;
  pattern: Pattern;
  /** Proband, father and mother genotypes, sorted. */
  recs: TrioRec[];
  /** chrom:pos:ref:alt of the causal variants. */
  spikedKeys: Set<string>;
  /** PED text: PROBAND affected, FATHER and MOTHER unaffected. */
  ped: string;
}

export const siteKey = (r: { chrom: string; pos: number; ref: string; alt: string }): string => `${r.chrom}:${r.pos}:${r.ref}:${r.alt}`;

/** One case as a trio; `pick` draws from the seeded generator (causal variants first, then the background in order). */
export function simulateTrio(c: TrioCase, background: readonly Rec[], pool: ReturnType<typeof giabTriples>, pick: <T>(xs: readonly T[]) => T): SimulatedTrio {
  const sex: Sex = c.sex === 'MALE' ? 'male' : c.sex === 'FEMALE' ? 'female' : 'unknown';
  const causal = c.variants.map((v) => ({ chrom: bare(v.chrom), pos: v.pos, ref: v.ref, alt: v.alt, zyg: v.zygosity }));
  const hets = causal.filter((v) => v.zyg === 'heterozygous' && !(v.chrom === 'X' && sex === 'male'));
  let pattern: Pattern;
  const spiked: TrioRec[] = [];
  const childHet = (): string => pick(pool.childHet);
  const childHom = (): string => pick(pool.byDose.get(2)).child;
  const ref = (): string => pick(pool.parentRef);
  if (causal.some((v) => v.zyg === 'hemizygous' || (v.chrom === 'X' && sex === 'male'))) pattern = 'x_linked';
  else if (causal.some((v) => v.zyg === 'homozygous')) pattern = 'hom_recessive';
  else if (hets.length >= 2) pattern = 'compound_het';
  else if (hets.length === 1) pattern = 'de_novo';
  else pattern = 'other';
  let hetIndex = 0;
  for (const v of causal) {
    const base = { chrom: v.chrom, pos: v.pos, ref: v.ref, alt: v.alt };
    if (v.zyg === 'hemizygous' || (v.chrom === 'X' && sex === 'male')) spiked.push({ ...base, child: childHom(), father: ref(), mother: childHet() });
    else if (v.zyg === 'homozygous') spiked.push({ ...base, child: childHom(), father: childHet(), mother: childHet() });
    else if (pattern === 'compound_het') spiked.push(hetIndex++ % 2 === 0 ? { ...base, child: childHet(), father: childHet(), mother: ref() } : { ...base, child: childHet(), father: ref(), mother: childHet() });
    else spiked.push({ ...base, child: childHet(), father: ref(), mother: ref() });
  }
  const spikedKeys = new Set(spiked.map(siteKey));
  // Background: each proband genotype gets a real GIAB triple with the same dose (seeded draw).
  const recs: TrioRec[] = [];
  for (const r of background) {
    if (spikedKeys.has(siteKey(r))) continue;
    const t = pick(pool.byDose.get(r.gt === '1/1' ? 2 : 1));
    recs.push({ chrom: r.chrom, pos: r.pos, ref: r.ref, alt: r.alt, child: t.child, father: t.father, mother: t.mother });
  }
  recs.push(...spiked);
  recs.sort(cmp);
  const ped = `fam\tPROBAND\tFATHER\tMOTHER\t${sex === 'male' ? 1 : sex === 'female' ? 2 : 0}\t2\nfam\tFATHER\t0\t0\t1\t1\nfam\tMOTHER\t0\t0\t2\t1\n`;
  return { sex, pattern, recs, spikedKeys, ped };
}

/** One simulated trio, written to `path` (VCF: PROBAND, FATHER, MOTHER) with its pedigree. */
export interface WrittenTrio {
  /** Position in `chosen` (0-based). */
  k: number;
  c: TrioCase;
  sim: SimulatedTrio;
  path: string;
  pedigree: Pedigree;
}

/**
 * The simulated trios of the family benchmarks: every step-th eligible dev case on the Pfeiffer
 * background with GIAB parents drawn from a generator seeded with `seed`. `trios()` writes them one
 * at a time to the same file in a scratch folder (removed when the iteration ends).
 */
export async function simulatedTrios(paths: { sources: string; benchDir: string; giabVcf: string }, sample: number, seed: number) {
  const { chosen, eligible, step } = chooseTrioCases(paths.benchDir, sample);
  const bg = await buildBackground(paths.sources);
  const pool = giabTriples(paths.giabVcf);
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  function* trios(): Generator<WrittenTrio> {
    const dir = mkdtempSync(join(tmpdir(), 'rarelens-family-bench-'));
    try {
      for (let k = 0; k < chosen.length; k++) {
        const c = chosen[k]!;
        const sim = simulateTrio(c, bg.recs, pool, pick);
        const path = join(dir, 'trio.vcf');
        writeTrioVcf(path, sim.recs);
        yield { k, c, sim, path, pedigree: parsePed(sim.ped, 'trio.ped') };
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { chosen, eligible, step, background: bg.recs, pool, trios };
}

/** The HPO knowledge base and an annotation session on the genome KB, as the product loads them. */
export async function openKbSession(kbDir: string): Promise<{ kb: HpoKb; session: VcfAnnotationSession }> {
  const kb = await loadHpoKb(kbDir);
  const session = await openAnnotationSession(await loadGenomeKb(kbDir));
  return { kb, session };
}
