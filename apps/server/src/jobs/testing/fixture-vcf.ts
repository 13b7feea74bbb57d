/**
 * Builds VCF text for tests: a GRCh38 header (contig lengths, so the assembly is detected)
 * and `count` single-sample records spread over `genes`, with GENE/CSQ/AF/ACMG INFO fields
 * read by the fixture engine. Deterministic for a given input.
 */
export interface FixtureRecordSpec {
  gene: string;
  csq: string;
  af: number;
  acmg: string;
  gt: string;
}

export function buildFixtureVcf(
  count: number,
  genes: string[],
  special: Partial<Record<number, Partial<FixtureRecordSpec>>> = {},
  /** Every n-th record is common (AF 0.2); the others are rare. */
  commonEvery = 11,
): string {
  const lines = [
    '##fileformat=VCFv4.2',
    '##contig=<ID=chr1,length=248956422>',
    '##contig=<ID=chr2,length=242193529>',
    '##INFO=<ID=GENE,Number=1,Type=String,Description="Gene">',
    '##INFO=<ID=CSQ,Number=1,Type=String,Description="Consequence">',
    '##INFO=<ID=AF,Number=A,Type=Float,Description="Allele frequency">',
    '##INFO=<ID=ACMG,Number=1,Type=String,Description="ACMG class">',
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tPATIENT',
  ];
  const bases = ['A', 'C', 'G', 'T'];
  for (let i = 0; i < count; i++) {
    const s = special[i] ?? {};
    const gene = s.gene ?? genes[i % genes.length]!;
    const csq = s.csq ?? (i % 7 === 0 ? 'missense_variant' : 'synonymous_variant');
    const af = s.af ?? (i % commonEvery === 0 ? 0.2 : 0.0005);
    const acmg = s.acmg ?? (i % 5 === 0 ? 'Likely_benign' : 'Uncertain_significance');
    const gt = s.gt ?? (i % 4 === 0 ? '1/1' : '0/1');
    const ref = bases[i % 4]!;
    const alt = bases[(i + 1) % 4]!;
    lines.push(
      `chr1\t${1_000_000 + i * 10}\t.\t${ref}\t${alt}\t50\tPASS\tGENE=${gene};CSQ=${csq};AF=${af};ACMG=${acmg}\tGT\t${gt}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
