/**
 * Upload content checks: the file type is decided from the bytes, never from the name or the
 * client's Content-Type. Genome files must be VCF or FASTQ, plain or gzip/BGZF compressed;
 * additional files must be a recognised image, document or plain-text report.
 */
import { gunzipSync, constants as zlibConstants } from 'node:zlib';

export type Compression = 'none' | 'gzip' | 'bgzip';
export type GenomeFormat = 'vcf' | 'fastq';

export interface GenomeContent {
  role: 'genome';
  format: GenomeFormat;
  compression: Compression;
}

export type AttachmentFormat =
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'tiff'
  | 'dicom'
  | 'pdf'
  | 'office-openxml'
  | 'opendocument'
  | 'ole2'
  | 'text';

export interface AttachmentContent {
  role: 'attachment';
  format: AttachmentFormat;
  mediaType: string;
}

/** A file whose bytes do not match what its role allows; `message` names the problem. */
export class ContentRejectedError extends Error {
  constructor(
    readonly fileName: string,
    readonly reason: string,
  ) {
    super(`${fileName}: ${reason}`);
    this.name = 'ContentRejectedError';
  }
}

/** How many leading bytes the sniffers look at (more is fine, fewer only at end of file). */
export const SNIFF_BYTES = 64 * 1024;

const GZIP_MAGIC = [0x1f, 0x8b] as const;

function startsWith(buf: Uint8Array, bytes: readonly number[], offset = 0): boolean {
  if (buf.length < offset + bytes.length) return false;
  return bytes.every((b, i) => buf[offset + i] === b);
}

function isGzip(buf: Uint8Array): boolean {
  return startsWith(buf, GZIP_MAGIC) && buf[2] === 8;
}

/** BGZF = gzip member with FEXTRA whose first subfield is 'BC' (SAM spec §4.1). */
function isBgzf(buf: Uint8Array): boolean {
  if (!isGzip(buf) || buf.length < 18) return false;
  const flg = buf[3] ?? 0;
  if ((flg & 4) === 0) return false;
  return buf[12] === 0x42 && buf[13] === 0x43;
}

/** Inflates as much of a (possibly truncated) gzip prefix as possible. */
function inflatePrefix(buf: Uint8Array, fileName: string): Buffer {
  try {
    return gunzipSync(buf, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch (e) {
    throw new ContentRejectedError(
      fileName,
      `the file starts like gzip but could not be decompressed (${(e as Error).message})`,
    );
  }
}

function firstLines(text: string, count: number): string[] {
  const lines = text.split('\n', count + 1).map((l) => l.replace(/\r$/, ''));
  return lines.slice(0, count);
}

const FASTQ_SEQ = /^[ACGTNacgtn.]+$/;

function detectText(text: string): GenomeFormat | null {
  const t = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (t.startsWith('##fileformat=VCF')) return 'vcf';
  if (t.startsWith('@')) {
    const [name, seq, plus, qual] = firstLines(t, 4);
    if (name && seq && plus?.startsWith('+') && qual != null && FASTQ_SEQ.test(seq) && qual.length === seq.length) {
      return 'fastq';
    }
  }
  return null;
}

// C0 controls other than tab, DEL, and U+FFFD (bytes that are not UTF-8).
// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f\ufffd]/;

/** How the content starts, quoted only when it is text: never echo binary bytes into a message. */
function describeText(text: string): string {
  const line = (firstLines(text, 1)[0] ?? '').slice(0, 60);
  if (line.length === 0) return 'it is empty';
  if (NOT_TEXT.test(line)) return 'it starts with binary data, not text';
  return `it starts with "${line}"`;
}

/** Checks the first bytes (up to SNIFF_BYTES, or the whole file when shorter) of a genome upload. */
export function sniffGenome(sample: Uint8Array, fileName: string): GenomeContent {
  if (sample.length === 0) throw new ContentRejectedError(fileName, 'the file is empty');
  let compression: Compression = 'none';
  let text: string;
  if (isGzip(sample)) {
    compression = isBgzf(sample) ? 'bgzip' : 'gzip';
    text = inflatePrefix(sample, fileName).toString('utf8');
  } else {
    if (sample.includes(0)) {
      throw new ContentRejectedError(
        fileName,
        'not a VCF or FASTQ file: binary content that is neither plain text nor gzip/bgzip',
      );
    }
    text = Buffer.from(sample).toString('utf8');
  }
  const format = detectText(text);
  if (!format) {
    const inside = compression === 'none' ? '' : ` (inside the ${compression} data)`;
    throw new ContentRejectedError(
      fileName,
      `not a VCF or FASTQ file${inside}: a VCF must begin with "##fileformat=VCF" and a FASTQ with an "@" record of 4 lines; ${describeText(text)}`,
    );
  }
  return { role: 'genome', format, compression };
}

const OOXML_FIRST_ENTRIES = ['[Content_Types].xml', '_rels/.rels', 'docProps/', 'word/', 'xl/', 'ppt/'];

/** Checks the first bytes of an additional file (image, report, document). */
export function sniffAttachment(sample: Uint8Array, fileName: string): AttachmentContent {
  const a = (format: AttachmentFormat, mediaType: string): AttachmentContent => ({
    role: 'attachment',
    format,
    mediaType,
  });
  if (sample.length === 0) throw new ContentRejectedError(fileName, 'the file is empty');
  if (startsWith(sample, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return a('png', 'image/png');
  if (startsWith(sample, [0xff, 0xd8, 0xff])) return a('jpeg', 'image/jpeg');
  const head = Buffer.from(sample.subarray(0, 16)).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return a('gif', 'image/gif');
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return a('webp', 'image/webp');
  if (startsWith(sample, [0x49, 0x49, 0x2a, 0x00]) || startsWith(sample, [0x4d, 0x4d, 0x00, 0x2a])) {
    return a('tiff', 'image/tiff');
  }
  if (Buffer.from(sample.subarray(128, 132)).toString('latin1') === 'DICM') return a('dicom', 'application/dicom');
  if (head.startsWith('%PDF-')) return a('pdf', 'application/pdf');
  if (startsWith(sample, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return a('ole2', 'application/x-ole-storage');
  }
  if (startsWith(sample, [0x50, 0x4b, 0x03, 0x04]) && sample.length >= 30) {
    const view = Buffer.from(sample);
    const nameLen = view.readUInt16LE(26);
    const name = view.subarray(30, 30 + nameLen).toString('latin1');
    if (name === 'mimetype') {
      const mime = view.subarray(30 + nameLen + view.readUInt16LE(28)).toString('latin1', 0, 60);
      if (mime.startsWith('application/vnd.oasis.opendocument')) {
        return a('opendocument', mime.replace(/[^a-z0-9./+-].*$/i, ''));
      }
    }
    if (OOXML_FIRST_ENTRIES.some((p) => name.startsWith(p))) {
      return a('office-openxml', 'application/vnd.openxmlformats-officedocument');
    }
    throw new ContentRejectedError(fileName, 'a ZIP archive that is not an Office or OpenDocument document');
  }
  if (!sample.includes(0)) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(sample);
    // U+FFFD marks bytes that are not UTF-8; allow one at the very end (a cut multi-byte char).
    const bad = text.slice(0, -1).includes('\uFFFD');
    if (!bad) return a('text', 'text/plain; charset=utf-8');
  }
  throw new ContentRejectedError(
    fileName,
    'unsupported file type: additional files must be images (PNG, JPEG, GIF, WebP, TIFF, DICOM), PDF, Office/OpenDocument documents or plain text',
  );
}
