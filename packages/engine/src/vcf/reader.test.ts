import { createReadStream, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../liftover/chain.ts';
import { InMemorySequence } from '../genome/fasta.ts';
import { AssemblyRequiredError, UnknownSampleError, VcfParseError } from './errors.ts';
import { decodeBlock, describeLiftFailures, liftFailuresByReason, readVcf, type ReadVcfOptions } from './reader.ts';
import type { VcfVariant } from './variant.ts';

const FIX = resolve(import.meta.dirname, '../../test/fixtures/vcf');
const fx = (name: string): string => resolve(FIX, name);

async function readAll(name: string, opts: ReadVcfOptions = {}): Promise<{ variants: VcfVariant[]; reader: Awaited<ReturnType<typeof readVcf>> }> {
  const reader = await readVcf(fx(name), opts);
  return { variants: await reader.toArray(), reader };
}
const key = (v: VcfVariant): string => `${v.chrom}:${v.pos}:${v.ref}>${v.alt}`;

describe('readVcf: header, assembly and contigs', () => {
  it('reads a chr-prefixed GRCh38 file, normalising contig names and keeping FILTER and no-calls', async () => {
    const { variants, reader } = await readAll('grch38.chr.vcf');
    expect(reader.assembly).toBe('GRCh38');
    expect(reader.sample).toBe('S1');
    expect(variants.map(key)).toEqual(['1:1000000:A>G', '10:121496701:T>G', 'X:2000000:C>T', 'MT:3243:A>G']);
    expect(variants[2]!.filter).toEqual(['LowQual']);
    expect(variants[2]!.genotype).toEqual({ gt: '1', zygosity: 'hemizygous', depth: 5, genotypeQuality: 12, alleleDepths: [0, 5] });
    expect(variants[3]!.genotype.zygosity).toBe('no_call');
    expect(variants[0]!.input).toEqual({ chrom: 'chr1', pos: 1000000, ref: 'A', alt: 'G', line: 13 });
    expect(variants[0]!.id).toBe('rs1');
    expect(variants[0]!.qual).toBe(50);
  });

  it('gives the same variants for chr1-style and 1-style contig names', async () => {
    const a = await readAll('grch38.chr.vcf');
    const b = await readAll('grch38.nochr.vcf');
    expect(b.variants.map(key)).toEqual(a.variants.map(key));
    expect(b.variants.map((v) => v.genotype)).toEqual(a.variants.map((v) => v.genotype));
  });

  it('detects GRCh37 from contig lengths', async () => {
    const { reader } = await readAll('grch37.vcf');
    expect(reader.assembly).toBe('GRCh37');
    expect(reader.outputAssembly).toBe('GRCh37');
  });

  it('asks for the assembly when the header is silent, and uses the one given', async () => {
    await expect(readVcf(fx('no-assembly.vcf'))).rejects.toBeInstanceOf(AssemblyRequiredError);
    const { variants, reader } = await readAll('no-assembly.vcf', { assembly: 'GRCh38' });
    expect(reader.assembly).toBe('GRCh38');
    expect(variants).toHaveLength(1);
  });

  it('rejects an assembly that contradicts the header', async () => {
    await expect(readVcf(fx('grch37.vcf'), { assembly: 'GRCh38' })).rejects.toThrow(/GRCh38 was given but the header says GRCh37/);
  });

  it('accepts a file whose only header line is #CHROM, with a warning', async () => {
    const { variants, reader } = await readAll('no-meta.vcf', { assembly: 'GRCh37' });
    expect(reader.header.warnings).toEqual(['no ##fileformat line; reading as VCF 4.2']);
    expect(variants.map(key)).toEqual(['1:100:A>C']);
  });

  it('ignores a UTF-8 byte-order mark', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(fx('grch37.vcf'))]);
    const r = await readVcf(Readable.from([bytes]), { name: 'bom.vcf' });
    expect((await r.toArray()).map(key)).toEqual(['10:123256215:T>G', '1:1000000:A>G']);
  });

  it('reads CRLF files like LF files', async () => {
    const { variants } = await readAll('crlf.vcf');
    expect(variants.map(key)).toEqual(['1:100:A>C', '1:200:G>GA']);
    expect(variants[1]!.genotype).toEqual({ gt: '1/1', zygosity: 'homozygous', depth: 9 });
  });

  it('reads gzip and BGZF files (detected by magic bytes) like the plain file', async () => {
    const plain = (await readAll('grch37.vcf')).variants.map(key);
    const gz = await readAll('grch37.vcf.gz');
    const bgzf = await readAll('grch37.bgzf.vcf.gz');
    expect(gz.reader.compression).toBe('gzip');
    expect(bgzf.reader.compression).toBe('bgzf');
    expect(gz.variants.map(key)).toEqual(plain);
    expect(bgzf.variants.map(key)).toEqual(plain);
  });

  it('parses typed INFO definitions with their Number', async () => {
    const { reader } = await readAll('multiallelic.vcf');
    expect(reader.header.info.get('AC')).toMatchObject({ number: 'A', type: 'Integer' });
    expect(reader.header.info.get('ADR')).toMatchObject({ number: 'R', type: 'Integer' });
    expect(reader.header.info.get('DB')).toMatchObject({ number: 0, type: 'Flag' });
  });
});

