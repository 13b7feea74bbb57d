/**
 * The official-release formats a deployment would provide (GENCODE GTF, GFF3, gnomAD sites VCF,
 * reference FASTA, official ClinVar VCF), on tiny fixtures written here.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnnotator } from '../annotate/annotator.ts';
import { buildKb, genomicStep } from './build.ts';
import { loadGenomeKb, type GenomeKb } from './genome-kb.ts';
import { readHgnc } from './genes.build.ts';
import { readBed12, readGtfOrGff } from './transcripts.build.ts';
import { readClinvarVcf } from './clinvar.build.ts';
import { KbSourceError } from './types.ts';
import type { KbManifest } from './types.ts';

const HGNC_HEADER = ['hgnc_id', 'symbol', 'name', 'locus_group', 'locus_type', 'status', 'location', 'alias_symbol', 'prev_symbol', 'entrez_id', 'ensembl_gene_id', 'refseq_accession', 'omim_id', 'mane_select'];
const HGNC_ROW = ['HGNC:99901', 'TESTG', 'test gene', 'protein-coding gene', 'gene with protein product', 'Approved', '1p36', 'TG1', '', '999001', 'ENSG09990001', 'NM_999001', '600001', '"ENST09990001.1|NM_999001.1"'];

/** chr1 sequence (1-based): CDS codon 1 = ATG at 1051-1053, codon 2 = CGA at 1054-1056. */
function chr1(): string {
  const s = Array.from({ length: 2000 }, (_, i) => 'ACGT'[(i * 7 + 3) % 4]!);
  const put = (pos1: number, bases: string): void => {
    for (let k = 0; k < bases.length; k++) s[pos1 - 1 + k] = bases[k]!;
  };
  put(1051, 'ATGCGA');
  put(1449, 'TAA');
  return s.join('');
}

const GTF = [
  '##description: tiny GENCODE-style fixture',
  ...[
    ['exon', 1001, 1100],
    ['exon', 1201, 1300],
    ['exon', 1401, 1500],
    ['CDS', 1051, 1100],
    ['CDS', 1201, 1300],
    ['CDS', 1401, 1448],
    ['stop_codon', 1449, 1451],
  ].map(([type, s, e]) => `chr1\tHAVANA\t${type}\t${s}\t${e}\t.\t+\t.\tgene_id "ENSG09990001.1"; transcript_id "ENST09990001.1"; gene_name "TESTG"; tag "basic"; tag "MANE_Select";`),
].join('\n');

