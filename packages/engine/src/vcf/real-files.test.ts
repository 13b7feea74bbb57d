// Real VCFs from ../shared/data (RARELENS_SOURCES): counts checked against the files themselves.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadChain, type LiftoverChain } from '../liftover/chain.ts';
import { VcfParseError } from './errors.ts';
import { readVcf } from './reader.ts';

const SOURCES = process.env.RARELENS_SOURCES ?? resolve(import.meta.dirname, '../../../../../shared/data');
const VCF = join(SOURCES, 'vcf');
const PFEIFFER = join(VCF, 'Pfeiffer.hg19.vcf.gz');

/** Data lines of a (b)gzipped VCF, counted independently of the reader. */
function dataLines(path: string): string[] {
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));
}

describe.runIf(existsSync(PFEIFFER))('real VCFs', () => {
  let chain: LiftoverChain;
  beforeAll(async () => {
    chain = await loadChain(join(SOURCES, 'liftover/hg19ToHg38.over.chain.gz'));
  });

  it('reads Pfeiffer (GRCh37, 37,709 records), lifts it and finds FGFR2 at GRCh38 10:121496701', async () => {
    const r = await readVcf(PFEIFFER, { liftover: chain });
    expect(r.assembly).toBe('GRCh37');
    expect(r.outputAssembly).toBe('GRCh38');
    const vs = await r.toArray();
    const s = r.summary;
    expect(s.records).toBe(37709);
    // Every allele is either yielded or listed as a lift failure.
    const alts = dataLines(PFEIFFER).reduce((n, l) => n + l.split('\t')[4]!.split(',').length, 0);
    expect(s.alleles + s.liftFailed.length + s.skippedStar + s.skippedNonRef).toBe(alts);
    expect(vs).toHaveLength(s.alleles);
    // Known GRCh37->GRCh38 liftOver losses on an exome are well under 1%.
    expect(s.liftFailed.length / alts).toBeLessThan(0.01);
    expect(s.liftFailed.every((f) => f.line > 0 && f.detail.length > 0)).toBe(true);
    const fgfr2 = vs.find((v) => v.input.chrom === '10' && v.input.pos === 123256215);
    expect(fgfr2).toMatchObject({ chrom: '10', pos: 121496701, ref: 'T', alt: 'G', assembly: 'GRCh38' });
    expect(fgfr2!.genotype.zygosity).toBe('heterozygous');
    expect(vs.every((v) => v.assembly === 'GRCh38')).toBe(true);
  });

  it('lifts Pfeiffer variants back to their GRCh37 records through the independent hg38ToHg19 chain', async () => {
    const back = await loadChain(join(SOURCES, 'liftover/hg38ToHg19.over.chain.gz'));
    const r = await readVcf(PFEIFFER, { liftover: chain, trim: false });
    const vs = await r.toArray();
    let same = 0;
    for (const v of vs) {
      const home = back.liftVariant(v);
      if (!('failed' in home) && home.chrom === v.input.chrom && home.pos === v.input.pos && home.ref === v.input.ref && home.alt === v.input.alt) same++;
    }
    expect(same / vs.length).toBeGreaterThan(0.99);
  });

  it('keeps b37 MT positions (rCRS) and lifts hg19 chrM (16,571 bp) through the chain', async () => {
    const vcf = (contigs: string, chrom: string): Readable =>
      Readable.from([Buffer.from(`##fileformat=VCFv4.2\n${contigs}\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n${chrom}\t3243\t.\tA\tG\t.\t.\t.\n`)]);
    const b37 = await readVcf(vcf('##contig=<ID=1,length=249250621>\n##contig=<ID=MT,length=16569>', 'MT'), { liftover: chain, name: 'b37.vcf' });
    expect((await b37.toArray()).map((v) => [v.chrom, v.pos])).toEqual([['MT', 3243]]);
    const hg19 = await readVcf(vcf('##contig=<ID=chr1,length=249250621>\n##contig=<ID=chrM,length=16571>', 'chrM'), { liftover: chain, name: 'hg19.vcf' });
    const [v] = await hg19.toArray();
    expect(v!.chrom).toBe('MT');
    expect(v!.pos).not.toBe(3243);
    expect(Math.abs(v!.pos - 3243)).toBeLessThanOrEqual(3);
  });

  it('reads PG NA12878 chr21 (GRCh38, chr names) with every ALT allele accounted for', async () => {
    const path = join(VCF, 'PG_NA12878_hg38-chr21.vcf.gz');
    const r = await readVcf(path);
    expect(r.assembly).toBe('GRCh38');
    const vs = await r.toArray();
    const lines = dataLines(path);
    expect(r.summary.records).toBe(lines.length);
    expect(lines.length).toBe(65370);
    const alts = lines.reduce((n, l) => n + l.split('\t')[4]!.split(',').length, 0);
    expect(r.summary.alleles).toBe(alts);
    expect(new Set(vs.map((v) => v.chrom))).toEqual(new Set(['21']));
    const zyg = new Set(vs.map((v) => v.genotype.zygosity));
    expect(zyg.has('heterozygous') && zyg.has('homozygous')).toBe(true);
  });

  it('reads the Ashkenazi trio for each sample with genotypes that differ between them', async () => {
    const path = join(VCF, 'ashk-trio.GIAB-AJ.exome.b37.head10k.vcf.gz');
    const son = await readVcf(path);
    expect(son.header.samples).toHaveLength(3);
    const sonVs = await son.toArray();
    const father = await readVcf(path, { sample: son.header.samples[1]! });
    const fatherVs = await father.toArray();
    expect(son.assembly).toBe('GRCh37');
    expect(sonVs.length).toBe(fatherVs.length);
    const differ = sonVs.filter((v, i) => v.genotype.gt !== fatherVs[i]!.genotype.gt).length;
    expect(differ).toBeGreaterThan(100);
    // The reader's GTs equal the file's column for that sample.
    const col = dataLines(path).map((l) => l.split('\t')[10]!.split(':')[0]);
    const firstAllele = fatherVs.filter((v) => v.altIndex === 1).map((v) => v.genotype.gt);
    expect(firstAllele.slice(0, 500)).toEqual(col.slice(0, 500));
  });

  it('reads the vembrane VEP fixture (CSQ-format data under INFO ANN)', async () => {
    const r = await readVcf(join(VCF, 'fixtures/vembrane.vep100.GRCh38.2rec.vcf.gz'));
    const vs = await r.toArray();
    expect(vs).toHaveLength(2);
    expect(r.header.annotations[0]).toMatchObject({ key: 'ANN', style: 'vep' });
    const anns = vs.flatMap((v) => v.annotations());
    expect(anns.length).toBeGreaterThan(0);
    expect(anns.every((a) => a.consequences.length > 0 && a.impact !== null)).toBe(true);
    expect(anns.some((a) => a.isManeSelect)).toBe(true);
  });

  it('reads the vembrane SnpEff fixture (ANN, two samples)', async () => {
    const r = await readVcf(join(VCF, 'fixtures/vembrane.snpeff4.3t.hg38.2samples.8rec.vcf.gz'), { assembly: 'GRCh38' });
    const vs = await r.toArray();
    expect(r.header.samples).toHaveLength(2);
    expect(r.header.annotations[0]).toMatchObject({ key: 'ANN', style: 'snpeff' });
    expect(vs.length).toBe(r.summary.alleles);
    expect(vs.every((v) => v.annotations().every((a) => a.source === 'snpeff' && a.allele === v.input.alt))).toBe(true);
    expect(vs.filter((v) => v.annotations().length > 0).length).toBeGreaterThan(0);
  });

  it('reads the vembrane Manta SV fixture, keeping symbolic and breakend alleles as structural records', async () => {
    const path = join(VCF, 'fixtures/vembrane.manta-sv.GRCh38.3samples.57rec.vcf.gz');
    const r = await readVcf(path);
    const vs = await r.toArray();
    expect(r.summary.records).toBe(57);
    expect(vs.length).toBe(57);
    const types = new Set(vs.map((v) => v.svType));
    expect(types.has('BND') && types.has('DEL')).toBe(true);
    expect(r.summary.structural).toBe(vs.filter((v) => v.isStructural).length);
  });

  it('fails a truncated real bgzip file with the line reached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trunc-'));
    const p = join(dir, 'cut.vcf.gz');
    const bytes = readFileSync(PFEIFFER);
    writeFileSync(p, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const r = await readVcf(p);
    const err = await r.toArray().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VcfParseError);
    expect((err as Error).message).toMatch(/corrupt or truncated gzip data: unexpected end of file \(after line \d{4,}\)/);
  });

  it.runIf(existsSync('/usr/bin/bcftools'))('splits multi-allelic records into the same alleles as bcftools norm -m-', async () => {
    const path = join(VCF, 'PG_NA12878_hg38-chr21.vcf.gz');
    const out = execFileSync('sh', ['-c', `bcftools norm -m- ${path} 2>/dev/null | grep -v '^#' | cut -f1,2,4,5`], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const theirs = out.trim().split('\n').map((l) => {
      const [c, p, ref, alt] = l.split('\t');
      return `${c}:${p}:${ref}>${alt}`;
    });
    const r = await readVcf(path, { trim: false });
    const ours = (await r.toArray()).map((v) => `${v.input.chrom}:${v.pos}:${v.ref}>${v.alt}`);
    expect(ours.length).toBeGreaterThan(65370);
    expect(ours).toEqual(theirs);
  });
});