describe('readVcf: alleles and genotypes', () => {
  it('splits a multi-allelic record into trimmed alleles with per-allele INFO and zygosity', async () => {
    const { variants } = await readAll('multiallelic.vcf');
    const [del2, del1] = variants;
    // ATT>A stays; ATT>AT trims to AT>A (common suffix T).
    expect(key(del2!)).toBe('1:1000:ATT>A');
    expect(key(del1!)).toBe('1:1000:AT>A');
    expect(del2!.input).toMatchObject({ ref: 'ATT', alt: 'A', line: 16 });
    expect(del1!.input).toMatchObject({ ref: 'ATT', alt: 'AT', line: 16 });
    expect(del2!.genotype).toMatchObject({ gt: '1/2', zygosity: 'heterozygous', alleleDepths: [3, 10] });
    expect(del1!.genotype).toMatchObject({ gt: '1/2', zygosity: 'heterozygous', alleleDepths: [3, 12] });
    expect(del1!.info('AC')).toBe(1);
    expect(del1!.info('ADR')).toEqual([3, 12]);
    expect(del1!.info('DB')).toBe(true);
    expect(del1!.info('NOPE')).toBeUndefined();
  });

  it('takes population AF from gnomAD_AF per allele and never from the caller AF', async () => {
    const { variants } = await readAll('multiallelic.vcf');
    expect(variants[0]!.populationFrequency()).toEqual({ af: 0.01, source: 'gnomAD_AF', all: { gnomAD_AF: 0.01 } });
    expect(variants[1]!.populationFrequency()?.af).toBe(0.2);
    // Record 2 has only the caller's AF: no population frequency.
    const c = variants.find((v) => v.pos === 2000 && v.alt === 'T')!;
    expect(c.info('AF')).toBe(1);
    expect(c.populationFrequency()).toBeNull();
  });

  it('skips and counts * alleles; a 2/2 genotype is reference for allele 1', async () => {
    const { variants, reader } = await readAll('multiallelic.vcf');
    expect(variants.filter((v) => v.pos === 2000).map((v) => v.alt)).toEqual(['T', 'G']);
    expect(reader.summary.skippedStar).toBe(1);
    const site3 = variants.filter((v) => v.pos === 3000);
    expect(site3.map((v) => [v.alt, v.genotype.zygosity])).toEqual([['A', 'reference'], ['C', 'homozygous']]);
    expect(reader.summary).toMatchObject({ records: 3, alleles: 6 });
  });

  it('skips gVCF reference blocks and <NON_REF> alleles, counting both', async () => {
    const { variants, reader } = await readAll('gvcf.g.vcf');
    expect(variants.map(key)).toEqual(['1:200:C>T', '1:501:TA>T']);
    expect(reader.summary).toMatchObject({ records: 4, alleles: 2, skippedRefBlocks: 2, skippedNonRef: 2 });
    expect(variants[0]!.genotype.alleleDepths).toEqual([10, 12]);
  });

  it('reports the first sample by default and another sample when asked', async () => {
    const child = (await readAll('trio.vcf')).variants;
    expect(child.map((v) => v.genotype.zygosity)).toEqual(['heterozygous', 'homozygous', 'hemizygous']);
    const father = await readAll('trio.vcf', { sample: 'father' });
    expect(father.reader.sample).toBe('father');
    expect(father.variants.map((v) => v.genotype.gt)).toEqual(['0/0', '0/1', '0']);
    expect(father.variants.map((v) => v.genotype.zygosity)).toEqual(['reference', 'heterozygous', 'reference']);
    const mother = await readAll('trio.vcf', { sample: 'mother' });
    expect(mother.variants.map((v) => v.genotype.depth)).toEqual([22, 19, 20]);
  });

  it('gives every sample\'s GT for family analysis, whichever sample is chosen', async () => {
    const { variants } = await readAll('trio.vcf', { sample: 'mother' });
    expect(variants.map((v) => v.record.sampleGenotypes())).toEqual([
      ['0/1', '0/0', '0/1'],
      ['1/1', '0/1', '0/1'],
      ['1', '0', '0/1'],
    ]);
    expect(variants[0]!.record.lineText.split('\t')).toHaveLength(12);
  });

  it('names the samples when the requested one is unknown', async () => {
    await expect(readVcf(fx('trio.vcf'), { sample: 'proband' })).rejects.toBeInstanceOf(UnknownSampleError);
    await expect(readVcf(fx('trio.vcf'), { sample: 'proband' })).rejects.toThrow(/samples: child, father, mother/);
  });

  it('keeps symbolic and breakend alleles as structural records', async () => {
    const { variants, reader } = await readAll('structural.vcf');
    expect(variants.map((v) => [v.alt, v.isStructural, v.svType])).toEqual([
      ['<DEL>', true, 'DEL'],
      ['G]chr10:500000]', true, 'BND'],
    ]);
    expect(variants[0]!.info('END')).toBe(20000);
    expect(reader.summary.structural).toBe(2);
  });
});