let dir: string;
let kb: GenomeKb;
let manifest: KbManifest;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rarelens-kbfmt-'));
  const src = join(dir, 'sources');
  await mkdir(join(src, 'genes'), { recursive: true });
  await writeFile(join(src, 'genes/hgnc_complete_set.test.txt'), `${HGNC_HEADER.join('\t')}\n${HGNC_ROW.join('\t')}\n`);
  await writeFile(join(src, 'gencode.v99.annotation.gtf'), `${GTF}\n`);
  await writeFile(
    join(src, 'clinvar_20990101.GRCh38.vcf'),
    [
      '##fileformat=VCFv4.1',
      '##fileDate=2099-01-01',
      '##reference=GRCh38',
      '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO',
      '1\t1055\t424242\tG\tC\t.\t.\tCLNSIG=Pathogenic;CLNREVSTAT=criteria_provided,_multiple_submitters,_no_conflicts;CLNDN=Test_syndrome|not_provided;GENEINFO=TESTG:999001',
    ].join('\n') + '\n',
  );
  await writeFile(
    join(src, 'gnomad.genomes.v4.1.sites.chr1.vcf'),
    ['##fileformat=VCFv4.2', '##reference=GRCh38', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO', 'chr1\t1300\t.\tC\tT,G\t.\tPASS\tAF=0.2,0.001;AF_grpmax=0.25,0.002'].join('\n') + '\n',
  );
  const seq = chr1();
  const lines = seq.match(/.{1,60}/g)!;
  await writeFile(join(src, 'GRCh38.test.fa'), `>chr1\n${lines.join('\n')}\n`);
  await writeFile(join(src, 'GRCh38.test.fa.fai'), `chr1\t${seq.length}\t6\t60\t61\n`);
  manifest = await buildKb({ sourcesDir: src, outDir: join(dir, 'kb'), steps: [genomicStep()] });
  kb = await loadGenomeKb(join(dir, 'kb'));
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('official-release formats', () => {
  it('reads GENCODE GTF exons/CDS/stop_codon into a model whose CDS includes the stop codon, MANE tagged', () => {
    const m = kb.transcripts.get('ENST09990001')!;
    expect(m.tx).toMatchObject({ gene: 'TESTG', strand: 1, start: 1000, end: 1500, cdsStart: 1050, cdsEnd: 1451, mane: 'select' });
    expect(m.cdsLength).toBe(201);
    expect(manifest.sources.find((s) => s.name === 'transcripts-grch38')?.path).toBe('gencode.v99.annotation.gtf');
  });

  it('reads GFF3 (Parent=transcript:..., gene_name=) the same way', async () => {
    const gff = join(dir, 'test.gff3');
    const attrs = 'Parent=transcript:ENST09990001.1;gene_name=TESTG;tag=basic,MANE_Select';
    await writeFile(
      gff,
      ['##gff-version 3', `chr1\tX\texon\t1001\t1100\t.\t+\t.\t${attrs}`, `chr1\tX\texon\t1201\t1300\t.\t+\t.\t${attrs}`, `chr1\tX\tCDS\t1051\t1100\t.\t+\t0\t${attrs}`, `chr1\tX\tCDS\t1201\t1250\t.\t+\t0\t${attrs}`].join('\n'),
    );
    const hg = await writeFile(join(dir, 'hgnc.txt'), `${HGNC_HEADER.join('\t')}\n${HGNC_ROW.join('\t')}\n`).then(() => readHgnc({ name: 'hgnc', path: join(dir, 'hgnc.txt'), rel: 'hgnc.txt' }));
    const r = await readGtfOrGff({ name: 'transcripts-grch38', path: gff, rel: 'test.gff3' }, hg.state);
    expect(r.transcripts).toHaveLength(1);
    expect(r.transcripts[0]).toMatchObject({ id: 'ENST09990001.1', gene: 'TESTG', cdsStart: 1050, cdsEnd: 1250, mane: 'select' });
  });

  it('uses a configured reference FASTA for codon-level consequences and HGVS p.', () => {
    const a = createAnnotator(kb);
    expect(a.sequenceSource).toBe('fasta');
    // Codon 2 CGA -> CCA (Pro).
    const v = a.annotate({ chrom: '1', pos: 1055, ref: 'G', alt: 'C' });
    expect(v.consequences).toEqual(['missense_variant']);
    expect(v.hgvsC).toBe('ENST09990001.1:c.5G>C');
    expect(v.hgvsP).toBe('p.(Arg2Pro)');
    expect(v.clinvar).toMatchObject({ significance: 'Pathogenic', stars: 2, match: 'exact', conditions: ['Test syndrome'] });
    a.close();
  });

  it('BA1 (Richards 2015): a gnomAD sites AF above 5% makes the variant Benign; PM2 applies where the covered chromosome lacks the allele', () => {
    const a = createAnnotator(kb);
    const common = a.annotate({ chrom: '1', pos: 1300, ref: 'C', alt: 'T' });
    expect(common.af).toBeCloseTo(0.25, 5);
    expect(common.acmg.classification).toBe('Benign');
    const absent = a.annotate({ chrom: '1', pos: 1210, ref: 'A', alt: 'G' });
    expect(absent.af).toBeNull();
    expect(absent.acmg.criteria.map((c) => c.code)).toContain('PM2_Supporting');
    // Chromosome 2 is not in the sites file: absence says nothing there.
    const elsewhere = a.annotate({ chrom: '2', pos: 5000, ref: 'A', alt: 'G' });
    expect(elsewhere.acmg.notAssessed?.map((n) => n.code)).toContain('PM2/BA1/BS1');
    a.close();
  });

  it('records the optional sources it used and reports the ones it did not find', () => {
    const names = manifest.sources.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['hgnc', 'transcripts-grch38', 'clinvar-grch38', 'gnomad-sites', 'reference-fasta']));
    expect(manifest.missing.map((m) => m.name)).toEqual(expect.arrayContaining(['mane-summary', 'intervar-ps1', 'clinvar-grch37']));
  });

  it('names the file and line of a malformed source record (wrong column count, non-numeric field)', async () => {
    const hg = await readHgnc({ name: 'hgnc', path: join(dir, 'sources/genes/hgnc_complete_set.test.txt'), rel: 'genes/hgnc_complete_set.test.txt' });
    const bed = join(dir, 'bad.bed12');
    await writeFile(bed, 'chr1\t1000\t1500\tNM_999001\t0\t+\t1050\t1451\t0\t1\t500,\t0,\nchr1\t1000\t1500\tNM_999001\t0\t+\t1050\n');
    const e1 = await readBed12({ name: 'transcripts-grch38', path: bed, rel: 'bad.bed12' }, hg.state, 'GRCh38').catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(KbSourceError);
    expect((e1 as Error).message).toBe('bad.bed12:2: expected at least 12 tab-separated columns, found 7');
    const vcf = join(dir, 'bad.clinvar.vcf');
    await writeFile(vcf, '##fileformat=VCFv4.1\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n1\tx12\t1\tA\tG\t.\t.\tCLNSIG=Benign\n');
    const e2 = await readClinvarVcf({ name: 'clinvar-grch38', path: vcf, rel: 'bad.clinvar.vcf' }, 'GRCh38', null).catch((e: unknown) => e);
    expect((e2 as Error).message).toBe("bad.clinvar.vcf:3: field POS: expected an integer, got 'x12'");
  });
});
