/**
 * AnnotationJsonlWriter writes the bytes of JSON.stringify(toAnnotationJson(v)) + '\n': checked
 * record by record on real files annotated with a real KB (RARELENS_KB when built, else the
 * genomic KB built here from RARELENS_SOURCES), and on records made to hit every branch
 * (escapes, non-ASCII, non-finite and negative numbers, ClinVar hits, other genes).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKb, genomicStep } from '../kb/build.ts';
import { loadGenomeKb, type GenomeKb } from '../kb/genome-kb.ts';
import { loadChain } from '../liftover/chain.ts';
import type { AnnotatedVariant } from '../types.ts';
import { readVcf } from '../vcf/reader.ts';
import { createAnnotator } from './annotator.ts';
import { AnnotationJsonlWriter } from './jsonl.ts';
import { toAnnotationJson } from './output.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const SOURCES = resolve(process.env.RARELENS_SOURCES ?? join(repoRoot, '../shared/data'));
const hasSources = existsSync(join(SOURCES, 'MANIFEST.md'));
const builtKb = process.env.RARELENS_KB && existsSync(join(process.env.RARELENS_KB, 'genome', 'genome.json')) ? process.env.RARELENS_KB : null;

const reference = (v: AnnotatedVariant): string => `${JSON.stringify(toAnnotationJson(v))}\n`;

/** Both encodings of every record; the first difference (record index and both lines) if any. */
function compare(records: AnnotatedVariant[], writer = new AnnotationJsonlWriter(1 << 10)): { bytes: number; firstDifference: null | { i: number; want: string; got: string } } {
  const want = Buffer.from(records.map(reference).join(''));
  for (const r of records) writer.add(r);
  const got = writer.take();
  if (got.equals(want)) return { bytes: got.length, firstDifference: null };
  const wl = want.toString('utf8').split('\n');
  const gl = got.toString('utf8').split('\n');
  const i = wl.findIndex((l, k) => l !== gl[k]);
  return { bytes: got.length, firstDifference: { i, want: wl[i] ?? '', got: gl[i] ?? '' } };
}