describe('readVcf: valid files of the VCF specification are read', () => {
  it('reads POS 0 telomere records, single breakends, infinite/NaN QUAL, a per-allele Flag and VCF 4.5 local-allele numbers', async () => {
    const { variants, reader } = await readAll('spec-edge-cases.vcf');
    // POS 0 has no base to annotate: counted, not a failure.
    expect(reader.summary.skippedTelomere).toBe(1);
    expect(variants.map(key)).toEqual(['2:1000:G>A', '2:2000:T>.T', '2:3000:C>C.', '2:4000:A>G']);
    // Single breakends (.T, C.) are structural alleles, like <DEL> or mate breakends.
    expect(reader.summary.structural).toBe(2);
    expect(variants.map((v) => v.qual)).toEqual([null, null, null, null]);
    expect(reader.header.info.get('SOMATIC')).toMatchObject({ type: 'Flag', number: 0 });
    expect(reader.header.format.get('LAD')?.number).toBe('LA');
    expect(reader.header.warnings.some((w) => w.includes('SOMATIC is a Flag with Number=A'))).toBe(true);
    expect(variants[0]!.genotype.zygosity).toBe('heterozygous');
  });

  it('still rejects a Flag declared with a non-zero integer Number, naming the line', async () => {
    const text = '##fileformat=VCFv4.3\n##INFO=<ID=DB,Number=1,Type=Flag,Description="x">\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n';
    await expect(readVcf(Readable.from([Buffer.from(text)]), { name: 'flag.vcf', assembly: 'GRCh38' })).rejects.toThrow('flag.vcf:2: bad header: ##INFO DB is a Flag but has Number=1 (must be 0)');
  });

  it('rejects QUAL that is not a number, Inf or NaN', async () => {
    const text = '##fileformat=VCFv4.3\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n1\t10\t.\tA\tG\tInfinite\tPASS\t.\n';
    const reader = await readVcf(Readable.from([Buffer.from(text)]), { name: 'qual.vcf', assembly: 'GRCh38' });
    await expect(reader.toArray()).rejects.toThrow('qual.vcf:3: bad QUAL "Infinite"');
  });
});

describe('readVcf: mitochondrial heteroplasmy', () => {
  const mito = (format: string, ...samples: string[]): string =>
    '##fileformat=VCFv4.3\n##contig=<ID=chrM,length=16569>\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1\n' +
    samples.map((s, i) => `chrM\t${3243 + i}\t.\tA\tG,T\t50\tPASS\t.\t${format}\t${s}\n`).join('') +
    '1\t1000\t.\tA\tG\t50\tPASS\t.\tGT:AF\t0/1:0.3\n';
  const read = async (text: string) => (await readVcf(Readable.from([Buffer.from(text)]), { name: 'mito.vcf', assembly: 'GRCh38' })).toArray();

  it('reads the fraction of each allele from FORMAT AF, else from AD over all reads; nuclear records get none', async () => {
    const vs = await read(mito('GT:AD:AF', '0/1:60,30,10:0.31,0.09', '1:0,98,2:.', '1'));
    expect(vs.map((v) => [v.chrom, v.alt, v.genotype.heteroplasmy])).toEqual([
      ['MT', 'G', 0.31], ['MT', 'T', 0.09],
      ['MT', 'G', 0.98], ['MT', 'T', 0.02],
      ['MT', 'G', undefined], ['MT', 'T', undefined],
      ['1', 'G', undefined],
    ]);
  });

  it('reads AF when it is the only field beside GT', async () => {
    const vs = await read(mito('GT:AF', '1:0.97,.'));
    expect(vs.map((v) => v.genotype.heteroplasmy)).toEqual([0.97, undefined, undefined]);
  });

  it('rejects an AF that is not a fraction, naming the line and field', async () => {
    await expect(read(mito('GT:AF', '1:1.5,0'))).rejects.toThrow('mito.vcf:4: bad FORMAT AF "1.5" for ALT 1: must be an allele fraction between 0 and 1');
  });
});

