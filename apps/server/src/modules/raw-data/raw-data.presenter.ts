/** What the raw-data API returns of a run's raw data analysis (a whitelist, CONVENTIONS §2). */
import type { RawDataInfo } from '@rarelens/contract';
import type { ReadAlignmentRow } from '../../db/schema/read-alignments.ts';

const num = (v: number | null | undefined): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** `hasSequence`: this server holds the run's reference sequence (served to the genome browser). */
export function presentRawData(row: ReadAlignmentRow, hasSequence = false): RawDataInfo {
  const q = row.qc;
  return {
    layout: row.layout,
    reference: {
      label: row.reference.label,
      assembly: row.reference.assembly,
      demo: row.reference.demo,
      contigs: (row.reference.contigs ?? []).map((c) => ({ name: c.name, length: c.length })),
    },
    qc: {
      reads: num(q.reads),
      mappedReads: num(q.mappedReads),
      mappedRate: num(q.mappedRate),
      duplicateReads: num(q.duplicateReads),
      duplicateRate: num(q.duplicateRate),
      meanDepth: num(q.meanDepth),
      coveredBases: num(q.coveredBases),
      snvs: num(q.snvs),
      tiTv: typeof q.tiTv === 'number' ? q.tiTv : null,
    },
    tools: row.tools,
    commands: row.commands,
    files: [
      { name: 'alignments.bam', sizeBytes: row.bamBytes },
      { name: 'alignments.bam.bai', sizeBytes: null },
      { name: 'calls.vcf.gz', sizeBytes: row.vcfBytes },
      { name: 'calls.vcf.gz.tbi', sizeBytes: null },
    ],
    track: {
      bam: 'raw-data/alignments.bam',
      bai: 'raw-data/alignments.bam.bai',
      fasta: hasSequence ? 'raw-data/reference.fa' : null,
      fai: hasSequence ? 'raw-data/reference.fa.fai' : null,
    },
  };
}
