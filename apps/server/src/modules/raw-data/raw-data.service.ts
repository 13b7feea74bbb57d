/**
 * The raw data analysis of a FASTQ case: what it produced (QC, reference, tools, command lines),
 * the aligned reads for the genome browser (owner and shared users, ranged reads) and the
 * downloads of the BAM, the called VCF and their indexes (owner only, like the genome original).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ErrorCode, type RawDataFileName, type RawDataInfo } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import type { ReadAlignmentRow } from '../../db/schema/read-alignments.ts';
import { AppError } from '../../errors.ts';
import type { ObjectStorage } from '../../storage/object-storage.ts';
import type { CaseAccess, Caller } from '../cases/cases.service.ts';
import type { ReportRawData } from '../reports/index.ts';
import { presentRawData } from './raw-data.presenter.ts';
import * as repo from './raw-data.repository.ts';

export interface RawDataServiceDeps {
  database: Database;
  storage: ObjectStorage;
  access: CaseAccess;
  /**
   * The indexed reference FASTA this server holds (the one the worker aligns to, when it shares
   * the data directory) and its label; null when it has not been built here.
   */
  reference?: () => Promise<{ fasta: string; fai: string; label: string } | null>;
}

/** The reference sequence files served to the genome browser. */
export type ReferenceFileName = 'reference.fa' | 'reference.fa.fai';

/** A byte range asked for with `Range: bytes=start-end` (end inclusive, optional). */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface RawDataFile {
  name: RawDataFileName | ReferenceFileName;
  mediaType: string;
  /** Size of the whole object. */
  size: number;
  /** The range served (inclusive), or null for the whole file. */
  range: { start: number; end: number } | null;
  stream: Readable;
}

const MEDIA: Record<RawDataFileName, string> = {
  'alignments.bam': 'application/octet-stream',
  'alignments.bam.bai': 'application/octet-stream',
  'calls.vcf.gz': 'application/gzip',
  'calls.vcf.gz.tbi': 'application/octet-stream',
};

function keyOf(row: ReadAlignmentRow, name: RawDataFileName): string {
  switch (name) {
    case 'alignments.bam':
      return row.bamKey;
    case 'alignments.bam.bai':
      return row.baiKey;
    case 'calls.vcf.gz':
      return row.vcfKey;
    case 'calls.vcf.gz.tbi':
      return row.tbiKey;
  }
}

export class RangeNotSatisfiableError extends AppError {
  constructor(readonly size: number) {
    super(416, ErrorCode.validationFailed, `The range asked for is outside the file (${size} bytes)`, undefined, { 'content-range': `bytes */${size}` });
    this.name = 'RangeNotSatisfiableError';
  }
}

export function createRawDataService(deps: RawDataServiceDeps) {
  const db = deps.database.db;

  async function rowOf(user: Caller, id: string): Promise<{ row: ReadAlignmentRow; isOwner: boolean }> {
    const { caseRow, isOwner } = await deps.access.check(user, id, 'read');
    const row = caseRow.currentRunId ? await repo.findByRun(db, caseRow.currentRunId) : null;
    if (!row) {
      const why =
        caseRow.genomeFormat !== 'fastq'
          ? 'this case was analysed from a VCF: it has no aligned reads'
          : 'the raw data analysis of this case has not completed';
      throw new AppError(404, ErrorCode.notFound, `No raw data analysis: ${why}`);
    }
    return { row, isOwner };
  }

  async function open(row: ReadAlignmentRow, name: RawDataFileName, rangeHeader: string | undefined): Promise<RawDataFile> {
    const key = keyOf(row, name);
    const size = await deps.storage.size(key);
    const range = parseRange(rangeHeader, size);
    if (range === null) return { name, mediaType: MEDIA[name], size, range: null, stream: await deps.storage.get(key) };
    const end = Math.min(range.end ?? size - 1, size - 1);
    if (range.start >= size || range.start > end) throw new RangeNotSatisfiableError(size);
    return { name, mediaType: MEDIA[name], size, range: { start: range.start, end }, stream: await deps.storage.get(key, { start: range.start, end }) };
  }

  /** The reference this server holds, when it is the one the run's reads were aligned to. */
  async function referenceOf(row: ReadAlignmentRow) {
    const ref = deps.reference ? await deps.reference().catch(() => null) : null;
    return ref && ref.label === row.reference.label ? ref : null;
  }

  async function openLocal(file: string, name: ReferenceFileName, rangeHeader: string | undefined): Promise<RawDataFile> {
    const size = (await stat(file)).size;
    const mediaType = 'text/plain; charset=utf-8';
    const range = parseRange(rangeHeader, size);
    if (range === null) return { name, mediaType, size, range: null, stream: createReadStream(file) };
    const end = Math.min(range.end ?? size - 1, size - 1);
    if (range.start >= size || range.start > end) throw new RangeNotSatisfiableError(size);
    return { name, mediaType, size, range: { start: range.start, end }, stream: createReadStream(file, { start: range.start, end }) };
  }

  return {
    /** What the report's method section says of a run's raw data analysis (null: none). */
    async forReport(runId: string): Promise<ReportRawData | null> {
      const row = await repo.findByRun(db, runId);
      if (!row) return null;
      const p = presentRawData(row);
      return {
        reference: p.reference.label,
        demoReference: p.reference.demo,
        layout: p.layout,
        tools: p.tools,
        commands: p.commands,
        qc: { reads: p.qc.reads, mappedRate: p.qc.mappedRate, duplicateRate: p.qc.duplicateRate, meanDepth: p.qc.meanDepth, tiTv: p.qc.tiTv },
      };
    },

    async info(user: Caller, id: string): Promise<RawDataInfo> {
      const { row } = await rowOf(user, id);
      return presentRawData(row, (await referenceOf(row)) !== null);
    },

    /**
     * The reference sequence (FASTA + .fai, ranged reads) for the genome browser: everyone who may
     * read the case, when this server holds the reference the reads were aligned to.
     */
    async referenceFile(user: Caller, id: string, name: ReferenceFileName, rangeHeader: string | undefined): Promise<RawDataFile> {
      const { row } = await rowOf(user, id);
      const ref = await referenceOf(row);
      if (!ref) throw new AppError(404, ErrorCode.notFound, `The reference sequence (${row.reference.label}) is not held by this server`);
      return openLocal(name === 'reference.fa' ? ref.fasta : ref.fai, name, rangeHeader);
    },

    /** The genome browser's alignments track (BAM or its index): everyone who may read the case. */
    async track(user: Caller, id: string, name: 'alignments.bam' | 'alignments.bam.bai', rangeHeader: string | undefined): Promise<RawDataFile> {
      const { row } = await rowOf(user, id);
      return open(row, name, rangeHeader);
    },

    /** A download of an output file: the owner only (a shared user sees results, never raw data). */
    async download(user: Caller, id: string, name: RawDataFileName): Promise<RawDataFile> {
      const { row, isOwner } = await rowOf(user, id);
      if (!isOwner) throw new AppError(403, ErrorCode.forbidden, 'Only the owner of the case can download its raw data files');
      return open(row, name, undefined);
    },
  };
}

export type RawDataService = ReturnType<typeof createRawDataService>;

/**
 * `Range: bytes=a-b` / `bytes=a-` / `bytes=-n` (one range) -> ByteRange; null = no usable header
 * (the whole file is served, as HTTP allows for a range it does not support).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null {
  if (header === undefined) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    // Suffix range: the last n bytes.
    const n = Number(m[2]);
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  return m[2] === '' ? { start: Number(m[1]) } : { start: Number(m[1]), end: Number(m[2]) };
}
