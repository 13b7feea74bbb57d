import '@testing-library/jest-dom/vitest';
import type { RawDataInfo } from '@rarelens/contract';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RawDataPanel } from './raw-data-panel.tsx';

const info = (demo: boolean): RawDataInfo => ({
  layout: 'single',
  reference: {
    label: demo ? 'Demo reference (hg19 chrM + 5 kb of chr20), not a genome' : 'hs37d5.fa (GRCh37)',
    assembly: 'GRCh37',
    demo,
    contigs: [{ name: 'chrM', length: 16571 }],
  },
  qc: {
    reads: 17486,
    mappedReads: 17477,
    mappedRate: 0.99949,
    duplicateReads: 16900,
    duplicateRate: 0.9665,
    meanDepth: 123.44,
    coveredBases: 300,
    snvs: 3,
    tiTv: null,
  },
  tools: { bwa: 'bwa 0.7.17-r1188', samtools: 'samtools 1.16.1' },
  commands: ['bwa mem -t 2 ...'],
  files: [
    { name: 'alignments.bam', sizeBytes: 2_500_000 },
    { name: 'calls.vcf.gz', sizeBytes: 900 },
  ],
  track: {
    bam: 'raw-data/alignments.bam',
    bai: 'raw-data/alignments.bam.bai',
    fasta: null,
    fai: null,
  },
});

afterEach(cleanup);

describe('RawDataPanel', () => {
  it('labels the demo reference so nobody takes it for a genome, and shows the QC figures', () => {
    render(<RawDataPanel info={info(true)} productId="p1" isOwner />);
    expect(screen.getByTestId('demo-reference')).toHaveTextContent('Demo reference');
    expect(screen.getByText(/not to a genome/)).toBeInTheDocument();
    const qc = within(screen.getByTestId('raw-data-qc'));
    expect(qc.getByText('17,486')).toBeInTheDocument();
    expect(qc.getByText('99.9 %')).toBeInTheDocument();
    expect(qc.getByText('96.7 %')).toBeInTheDocument();
    expect(qc.getByText('123.4×')).toBeInTheDocument();
    expect(qc.getByText('–')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'alignments.bam' })).toHaveAttribute(
      'href',
      '/api/products/p1/raw-data/files/alignments.bam',
    );
  });

  it('has no demo label on a configured reference, and no downloads for a shared user', () => {
    render(<RawDataPanel info={info(false)} productId="p1" isOwner={false} />);
    expect(screen.queryByTestId('demo-reference')).toBeNull();
    expect(screen.getByTestId('raw-data-reference')).toHaveTextContent(
      'aligned to hs37d5.fa (GRCh37)',
    );
    expect(screen.queryByRole('link')).toBeNull();
  });
});