describe('readVcf: CSQ and ANN annotations', () => {
  it('parses VEP CSQ per allele, with MANE, HGVS without the transcript prefix and population AF', async () => {
    const { variants } = await readAll('vep-csq.vcf');
    const fgfr2 = variants[0]!;
    const ann = fgfr2.annotations();
    expect(ann).toHaveLength(2);
    expect(ann[0]).toMatchObject({
      source: 'vep', gene: 'FGFR2', transcript: 'ENST00000358487.10', consequences: ['missense_variant'], impact: 'MODERATE',
      hgvsC: 'c.1019A>C', hgvsP: 'p.Tyr340Ser', isManeSelect: true, maneSelectId: 'NM_000141.5', isCanonical: true, exon: '8/18',
    });
    expect(ann[1]!.isManeSelect).toBe(false);
    expect(fgfr2.populationFrequency()).toMatchObject({ af: 0.00002, source: 'CSQ:MAX_AF' });
  });

  it('matches VEP alleles of a multi-allelic deletion ("-" and trimmed bases) to the right ALT', async () => {
    const { variants } = await readAll('vep-csq.vcf');
    const [a1, a2] = variants.filter((v) => v.pos === 1000 || v.input.pos === 1000);
    expect(a1!.annotations().map((a) => a.hgvsC)).toEqual(['c.10_11del']);
    expect(a2!.annotations().map((a) => a.hgvsC)).toEqual(['c.11del']);
    expect(a1!.populationFrequency()?.af).toBe(0.4);
    expect(a2!.populationFrequency()?.af).toBe(0.002);
  });

  it('decodes VEP percent-escapes in HGVS p.', async () => {
    const { variants } = await readAll('vep-csq.vcf');
    expect(variants.at(-1)!.annotations()[0]!.hgvsP).toBe('p.Leu10=');
  });

  it('parses SnpEff ANN per allele', async () => {
    const { variants } = await readAll('snpeff-ann.vcf');
    const [a, t] = variants;
    expect(a!.annotations().map((x) => [x.gene, x.consequences[0], x.impact, x.hgvsP])).toEqual([
      ['GENE2', 'stop_gained', 'HIGH', 'p.Gln34*'],
      ['GENE3', 'intron_variant', 'MODIFIER', null],
    ]);
    expect(a!.annotations()[1]!.intron).toBe('2/3');
    expect(t!.annotations().map((x) => x.hgvsC)).toEqual(['c.100C>A']);
  });
});