describe.skipIf(!hasSources)('AnnotationJsonlWriter on real files', () => {
  let work: string | null = null;
  let kbDir: string;
  let kb: GenomeKb;

  beforeAll(async () => {
    if (builtKb) kbDir = builtKb;
    else {
      work = await mkdtemp(join(tmpdir(), 'rarelens-jsonl-'));
      kbDir = join(work, 'kb');
      await buildKb({ sourcesDir: SOURCES, outDir: kbDir, steps: [genomicStep()] });
    }
    kb = await loadGenomeKb(kbDir);
  }, 300_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  async function annotateFile(path: string, lift: boolean): Promise<AnnotatedVariant[]> {
    const reader = await readVcf(path, lift ? { liftover: await loadChain(kb.chainPath!) } : {});
    const annotator = createAnnotator(kb, { infoKeys: new Set(reader.header.info.keys()) });
    const out: AnnotatedVariant[] = [];
    for await (const batch of reader.batches()) for (const v of batch) out.push(annotator.annotate(v));
    return out;
  }

  it('writes Pfeiffer (GRCh37, lifted) byte for byte as JSON.stringify(toAnnotationJson)', async () => {
    const records = await annotateFile(join(SOURCES, 'vcf/Pfeiffer.hg19.vcf.gz'), true);
    expect(records.length).toBeGreaterThan(37_000);
    // The file exercises ClinVar hits, criteria, other genes and constraint, not only the common shape.
    expect(records.some((r) => r.clinvar !== null)).toBe(true);
    expect(records.some((r) => r.acmg.criteria.length > 0)).toBe(true);
    expect(records.some((r) => (r.otherGenes ?? []).length > 0)).toBe(true);
    expect(records.some((r) => (r.codingOutcome ?? []).length > 0)).toBe(true);
    const r = compare(records);
    expect(r.firstDifference).toBeNull();
    expect(r.bytes).toBeGreaterThan(records.length * 300);
  }, 300_000);

  it('writes PG NA12878 chr21 (GRCh38) byte for byte as JSON.stringify(toAnnotationJson)', async () => {
    const records = await annotateFile(join(SOURCES, 'vcf/PG_NA12878_hg38-chr21.vcf.gz'), false);
    expect(records.length).toBeGreaterThan(60_000);
    // Most records share a frozen ACMG result (evidence-free variants): the writer's kept bytes of it are checked too.
    expect(records.filter((r) => Object.isFrozen(r.acmg)).length).toBeGreaterThan(records.length / 2);
    expect(compare(records).firstDifference).toBeNull();
  }, 300_000);

  it("annotator: the memoised result of evidence-free variants equals a fresh annotator's, record by record (PG NA12878 chr21, Pfeiffer)", async () => {
    for (const [file, lift] of [['vcf/PG_NA12878_hg38-chr21.vcf.gz', false], ['vcf/Pfeiffer.hg19.vcf.gz', true]] as const) {
      const reader = await readVcf(join(SOURCES, file), lift ? { liftover: await loadChain(kb.chainPath!) } : {});
      const opts = { infoKeys: new Set(reader.header.info.keys()) };
      const shared = createAnnotator(kb, opts);
      let n = 0;
      let memoised = 0;
      const seen = new Set<object>();
      for await (const batch of reader.batches()) {
        for (const v of batch) {
          const a = shared.annotate(v);
          // A fresh annotator has nothing memoised: it computes every result.
          const fresh = createAnnotator(kb, opts).annotate(v);
          expect(Object.isFrozen(fresh.acmg) && seen.has(fresh.acmg)).toBe(false);
          expect(a).toEqual(fresh);
          if (seen.has(a.acmg)) memoised++;
          seen.add(a.acmg);
          n++;
        }
        if (n >= 15_000) break;
      }
      reader.close();
      expect(n).toBeGreaterThanOrEqual(15_000);
      // The fast path was taken (one result object returned for many records; an exome has fewer such records) ...
      expect(memoised).toBeGreaterThan(n / 3);
      // ... and what it hands out cannot be changed by a consumer for every record that shares it.
      const sharedResult = [...seen].find((r) => Object.isFrozen(r)) as AnnotatedVariant['acmg'];
      expect(() => sharedResult.notAssessed!.push({ code: 'X', reason: 'y' })).toThrow(TypeError);
    }
  }, 300_000);
});

describe('AnnotationJsonlWriter on made-up records', () => {
  const base: AnnotatedVariant = {
    chrom: '1',
    pos: 12345,
    ref: 'A',
    alt: 'G',
    input: { chrom: 'chr1', pos: 12345, ref: 'A', alt: 'G', line: 7 },
    assembly: 'GRCh38',
    genotype: { gt: '0/1', zygosity: 'heterozygous' },
    filter: ['PASS'],
    qual: null,
    gene: null,
    transcript: null,
    consequences: ['intergenic_variant'],
    impact: 'MODIFIER',
    hgvsC: null,
    hgvsP: null,
    af: null,
    clinvar: null,
    acmg: { classification: 'Uncertain significance', points: 0, criteria: [] },
    score: 0,
  };

  it('spells every branch as JSON.stringify does', () => {
    const records: AnnotatedVariant[] = [
      base,
      {
        ...base,
        pos: 0,
        input: { chrom: 'chr1', pos: 9_007_199_254_740_991, ref: 'A', alt: 'G', line: 1e15 },
        genotype: { gt: '1|1', zygosity: 'homozygous', depth: 0, genotypeQuality: 99.5, alleleDepths: [0, 1234567], heteroplasmy: 0.0625 },
        filter: ['q10', 'LowQual;x'],
        qual: -0,
        gene: 'BRCA1',
        hgncId: 'HGNC:1100',
        transcript: 'NM_007294.4',
        isManeSelect: true,
        consequences: ['missense_variant', 'splice_region_variant'],
        codingOutcome: [{ term: 'synonymous_variant', p: 0.96054708 }, { term: 'missense_variant', p: 0.0394529 }],
        impact: 'MODERATE',
        hgvsC: 'NM_007294.4:c.5123C>A',
        hgvsP: 'p.(Ala1708Glu)',
        af: 1.5e-7,
        afSource: 'gnomAD "v4" \\ exomes',
        clinvar: { significance: 'Pathogenic', stars: 3, match: 'exact', id: '55555', conditions: ['Hereditary breast — ovarian cancer', 'tab\there', 'nul\u0000', 'emoji 🧬', 'lone \ud800 surrogate'] },
        acmg: {
          classification: 'Pathogenic',
          points: 12,
          criteria: [
            { code: 'PS1', strength: 'Strong', points: 4, reason: 'same amino acid change as a pathogenic variant' },
            { code: 'BP4', strength: 'Supporting', points: -1, reason: 'négatif "quoted"\n' },
          ],
          notAssessed: [{ code: 'PM2', reason: 'none\u007f' }],
        },
        score: 0.123456789,
        otherGenes: [
          { gene: 'NBR2', transcript: 'NR_003108', consequences: ['intron_variant'], impact: 'MODIFIER' },
          { gene: 'X', transcript: 'Y', consequences: [], impact: 'LOW' },
        ],
        geneConstraint: { pLI: 4.099999999999999e-33, loeuf: null, misZ: -6.19, source: 'gnomAD v4.1' },
      },
      { ...base, codingOutcome: [], consequences: ['coding_sequence_variant'] },
      { ...base, codingOutcome: null },
      { ...base, qual: Number.NaN, af: Number.POSITIVE_INFINITY, score: -0.5, acmg: { classification: 'Benign', points: -8, criteria: [], notAssessed: [] }, clinvar: { significance: 'Benign', stars: 0, match: 'same_codon' } },
      { ...base, genotype: { gt: '.', zygosity: 'unknown', depth: 1e21, genotypeQuality: 1e-7 }, qual: 2 ** 60 },
    ];
    const r = compare(records);
    expect(r.firstDifference).toBeNull();
    // The expected bytes do contain the escapes and the multi-byte characters.
    const text = Buffer.from(records.map(reference).join('')).toString('utf8');
    expect(text).toContain('\\u0000');
    expect(text).toContain('🧬');
    expect(text).toContain('\\ud800');
  });

  it('spells whole numbers of every length and copies the input position and alleles only when they are the record\'s', () => {
    const longRef = `A${'CGT'.repeat(15)}`;
    const longAlt = `G${'TTA'.repeat(12)}`;
    const numbers = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345, 99999, 100000, 654321, 1000000, 9999999, 10000000, 123456789, 999999999, 1000000000, 2147483647, 2147483648, 4294967295];
    const records: AnnotatedVariant[] = [
      ...numbers.map((n, k) => ({ ...base, pos: n, input: { chrom: 'chr1', pos: n, ref: 'A', alt: 'G', line: numbers[numbers.length - 1 - k]! } })),
      // The record's POS, REF and ALT (a copy), then one of the three different from the input's (lifted, trimmed).
      { ...base, pos: 5000, ref: longRef, alt: longAlt, input: { chrom: 'chr1', pos: 5000, ref: longRef, alt: longAlt, line: 8 } },
      { ...base, pos: 5000, ref: 'A', alt: 'G', input: { chrom: 'chr1', pos: 5001, ref: 'A', alt: 'G', line: 9 } },
      { ...base, pos: 5000, ref: 'A', alt: 'G', input: { chrom: 'chr1', pos: 5000, ref: 'AT', alt: 'G', line: 10 } },
      { ...base, pos: 5000, ref: 'A', alt: 'G', input: { chrom: 'chr1', pos: 5000, ref: 'A', alt: 'GT', line: 11 } },
      { ...base, pos: 42, ref: 'C', alt: 'T', input: { chrom: '1', pos: 42, ref: 'C', alt: 'T', line: 12 } },
      { ...base, pos: 7, ref: 'A"\\', alt: 'é', input: { chrom: 'chr1', pos: 7, ref: 'A"\\', alt: 'é', line: 13 } },
    ];
    // A small first buffer: the copy must survive the buffer's growth between the two runs.
    for (const initial of [1 << 10, 64, 1]) expect(compare(records, new AnnotationJsonlWriter(initial)).firstDifference).toBeNull();
  });

  it('writes the kept runs of repeating records anew when any value they depend on changes', () => {
    // Records alike but for one value each, in sequence: each kept run (contig, input contig,
    // genotype, filter, gene to hgvs_c, hgvs_p to the end) must notice the value that changed.
    const frozen = (classification: 'Uncertain significance' | 'Likely benign') =>
      Object.freeze({ classification, points: 0, criteria: Object.freeze([]), notAssessed: Object.freeze([Object.freeze({ code: 'PM2/BA1/BS1', reason: 'no population frequency data' })]) }) as unknown as AnnotatedVariant['acmg'];
    const vus = frozen('Uncertain significance');
    const lb = frozen('Likely benign');
    const intron = Object.freeze(['intron_variant']) as unknown as string[];
    const first: AnnotatedVariant = {
      ...base,
      gene: 'ERRFI1',
      hgncId: 'HGNC:18185',
      transcript: 'NM_018948',
      isManeSelect: true,
      consequences: intron,
      hgvsC: 'NM_018948:c.-74+3663C>T',
      afSource: null,
      acmg: vus,
      score: 0.075,
      otherGenes: [],
      geneConstraint: { pLI: 0.000712, loeuf: 1.09, misZ: 1.78, source: 'gnomAD v4.1' },
    };
    const changes: Partial<AnnotatedVariant>[] = [
      {},
      { pos: 12346, hgvsC: 'NM_018948:c.-74+3664C>T' },
      { chrom: '2' },
      { input: { chrom: 'chr2', pos: 12345, ref: 'A', alt: 'G', line: 8 } },
      { genotype: { gt: '1/1', zygosity: 'heterozygous' } },
      { genotype: { gt: '1/1', zygosity: 'homozygous' } },
      { genotype: { gt: '1/1', zygosity: 'homozygous', depth: 12 } },
      { filter: ['LowQual'] },
      { filter: [] },
      { filter: ['LowQual', 'q10'] },
      { filter: ['LowQual'] },
      { gene: 'OTHER' },
      { hgncId: null },
      { transcript: 'NM_000001' },
      { isManeSelect: false },
      { consequences: Object.freeze(['intron_variant']) as unknown as string[] },
      { consequences: ['intron_variant', 'splice_region_variant'] },
      { impact: 'LOW' },
      { codingOutcome: [{ term: 'missense_variant', p: 0.5 }] },
      {},
      { score: 0.0751 },
      { acmg: lb },
      { afSource: 'input VCF population annotations' },
      { geneConstraint: { pLI: 0.000712, loeuf: 1.1, misZ: 1.78, source: 'gnomAD v4.1' } },
      { geneConstraint: { pLI: 0.000712, loeuf: 1.1, misZ: 1.78, source: 'gnomAD v2.1.1' } },
      { geneConstraint: null },
      { hgvsP: 'p.(Ala1Glu)' },
      { af: 0.01 },
      { clinvar: { significance: 'Benign', stars: 1, match: 'exact' } },
      { otherGenes: [{ gene: 'NBR2', transcript: 'NR_003108', consequences: intron, impact: 'MODIFIER' }] },
      { acmg: { classification: 'Uncertain significance', points: 0, criteria: [] } },
      {},
    ];
    const records: AnnotatedVariant[] = [];
    let cur = first;
    for (const c of changes) records.push((cur = { ...cur, ...c }));
    // Every change once, then every record again after a different one (back to values seen before).
    const r = compare([...records, ...records.slice().reverse(), ...records]);
    expect(r.firstDifference).toBeNull();
  });

  it('grows past its initial buffer, and take() starts afresh', () => {
    const w = new AnnotationJsonlWriter(16);
    const long = { ...base, hgvsC: 'c.'.padEnd(100_000, 'A') };
    w.add(long);
    w.add(base);
    const first = w.take();
    expect(first.toString('utf8')).toBe(reference(long) + reference(base));
    expect(w.length).toBe(0);
    w.add(base);
    expect(w.take().toString('utf8')).toBe(reference(base));
    // The first take() is not overwritten by later writes.
    expect(first.toString('utf8')).toBe(reference(long) + reference(base));
  });

  it('writes into memory given back by recycle() instead of a new buffer', () => {
    const w = new AnnotationJsonlWriter(1 << 12);
    w.add(base);
    const first = w.take();
    const memory = first.buffer as ArrayBuffer;
    w.recycle(memory);
    // The buffer after the first take() is in use; the one after the second is the recycled one.
    w.add(base);
    expect(w.take().buffer).not.toBe(memory);
    w.add({ ...base, pos: 777 });
    const third = w.take();
    expect(third.buffer).toBe(memory);
    expect(third.toString('utf8')).toBe(reference({ ...base, pos: 777 }));
    // Memory smaller than the writer's buffers is not kept.
    w.recycle(new ArrayBuffer(16));
    w.add(base);
    w.take();
    w.add(base);
    expect(w.take().buffer.byteLength).toBeGreaterThanOrEqual(1 << 12);
  });
});
