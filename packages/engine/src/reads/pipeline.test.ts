import { describe, expect, it } from 'vitest';
import { commandLine, parseBcftoolsStats, parseCoverage, parseFlagstatTsv, ploidyFileText, readsCommands, readsQc, sampleNameOf, toolErrorLine } from './pipeline.ts';

describe('ploidy of the calling step', () => {
  const contigs = [
    { name: 'chr1', length: 249250621 },
    { name: 'chrX', length: 155270560 },
    { name: 'chrY', length: 59373566 },
    { name: 'chrM', length: 16571 },
  ];

  it('makes chrM haploid for both sexes, chrX haploid outside the PARs and chrY haploid in males, chrY absent in females', () => {
    const lines = ploidyFileText(contigs, 'GRCh37').trimEnd().split('\n');
    expect(lines).toEqual([
      'chrX\t1\t60000\tM\t1',
      'chrX\t2699521\t154931043\tM\t1',
      'chrX\t155260561\t155270560\tM\t1',
      'chrY\t1\t59373566\tM\t1',
      'chrY\t1\t59373566\tF\t0',
      'chrM\t1\t16571\tM\t1',
      'chrM\t1\t16571\tF\t1',
      '*\t*\t*\tM\t2',
      '*\t*\t*\tF\t2',
    ]);
  });

  it('uses the GRCh38 PARs and the contig names of the reference', () => {
    const text = ploidyFileText([{ name: 'X', length: 156040895 }], 'GRCh38');
    expect(text).toContain('X\t1\t10000\tM\t1\n');
    expect(text).toContain('X\t2781480\t155701382\tM\t1\n');
    expect(text).toContain('X\t156030896\t156040895\tM\t1\n');
  });
});

describe('pipeline commands', () => {
  it('aligns with a read group, interleaved pairs with -p, and calls with the ploidy and samples files', () => {
    const c = readsCommands({ reference: '/ref/r.fa', work: '/w', threads: 4, sample: 'P1', readGroup: 'P1.ab', paired: true });
    const bwa = c.alignment[0]![0]!;
    expect(bwa.args).toEqual(['mem', '-t', '4', '-R', '@RG\\tID:P1.ab\\tSM:P1\\tLB:P1\\tPL:ILLUMINA', '-p', '/ref/r.fa', '-']);
    expect(commandLine(c.calling[0]!)).toMatch(/^bcftools mpileup .* \| bcftools call -m -v --ploidy-file \/w\/ploidy\.txt -S \/w\/samples\.txt -Ou \| bcftools norm --threads 4 -m- -f \/ref\/r\.fa -Oz -o \/w\/calls\.vcf\.gz$/);
    const single = readsCommands({ reference: '/r.fa', work: '/w', threads: 1, sample: 's', readGroup: 'g', paired: false });
    expect(single.alignment[0]![0]!.args).not.toContain('-p');
  });

  it('calls per contig when the reference has several, then concatenates the parts in reference order', () => {
    const contigs = [
      { name: 'chrM', length: 16571 },
      { name: 'demo20', length: 5000 },
      { name: 'HLA-A*01:01:01:01', length: 3503 },
    ];
    const c = readsCommands({ reference: '/ref/r.fa', work: '/w', threads: 2, sample: 'P1', readGroup: 'g', paired: true, contigs });
    expect(c.callingParts).toHaveLength(3);
    expect(c.callingParts.map((p) => p[0]!.args.slice(1, 3))).toEqual([['-r', 'chrM'], ['-r', 'demo20'], ['-r', '{HLA-A*01:01:01:01}']]);
    expect(commandLine(c.callingParts[1]!)).toMatch(/\| bcftools norm -m- -f \/ref\/r\.fa -Ob -o \/w\/calls\.part00001\.bcf$/);
    expect(c.calling[0]![0]!.args).toEqual(['concat', '--threads', '2', '-Oz', '-o', '/w/calls.vcf.gz', '/w/calls.part00000.bcf', '/w/calls.part00001.bcf', '/w/calls.part00002.bcf']);
    expect(c.calling[1]![0]!.args).toEqual(['index', '-t', '/w/calls.vcf.gz']);
    // One contig: one pipe over the whole BAM, no parts.
    const one = readsCommands({ reference: '/ref/r.fa', work: '/w', threads: 2, sample: 'P1', readGroup: 'g', paired: true, contigs: contigs.slice(0, 1) });
    expect(one.callingParts).toEqual([]);
    expect(one.calling[0]!.map((x) => x.args[0])).toEqual(['mpileup', 'call', 'norm']);
  });

  it('makes a safe sample name from the case label', () => {
    expect(sampleNameOf('Case 12 / Anna')).toBe('Case_12_Anna');
    expect(sampleNameOf('  ')).toBe('sample');
  });
});

describe('QC from the tools reports', () => {
  const flagstat = '1000\t0\tprimary\n950\t0\tprimary mapped\n100\t0\tprimary duplicates\n';
  const coverage = '#rname\tstartpos\tendpos\tnumreads\tcovbases\tcoverage\tmeandepth\tmeanbaseq\tmeanmapq\nchrM\t1\t1000\t50\t500\t50\t10\t38\t60\nchr2\t1\t1000\t0\t0\t0\t0\t0\t0\n';
  const stats = 'SN\t0\tnumber of SNPs:\t7\nTSTV\t0\t5\t2\t2.50\t5\t2\t2.50\n';

  it('computes mapped and duplicate rates, mean depth over covered bases and Ti/Tv', () => {
    const qc = readsQc(parseFlagstatTsv(flagstat), parseCoverage(coverage), parseBcftoolsStats(stats));
    expect(qc).toMatchObject({ reads: 1000, mappedRate: 0.95, duplicateRate: 0.1, coveredBases: 500, meanDepth: 20, snvs: 7, tiTv: 2.5 });
  });

  it('gives no Ti/Tv without transversions', () => {
    expect(readsQc(parseFlagstatTsv(flagstat), parseCoverage(coverage), parseBcftoolsStats('TSTV\t0\t3\t0\t0\t3\t0\t0\n')).tiTv).toBeNull();
  });
});

describe('tool error line', () => {
  it('picks the last line that says what failed', () => {
    expect(toolErrorLine('[M::bwa_idx_load] loading\n[E::bwa_idx_load_from_disk] fail to locate the index files\n')).toBe('[E::bwa_idx_load_from_disk] fail to locate the index files');
    expect(toolErrorLine('just this\n')).toBe('just this');
    expect(toolErrorLine('')).toBeNull();
  });
});