describe('readVcf: malformed input gives an error naming the file, line and reason', () => {
  it('wrong column count', async () => {
    const r = await readVcf(fx('wrong-columns.vcf'));
    const err = await r.toArray().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VcfParseError);
    expect(err).toMatchObject({ line: 9 });
    expect((err as Error).message).toMatch(/wrong-columns\.vcf:9: wrong column count: 1 tab-separated columns, expected 10/);
  });

  it('collects errors instead of failing when asked, still yielding the good records', async () => {
    const r = await readVcf(fx('wrong-columns.vcf'), { collectErrors: true });
    const vs = await r.toArray();
    expect(vs.map(key)).toEqual(['1:100:A>C']);
    expect(r.summary.errors.map((e) => e.line)).toEqual([9]);
  });

  it('gives up after maxErrors malformed lines even when collecting', async () => {
    const lines = ['##fileformat=VCFv4.2', '##contig=<ID=1,length=249250621>', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO'];
    for (let i = 0; i < 5; i++) lines.push(`1\tx${i}\t.\tA\tC\t.\t.\t.`);
    const r = await readVcf(Readable.from([Buffer.from(lines.join('\n'))]), { collectErrors: true, maxErrors: 3, name: 'bad.vcf' });
    await expect(r.toArray()).rejects.toThrow(/bad\.vcf:7: more than 3 malformed lines; giving up \(first: bad\.vcf:4: bad POS "x0"/);
  });

  it('bad POS', async () => {
    const r = await readVcf(fx('bad-pos.vcf'));
    await expect(r.toArray()).rejects.toThrow(/bad-pos\.vcf:8: bad POS "1o0"/);
  });

  it('bad header', async () => {
    await expect(readVcf(fx('bad-header.vcf'))).rejects.toThrow(/bad-header\.vcf:6: bad header: ##INFO XX has Type=Strng/);
  });

  it('missing header', async () => {
    await expect(readVcf(fx('missing-header.vcf'))).rejects.toThrow(/missing-header\.vcf:1: missing header: data before the #CHROM line/);
  });

  it('non-VCF file', async () => {
    await expect(readVcf(fx('not-a-vcf.bed'))).rejects.toThrow(/not-a-vcf\.bed:1: not a VCF file/);
  });

  it('truncated gzip', async () => {
    const r = await readVcf(fx('truncated.vcf.gz')).catch((e: unknown) => e);
    const err = r instanceof VcfParseError ? r : await (r as Awaited<ReturnType<typeof readVcf>>).toArray().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VcfParseError);
    expect((err as Error).message).toMatch(/truncated\.vcf\.gz: corrupt or truncated gzip data: unexpected end of file/);
  });

  it('mixed assemblies in the header contigs', async () => {
    await expect(readVcf(fx('mixed-assemblies.vcf'))).rejects.toThrow(/contigs from mixed assemblies.*GRCh37 from ##contig 1.*GRCh38 from ##contig 2/);
  });

  it('records beyond the end of a contig of the header assembly', async () => {
    const r = await readVcf(fx('mixed-records.vcf'));
    await expect(r.toArray()).rejects.toThrow(/mixed-records\.vcf:8: POS 249000000 is beyond the end of chr1 \(248956422 bp in GRCh38\)/);
  });
});

describe('readVcf: liftover and normalisation', () => {
  // Toy chain: GRCh37 chr10 123256000..123257000 -> GRCh38 chr10 121496486.. (the real offset
  // near FGFR2), chr1 0..2,000,000 on '+' with offset 0. Sizes are the real GRCh37/38 ones.
  const toy = parseChain(
    [
      'chain 100 chr10 135534747 + 123256000 123257000 chr10 133797422 + 121496486 121497486 1',
      '1000',
      '',
      'chain 100 chr1 249250621 + 0 2000000 chr1 248956422 + 0 2000000 2',
      '2000000',
      '',
    ].join('\n'),
    'toy.chain',
  );

  it('lifts GRCh37 records to GRCh38 and reports what fails to lift', async () => {
    const { variants, reader } = await readAll('grch37.vcf', { liftover: toy });
    expect(reader.outputAssembly).toBe('GRCh38');
    expect(variants.map(key)).toEqual(['10:121496701:T>G', '1:1000000:A>G']);
    expect(variants[0]!.input).toMatchObject({ chrom: '10', pos: 123256215 });
    expect(variants[0]!.lift).toEqual({ from: 'GRCh37', strand: '+' });
    expect(reader.summary.liftFailed).toEqual([]);
  });

  it('counts alleles outside the chain as lift failures with their line', async () => {
    const { variants, reader } = await readAll('multiallelic.vcf', { liftover: parseChain('chain 1 chr1 249250621 + 0 1500 chr1 248956422 + 0 1500 1\n1500\n', 't') });
    expect(variants.map((v) => v.pos)).toEqual([1000, 1000]);
    expect(reader.summary.liftFailed.map((f) => [f.line, f.alt, f.reason])).toEqual([
      [17, 'T', 'unmapped'], [17, 'G', 'unmapped'], [18, 'A', 'unmapped'], [18, 'C', 'unmapped'],
    ]);
  });

  it('counts hg19 chrM bases in 1-base chain gaps as unmapped, by reason, and names the first with its line', async () => {
    // hg19 chrM 150 and 195 (the NA12878 calls of the FASTQ demo) sit in 1-base gaps of the hg19->hg38 chain: the chain
    // aligns 1-149, 151-194 and 196-... to the rCRS; a 1-base chrM gap at 152 never occurs here.
    const chain = parseChain('chain 1 chrM 16571 + 0 300 chrM 16569 + 0 300 1\n149\t1\t1\n44\t1\t1\n105\n\n', 'm.chain');
    const text = '##fileformat=VCFv4.2\n##contig=<ID=chrM,length=16571>\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS\n' +
      ['150\tT\tC', '152\tT\tC', '195\tC\tT'].map((x) => `chrM\t${x.split('\t')[0]}\t.\t${x.split('\t')[1]}\t${x.split('\t')[2]}\t50\tPASS\t.\tGT:AD\t1:0,30`).join('\n') + '\n';
    const r = await readVcf(Readable.from([Buffer.from(text)]), { name: 'mito.vcf', assembly: 'GRCh37', liftover: chain });
    expect((await r.toArray()).map(key)).toEqual(['MT:152:T>C']);
    expect(r.summary.liftFailed.map((f) => [f.line, f.chrom, f.pos, f.reason])).toEqual([[4, 'chrM', 150, 'unmapped'], [6, 'chrM', 195, 'unmapped']]);
    expect(liftFailuresByReason(r.summary.liftFailed)).toEqual({ unmapped: 2 });
    expect(describeLiftFailures(r.summary.liftFailed)).toBe('failed to lift: 2 (unmapped 2); first: line 4 chrM:150 T>C: MT:150 is not covered by the chain (deleted or unaligned in the destination)');
    expect(describeLiftFailures([])).toBe('');
  });

  it('left-aligns indels against a reference and counts REF mismatches', async () => {
    // chr1 bases 1..12: A C G T T T T T A C G T ; an insertion of T after the run is moved to its start.
    const ref = new InMemorySequence({ '1': 'ACGTTTTTACGT'.padEnd(3000, 'A') });
    const text = '##fileformat=VCFv4.2\n##contig=<ID=1,length=249250621>\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n1\t8\t.\tT\tTT\t.\t.\t.\n1\t2\t.\tG\tA\t.\t.\t.\n';
    const r = await readVcf(Readable.from([Buffer.from(text)]), { reference: ref, name: 'mem.vcf' });
    const vs = await r.toArray();
    expect(vs.map(key)).toEqual(['1:3:G>GT', '1:2:G>A']);
    expect(r.summary.refMismatchCount).toBe(1);
    expect(r.summary.refMismatches[0]).toMatchObject({ line: 5, pos: 2, ref: 'G', reference: 'C' });
  });

  it('iterates variant by variant and can stop early', async () => {
    const r = await readVcf(fx('multiallelic.vcf'));
    const seen: string[] = [];
    for await (const v of r) {
      seen.push(key(v));
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['1:1000:ATT>A', '1:1000:AT>A', '1:2000:C>T']);
  });

  it('stops on abort', async () => {
    const ctl = new AbortController();
    const r = await readVcf(fx('grch38.chr.vcf'), { signal: ctl.signal });
    ctl.abort();
    await expect(r.toArray()).rejects.toThrow(/abort/i);
  });
});

describe('readVcf: gzip members and detached records', () => {
  it('reads every member of a multi-member gzip file', async () => {
    const text = readFileSync(fx('multiallelic.vcf'), 'utf8');
    const cut = text.indexOf('\n1\t2000');
    const twoMembers = Buffer.concat([gzipSync(text.slice(0, cut + 1)), gzipSync(text.slice(cut + 1))]);
    const r = await readVcf(Readable.from([twoMembers]), { name: 'two-members.vcf.gz' });
    expect(r.compression).toBe('gzip');
    const vs = await r.toArray();
    const plain = await (await readVcf(fx('multiallelic.vcf'))).toArray();
    expect(vs.map(key)).toEqual(plain.map(key));
  });

  it('detach() keeps every field of a variant while dropping the shared chunk', async () => {
    const { variants } = await readAll('vep-csq.vcf');
    for (const v of variants) {
      const d = v.detach();
      expect(key(d)).toBe(key(v));
      expect(d.input).toEqual(v.input);
      expect(d.filter).toEqual(v.filter);
      expect(d.qual).toBe(v.qual);
      expect(d.record.infoRaw).toBe(v.record.infoRaw);
      expect(d.record.sampleRaw).toBe(v.record.sampleRaw);
      expect(d.annotations()).toEqual(v.annotations());
      expect(d.populationFrequency()).toEqual(v.populationFrequency());
    }
  });
});

describe('streamed and in-memory parsing agree', () => {
  const files = ['multiallelic.vcf', 'gvcf.g.vcf', 'vep-csq.vcf', 'trio.vcf', 'crlf.vcf', 'grch37.bgzf.vcf.gz'];
  const snapshot = (vs: VcfVariant[]): unknown[] =>
    vs.map((v) => ({ k: key(v), g: v.genotype, f: v.filter, input: v.input, ann: v.annotations().map((a) => a.hgvsC), af: v.populationFrequency() }));

  for (const f of files) {
    it(`gives identical variants for ${f} read whole and in 1-byte chunks`, async () => {
      const whole = await readVcf(Readable.from([readFileSync(fx(f))]), { name: f });
      const chunked = await readVcf(createReadStream(fx(f), { highWaterMark: 1 }), { name: f });
      const a = snapshot(await whole.toArray());
      const b = snapshot(await chunked.toArray());
      expect(a.length).toBeGreaterThan(0);
      expect(b).toEqual(a);
      expect(chunked.summary).toEqual(whole.summary);
    });
  }
});

describe('readVcf: blocks parsed elsewhere (the annotate worker threads)', () => {
  /** Every variant of the file through textBlocks() of one reader and parseBlockEach() of another. */
  async function viaBlocks(name: string): Promise<{ variants: VcfVariant[]; counted: number; summary: ReturnType<typeof summaryOf> }> {
    const blocks = await readVcf(fx(name));
    const parser = await readVcf(fx(name));
    parser.close();
    const variants: VcfVariant[] = [];
    let counted = 0;
    for await (const b of blocks.textBlocks()) counted += parser.parseBlockEach(b.text, b.firstLine, (v) => variants.push(v));
    return { variants, counted, summary: summaryOf(parser) };
  }
  const summaryOf = (r: Awaited<ReturnType<typeof readVcf>>) => {
    const { records, alleles, skippedStar, skippedNonRef, skippedRefBlocks, skippedNoAlt, skippedTelomere, structural } = r.summary;
    return { records, alleles, skippedStar, skippedNonRef, skippedRefBlocks, skippedNoAlt, skippedTelomere, structural };
  };
  const fields = (v: VcfVariant) => ({ key: key(v), line: v.record.line, input: v.input, genotype: v.genotype, filter: v.filter, qual: v.qual, info: v.record.infoRaw });

  it('gives the variants, line numbers and counts of the in-process reader', async () => {
    for (const name of ['multiallelic.vcf', 'gvcf.g.vcf', 'spec-edge-cases.vcf', 'structural.vcf', 'vep-csq.vcf', 'crlf.vcf']) {
      const whole = await readAll(name);
      const blocks = await viaBlocks(name);
      expect(blocks.variants.map(fields), name).toEqual(whole.variants.map(fields));
      expect(blocks.counted, name).toBe(whole.variants.length);
      expect(blocks.summary, name).toEqual(summaryOf(whole.reader));
    }
  });

  it('parses a range of a block (from, to) as it parses that range cut out, line by line', async () => {
    for (const name of ['multiallelic.vcf', 'spec-edge-cases.vcf', 'crlf.vcf']) {
      const whole = await viaBlocks(name);
      const blocks = await readVcf(fx(name));
      const parser = await readVcf(fx(name));
      parser.close();
      const variants: VcfVariant[] = [];
      let counted = 0;
      for await (const b of blocks.textBlocks()) {
        // Each line on its own: a range ending at a line break, or at the next line's start, with text after it.
        let line = b.firstLine;
        for (let s = 0; s < b.text.length; line++) {
          const nl = b.text.indexOf('\n', s);
          const e = nl === -1 ? b.text.length : nl;
          counted += parser.parseBlockEach(b.text, line, (v) => variants.push(v), s, line % 2 === 0 ? e : Math.min(e + 1, b.text.length));
          s = e + 1;
        }
      }
      expect(variants.map(fields), name).toEqual(whole.variants.map(fields));
      expect(counted, name).toBe(whole.counted);
      expect(summaryOf(parser), name).toEqual(whole.summary);
    }
  });

  it('hands the next block only its own variants when a consumer threw in the middle of a multi-allelic line', async () => {
    const blocks = await readVcf(fx('multiallelic.vcf'));
    const parser = await readVcf(fx('multiallelic.vcf'));
    parser.close();
    const all: { text: string; firstLine: number }[] = [];
    for await (const block of blocks.textBlocks()) all.push(block);
    const b = all[0];
    const lines = b!.text.split('\n');
    // Line 1 (ALT A,AT) stops at its first variant; then line 3 (G>A,C) alone.
    const first = lines[0]!.length + 1;
    const third = first + lines[1]!.length + 1;
    expect(() => parser.parseBlockEach(b!.text, b!.firstLine, () => { throw new Error('consumer failed'); }, 0, first)).toThrow('consumer failed');
    const got: VcfVariant[] = [];
    expect(parser.parseBlockEach(b!.text, b!.firstLine + 2, (v) => got.push(v), third, third + lines[2]!.length)).toBe(2);
    expect(got.map((v) => [key(v), v.record.line])).toEqual([['1:3000:G>A', b!.firstLine + 2], ['1:3000:G>C', b!.firstLine + 2]]);
  });

  it('splits long multi-allelic ALTs as the in-process reader does', async () => {
    const long1 = `A${'C'.repeat(20)}`;
    const long2 = `A${'G'.repeat(15)}`;
    const text = ['##fileformat=VCFv4.2', '##contig=<ID=1,length=248956422>', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1',
      `1\t500\t.\tA\t${long1},T,${long2}\t50\tPASS\t.\tGT\t1/3`, `1\t600\t.\tAT\tA\t50\tPASS\t.\tGT\t0/1`, `1\t700\t.\tC\tG,${long1}\t.\tPASS\t.\tGT\t1/2`, ''].join('\n');
    const open = () => readVcf(Readable.from([Buffer.from(text)]), { name: 'long-alts.vcf', assembly: 'GRCh38' });
    const whole = await (await open()).toArray();
    const blocks = await open();
    const parser = await open();
    const got: VcfVariant[] = [];
    for await (const b of blocks.textBlocks()) parser.parseBlockEach(b.text, b.firstLine, (v) => got.push(v));
    expect(got.map(fields)).toEqual(whole.map(fields));
    expect(got.map((v) => v.input.alt)).toEqual([long1, 'T', long2, 'A', 'G', long1]);
  });

  /** The blocks of textBlocks() and of byteBlocks() (decoded) of two readers of the same input. */
  async function bothBlocks(open: () => ReturnType<typeof readVcf>): Promise<{ text: { text: string; firstLine: number; lines: number }[]; bytes: { text: string; firstLine: number; lines: number }[] }> {
    const text: { text: string; firstLine: number; lines: number }[] = [];
    for await (const b of (await open()).textBlocks()) text.push(b);
    const bytes: { text: string; firstLine: number; lines: number }[] = [];
    for await (const b of (await open()).byteBlocks()) bytes.push({ text: decodeBlock(b.bytes), firstLine: b.firstLine, lines: b.lines });
    return { text, bytes };
  }

  it('gives as bytes (byteBlocks) the lines and line numbers textBlocks gives as text', async () => {
    for (const name of ['multiallelic.vcf', 'spec-edge-cases.vcf', 'crlf.vcf', 'grch37.bgzf.vcf.gz']) {
      for (const highWaterMark of [undefined, 1, 7, 100]) {
        const { text, bytes } = await bothBlocks(() => readVcf(createReadStream(fx(name), { highWaterMark }), { name }));
        expect(text.length, name).toBeGreaterThan(0);
        expect(bytes, `${name} in chunks of ${highWaterMark ?? 'default'}`).toEqual(text);
      }
    }
  });

  it('gives UTF-8 text cut inside a character, in the header or after it, as textBlocks does', async () => {
    const text = ['##fileformat=VCFv4.2', '##source=Génome ñ', '##contig=<ID=1,length=248956422>', '##INFO=<ID=NOTE,Number=1,Type=String,Description="note">',
      '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1', `1\t500\t${'é'.repeat(30)}\tA\tT\t50\tPASS\tNOTE=é€😀\tGT\t0/1`, '1\t600\t.\tAT\tA\t50\tPASS\tNOTE=ß\tGT\t1/1', ''].join('\n');
    const all = Buffer.from(text);
    for (let size = 1; size <= 40; size++) {
      const chunks: Buffer[] = [];
      for (let k = 0; k < all.length; k += size) chunks.push(all.subarray(k, k + size));
      const { text: t, bytes } = await bothBlocks(() => readVcf(Readable.from(chunks), { name: 'utf8.vcf', assembly: 'GRCh38' }));
      expect(bytes, `chunks of ${size}`).toEqual(t);
      expect(bytes.map((b) => b.text).join(''), `chunks of ${size}`).toContain('NOTE=é€😀');
    }
  });

  it('reuses the memory alloc() gives for each block', async () => {
    const memory = new Uint8Array(1 << 16);
    const got: Uint8Array[] = [];
    for await (const b of (await readVcf(fx('multiallelic.vcf'))).byteBlocks((n) => (n <= memory.length ? memory : new Uint8Array(n)))) got.push(b.bytes);
    expect(got.length).toBeGreaterThan(0);
    for (const b of got) expect(b.buffer).toBe(memory.buffer);
  });

  it('stops at a malformed line with its line number', async () => {
    const err = await viaBlocks('wrong-columns.vcf').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VcfParseError);
    expect(err).toMatchObject({ line: 9 });
  });
});
