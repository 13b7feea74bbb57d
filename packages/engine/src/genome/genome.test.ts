import { existsSync, readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssemblyConflictError, detectAssembly, detectAssemblyWithEvidence, parseStructuredMeta } from './assembly.ts';
import { assemblyOfContigAlias, normalizeContig, refseqAccession } from './contigs.ts';
import { buildFai, openFasta, parseFai } from './fasta.ts';

const SOURCES = process.env.RARELENS_SOURCES ?? resolve(import.meta.dirname, '../../../../../shared/data');

describe('normalizeContig', () => {
  it('maps UCSC, Ensembl, RefSeq and GenBank names of a primary contig to one name', () => {
    for (const n of ['chr1', '1', 'NC_000001.11', 'NC_000001.10', 'CM000663.2', 'CM000663.1']) expect(normalizeContig(n)).toBe('1');
    for (const n of ['chrM', 'MT', 'chrMT', 'NC_012920.1', 'M']) expect(normalizeContig(n)).toBe('MT');
    expect(normalizeContig('chrX')).toBe('X');
    expect(normalizeContig('NC_000023.11')).toBe('X');
  });

  it('names UCSC scaffolds and alt contigs by their GenBank accession, like Ensembl and NCBI', () => {
    expect(normalizeContig('chr1_KI270706v1_random')).toBe('KI270706.1');
    expect(normalizeContig('chrUn_gl000225')).toBe('GL000225.1');
    expect(normalizeContig('chr14_GL000225v1_random')).toBe('GL000225.1');
    expect(normalizeContig('chr1_gl000191_random')).toBe('GL000191.1');
    expect(normalizeContig('chr1_KI270766v1_alt')).toBe('KI270766.1');
    expect(normalizeContig('GL000192.1')).toBe('GL000192.1');
  });

  it('keeps other contigs, dropping only the chr prefix', () => {
    expect(normalizeContig('chr6_apd_hap1')).toBe('6_apd_hap1');
    expect(normalizeContig('chrEBV')).toBe('EBV');
    expect(normalizeContig('HLA-A*01:01:01:01')).toBe('HLA-A*01:01:01:01');
  });

  it('knows which assembly a versioned accession pins down', () => {
    expect(assemblyOfContigAlias('NC_000010.11')).toBe('GRCh38');
    expect(assemblyOfContigAlias('NC_000010.10')).toBe('GRCh37');
    expect(assemblyOfContigAlias('chr10')).toBeNull();
    expect(refseqAccession('chr10', 'GRCh38')).toBe('NC_000010.11');
    expect(refseqAccession('X', 'GRCh37')).toBe('NC_000023.10');
  });
});

describe('detectAssembly', () => {
  it('detects GRCh37 from b37 contig lengths', () => {
    expect(detectAssembly(['##fileformat=VCFv4.2', '##contig=<ID=1,length=249250621>', '##contig=<ID=MT,length=16569>'])).toBe('GRCh37');
  });

  it('detects GRCh38 from chr-prefixed contig lengths', () => {
    expect(detectAssembly(['##contig=<ID=chr21,length=46709983>'])).toBe('GRCh38');
  });

  it('detects from ##reference names when contigs carry no lengths', () => {
    expect(detectAssembly(['##reference=file:///ref/human_g1k_v37.fasta', '##contig=<ID=1>'])).toBe('GRCh37');
    expect(detectAssembly(['##reference=hg38'])).toBe('GRCh38');
    expect(detectAssembly(['##reference=GCA_000001405.15_GRCh38_no_alt_analysis_set.fna'])).toBe('GRCh38');
    expect(detectAssembly(['##assembly=GRCh37'])).toBe('GRCh37');
  });

  it('returns null (ask the user) when the header has no evidence, never a default', () => {
    expect(detectAssembly(['##fileformat=VCFv4.2', '##contig=<ID=1>', '##contig=<ID=MT,length=16569>'])).toBeNull();
  });

  it('throws when the header mixes GRCh37 and GRCh38 contigs', () => {
    const lines = ['##contig=<ID=1,length=249250621>', '##contig=<ID=2,length=242193529>'];
    expect(() => detectAssembly(lines)).toThrow(AssemblyConflictError);
    expect(() => detectAssembly(lines)).toThrow(/GRCh37 from ##contig 1 length=249250621.*GRCh38 from ##contig 2/);
  });

  it('throws when ##reference contradicts the contig lengths', () => {
    expect(() => detectAssembly(['##reference=hg19.fa', '##contig=<ID=chr1,length=248956422>'])).toThrow(AssemblyConflictError);
  });

  it('accepts a parsed header object', () => {
    expect(detectAssembly({ meta: ['##contig=<ID=chrX,length=156040895>'] })).toBe('GRCh38');
  });

  it('lists the evidence it used', () => {
    const d = detectAssemblyWithEvidence(['##contig=<ID=1,assembly=b37,length=249250621>']);
    expect(d.assembly).toBe('GRCh37');
    expect(d.evidence.map((e) => e.source)).toEqual(['##contig 1 length=249250621', '##contig 1 assembly=b37']);
  });

  it('parses quoted values in structured meta lines', () => {
    const m = parseStructuredMeta('<ID=CSQ,Number=.,Type=String,Description="Consequence, from VEP. Format: A|B">');
    expect(m.get('Description')).toBe('Consequence, from VEP. Format: A|B');
    expect(m.get('Type')).toBe('String');
  });
});

describe.runIf(existsSync(join(SOURCES, 'reads/demo20.hg19_chr20_excerpt.fa')))('IndexedFasta on the hg19 excerpts', () => {
  const demo = join(SOURCES, 'reads/demo20.hg19_chr20_excerpt.fa');
  const chrM = join(SOURCES, 'reads/chrM_hg19.fa');
  const plain = (path: string): string =>
    readFileSync(path, 'latin1').split('\n').filter((l) => !l.startsWith('>')).join('').toUpperCase();

  it('returns the same bases as a whole-file read, across line and block boundaries', async () => {
    const fa = await openFasta(demo);
    const all = plain(demo);
    expect(fa.contigLength('demo20')).toBe(5000);
    expect(all.length).toBe(5000);
    for (const [s, e] of [[0, 10], [55, 65], [59, 61], [4990, 5000], [1234, 3456]] as const) {
      expect(await fa.getSequence('demo20', s, e)).toBe(all.slice(s, e));
    }
    expect(await fa.getSequence('demo20', 4995, 6000)).toBe(all.slice(4995));
    await fa.close();
  });

  it('finds chrM by its canonical name MT and reads 16,571 bp', async () => {
    const fa = await openFasta(chrM);
    expect(fa.contigLength('MT')).toBe(16571);
    const all = plain(chrM);
    expect(await fa.getSequence('MT', 16000, 16571)).toBe(all.slice(16000));
    expect(await fa.getSequence('chrM', 0, 5)).toBe('GATCA');
    await fa.close();
  });

  it('builds the same index as samtools faidx when the .fai is missing', async () => {
    const built = await buildFai(chrM);
    expect(built).toEqual(parseFai(readFileSync(`${chrM}.fai`, 'utf8'), 'chrM.fai'));
  });

  it('rejects a file that is not FASTA', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-'));
    const p = join(dir, 'x.fa');
    writeFileSync(p, 'ACGT\nACGT\n');
    await expect(openFasta(p)).rejects.toThrow(/not a FASTA file/);
  });
});
