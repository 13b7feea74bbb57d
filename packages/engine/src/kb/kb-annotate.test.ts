/**
 * Real-data tests: build the KB from ../shared/data (RARELENS_SOURCES), load it, and annotate
 * real alleles. One build is shared by the whole file (it takes ~20-40 s on a loaded machine).
 */
import { mkdtemp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createReadStream, existsSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnnotator, type Annotator } from '../annotate/annotator.ts';
import type { AnnotatedVariant } from '../types.ts';
import { loadChain } from '../liftover/chain.ts';
import { readVcf } from '../vcf/reader.ts';
import { probeVcfRecords } from '../vcf/probe.ts';
import { inferAssemblyFromRecords } from '../genome/infer-assembly.ts';
import { buildKb, genomicStep, loadKb, type Kb } from './build.ts';
import { listSourceFiles } from './sources.ts';
import { kbBuiltThisRun } from './test-run-kb.ts';
import { KbSourceError } from './types.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const SOURCES = resolve(process.env.RARELENS_SOURCES ?? join(repoRoot, '../shared/data'));
const hasSources = existsSync(join(SOURCES, 'MANIFEST.md'));

let work: string;
let kbDir: string;
let kb: Kb;
let annotator: Annotator;
let loadMs: number;

beforeAll(async () => {
  if (!hasSources) return;
  work = await mkdtemp(join(tmpdir(), 'rarelens-kb-'));
  // The KB this test run built from SOURCES with this code (CI), else one built here.
  const built = kbBuiltThisRun(SOURCES);
  kbDir = built ?? join(work, 'kb');
  if (built === null) await buildKb({ sourcesDir: SOURCES, outDir: kbDir });
  const t0 = performance.now();
  kb = await loadKb(kbDir);
  loadMs = performance.now() - t0;
  annotator = createAnnotator(kb.genome);
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe.skipIf(!hasSources)('KB build on the shared reference data', () => {
  it('writes a manifest with every genomic source, its sha256 and counts, and reports the missing optional ones', () => {
    const names = kb.manifest.sources.map((s) => s.name);
    for (const n of ['hgnc', 'mane-summary', 'transcripts-grch38', 'transcripts-grch37', 'clinvar-grch38', 'clinvar-grch37', 'intervar-ps1', 'gnomad-constraint-v4', 'alphamissense-genes']) {
      expect(names).toContain(n);
    }
    const hgnc = kb.manifest.sources.find((s) => s.name === 'hgnc')!;
    // sha256 stated in ../shared/data/MANIFEST.md for the HGNC file.
    expect(hgnc.sha256).toBe('aea1f28b19ca56552a74a28702ebb70dbea3ad134c0e4eafde164cb6e3ef0326');
    const cv37 = kb.manifest.sources.find((s) => s.name === 'clinvar-grch37')!;
    expect(cv37.records).toBe(136_095);
    expect(cv37.notes).toMatch(/failed to lift: \d+/);
    expect(kb.manifest.missing.map((m) => m.name)).toEqual(expect.arrayContaining(['gnomad-sites', 'reference-fasta']));
    expect(kb.manifest.kbFormat).toBe(1);
  });

  it('loads genes, transcripts, ClinVar and HPO (load time printed; the target lives in the benchmark)', () => {
    process.stdout.write(`loadKb: ${loadMs.toFixed(0)} ms\n`);
    expect(kb.genome.transcripts.size).toBeGreaterThan(50_000);
    expect(kb.genome.clinvar.size).toBeGreaterThan(200_000);
    expect(kb.genome.genes.bySymbolExact('FGFR2')?.hgncId).toBe('HGNC:3689');
    expect(kb.genome.genes.bySymbolOrAlias('RNF53')?.symbol).toBe('BRCA1');
    // BRCC1 is an alias of both BRCA1 and ICE2: ambiguous, so no gene.
    expect(kb.genome.genes.bySymbolOrAlias('BRCC1')).toBeUndefined();
    expect(kb.genome.transcripts.get('NM_000141')?.tx.mane).toBe('select');
    expect(kb.hpo.diseases.length).toBeGreaterThan(10_000);
  });

  it('fails on a truncated gzip source with an error naming the file, and leaves the old KB intact', async () => {
    const src = join(work, 'corrupt-sources');
    for (const rel of await listSourceFiles(SOURCES)) {
      await mkdir(dirname(join(src, rel)), { recursive: true });
      if (rel.startsWith('genes/hgnc_complete_set')) {
        const full = await readFile(join(SOURCES, rel));
        await writeFile(join(src, rel), full.subarray(0, Math.floor(full.length / 2)));
      } else await symlink(join(SOURCES, rel), join(src, rel));
    }
    const out = join(work, 'old-kb');
    await mkdir(out);
    await writeFile(join(out, 'manifest.json'), '{"marker":"old"}');
    const err = await buildKb({ sourcesDir: src, outDir: out, steps: [genomicStep()] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KbSourceError);
    expect((err as Error).message).toMatch(/genes\/hgnc_complete_set\.2024-10\.txt\.gz:\d+: .*truncated or corrupt/);
    expect(await readFile(join(out, 'manifest.json'), 'utf8')).toBe('{"marker":"old"}');
    expect((await readdir(work)).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 300_000);
});

describe.skipIf(!hasSources)('annotation of real alleles', () => {
  it('PVS1 (SVI 2018): BRCA2 c.73G>T (ClinVar 3-star Pathogenic) is stop_gained p.(Gly25Ter) with PVS1 Very strong', () => {
    const a = annotator.annotate({ chrom: '13', pos: 32319082, ref: 'G', alt: 'T' });
    expect(a.gene).toBe('BRCA2');
    expect(a.transcript).toBe('NM_000059');
    expect(a.consequences).toEqual(['stop_gained']);
    expect(a.hgvsC).toBe('NM_000059:c.73G>T');
    expect(a.hgvsP).toBe('p.(Gly25Ter)');
    expect(a.clinvar).toMatchObject({ significance: 'Pathogenic', stars: 3, match: 'exact' });
    expect(a.acmg.criteria.find((c) => c.code === 'PVS1')?.strength).toBe('VeryStrong');
    // No population data in this KB: PM2 cannot be assessed, so PVS1 alone gives Likely pathogenic.
    expect(a.acmg.classification).toBe('Likely pathogenic');
    expect(a.score).toBeGreaterThan(0.9);
    expect(a.geneConstraint?.source).toBe('gnomAD v4.1');
    expect(a.geneConstraint?.loeuf).toBeLessThan(1);
  });

  it('PVS1 (SVI 2018): BRCA1 and BRCA2 frameshifts from ClinVar are frameshift_variant with PVS1', () => {
    for (const [chrom, pos, ref, alt, gene] of [
      ['17', 43124057, 'CATTT', 'C', 'BRCA1'],
      ['13', 32354918, 'ATT', 'A', 'BRCA2'],
    ] as const) {
      const a = annotator.annotate({ chrom, pos, ref, alt });
      expect(a.gene).toBe(gene);
      expect(a.consequences).toContain('frameshift_variant');
      expect(a.impact).toBe('HIGH');
      expect(a.clinvar?.significance).toBe('Pathogenic');
      expect(a.acmg.criteria.map((c) => c.code)).toContain('PVS1');
    }
  });

  it('matches a ClinVar indel written with extra padding bases (same allele after trimming)', () => {
    const a = annotator.annotate({ chrom: '13', pos: 32354918, ref: 'ATTG', alt: 'AG' });
    expect(a.clinvar).toMatchObject({ id: '52262', match: 'exact', stars: 3 });
  });

  it("finds Pfeiffer's FGFR2 variant (GRCh37 10:123256215 T>G) in FGFR2 after lifting, as missense p.(Glu565Ala)", async () => {
    const chain = await loadChain(kb.genome.chainPath!);
    const reader = await readVcf(join(SOURCES, 'vcf/Pfeiffer.hg19.vcf.gz'), { liftover: chain });
    let hit: AnnotatedVariant | null = null;
    for await (const v of reader) if (v.input.pos === 123256215 && v.input.chrom === '10') hit = annotator.annotate(v);
    expect(reader.assembly).toBe('GRCh37');
    expect(hit).not.toBeNull();
    expect(hit!.chrom).toBe('10');
    expect(hit!.pos).toBe(121496701);
    expect(hit!.gene).toBe('FGFR2');
    expect(hit!.consequences).toEqual(['missense_variant']);
    expect(hit!.hgvsC).toBe('NM_000141:c.1694A>C');
    expect(hit!.hgvsP).toBe('p.(Glu565Ala)');
    expect(hit!.clinvar?.conditions).toContain('Pfeiffer syndrome');
    expect(hit!.genotype.zygosity).toBe('heterozygous');
  }, 120_000);

  it('reports intergenic far from any transcript and upstream within 5 kb of a MANE transcript start', () => {
    // Find a chr13 position with no transcript within 5 kb by scanning the index.
    let pos = 20_000_000;
    while (kb.genome.transcripts.overlapping('13', pos - 1, pos, 5000).length > 0) pos += 50_000;
    expect(annotator.annotate({ chrom: '13', pos, ref: 'A', alt: 'G' }).consequences).toEqual(['intergenic_variant']);
    const fgfr2 = kb.genome.transcripts.get('NM_000141')!.tx; // '-' strand: upstream is beyond tx.end
    const up = annotator.annotate({ chrom: '10', pos: fgfr2.end + 1000, ref: 'A', alt: 'G' });
    expect(up.consequences).toContain('upstream_gene_variant');
  });

  it("agrees with ClinVar's molecular consequence on real transcript models (splice, intron, UTR, frameshift vs in-frame)", async () => {
    const agree = new Map<string, [number, number]>();
    const wrongCodon = { n: 0, wrong: 0 };
    const rl = createInterface({ input: createReadStream(join(SOURCES, 'clinvar/clinvar_20260226.GRCh38.subset69k.vcf.gz')).pipe(createGunzip()), crlfDelay: Infinity });
    for await (const line of rl) {
      if (line.startsWith('#')) continue;
      const c = line.split('\t');
      const mc = /;MC=([^;]+)/.exec(c[7]!)?.[1];
      if (!mc || mc.includes(',') || !/^[ACGT]+$/.test(c[4]!)) continue;
      const term = mc.split('|')[1]!.replace('nonsense', 'stop_gained');
      const got = annotator.annotate({ chrom: c[0]!, pos: Number(c[1]), ref: c[3]!, alt: c[4]! }).consequences;
      if (['missense_variant', 'synonymous_variant', 'stop_gained'].includes(term) && c[3]!.length === 1 && c[4]!.length === 1) {
        // Codon-level calls without a FASTA: either right, or the honest coding_sequence_variant.
        wrongCodon.n++;
        if (!got.includes(term) && !got.includes('coding_sequence_variant')) wrongCodon.wrong++;
        continue;
      }
      const s = agree.get(term) ?? [0, 0];
      s[0]++;
      if (got.includes(term)) s[1]++;
      agree.set(term, s);
    }
    const rate = (t: string): number => {
      const s = agree.get(t)!;
      return s[1] / s[0];
    };
    expect(rate('frameshift_variant')).toBeGreaterThan(0.98);
    expect(rate('intron_variant')).toBeGreaterThan(0.97);
    expect(rate('3_prime_UTR_variant')).toBeGreaterThan(0.95);
    expect(rate('5_prime_UTR_variant')).toBeGreaterThan(0.95);
    expect(rate('inframe_deletion')).toBeGreaterThan(0.97);
    // ClinVar (VEP-style) shifts indels 3' before calling splice effects; we do not without a FASTA.
    expect(rate('splice_acceptor_variant')).toBeGreaterThan(0.9);
    expect(rate('splice_donor_variant')).toBeGreaterThan(0.85);
    expect(wrongCodon.n).toBeGreaterThan(10_000);
    expect(wrongCodon.wrong / wrongCodon.n).toBeLessThan(0.01);
  }, 300_000);

  it('uses VEP CSQ-format annotations (stored under ANN) for consequence, HGVS and population data when present', async () => {
    const reader = await readVcf(join(SOURCES, 'vcf/fixtures/vembrane.vep100.GRCh38.2rec.vcf.gz'), { assembly: 'GRCh38' });
    const a = createAnnotator(kb.genome, { populationDataInInput: true });
    const out: AnnotatedVariant[] = [];
    for await (const v of reader) out.push(a.annotate(v));
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ gene: 'ARID1A', consequences: ['synonymous_variant'], impact: 'LOW', hgvsC: 'ENST00000324856.13:c.582C>T' });
    expect(out[0]!.hgvsP).toMatch(/p\.Pro194=/);
    // The VCF carries gnomAD fields and this allele has none: absent, so PM2_Supporting applies.
    expect(out[0]!.acmg.criteria.map((c) => c.code)).toEqual(expect.arrayContaining(['PM2_Supporting', 'BP7']));
    expect(out[1]).toMatchObject({ gene: 'ARID1A', consequences: ['missense_variant'] });
  });
});

describe.skipIf(!hasSources)('the assembly of a VCF whose header is silent, from its records', () => {
  it('infers GRCh37 for a real GRCh37 exome and GRCh38 for GRCh38 records, and does not guess from a few intergenic records', async () => {
    const chain = kb.genome.chainPath === null ? null : await loadChain(kb.genome.chainPath);
    const infer = async (file: string, max: number) => inferAssemblyFromRecords((await probeVcfRecords(join(SOURCES, file), { max })).records, kb.genome, chain);
    const pfeiffer = await infer('vcf/Pfeiffer.hg19.vcf.gz', 5000);
    expect(pfeiffer.assembly).toBe('GRCh37');
    expect(pfeiffer.tally.GRCh37.clinvar).toBeGreaterThan(10 * Math.max(1, pfeiffer.tally.GRCh38.clinvar));
    expect((await infer('vcf/ashk-trio.GIAB-AJ.exome.b37.head10k.vcf.gz', 5000)).assembly).toBe('GRCh37');
    expect((await infer('clinvar/clinvar_20260226.GRCh38.subset69k.vcf.gz', 2000)).assembly).toBe('GRCh38');
    // The first records of chromosome 21 lie before its genes: nothing to compare, so no answer.
    const few = await infer('vcf/PG_NA12878_hg38-chr21.vcf.gz', 20);
    expect(few.assembly).toBeNull();
    expect(few.reason).toMatch(/too few of the records match ClinVar alleles or known reference bases/);
  });
});
